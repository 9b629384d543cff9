import { randomUUID } from 'node:crypto';
import type { InboundSms, OutgoingSms, Receipt, SmsGateway, SubmitResult } from './sms-gateway';

/** Where the simulator keeps what it sent, so its idempotency survives a restart. */
export type SimulatorLedger = {
  /** Records the messages not seen before; returns the gateway id of every one (old or new) and which are new. */
  record(batch: Array<OutgoingSms & { gatewayId: string }>): Promise<Array<{ clientRef: string; gatewayId: string; isNew: boolean }>>;
};

export type SimulatorOptions = {
  /** Milliseconds before the receipt of a message arrives. */
  latencyMs: number;
  /** Share of messages whose receipt says failed, 0..1. */
  failureRate: number;
  random?: () => number;
  /** Persistent record (the database in the service); in memory when absent. */
  ledger?: SimulatorLedger;
};

/**
 * The default gateway: accepts every message, answers receipts after `latencyMs`, and is
 * idempotent on the client reference — a message submitted twice is sent (and counted) once.
 */
export function createSimulatorGateway(options: SimulatorOptions): SmsGateway & { sent: ReadonlyMap<string, OutgoingSms & { gatewayId: string }> } {
  const random = options.random ?? Math.random;
  const sent = new Map<string, OutgoingSms & { gatewayId: string }>();
  const receiptListeners: Array<(receipt: Receipt) => void> = [];
  const inboundListeners: Array<(message: InboundSms) => void> = [];
  const timers = new Set<NodeJS.Timeout>();

  const receipt = (gatewayId: string) => {
    const failed = random() < options.failureRate;
    const emit = () => {
      const value: Receipt = { gatewayId, status: failed ? 'failed' : 'delivered', reason: failed ? 'Undeliverable' : null, at: new Date() };
      for (const listener of receiptListeners) listener(value);
    };
    const timer = setTimeout(() => {
      timers.delete(timer);
      emit();
    }, options.latencyMs);
    timers.add(timer);
  };

  return {
    sent,
    async submit(batch: OutgoingSms[]): Promise<SubmitResult[]> {
      const fresh = batch.filter((message) => !sent.has(message.clientRef)).map((message) => ({ ...message, gatewayId: `sim-${randomUUID()}` }));
      const recorded = options.ledger ? await options.ledger.record(fresh) : fresh.map((m) => ({ clientRef: m.clientRef, gatewayId: m.gatewayId, isNew: true }));
      const byRef = new Map(recorded.map((entry) => [entry.clientRef, entry]));
      for (const message of fresh) {
        const entry = byRef.get(message.clientRef)!;
        sent.set(message.clientRef, { ...message, gatewayId: entry.gatewayId });
        if (entry.isNew) receipt(entry.gatewayId);
      }
      return batch.map((message) => ({ clientRef: message.clientRef, gatewayId: sent.get(message.clientRef)!.gatewayId }));
    },
    onReceipt: (listener) => void receiptListeners.push(listener),
    onInbound: (listener) => void inboundListeners.push(listener),
    async close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}

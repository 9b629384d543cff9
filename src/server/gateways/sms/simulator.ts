import { randomUUID } from 'node:crypto';
import type { InboundSms, OutgoingSms, Receipt, SmsGateway, SubmitResult } from './sms-gateway';

export type SimulatorOptions = {
  /** Milliseconds before the receipt of a message arrives. */
  latencyMs: number;
  /** Share of messages whose receipt says failed, 0..1. */
  failureRate: number;
  random?: () => number;
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
      return batch.map((message) => {
        const known = sent.get(message.clientRef);
        if (known) return { clientRef: message.clientRef, gatewayId: known.gatewayId };
        const gatewayId = `sim-${randomUUID()}`;
        sent.set(message.clientRef, { ...message, gatewayId });
        receipt(gatewayId);
        return { clientRef: message.clientRef, gatewayId };
      });
    },
    onReceipt: (listener) => void receiptListeners.push(listener),
    onInbound: (listener) => void inboundListeners.push(listener),
    async close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}

import { randomBytes } from 'node:crypto';
import type { InboundSms, OutgoingSms, Receipt, SmsGateway, SubmitResult } from './sms-gateway';

/** Where the simulator keeps what it sent, so its idempotency survives a restart. */
export type SimulatorLedger = {
  /** Records the messages not seen before; returns the gateway id of every one (old or new) and which are new. */
  record(batch: Array<OutgoingSms & { gatewayId: string }>): Promise<Array<{ clientRef: string; gatewayId: string; isNew: boolean }>>;
  /** The gateway ids of those of these client references it has recorded. */
  recall(clientRefs: string[]): Promise<Array<{ clientRef: string; gatewayId: string }>>;
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
  // Ids that grow with time (then a per-process prefix and a counter) land at the end of the
  // gateway-id index rather than on a random page of it.
  const prefix = randomBytes(4).toString('hex');
  let counter = 0;
  const newGatewayId = () => `sim-${Date.now().toString(36).padStart(9, '0')}-${prefix}-${(counter++).toString(36)}`;

  // One timer per submitted batch: its receipts come together after `latencyMs`.
  const receipts = (gatewayIds: string[]) => {
    if (gatewayIds.length === 0) return;
    const outcomes = gatewayIds.map((gatewayId) => ({ gatewayId, failed: random() < options.failureRate }));
    const timer = setTimeout(() => {
      timers.delete(timer);
      const at = new Date();
      for (const { gatewayId, failed } of outcomes) {
        const value: Receipt = { gatewayId, status: failed ? 'failed' : 'delivered', reason: failed ? 'Undeliverable' : null, at };
        // A refused receipt is dropped here (a stored one changes nothing when sent again); never left unhandled.
        for (const listener of receiptListeners) void Promise.resolve(listener(value)).catch(() => undefined);
      }
    }, options.latencyMs);
    timers.add(timer);
  };

  return {
    sent,
    idempotent: true,
    async submit(batch: OutgoingSms[], submitOptions?: { signal?: AbortSignal }): Promise<SubmitResult[]> {
      if (submitOptions?.signal?.aborted) return batch.map((message) => ({ clientRef: message.clientRef, notSent: true }));
      const fresh = batch.filter((message) => !sent.has(message.clientRef)).map((message) => ({ ...message, gatewayId: newGatewayId() }));
      const recorded = options.ledger ? await options.ledger.record(fresh) : fresh.map((m) => ({ clientRef: m.clientRef, gatewayId: m.gatewayId, isNew: true }));
      const byRef = new Map(recorded.map((entry) => [entry.clientRef, entry]));
      const isNew: string[] = [];
      for (const message of fresh) {
        const entry = byRef.get(message.clientRef)!;
        sent.set(message.clientRef, { ...message, gatewayId: entry.gatewayId });
        if (entry.isNew) isNew.push(entry.gatewayId);
      }
      receipts(isNew);
      return batch.map((message) => ({ clientRef: message.clientRef, gatewayId: sent.get(message.clientRef)!.gatewayId }));
    },
    /**
     * What it took of these, from its record (which outlives a crash of the process that handed them
     * over). Their receipts are sent again, as an SMSC redelivers what was never acknowledged: the
     * process that would have stored them may have died first; a receipt stored twice changes nothing.
     */
    async recall(clientRefs: string[]) {
      const known = options.ledger
        ? await options.ledger.recall(clientRefs)
        : clientRefs.flatMap((clientRef) => {
            const message = sent.get(clientRef);
            return message ? [{ clientRef, gatewayId: message.gatewayId }] : [];
          });
      receipts(known.map((entry) => entry.gatewayId));
      return known;
    },
    onReceipt: (listener) => void receiptListeners.push(listener),
    onInbound: (listener) => void inboundListeners.push(listener),
    async close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}

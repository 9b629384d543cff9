import type { OutgoingSms, SmsGateway, SubmitResult } from '../gateways/sms/sms-gateway';

/** What a carrier received, counted as it arrived: every hand-over, even of a message it had seen. */
export class GatewayLedger {
  /** Hand-overs per client reference (a message's uuid). */
  readonly byClientRef = new Map<string, number>();
  /** Hand-overs per destination number. */
  readonly byNumber = new Map<string, number>();
  /** The bodies handed over to each destination number, in order. */
  readonly bodiesByNumber = new Map<string, string[]>();
  total = 0;

  record(message: OutgoingSms): void {
    this.byClientRef.set(message.clientRef, (this.byClientRef.get(message.clientRef) ?? 0) + 1);
    this.byNumber.set(message.to, (this.byNumber.get(message.to) ?? 0) + 1);
    this.bodiesByNumber.set(message.to, [...(this.bodiesByNumber.get(message.to) ?? []), message.body]);
    this.total++;
  }

  /** Client references handed over more than once. */
  duplicates(): string[] {
    return [...this.byClientRef].filter(([, count]) => count > 1).map(([ref]) => ref);
  }
}

/**
 * A gateway as a carrier sees it, for tests of the engine: counts every message handed over in a
 * ledger (shared by several engines when they share one carrier) before passing it to `inner`.
 * `delayMs` makes each hand-over slow (a carrier whose answers take that long); `idempotent: false`
 * makes a simulator pose as a carrier that can neither recognise a resubmission nor tell what it
 * took (no `taken`). A submission whose signal is already aborted hands over nothing (`notSent`).
 */
export function countingGateway(
  inner: SmsGateway,
  options: { ledger?: GatewayLedger; delayMs?: number; idempotent?: boolean } = {},
): SmsGateway & { ledger: GatewayLedger } {
  const ledger = options.ledger ?? new GatewayLedger();
  const idempotent = options.idempotent ?? inner.idempotent;
  return {
    ledger,
    batchLimit: inner.batchLimit,
    idempotent,
    ...(inner.taken && idempotent !== false ? { taken: (refs: string[]) => inner.taken!(refs) } : {}),
    async submit(batch, submitOptions): Promise<SubmitResult[]> {
      if (submitOptions?.signal?.aborted) return batch.map((message) => ({ clientRef: message.clientRef, notSent: true }));
      for (const message of batch) ledger.record(message);
      if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
      return inner.submit(batch);
    },
    onReceipts: (listener) => inner.onReceipts(listener),
    onInbound: (listener) => inner.onInbound(listener),
    close: () => inner.close(),
  };
}

import { randomBytes } from 'node:crypto';
import type { DurableListener, InboundSms, OutgoingSms, Receipt, SmsGateway, SubmitOptions, SubmitResult } from './sms-gateway';

/** Receipts recorded together (one submitted batch's), due at one time: `failed[i]` is `gatewayIds[i]`'s outcome. */
export type DueReceipts = { gatewayIds: string[]; failed: boolean[]; dueAt: Date };

/** What the ledger made of one offered message: taken (new, or seen before), or refused because a newer owner has recalled it. */
export type Recorded = { clientRef: string; gatewayId: string; isNew: boolean } | { clientRef: string; fencedOut: true };

/** Where the simulator keeps what it sent and the receipts it owes, so both survive a restart. */
export type SimulatorLedger = {
  /**
   * Records the messages not seen before and, with them (all or nothing), their receipts due at
   * `dueAt`; returns the gateway id of every one (old or new) and which are new. Under a `fence`,
   * a message recalled under a greater fence is refused (`fencedOut`): its newer owner decides.
   */
  record(batch: Array<OutgoingSms & { gatewayId: string; failed: boolean }>, dueAt: Date, fence?: string): Promise<Recorded[]>;
  /**
   * The gateway ids of those of these client references it has recorded. Under a `fence`, it first
   * waits for hand-overs already under way, and from then on refuses these references under a
   * smaller fence: what it answers stays true.
   */
  recall(clientRefs: string[], fence?: string): Promise<Array<{ clientRef: string; gatewayId: string }>>;
  /**
   * Hands some receipts due by `now` to `deliver` and forgets them once it resolves; if it rejects
   * they stay owed (delivered again at a later look). Returns how many groups it handed over.
   */
  deliverDue(now: Date, deliver: (due: DueReceipts[]) => Promise<void>): Promise<number>;
};

export type SimulatorOptions = {
  /** Milliseconds before the receipt of a message arrives. */
  latencyMs: number;
  /** Share of messages whose receipt says failed, 0..1. */
  failureRate: number;
  random?: () => number;
  /** Persistent record (the database in the service); in memory when absent. */
  ledger?: SimulatorLedger;
  /** How often it looks for receipts owed that no timer of its own will deliver (another process's, or refused before). Default 1 s. */
  pollMs?: number;
};

/**
 * The default gateway: accepts every message, answers receipts after `latencyMs`, and is
 * idempotent on the client reference — a message submitted twice is sent (and counted) once.
 *
 * Its receipts behave as an SMSC's: each is owed until a listener has stored it. One refused (the
 * database is away, the engine is stopping) or lost in a crash is delivered again, by this process
 * or, with a shared ledger, by any other one.
 *
 * It can tell what it took (`taken`), and orders hand-overs by their attempt token: once asked
 * under an attempt, it refuses those references to a hand-over under a smaller one (its fences,
 * simulator-ledger.ts), so its answer stays true.
 */
export function createSimulatorGateway(options: SimulatorOptions): SmsGateway & { sent: ReadonlyMap<string, OutgoingSms & { gatewayId: string }> } {
  const random = options.random ?? Math.random;
  const ledger = options.ledger ?? createMemoryLedger();
  /** What it took, for tests to look at; kept only without a ledger (a million sends would sit in memory). */
  const sent = new Map<string, OutgoingSms & { gatewayId: string }>();
  const keepSent = options.ledger === undefined;
  const receiptListeners: Array<DurableListener<Receipt[]>> = [];
  const inboundListeners: Array<DurableListener<InboundSms>> = [];
  const timers = new Set<NodeJS.Timeout>();
  let closed = false;
  // Ids that grow with time (then a per-process prefix and a counter) land at the end of the
  // gateway-id index rather than on a random page of it.
  const prefix = randomBytes(4).toString('hex');
  let counter = 0;
  const newGatewayId = () => `sim-${Date.now().toString(36).padStart(9, '0')}-${prefix}-${(counter++).toString(36)}`;

  /** Resolves once every listener has stored every receipt of these groups. */
  const deliver = async (due: DueReceipts[]): Promise<void> => {
    const stored: Array<Promise<void>> = [];
    for (const group of due) {
      const receipts = group.gatewayIds.map((gatewayId, i): Receipt => {
        const failed = group.failed[i] === true;
        return { gatewayId, status: failed ? 'failed' : 'delivered', reason: failed ? 'Undeliverable' : null, at: group.dueAt };
      });
      for (const listener of receiptListeners) stored.push(listener(receipts));
    }
    await Promise.all(stored);
  };

  let draining: Promise<void> | undefined;
  /** Delivers what is due until nothing is; a refusal leaves the rest for the next look. */
  const drain = (): Promise<void> =>
    (draining ??= (async () => {
      try {
        while (!closed && (await ledger.deliverDue(new Date(), deliver)) > 0);
      } catch {
        // Refused or unreachable: owed still, delivered again at the next look.
      } finally {
        draining = undefined;
      }
    })());

  const wakeIn = (ms: number) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      void drain();
    }, ms);
    timers.add(timer);
  };
  const poll = setInterval(() => void drain(), options.pollMs ?? 1000);
  poll.unref();

  return {
    sent,
    idempotent: true,
    async submit(batch: OutgoingSms[], submitOptions?: SubmitOptions): Promise<SubmitResult[]> {
      if (submitOptions?.signal?.aborted || closed) return batch.map((message) => ({ clientRef: message.clientRef, notSent: true }));
      // The ledger tells which it has seen before (and their first gateway id), and which a newer owner recalled: it alone decides.
      const offered = batch.map((message) => ({ ...message, gatewayId: newGatewayId(), failed: random() < options.failureRate }));
      // The hand-over's attempt token is the simulator's fence (simulator_fences).
      const recorded = await ledger.record(offered, new Date(Date.now() + options.latencyMs), submitOptions?.attempt);
      const byRef = new Map(recorded.map((entry) => [entry.clientRef, entry]));
      let anyNew = false;
      const results = batch.map((message): SubmitResult => {
        const entry = byRef.get(message.clientRef)!;
        if ('fencedOut' in entry) return { clientRef: message.clientRef, notSent: true };
        if (entry.isNew) {
          anyNew = true;
          if (keepSent) sent.set(message.clientRef, { ...message, gatewayId: entry.gatewayId });
        }
        return { clientRef: message.clientRef, gatewayId: entry.gatewayId };
      });
      if (anyNew) wakeIn(options.latencyMs);
      return results;
    },
    /**
     * What it took of these, from its record (which outlives a crash of the process that handed them
     * over): the simulator's recall, the attempt token its fence.
     */
    taken: (clientRefs: string[], attempt?: string) => ledger.recall(clientRefs, attempt),
    onReceipts: (listener) => void receiptListeners.push(listener),
    onInbound: (listener) => void inboundListeners.push(listener),
    async close() {
      closed = true;
      clearInterval(poll);
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await draining;
    },
  };
}

/** The ledger of a simulator without a database (tests): the same promises, for this process's life. */
export function createMemoryLedger(): SimulatorLedger {
  const taken = new Map<string, string>();
  const fences = new Map<string, bigint>();
  let owed: DueReceipts[] = [];
  return {
    async record(batch, dueAt, fence) {
      const fencedOut = (clientRef: string) => fence !== undefined && (fences.get(clientRef) ?? -1n) > BigInt(fence);
      const fresh = batch.filter((message) => !taken.has(message.clientRef) && !fencedOut(message.clientRef));
      for (const message of fresh) taken.set(message.clientRef, message.gatewayId);
      if (fresh.length > 0) owed.push({ gatewayIds: fresh.map((m) => m.gatewayId), failed: fresh.map((m) => m.failed), dueAt });
      const isNew = new Set(fresh.map((message) => message.clientRef));
      return batch.map((message) =>
        fencedOut(message.clientRef)
          ? { clientRef: message.clientRef, fencedOut: true as const }
          : { clientRef: message.clientRef, gatewayId: taken.get(message.clientRef)!, isNew: isNew.has(message.clientRef) },
      );
    },
    async recall(clientRefs, fence) {
      if (fence !== undefined) for (const clientRef of clientRefs) if ((fences.get(clientRef) ?? -1n) < BigInt(fence)) fences.set(clientRef, BigInt(fence));
      return clientRefs.flatMap((clientRef) => {
        const gatewayId = taken.get(clientRef);
        return gatewayId === undefined ? [] : [{ clientRef, gatewayId }];
      });
    },
    async deliverDue(now, deliverGroups) {
      const due = owed.filter((group) => group.dueAt <= now);
      if (due.length === 0) return 0;
      owed = owed.filter((group) => group.dueAt > now);
      try {
        await deliverGroups(due);
      } catch (error) {
        owed.push(...due);
        throw error;
      }
      return due.length;
    },
  };
}

import { randomBytes } from 'node:crypto';
import { render } from '../../shared/sms';
import { allowance } from '../../shared/schedule/throttle';
import type { OutgoingSms, SmsGateway } from '../gateways/sms/sms-gateway';
import type { Clock } from '../lib/time';
import type { ClaimedBatch, EngineStore, SendingCampaign } from './engine-store';
import { shortLinksFor } from './short-links';

export type EngineOptions = {
  /** How often the engine looks for work. */
  tickMs: number;
  /** Messages claimed and submitted together. */
  batchSize: number;
  /** Gateway-wide cap, messages a second, across all campaigns of this process. */
  rateLimitPerSecond: number;
  /** A claimed batch not submitted within this time is offered again (the claimer died). */
  leaseMs: number;
  /** Batches of one campaign in flight at once (claim, submit and settle overlap). */
  lanes?: number;
};

/**
 * The sending engine (ARCHITECTURE "A campaign's life"): each tick starts due campaigns, expires
 * late ones, sends what each sending campaign may send now, and finishes those with nothing left.
 * State lives in the database; the engine itself holds none between ticks.
 */
export function createEngine(deps: {
  store: EngineStore;
  gateway: SmsGateway;
  clock: Clock;
  options: EngineOptions;
  /** What short links on a link domain start with (null: the service's own, PUBLIC_URL/l). */
  urlBase: (domain: string | null) => string;
  log?: (message: string) => void;
}) {
  // Names this process on the batches it leases and the messages it submits.
  const owner = `engine-${randomBytes(6).toString('hex')}`;
  const { store, gateway, clock, options } = deps;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  // Receipts are written in batches: one statement for everything that came in since the last flush.
  let receipts: Array<{ gatewayId: string; status: 'delivered' | 'failed'; reason: string | null; at: Date }> = [];
  let flushing: Promise<void> = Promise.resolve();
  // Gateway ids submitted by this process whose submission is not recorded yet: their receipts wait
  // in memory for it (rather than going the long way through early_receipts).
  const unsettled = new Set<string>();
  const flushReceipts = () => {
    flushing = flushing.then(async () => {
      const batch = receipts.filter((receipt) => !unsettled.has(receipt.gatewayId));
      receipts = batch.length === receipts.length ? [] : receipts.filter((receipt) => unsettled.has(receipt.gatewayId));
      await store.markReceipts(batch).catch((error) => {
        receipts.push(...batch); // kept for the next flush
        deps.log?.(`receipts not recorded yet: ${error instanceof Error ? error.message : error}`);
      });
    });
    return flushing;
  };
  const receiptTimer = setInterval(() => void (receipts.length > 0 && flushReceipts()), 100);
  receiptTimer.unref();
  gateway.onReceipt((receipt) => {
    receipts.push({ gatewayId: receipt.gatewayId, status: receipt.status, reason: receipt.reason, at: clock.now() });
  });


  /** Hands messages to the gateway and sorts them by what became of each: accepted, refused, or not known (offered again). */
  async function submitAll<T extends { id: number; sms: OutgoingSms }>(items: T[]) {
    const results = items.length > 0 ? await gateway.submit(items.map((item) => item.sms)) : [];
    const byRef = new Map(results.map((result) => [result.clientRef, result]));
    const outcome = { submitted: [] as Array<T & { gatewayId: string }>, rejected: [] as Array<T & { reason: string }>, unknown: [] as T[] };
    for (const item of items) {
      const result = byRef.get(item.sms.clientRef);
      if (!result) outcome.unknown.push(item);
      else if ('gatewayId' in result) outcome.submitted.push({ ...item, gatewayId: result.gatewayId });
      else outcome.rejected.push({ ...item, reason: result.rejected });
    }
    return outcome;
  }

  /** Renders, submits and settles one claimed batch; false when the gateway left some unsettled. */
  async function submitBatch(campaign: SendingCampaign, claimed: ClaimedBatch): Promise<boolean> {
    const batch = claimed.messages;
    const links = await shortLinksFor(store, campaign, batch, deps.urlBase);
    const outgoing: OutgoingSms[] = batch.map((message) => ({
      clientRef: message.uuid,
      to: message.phoneNumber,
      from: campaign.sender,
      body: render(campaign.body, { fields: message.customFields, links: links.get(message.id) }),
    }));
    const outcome = await submitAll(outgoing.map((sms, index) => ({ sms, id: batch[index]!.id })));
    const submitted = outcome.submitted.map(({ id, sms, gatewayId }) => ({ id, body: sms.body, gatewayId }));
    const rejected = outcome.rejected.map(({ id, sms, reason }) => ({ id, body: sms.body, reason }));
    const complete = outcome.unknown.length === 0;
    for (const message of submitted) unsettled.add(message.gatewayId);
    try {
      await store.settle(claimed.batchId, { submitted, rejected, complete }, clock.now(), owner);
    } finally {
      for (const message of submitted) unsettled.delete(message.gatewayId);
    }
    return complete;
  }

  async function send(campaign: SendingCampaign, budget: number, now: Date): Promise<number> {
    let allowed = budget;
    if (campaign.throttled && campaign.scheduledFinishDate) {
      const at = now.getTime();
      const plan = {
        anchor: campaign.anchor.getTime(),
        now: at,
        until: at + options.tickMs,
        finish: campaign.scheduledFinishDate.getTime(),
        pauses: campaign.pauses,
        remaining: campaign.queued,
        sentSinceAnchor: campaign.sentSinceAnchor,
      };
      allowed = Math.min(allowed, allowance(plan));
    }
    // Several lanes claim, submit and settle batches side by side, so the database and the gateway
    // work at once; `reserved` keeps their sum within what the campaign may send this tick.
    let reserved = 0;
    let sent = 0;
    const lane = async () => {
      while (reserved < allowed) {
        const size = Math.min(options.batchSize, gateway.batchLimit ?? Infinity, allowed - reserved);
        reserved += size;
        const claimed = await store.claim(campaign.id, size, owner, clock.now(), options.leaseMs);
        if (!claimed) {
          reserved -= size;
          return;
        }
        reserved -= size - claimed.messages.length;
        sent += claimed.messages.length;
        if (!(await submitBatch(campaign, claimed))) return; // the gateway is in trouble: the rest waits for the next tick
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, options.lanes ?? 1) }, lane));
    return sent;
  }

  /** Keyword replies go first: someone is waiting for an answer. They share the rate budget. */
  async function sendReplies(budget: number, now: Date): Promise<number> {
    const replies = await store.claimReplies(Math.min(budget, options.batchSize, gateway.batchLimit ?? Infinity), now, options.leaseMs);
    if (replies.length === 0) return 0;
    const outcome = await submitAll(replies.map((reply) => ({ id: reply.id, sms: { clientRef: reply.uuid, to: reply.to, from: reply.from, body: reply.body } })));
    await store.settleReplies(
      {
        submitted: outcome.submitted.map(({ id, gatewayId }) => ({ id, gatewayId })),
        rejected: outcome.rejected.map(({ id, reason }) => ({ id, reason })),
        unknown: outcome.unknown.map(({ id }) => id),
      },
      now,
    );
    return replies.length;
  }

  async function tick(): Promise<void> {
    const now = clock.now();
    await store.startDue(now);
    await store.expire(now);
    // This tick's share of the gateway-wide cap, granted from the second's allowance all processes share.
    const wanted = Math.max(1, Math.floor((options.rateLimitPerSecond * options.tickMs) / 1000));
    let budget = await store.takeRateBudget(now, Math.min(wanted, await store.pendingWork()), options.rateLimitPerSecond);
    budget -= await sendReplies(budget, now);
    for (const campaign of await store.sending()) {
      if (budget <= 0) break;
      budget -= await send(campaign, budget, now);
    }
    await store.returnRateBudget(now, budget);
    await store.finishDone(now);
    await flushReceipts();
  }

  return {
    tick,
    start() {
      const loop = () => {
        running = tick()
          .catch((error) => deps.log?.(`engine tick failed: ${error instanceof Error ? error.message : error}`))
          .finally(() => {
            if (timer !== undefined) timer = setTimeout(loop, options.tickMs);
          });
      };
      timer = setTimeout(loop, 0);
    },
    /** Writes the receipts received so far (tests and shutdown). */
    flushReceipts,
    async stop() {
      if (timer) clearTimeout(timer);
      timer = undefined;
      await running;
      clearInterval(receiptTimer);
      await flushReceipts();
    },
  };
}
export type Engine = ReturnType<typeof createEngine>;

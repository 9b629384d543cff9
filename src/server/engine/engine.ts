import { randomUUID } from 'node:crypto';
import { render } from '../../shared/sms';
import { allowance } from '../../shared/schedule/throttle';
import type { OutgoingSms, SmsGateway } from '../gateways/sms/sms-gateway';
import type { Clock } from '../lib/time';
import type { EngineStore, SendingCampaign } from './engine-store';
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
  const owner = `engine-${randomUUID()}`;
  const { store, gateway, clock, options } = deps;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  // Receipts are written in batches: one statement for everything that came in since the last flush.
  let receipts: Array<{ gatewayId: string; status: 'delivered' | 'failed'; reason: string | null; at: Date }> = [];
  let flushing: Promise<void> = Promise.resolve();
  const flushReceipts = () => {
    flushing = flushing.then(async () => {
      const batch = receipts;
      receipts = [];
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
    let sent = 0;
    while (sent < allowed) {
      const batch = await store.claim(campaign.id, Math.min(options.batchSize, allowed - sent), owner, now, options.leaseMs);
      if (batch.length === 0) break;
      const links = await shortLinksFor(store, campaign, batch, deps.urlBase);
      const outgoing: OutgoingSms[] = batch.map((message) => ({
        clientRef: message.uuid,
        to: message.phoneNumber,
        from: campaign.sender,
        body: render(campaign.body, { fields: message.customFields, links: links.get(message.id) }),
      }));
      const results = await gateway.submit(outgoing);
      const byRef = new Map(results.map((result) => [result.clientRef, result.gatewayId]));
      await store.markSubmitted(
        batch.flatMap((message, index) => {
          const gatewayId = byRef.get(message.uuid);
          return gatewayId ? [{ id: message.id, body: outgoing[index]!.body, gatewayId }] : [];
        }),
        now,
        owner,
      );
      sent += batch.length;
    }
    return sent;
  }

  /** Keyword replies go first: someone is waiting for an answer. They share the rate budget. */
  async function sendReplies(budget: number, now: Date): Promise<number> {
    const replies = await store.claimReplies(Math.min(budget, options.batchSize), now, options.leaseMs);
    if (replies.length === 0) return 0;
    await gateway.submit(replies.map((reply) => ({ clientRef: reply.uuid, to: reply.to, from: reply.from, body: reply.body })));
    await store.markRepliesSubmitted(
      replies.map((reply) => reply.id),
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

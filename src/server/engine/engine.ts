import { randomBytes } from 'node:crypto';
import { parseShorthands, renderTokens } from '../../shared/sms';
import { allowance, mergeWindows } from '../../shared/schedule/throttle';
import { quietPeriods } from '../../shared/schedule/quiet-hours';
import type { OutgoingSms, Receipt, SmsGateway } from '../gateways/sms/sms-gateway';
import type { Clock } from '../lib/time';
import type { BatchOutcome, ClaimedBatch, ClaimedMessage, EngineStore, InDoubtPolicy, QueuedReply, SendingCampaign, VariantContent } from './engine-store';
import { holdLease } from './lease-holder';
import { createReceiptQueue } from './receipt-queue';
import { shortLinksFor } from './short-links';

/** A gateway and the in-doubt policy its messages follow. */
type Route = { gateway: SmsGateway; inDoubt: InDoubtPolicy };

export type EngineOptions = {
  /** How often the engine looks for work. */
  tickMs: number;
  /** Messages claimed and submitted together. */
  batchSize: number;
  /** Gateway-wide cap, messages a second, across all campaigns of this process. */
  rateLimitPerSecond: number;
  /** How long a claim holds without renewal; the owner renews it every third of this while it submits. */
  leaseMs: number;
  /** Batches of one campaign in flight at once (claim, submit and settle overlap). */
  lanes?: number;
  /** What to do with a message whose submission is in doubt, for a gateway that is not idempotent. Default `fail`. */
  inDoubt?: InDoubtPolicy;
  /** How long an owner keeps trying to record a batch's outcome (the database is away) before leaving it in doubt. Default 10 minutes. */
  settleRetryMs?: number;
};

/**
 * The sending engine (docs/engine.md): each tick starts due campaigns, expires late ones, sends what
 * each sending campaign may send now, and finishes those with nothing left. State lives in the
 * database; the engine holds none between ticks except batches it is handing over right now.
 */
export function createEngine(deps: {
  store: EngineStore;
  gateway: SmsGateway;
  clock: Clock;
  options: EngineOptions;
  /** What short links on a link domain start with (null: the service's own, PUBLIC_URL/l). */
  urlBase: (domain: string | null) => string;
  log?: (message: string) => void;
  /** Told of the campaigns a step started, finished or cut short at their expiry (their log lines); never throws. */
  lifecycle?: (event: 'started' | 'finished' | 'expired', campaignIds: number[]) => Promise<void>;
  /**
   * A team's own SMS connections (issue 34): the gateway its routes make (the router), or null for a
   * team without connections, which sends through `gateway` (SMS_GATEWAY). The router's messages in
   * doubt are failed (`fail`): it offers one again itself when SMS_IN_DOUBT is `resend`.
   */
  routing?: { gatewayFor(teamId: number): Promise<SmsGateway | null> };
}) {
  // Names this process on the batches it leases and the messages it submits.
  const owner = `engine-${randomBytes(6).toString('hex')}`;
  const { store, gateway, clock, options } = deps;
  // A gateway that can tell what it took is asked; an idempotent one sends a resubmitted message
  // once, so offering it again is safe; otherwise the configured policy (SMS_IN_DOUBT).
  const inDoubt: InDoubtPolicy = gateway.taken ? 'ask' : gateway.idempotent ? 'resend' : (options.inDoubt ?? 'fail');
  const installation: Route = { gateway, inDoubt };
  /** Where a team's messages go, and the in-doubt policy that goes with it. */
  async function routeOf(teamId: number): Promise<Route> {
    const routed = await deps.routing?.gatewayFor(teamId);
    return routed ? { gateway: routed, inDoubt: 'fail' } : installation;
  }
  const settleRetryMs = options.settleRetryMs ?? 600_000;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopping = false;

  // Receipts are acknowledged to the gateway only once stored (their promise resolves then).
  const receipts = createReceiptQueue({ store, log: deps.log });
  gateway.onReceipts((group: Receipt[]) => {
    const at = clock.now();
    return receipts.add(group.map((receipt) => ({ ...receipt, at })));
  });

  /** Asks a gateway that can tell which of `items` it took: those are submitted, the rest was never sent (and, under `attempt`, never will be by an older owner where the gateway orders hand-overs by it). */
  async function ask<T extends { id: number; sms: OutgoingSms }>(gateway: SmsGateway, items: T[], attempt?: string) {
    const taken = new Map(
      (
        await gateway.taken!(
          items.map((item) => item.sms.clientRef),
          attempt,
        )
      ).map((entry) => [entry.clientRef, entry.gatewayId]),
    );
    const submitted: Array<T & { gatewayId: string }> = [];
    const notSent: T[] = [];
    for (const item of items) {
      const gatewayId = taken.get(item.sms.clientRef);
      if (gatewayId === undefined) notSent.push(item);
      else submitted.push({ ...item, gatewayId });
    }
    return { submitted, notSent };
  }

  /**
   * Hands messages to the gateway and sorts them by what became of each. Those the hand-over leaves
   * in doubt are asked about from a gateway that can tell: what it took is submitted, the rest was
   * never sent.
   */
  async function submitAll<T extends { id: number; sms: OutgoingSms }>(gateway: SmsGateway, toSend: T[], lease?: { signal: AbortSignal; attempt: string }) {
    const signal = lease?.signal;
    const attempt = lease?.attempt;
    const outcome = {
      submitted: [] as Array<T & { gatewayId: string; connectionId?: number }>,
      rejected: [] as Array<T & { reason: string; connectionId?: number }>,
      notSent: [] as T[],
      inDoubt: [] as T[],
    };
    // Aborted before anything left (the lease was lost meanwhile): nothing is handed over.
    if (signal?.aborted) {
      outcome.notSent.push(...toSend);
      return outcome;
    }
    const results =
      toSend.length > 0
        ? await gateway.submit(
            toSend.map((item) => item.sms),
            { signal, attempt },
          )
        : [];
    const byRef = new Map(results.map((result) => [result.clientRef, result]));
    const doubtful: T[] = [];
    for (const item of toSend) {
      const result = byRef.get(item.sms.clientRef);
      if (!result) doubtful.push(item);
      else if ('gatewayId' in result) outcome.submitted.push({ ...item, gatewayId: result.gatewayId, connectionId: result.connectionId });
      else if ('rejected' in result) outcome.rejected.push({ ...item, reason: result.rejected, connectionId: result.connectionId });
      else outcome.notSent.push(item);
    }
    if (doubtful.length > 0 && gateway.taken) {
      const asked = await ask(gateway, doubtful, attempt);
      outcome.submitted.push(...asked.submitted);
      outcome.notSent.push(...asked.notSent);
    } else outcome.inDoubt.push(...doubtful);
    return outcome;
  }

  /** Records a batch's outcome, trying again while the database is away; the lease stays held meanwhile. */
  async function settle(claimed: ClaimedBatch, outcome: BatchOutcome, inDoubt: InDoubtPolicy): Promise<void> {
    const deadline = Date.now() + settleRetryMs;
    for (let attempt = 0; ; attempt++) {
      try {
        const result = await store.settle(claimed, outcome, inDoubt, clock.now(), owner);
        if (result === 'lost') deps.log?.(`batch ${claimed.batchId} was taken over before its outcome was recorded; its new owner treats it as in doubt`);
        return;
      } catch (error) {
        if (Date.now() > deadline || (stopping && attempt >= 20)) throw error;
        if (attempt === 0) deps.log?.(`batch ${claimed.batchId}: outcome not recorded yet, trying again: ${error instanceof Error ? error.message : error}`);
        await new Promise((resolve) => setTimeout(resolve, Math.min(2_000, 50 * 2 ** attempt)));
      }
    }
  }

  /** Renders, marks, submits (renewing the lease) and settles one claimed batch; false when the gateway left some unsettled. */
  async function submitBatch(campaign: SendingCampaign, route: Route, claimed: ClaimedBatch, inGrant: () => boolean): Promise<boolean> {
    const { gateway, inDoubt } = route;
    const batch = claimed.messages;
    if (batch.length === 0) {
      await settle(claimed, { submitted: [], rejected: [], notSent: [], inDoubt: [] }, inDoubt);
      return true;
    }
    // Each A/B variant's messages with its own template, sender and links (docs/ab-tests.md); without a test, the campaign's.
    const contentOf = (message: ClaimedMessage): VariantContent => (message.variant != null ? campaign.variants?.[message.variant] : undefined) ?? campaign;
    const rendered = new Map<number, { from: string; body: string }>();
    for (const content of new Set(batch.map(contentOf))) {
      const ofContent = batch.filter((message) => contentOf(message) === content);
      const links = await shortLinksFor(store, content, ofContent, deps.urlBase);
      const tokens = parseShorthands(content.body); // once a batch, not once a message
      for (const message of ofContent)
        rendered.set(message.id, { from: content.sender, body: renderTokens(tokens, { fields: message.customFields, links: links.get(message.id) }) });
    }
    const items = batch.map((message) => ({
      id: message.id,
      sms: { clientRef: message.uuid, to: message.phoneNumber, ...rendered.get(message.id)! },
    }));
    // A batch taken over from an owner that died handing it over (it stays marked so until settled)
    // is asked about before anything else happens to it: whatever follows — sent, or given back for
    // want of rate — then concerns only what the gateway certainly does not have, and the batch's token
    // (the attempt, greater than the dead owner's) keeps its late hand-over out.
    const asked = claimed.inDoubt && gateway.taken ? await ask(gateway, items, claimed.token) : { submitted: [], notSent: items };
    // The rate grant is for one second: once it is over, the batch goes back unsent for the next tick's grant.
    if (!inGrant()) {
      const submitted = asked.submitted.map(({ id, sms, gatewayId }) => ({ id, body: sms.body, gatewayId }));
      receipts.hold(submitted.map((message) => message.gatewayId));
      try {
        await settle(claimed, { submitted, rejected: [], notSent: asked.notSent.map(({ id }) => id), inDoubt: [] }, inDoubt);
      } finally {
        receipts.release(submitted.map((message) => message.gatewayId));
      }
      return false;
    }
    // The durable mark that these messages are being handed over: from here, a crash leaves them in doubt.
    if (!(await store.markSubmitting(claimed, clock.now(), options.leaseMs))) {
      deps.log?.(`batch ${claimed.batchId} was taken over before it was handed over; left to its new owner`);
      return false;
    }
    const lease = holdLease({ store, clock, lease: claimed, leaseMs: options.leaseMs, expiryDate: campaign.expiryDate, log: deps.log });
    try {
      const outcome = await submitAll(gateway, asked.notSent, { signal: lease.signal, attempt: claimed.token });
      outcome.submitted.unshift(...asked.submitted);
      const submitted = outcome.submitted.map(({ id, sms, gatewayId, connectionId }) => ({ id, body: sms.body, gatewayId, connectionId }));
      receipts.hold(submitted.map((message) => message.gatewayId));
      try {
        await settle(
          claimed,
          {
            submitted,
            rejected: outcome.rejected.map(({ id, sms, reason, connectionId }) => ({ id, body: sms.body, reason, connectionId })),
            notSent: outcome.notSent.map(({ id }) => id),
            inDoubt: outcome.inDoubt.map(({ id }) => id),
          },
          inDoubt,
        );
      } finally {
        receipts.release(submitted.map((message) => message.gatewayId));
      }
      return outcome.notSent.length === 0 && outcome.inDoubt.length === 0;
    } finally {
      lease.stop();
    }
  }

  async function send(campaign: SendingCampaign, budget: number, now: Date, inGrant: () => boolean, grant: { spent: number }): Promise<number> {
    let allowed = budget;
    if (campaign.throttled && campaign.scheduledFinishDate) {
      const at = now.getTime();
      const finish = campaign.scheduledFinishDate.getTime();
      // Quiet hours (in the team's zone) are pauses of the plan: what is left is spread over the open time around them.
      const quiet = campaign.quiet ? quietPeriods(campaign.quiet.hours, campaign.quiet.zone, campaign.anchor.getTime(), finish) : [];
      const plan = {
        anchor: campaign.anchor.getTime(),
        now: at,
        until: at + options.tickMs,
        finish,
        pauses: quiet.length > 0 ? mergeWindows([...campaign.pauses, ...quiet]) : campaign.pauses,
        remaining: campaign.queued,
        sentSinceAnchor: campaign.sentSinceAnchor,
      };
      allowed = Math.min(allowed, allowance(plan));
    }
    // Several lanes claim, submit and settle batches side by side, so the database and the gateway
    // work at once; `reserved` keeps their sum within what the campaign may send this tick.
    let reserved = 0;
    let sent = 0;
    const route = await routeOf(campaign.teamId);
    const lane = async () => {
      while (reserved < allowed && !stopping && inGrant()) {
        const size = Math.min(options.batchSize, route.gateway.batchLimit ?? Infinity, allowed - reserved);
        reserved += size;
        const claimed = await store.claim(campaign.id, size, owner, clock.now(), options.leaseMs, route.inDoubt);
        if (!claimed) {
          reserved -= size;
          return;
        }
        reserved -= size - claimed.messages.length;
        sent += claimed.messages.length;
        grant.spent += claimed.messages.length;
        if (!(await submitBatch(campaign, route, claimed, inGrant))) return; // the gateway is in trouble: the rest waits for the next tick
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, options.lanes ?? 1) }, lane));
    return sent;
  }

  /** Keyword replies go first: someone is waiting for an answer. They share the rate budget. */
  async function sendReplies(budget: number, now: Date): Promise<number> {
    if (budget <= 0) return 0;
    const replies = await store.claimReplies(Math.min(budget, options.batchSize, gateway.batchLimit ?? Infinity), now, options.leaseMs);
    if (replies.length === 0) return 0;
    // A reply goes back the way its team sends: through its connections when it has some.
    const byTeam = new Map<number, QueuedReply[]>();
    for (const reply of replies) byTeam.set(reply.teamId, [...(byTeam.get(reply.teamId) ?? []), reply]);
    for (const [teamId, ofTeam] of byTeam) {
      const route = await routeOf(teamId);
      const outcome = await submitAll(
        route.gateway,
        ofTeam.map((reply) => ({ id: reply.id, sms: { clientRef: reply.uuid, to: reply.to, from: reply.from, body: reply.body } })),
      );
      // A reply in doubt follows the same policy as a campaign's message.
      const failedInDoubt = route.inDoubt === 'fail' ? outcome.inDoubt.map(({ id }) => ({ id, reason: 'in_doubt' })) : [];
      // Receipts wait until the submissions are recorded, as a campaign's do: a receipt stored
      // first would find no submitted reply to settle.
      const gatewayIds = outcome.submitted.map(({ gatewayId }) => gatewayId);
      receipts.hold(gatewayIds);
      try {
        await store.settleReplies(
          {
            submitted: outcome.submitted.map(({ id, gatewayId, connectionId }) => ({ id, gatewayId, connectionId })),
            rejected: [...outcome.rejected.map(({ id, reason, connectionId }) => ({ id, reason, connectionId })), ...failedInDoubt],
            unknown: [...outcome.notSent, ...(route.inDoubt === 'resend' ? outcome.inDoubt : [])].map(({ id }) => id),
          },
          now,
        );
      } finally {
        receipts.release(gatewayIds);
      }
    }
    return replies.length;
  }

  /** One round of the engine's work; true when it stopped at the end of its second with sending left to do (go on at once). */
  async function tick(): Promise<boolean> {
    const now = clock.now();
    const started = await store.startDue(now, undefined, (id, error) => deps.log?.(`campaign ${id} not started (tried again in a minute): ${causeOf(error)}`));
    await deps.lifecycle?.('started', started);
    const expired = await store.expire(now);
    await deps.lifecycle?.('expired', expired);
    // Audiences written on beside the sending (on connections of their own), so a large campaign's
    // first messages leave at its send time.
    const extending = store
      .extendAudiences(now, options.tickMs)
      .catch((error: Error) => deps.log?.(`audience not extended (tried again next tick): ${error.message}`));
    // This tick's share of the gateway-wide cap, granted from the allowance all processes share for
    // the second it is granted in (not the tick's start, which may be a second ago), and spent only
    // while that second lasts, up to a margin before its end: a batch handed over then would reach
    // the gateway in the next second, on that second's allowance too. A tick that starts inside the
    // margin waits for the next second.
    const wanted = Math.max(1, Math.floor((options.rateLimitPerSecond * options.tickMs) / 1000));
    const pending = await store.pendingWork();
    let grantedAt = clock.now();
    let marginMs = Math.min(100, options.tickMs / 2);
    const left = 1000 - (grantedAt.getTime() % 1000);
    if (left <= marginMs) {
      await new Promise((resolve) => setTimeout(resolve, left));
      const after = clock.now();
      if (after.getTime() === grantedAt.getTime()) marginMs = 0; // a clock that does not run (a test's) ends no second
      grantedAt = after;
    }
    const grantSecond = Math.floor(grantedAt.getTime() / 1000);
    let budget = await store.takeRateBudget(grantedAt, Math.min(wanted, pending), options.rateLimitPerSecond);
    const grant = { size: budget, spent: 0 };
    // A large grant (half the cap or more) still holds past its second while less than half of it
    // was spent: the engine then sends far below the cap, and what it hands over late cannot take a
    // second past it. This keeps an engine under a cap it cannot reach from stopping every second.
    const slowUnderHighCap = () => grant.size >= options.rateLimitPerSecond / 2 && grant.spent < grant.size / 2;
    const inGrant = () => {
      const at = clock.now().getTime();
      return (Math.floor(at / 1000) === grantSecond && 1000 - (at % 1000) > marginMs) || slowUnderHighCap();
    };
    if (inGrant()) {
      const replies = await sendReplies(budget, now);
      budget -= replies;
      grant.spent += replies;
    }
    for (const campaign of await store.sending()) {
      if (budget <= 0 || stopping || !inGrant()) break;
      budget -= await send(campaign, budget, now, inGrant, grant);
    }
    await store.returnRateBudget(grantedAt, budget);
    // Stopped by the second's end, not by the work or the cap: the next round starts now, on the next second's allowance.
    const cutShort = budget > 0 && !stopping && !inGrant();
    await extending;
    // Finished when this step finds it so (not at the tick's start): its sending time, and so its rate, is true.
    const finished = await store.finishDone(clock.now());
    await deps.lifecycle?.('finished', finished);
    await receipts.flush();
    return cutShort;
  }

  return {
    tick,
    /** The policy this engine applies to messages in doubt (`resend` for an idempotent gateway). */
    inDoubt,
    start() {
      const loop = () => {
        running = tick()
          .catch((error) => {
            deps.log?.(`engine tick failed: ${error instanceof Error ? error.message : error}`);
            return false;
          })
          .then((more) => {
            if (timer !== undefined) timer = setTimeout(loop, more ? 0 : options.tickMs);
          });
      };
      timer = setTimeout(loop, 0);
    },
    /** Writes the receipts received so far (tests and shutdown). */
    flushReceipts: () => receipts.flush(),
    /**
     * Receipts from another gateway of this process (a team's SMPP connection): written like the
     * gateway's own, after the hand-overs they name are recorded; resolves once they are stored.
     */
    receive: (group: Receipt[]) => receipts.add(group.map((receipt) => ({ ...receipt, at: clock.now() }))),
    /** Stops after the batches in hand are handed over and recorded. */
    async stop() {
      stopping = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      await running;
      await receipts.close();
    },
  };
}
export type Engine = ReturnType<typeof createEngine>;

/** Why something failed: a failed query's own message is its whole statement; its cause says why. */
function causeOf(error: Error): string {
  return error.cause instanceof Error ? error.cause.message : error.message;
}

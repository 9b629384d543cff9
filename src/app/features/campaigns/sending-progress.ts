import type { Campaign, CampaignSummary } from '../../api/gen/types.gen';
import { openTime, plannedCount, type Window } from '../../../shared/schedule/throttle';
import { parseTimestamp } from '../../../shared/time/local-timestamps';
import { formatCount, formatNumber } from '../../lib/format';

/** How often a live campaign page asks again while messages move. */
export const LIVE_REFRESH_MS = 2_000;
/** A pending campaign goes live this long before its send time, so the page sees it start. */
const STARTS_SOON_MS = 5 * 60_000;
/** After sending ends, receipts are awaited live this long; later ones show on the next visit. */
const RECEIPT_WINDOW_MS = 10 * 60_000;
/** The longest a pending page waits before looking again whether its start is near. */
const MAX_WAIT_MS = 60 * 60_000;

type LiveCampaign = Pick<Campaign, 'status' | 'scheduled_send_date' | 'finished_sending_at'> & Partial<Pick<Campaign, 'ab_test'>>;

/** Where the campaign's messages are: "sent" is everything the gateway took (submitted, delivered or failed). */
export interface SendingCounts {
  recipients: number;
  sent: number;
  delivered: number;
  awaitingReceipt: number;
  failed: number;
  unsent: number;
  queued: number;
  /** Clicks by people (as the overview counts them); link-preview fetches by chat apps are `botClicks`. */
  clicks: number;
  botClicks: number;
  /** Numbers that opted out while this campaign was the last they received from the team. */
  optOuts: number;
}

export function sendingCounts(summary: CampaignSummary): SendingCounts {
  return {
    recipients: summary.recipients,
    sent: summary.submitted + summary.delivered + summary.failed,
    delivered: summary.delivered,
    awaitingReceipt: summary.submitted,
    failed: summary.failed,
    unsent: summary.unsent,
    queued: summary.queued,
    clicks: summary.human_clicks,
    botClicks: summary.bot_clicks,
    optOuts: summary.opt_outs,
  };
}

/**
 * Every message has its final state: nothing queued or awaiting a receipt, and the final states add
 * up to the recipients. Before sending the summary counts recipients only, so it is not settled then.
 */
export function isSettled(summary: CampaignSummary): boolean {
  return summary.queued === 0 && summary.submitted === 0 && summary.delivered + summary.failed + summary.unsent === summary.recipients;
}

export interface RefreshIntervals {
  campaign: number | false;
  summary: number | false;
}

/**
 * When the page asks again (refetchInterval): every LIVE_REFRESH_MS while sending, and the campaign
 * alone (not the summary, which would count the audience each time) while it is about to start;
 * once sent, only the counts, until every receipt is in — which also reads them once more after the
 * status turns to sent. A pending campaign further off wakes up when its start comes near.
 */
export function refreshIntervals({
  campaign,
  summary,
  timeZone,
  now,
}: {
  campaign: LiveCampaign | undefined;
  summary: CampaignSummary | undefined;
  timeZone: string | undefined;
  now: number;
}): RefreshIntervals {
  const off: RefreshIntervals = { campaign: false, summary: false };
  const live: RefreshIntervals = { campaign: LIVE_REFRESH_MS, summary: LIVE_REFRESH_MS };
  if (!campaign) return off;
  if (campaign.status === 1) return live;
  const moment = (timestamp: string) => (timeZone ? parseTimestamp(timestamp, timeZone)?.getTime() : undefined);

  if (campaign.status === 0) {
    const send = moment(campaign.scheduled_send_date);
    if (send === undefined) return off;
    const untilSoon = send - STARTS_SOON_MS - now;
    // Long overdue and still pending: the service is not starting it, so asking every 2 s shows nothing.
    if (now - send > STARTS_SOON_MS) return off;
    // Only the campaign: before it starts the summary counts its whole audience (seconds at a
    // million), and its figures do not move; it is asked again once the status turns to sending.
    if (untilSoon <= 0) return { campaign: LIVE_REFRESH_MS, summary: false };
    const wait = Math.min(untilSoon, MAX_WAIT_MS);
    return { campaign: wait, summary: false };
  }

  if (!summary || isSettled(summary)) return off;
  const finished = moment(campaign.finished_sending_at);
  if (finished !== undefined && now - finished > RECEIPT_WINDOW_MS) return off;
  // An A/B campaign's figures per variant are the campaign's own (`ab_test`): read with the counts.
  return { campaign: campaign.ab_test ? LIVE_REFRESH_MS : false, summary: LIVE_REFRESH_MS };
}

export interface CountSample {
  sent: number;
  /** When the count was read (ms since the epoch). */
  at: number;
}

/** Messages a second between two readings of the sent count; null without time between them. */
export function sendRate(previous: CountSample, latest: CountSample): number | null {
  const seconds = (latest.at - previous.at) / 1000;
  if (seconds <= 0) return null;
  return Math.max(0, latest.sent - previous.sent) / seconds;
}

export type PlanStanding = 'ahead' | 'behind' | 'on plan';

export interface PlanComparison {
  planned: number;
  sent: number;
  /** sent − planned. */
  difference: number;
  standing: PlanStanding;
  /** The plan's average, messages a second over its open time. */
  plannedRate: number;
}

type ThrottledPlan = Pick<Campaign, 'throttled' | 'scheduled_send_date' | 'scheduled_finish_date' | 'pauses'>;

/**
 * A throttled campaign's sent count against its even plan (the shared throttle math) at the moment
 * the count was read. Within one message or 1 % of the total counts as on plan: the engine rounds
 * up per tick, and the count is read between ticks. null when the campaign has no plan.
 */
export function comparePlan(campaign: ThrottledPlan, counts: Pick<SendingCounts, 'recipients' | 'sent'>, at: number, timeZone: string): PlanComparison | null {
  if (!campaign.throttled) return null;
  const start = parseTimestamp(campaign.scheduled_send_date, timeZone)?.getTime();
  const finish = parseTimestamp(campaign.scheduled_finish_date, timeZone)?.getTime();
  if (start === undefined || finish === undefined || finish <= start) return null;
  const pauses = campaign.pauses.flatMap((pause): Window[] => {
    const from = parseTimestamp(pause.start_at, timeZone)?.getTime();
    const to = parseTimestamp(pause.end_at, timeZone)?.getTime();
    return from !== undefined && to !== undefined && to > from ? [{ start: from, end: to }] : [];
  });
  const planned = plannedCount(counts.recipients, start, finish, pauses, at);
  const difference = counts.sent - planned;
  const tolerance = Math.max(1, Math.floor(counts.recipients / 100));
  const standing: PlanStanding = Math.abs(difference) <= tolerance ? 'on plan' : difference > 0 ? 'ahead' : 'behind';
  const open = openTime(start, finish, pauses);
  return { planned, sent: counts.sent, difference, standing, plannedRate: open > 0 ? (counts.recipients * 1000) / open : 0 };
}

export { formatCount };

/** 1.5 — a rate to one decimal. */
export function formatRate(value: number): string {
  return formatNumber(value, 1);
}

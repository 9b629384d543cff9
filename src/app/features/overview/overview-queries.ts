import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { getOverview } from '../../api/gen/sdk.gen';
import type { Overview } from '../../api/gen/types.gen';
import { parseTimestamp } from '../../../shared/time/local-timestamps';
import type { DayRange } from './overview-period';

/** How often the overview is read again while a campaign sends (or is about to start). */
export const LIVE_REFRESH_MS = 3_000;
/** Otherwise: the figures still move with receipts, clicks and replies. */
export const IDLE_REFRESH_MS = 60_000;
/** A scheduled campaign this close to its send time (or this little past it) is watched live, so the page sees it start. */
const STARTS_SOON_MS = 60_000;
const LATE_START_MS = 5 * 60_000;
/**
 * Receipts keep coming after a campaign's last message has gone, and a small campaign can start and
 * finish between two readings: the page stays live this long after it last saw one under way.
 */
export const RECEIPT_WINDOW_MS = 2 * 60_000;

/** When each overview query last saw a campaign under way (kept beside the query, not in its data). */
const lastUnderWay = new WeakMap<object, number>();

/** Keys from general to specific: `overviewKeys.all` covers every period. */
export const overviewKeys = {
  all: ['overview'] as const,
  period: (range: DayRange) => [...overviewKeys.all, range] as const,
};

/** A campaign sends, or is due to start within STARTS_SOON_MS (or started late, less than LATE_START_MS ago). */
export function isUnderWay(overview: Overview, now: number = Date.now()): boolean {
  if (overview.sending_now.length > 0) return true;
  return overview.scheduled.some(({ send_at }) => {
    const sendAt = parseTimestamp(send_at, overview.time_zone)?.getTime();
    return sendAt !== undefined && sendAt - now <= STARTS_SOON_MS && now - sendAt <= LATE_START_MS;
  });
}

/**
 * Every LIVE_REFRESH_MS while a campaign is under way or was less than RECEIPT_WINDOW_MS ago
 * (`lastUnderWayAt`), every IDLE_REFRESH_MS otherwise.
 */
export function overviewRefreshInterval(overview: Overview | undefined, now: number = Date.now(), lastUnderWayAt?: number): number {
  if (overview && isUnderWay(overview, now)) return LIVE_REFRESH_MS;
  if (lastUnderWayAt !== undefined && now - lastUnderWayAt < RECEIPT_WINDOW_MS) return LIVE_REFRESH_MS;
  return IDLE_REFRESH_MS;
}

export const overviewQueries = {
  /** The team's figures for the days of `range`, and what is under way now. */
  period: (range: DayRange) =>
    queryOptions({
      queryKey: overviewKeys.period(range),
      queryFn: async ({ signal }) => (await getOverview({ query: { from: range.from, to: range.to }, signal, throwOnError: true })).data.data,
      // Another period keeps the figures on screen (dimmed) until its own arrive.
      placeholderData: keepPreviousData,
      // It sums up every other page: each visit reads the latest.
      staleTime: 0,
      refetchInterval: (query) => {
        const now = Date.now();
        if (query.state.data && isUnderWay(query.state.data, now)) lastUnderWay.set(query, now);
        return overviewRefreshInterval(query.state.data, now, lastUnderWay.get(query));
      },
    }),
};

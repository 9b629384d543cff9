import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { OVERVIEW_MAX_DAYS } from '../../../shared/contract';
import { formatTimestamp } from '../../../shared/time/local-timestamps';

/** The lengths the period chooser offers, in days ending today. */
export const PERIOD_LENGTHS = [7, 30, 90] as const;
export type PeriodLength = (typeof PERIOD_LENGTHS)[number];
/** The service's own default: the last 30 days. */
export const DEFAULT_PERIOD_LENGTH: PeriodLength = 30;

/** The period in the URL: `?days=30` (ending today), or `?from=&to=` (`YYYY-MM-DD`, both included). */
export type OverviewPeriod = { days: PeriodLength } | { from: string; to: string };

/** The days the service is asked for, `YYYY-MM-DD` in APP_TIMEZONE. */
export interface DayRange {
  from: string;
  to: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

const epochOf = (day: string) => Date.parse(`${day}T00:00:00Z`);

/** A real calendar day written `YYYY-MM-DD` (not 2026-02-30). */
export function isDay(text: string): boolean {
  return DAY.test(text) && !Number.isNaN(epochOf(text)) && new Date(epochOf(text)).toISOString().startsWith(text);
}

/** Calendar arithmetic on `YYYY-MM-DD`, in UTC so that no clock change can skip or repeat a day. */
export function addDays(day: string, days: number): string {
  return new Date(epochOf(day) + days * DAY_MS).toISOString().slice(0, 10);
}

/** How many days the range holds, both ends included. */
export function daysIn({ from, to }: DayRange): number {
  return Math.round((epochOf(to) - epochOf(from)) / DAY_MS) + 1;
}

/** Today in the service's zone (APP_TIMEZONE), whatever the browser's zone. */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  return formatTimestamp(now, timeZone).slice(0, 10);
}

/** Why a range cannot be asked for; null when the service takes it. */
export function rangeProblem(range: DayRange): string | null {
  if (!isDay(range.from) || !isDay(range.to)) return 'Choose a first and a last day.';
  if (range.from > range.to) return 'The first day comes after the last.';
  if (daysIn(range) > OVERVIEW_MAX_DAYS) return `Choose at most ${OVERVIEW_MAX_DAYS} days.`;
  return null;
}

function isPeriodLength(value: number): value is PeriodLength {
  return (PERIOD_LENGTHS as readonly number[]).includes(value);
}

/** The period of `?days=` or `?from=&to=`; anything the service would refuse reads as the default 30 days. */
export function parseOverviewPeriod(search: URLSearchParams): OverviewPeriod {
  const from = search.get('from') ?? '';
  const to = search.get('to') ?? '';
  if (rangeProblem({ from, to }) === null) return { from, to };
  const days = Number(search.get('days'));
  return { days: isPeriodLength(days) ? days : DEFAULT_PERIOD_LENGTH };
}

/** The days of the period: a length ends today (in APP_TIMEZONE) and includes it. */
export function periodRange(period: OverviewPeriod, today: string): DayRange {
  if ('from' in period) return { from: period.from, to: period.to };
  return { from: addDays(today, 1 - period.days), to: today };
}

/**
 * The period lives in the URL: a reload or a shared link shows the same days, and each choice is a
 * history entry, so the back button returns to the previous period.
 */
export function useOverviewPeriod() {
  const [searchParams, setSearchParams] = useSearchParams();
  const key = JSON.stringify(parseOverviewPeriod(searchParams));
  const period = useMemo(() => JSON.parse(key) as OverviewPeriod, [key]);

  const setPeriod = useCallback(
    (next: OverviewPeriod) => setSearchParams(() => new URLSearchParams('days' in next ? { days: String(next.days) } : { from: next.from, to: next.to })),
    [setSearchParams],
  );

  return { period, setPeriod };
}

/**
 * Quiet hours: the part of each night (or day) in which a team sends nothing, in the recipient's own
 * time zone. `start` and `end` are `HH:MM` wall-clock times; a period that ends at or before its start
 * runs past midnight (21:00 → 08:00). `days` are the days on which a period starts (a Friday night
 * that runs into Saturday morning belongs to Friday). Pure Intl, so the engine, the review and the
 * dashboard's timeline agree.
 */
import { formatTimestamp, parseTimestamp } from '../time/local-timestamps';
import type { Window } from './throttle';

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];
export type QuietHours = { start: string; end: string; days: Weekday[] };

const DAY_MS = 86_400_000;
/** getUTCDay() (0 = Sunday) to a weekday name. */
const BY_UTC_DAY: Weekday[] = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

/** The moment a wall time names in the zone; a time the clocks skip (spring forward) is read an hour later. */
function wallToMoment(date: string, time: string, zone: string): number {
  const exact = parseTimestamp(`${date} ${time}:00`, zone);
  if (exact) return exact.getTime();
  const [hours, minutes] = time.split(':').map(Number) as [number, number];
  const later = `${String(Math.min(23, hours + 1)).padStart(2, '0')}:${String(minutes).padStart(2, '0')}`;
  return (parseTimestamp(`${date} ${later}:00`, zone) ?? new Date(Date.parse(`${date}T${time}:00Z`))).getTime();
}

const nextDate = (date: string, days = 1) => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/** The quiet periods that overlap [from, to) in the zone, in order, overlapping ones merged. */
export function quietPeriods(quiet: QuietHours, zone: string, from: number, to: number): Window[] {
  if (quiet.start === quiet.end || quiet.days.length === 0 || to <= from) return [];
  const periods: Window[] = [];
  // From the local day before `from` (its night may still run) to the day `to` falls on.
  let date = formatTimestamp(new Date(from - DAY_MS), zone).slice(0, 10);
  const lastDate = formatTimestamp(new Date(to), zone).slice(0, 10);
  const overnight = quiet.end <= quiet.start;
  for (; date <= lastDate; date = nextDate(date)) {
    const weekday = BY_UTC_DAY[new Date(`${date}T00:00:00Z`).getUTCDay()]!;
    if (!quiet.days.includes(weekday)) continue;
    const start = wallToMoment(date, quiet.start, zone);
    const end = wallToMoment(overnight ? nextDate(date) : date, quiet.end, zone);
    if (end <= from || start >= to || end <= start) continue;
    const last = periods[periods.length - 1];
    if (last && start <= last.end) last.end = Math.max(last.end, end);
    else periods.push({ start, end });
  }
  return periods;
}

/** When quiet hours end, if `at` is inside them in the zone; null when sending is allowed then. */
export function quietUntil(quiet: QuietHours, zone: string, at: number): number | null {
  // A period never lasts more than a day, but consecutive ones merge: look a week ahead.
  const period = quietPeriods(quiet, zone, at - DAY_MS, at + 7 * DAY_MS).find((p) => at >= p.start && at < p.end);
  return period ? period.end : null;
}

/** `HH:MM` of a 24-hour clock. */
export const QUIET_TIME_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;

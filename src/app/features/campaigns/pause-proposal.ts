import { formatTimestamp, parseTimestamp } from '../../../shared/time/local-timestamps';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

type Pause = { start_at: string; end_at: string };

/**
 * The pause "Add pause" proposes, as `YYYY-MM-DD HH:MM:SS` in the zone: an hour, an hour after the
 * last pause (or after the send time), when that lies inside the sending window [send, finish] and
 * overlaps no pause; otherwise the middle third (at most an hour) of the longest free stretch of the
 * window. Without a window to place it in (no valid send or finish), an hour after the send time.
 */
export function proposePause(send: string, finish: string, pauses: readonly Pause[], timeZone: string): Pause {
  const at = (moment: number) => formatTimestamp(new Date(moment), timeZone);
  const start = parseTimestamp(send, timeZone)?.getTime();
  const end = parseTimestamp(finish, timeZone)?.getTime();
  const taken = pauses
    .map((pause) => [parseTimestamp(pause.start_at, timeZone)?.getTime(), parseTimestamp(pause.end_at, timeZone)?.getTime()] as const)
    .filter((span): span is readonly [number, number] => span[0] !== undefined && span[1] !== undefined && span[1] > span[0])
    .sort((a, b) => a[0] - b[0]);
  const lastEnd = parseTimestamp(pauses.at(-1)?.end_at ?? '', timeZone)?.getTime();
  const after = (lastEnd ?? start ?? Date.now()) + HOUR;
  const simple = { start_at: at(after), end_at: at(after + HOUR) };
  if (start === undefined || end === undefined || end <= start) return simple;

  const overlaps = (from: number, to: number) => taken.some(([a, b]) => from < b && a < to);
  if (after >= start && after + HOUR <= end && !overlaps(after, after + HOUR)) return simple;

  // The free stretches of the window, and the longest of them.
  let best: [number, number] = [start, start];
  let cursor = start;
  for (const [a, b] of [...taken, [end, end] as const]) {
    const gapEnd = Math.min(a, end);
    if (gapEnd - cursor > best[1] - best[0]) best = [cursor, gapEnd];
    cursor = Math.max(cursor, b);
  }
  const free = best[1] - best[0];
  const length = Math.min(HOUR, Math.floor(free / 3 / MINUTE) * MINUTE);
  if (length < MINUTE) return simple;
  const from = best[0] + Math.ceil((free - length) / 2 / MINUTE) * MINUTE;
  return { start_at: at(from), end_at: at(from + length) };
}

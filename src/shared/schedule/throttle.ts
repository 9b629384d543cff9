/**
 * Throttled sending (docs/interface.md §2.5, docs/ARCHITECTURE.md, "A campaign's life" 4): the messages still to send are
 * spread evenly over the open time still ahead — the time until the scheduled finish minus the
 * pauses. Pure, so the dispatcher and the dashboard's timeline agree, and tests need no clock.
 */
export type Window = { start: number; end: number };

/** Windows in order, those that overlap or touch made one (pauses and quiet periods together). */
export function mergeWindows(windows: readonly Window[]): Window[] {
  const merged: Window[] = [];
  for (const window of [...windows].sort((a, b) => a.start - b.start)) {
    const last = merged[merged.length - 1];
    if (last && window.start <= last.end) last.end = Math.max(last.end, window.end);
    else merged.push({ ...window });
  }
  return merged;
}

/** Milliseconds of [from, to) that fall in no pause (pauses that do not overlap: see mergeWindows). */
export function openTime(from: number, to: number, pauses: readonly Window[]): number {
  if (to <= from) return 0;
  let open = to - from;
  for (const pause of pauses) {
    const overlap = Math.min(to, pause.end) - Math.max(from, pause.start);
    if (overlap > 0) open -= overlap;
  }
  return Math.max(0, open);
}

/** True inside a pause (start inclusive, end exclusive). */
export function inPause(at: number, pauses: readonly Window[]): boolean {
  return pauses.some((pause) => at >= pause.start && at < pause.end);
}

/**
 * How many messages may go in the tick [now, until). The plan runs from `anchor` (when sending
 * started, or was last resumed after a manual pause) to `finish`: the messages left at the anchor
 * are spread evenly over the open time between them, so a manual pause re-spreads what is left
 * instead of catching up in a burst. Nothing inside a pause; everything left once the tick reaches
 * the finish. Rounded up: at most one message ahead of the even plan.
 */
export function allowance(plan: {
  anchor: number;
  now: number;
  until: number;
  finish: number;
  pauses: readonly Window[];
  remaining: number;
  sentSinceAnchor: number;
}): number {
  const { anchor, now, until, finish, pauses, remaining, sentSinceAnchor } = plan;
  if (remaining <= 0) return 0;
  if (inPause(now, pauses)) return 0;
  const whole = openTime(anchor, finish, pauses);
  if (whole <= 0 || until >= finish) return remaining;
  const due = Math.ceil(((remaining + sentSinceAnchor) * openTime(anchor, until, pauses)) / whole);
  return Math.max(0, Math.min(remaining, due - sentSinceAnchor));
}

/** Where an even plan would be at `at`: messages of `total` due by then (for timelines and checks). */
export function plannedCount(total: number, start: number, finish: number, pauses: readonly Window[], at: number): number {
  const whole = openTime(start, finish, pauses);
  if (whole <= 0 || at >= finish) return total;
  return Math.floor((total * openTime(start, Math.max(start, at), pauses)) / whole);
}

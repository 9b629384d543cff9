/**
 * Throttled sending (spec §2.5, ARCHITECTURE "A campaign's life" 4): the messages still to send are
 * spread evenly over the open time still ahead — the time until the scheduled finish minus the
 * pauses. Pure, so the dispatcher and the dashboard's timeline agree, and tests need no clock.
 */
export type Window = { start: number; end: number };

/** Milliseconds of [from, to) that fall in no pause. */
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
 * How many of the `remaining` messages may go in the tick [now, until): after it, what is left
 * must still be in proportion to the open time left. Nothing inside a pause; everything left once
 * the tick reaches the finish (or the finish has passed: catch up as fast as the gateway allows).
 * What stays is rounded up, so the plan is never run ahead of.
 */
export function allowance(plan: { now: number; until: number; finish: number; pauses: readonly Window[]; remaining: number }): number {
  const { now, until, finish, pauses, remaining } = plan;
  if (remaining <= 0) return 0;
  if (inPause(now, pauses)) return 0;
  const ahead = openTime(now, finish, pauses);
  if (ahead <= 0) return remaining;
  const after = openTime(until, finish, pauses);
  return remaining - Math.ceil((remaining * after) / ahead);
}

/** Where an even plan would be at `at`: messages of `total` due by then (for timelines and checks). */
export function plannedCount(total: number, start: number, finish: number, pauses: readonly Window[], at: number): number {
  const whole = openTime(start, finish, pauses);
  if (whole <= 0 || at >= finish) return total;
  return Math.floor((total * openTime(start, Math.max(start, at), pauses)) / whole);
}

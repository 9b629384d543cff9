/** Clock port: the engine and services read time through it so tests can move it. */
export type Clock = { now(): Date };
export const systemClock: Clock = { now: () => new Date() };

/** A new row's `created_at` and `updated_at`, from the clock (never the database's `now()`), so tests move time instead of rewriting rows. */
export function stampsOf(clock: Clock): { createdAt: Date; updatedAt: Date } {
  const now = clock.now();
  return { createdAt: now, updatedAt: now };
}

export { formatTimestamp, parseTimestamp } from '../../shared/time/local-timestamps';

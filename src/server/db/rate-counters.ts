import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from './client';
import { rowsOf } from './rows';
import type { Clock } from '../lib/time';

export type LimitVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

const WINDOW_MS = 60_000;
const HitsRowSchema = z.object({ key: z.string(), hits: z.number() });

/**
 * Fixed one-minute windows counted in PostgreSQL (`rate_counters`), so every process shares them:
 * two API processes give a token its limit once, not twice. One statement counts all the keys a
 * request is limited by.
 */
export function createSharedRateLimiter(db: Db, clock: Clock) {
  return {
    /** Counts one hit on each key; refused when any key is past its `max` this minute. */
    async hit(checks: Array<{ key: string; max: number }>): Promise<LimitVerdict> {
      const now = clock.now().getTime();
      const windowStart = new Date(Math.floor(now / WINDOW_MS) * WINDOW_MS);
      const rows = await rowsOf(
        db,
        HitsRowSchema,
        sql`INSERT INTO rate_counters (key, window_start, hits)
            SELECT k, ${windowStart}, 1 FROM unnest(${sql.param(checks.map((check) => check.key))}::text[]) AS k
            ON CONFLICT (key, window_start) DO UPDATE SET hits = rate_counters.hits + 1
            RETURNING key, hits`,
      );
      const hits = new Map(rows.map((row) => [row.key, row.hits]));
      const over = checks.some((check) => (hits.get(check.key) ?? 0) > check.max);
      if (!over) return { allowed: true };
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((windowStart.getTime() + WINDOW_MS - now) / 1000)) };
    },
  };
}
export type SharedRateLimiter = ReturnType<typeof createSharedRateLimiter>;

/** How often past windows are deleted: the periodic job `rate_counters.sweep` of the job runner (jobs/herald-jobs.ts). */
export const RATE_COUNTERS_SWEEP_MS = WINDOW_MS;

/** Deletes the windows before the last one (no request counts on them any more); how many. */
export async function sweepRateCounters(db: Db, clock: Clock): Promise<number> {
  const windowStart = Math.floor(clock.now().getTime() / WINDOW_MS) * WINDOW_MS;
  const result = await db.execute(sql`DELETE FROM rate_counters WHERE window_start < ${new Date(windowStart - WINDOW_MS)}`);
  return result.rowCount ?? 0;
}

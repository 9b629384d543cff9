import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { firstRowOf, MomentSchema, type Conn } from '../../db/rows';
import type { Clock } from '../../lib/time';

/** The first wait once the free attempts are spent; it doubles with each further failure, up to LONGEST_WAIT_SECONDS. */
export const FIRST_WAIT_SECONDS = 30;
export const LONGEST_WAIT_SECONDS = 900;

const CountedRowSchema = z.object({ failures: z.number() });
const WaitRowSchema = z.object({ waitUntil: MomentSchema });

/**
 * Failed sign-ins in a row per e-mail address and client address together (migration 0039). An attempt
 * is counted before the password is checked, in one statement, so parallel guesses cannot slip past
 * the count; a sign-in that succeeds clears it.
 */
export function createLoginFailuresRepository(clock: Clock) {
  const waitOf = (failures: unknown, free: number) =>
    sql`make_interval(secs => least(${LONGEST_WAIT_SECONDS}::float8, ${FIRST_WAIT_SECONDS}::float8 * power(2, ${failures} - ${free}::int)))`;

  return {
    /**
     * Counts an attempt, or answers how long the pair must still wait: after `free` failures in a row,
     * the next attempt waits FIRST_WAIT_SECONDS after the last failure, twice that after one more, and so on.
     */
    async attempt(conn: Conn, email: string, address: string, free: number): Promise<{ allowed: true } | { allowed: false; retryAfterSeconds: number }> {
      const now = clock.now();
      // Rows untouched for a day are dropped on the way: the pair starts afresh.
      await conn.execute(sql`DELETE FROM login_failures WHERE last_failed_at < ${new Date(now.getTime() - 86_400_000)}`);
      const counted = await firstRowOf(
        conn,
        CountedRowSchema,
        sql`INSERT INTO login_failures AS f (email, address, failures, last_failed_at) VALUES (${email}, ${address}, 1, ${now})
            ON CONFLICT (email, address) DO UPDATE SET failures = f.failures + 1, last_failed_at = ${now}
            WHERE f.failures < ${free}::int OR f.last_failed_at + ${waitOf(sql`f.failures`, free)} <= ${now}
            RETURNING failures`,
      );
      if (counted) return { allowed: true };
      const waiting = await firstRowOf(
        conn,
        WaitRowSchema,
        sql`SELECT last_failed_at + ${waitOf(sql`failures`, free)} AS "waitUntil" FROM login_failures WHERE email = ${email} AND address = ${address}`,
      );
      const until = waiting ? new Date(waiting.waitUntil).getTime() : now.getTime() + 1000;
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((until - now.getTime()) / 1000)) };
    },

    async cleared(conn: Conn, email: string, address: string): Promise<void> {
      await conn.execute(sql`DELETE FROM login_failures WHERE email = ${email} AND address = ${address}`);
    },
  };
}
export type LoginFailuresRepository = ReturnType<typeof createLoginFailuresRepository>;

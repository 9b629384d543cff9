import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../../db/client';
import { firstRowOf } from '../../../db/rows';

const UsedRowSchema = z.object({ used: z.number() });

/**
 * Each connection's `max_per_second` across every sending process: takes up to `want` sends from
 * the connection's allowance of `limit` for `second`, and returns how many were granted. The row
 * lock makes processes take their shares one after the other (as `takeRateBudget` does for
 * SMS_RATE_LIMIT); seconds a minute old are cleared as new ones start.
 */
export function createConnectionRate(db: Db) {
  return async function grant(connectionId: number, second: Date, want: number, limit: number): Promise<number> {
    if (want <= 0) return 0;
    const granted = await db.transaction(async (tx) => {
      await tx.execute(sql`INSERT INTO connection_rate (connection_id, second, used) VALUES (${connectionId}, ${second}, 0) ON CONFLICT DO NOTHING`);
      const row = await firstRowOf(
        tx,
        UsedRowSchema,
        sql`SELECT used FROM connection_rate WHERE connection_id = ${connectionId} AND second = ${second} FOR UPDATE`,
      );
      const share = Math.max(0, Math.min(want, limit - (row?.used ?? limit)));
      if (share > 0) await tx.execute(sql`UPDATE connection_rate SET used = used + ${share} WHERE connection_id = ${connectionId} AND second = ${second}`);
      return share;
    });
    if (second.getUTCSeconds() === 0) await db.execute(sql`DELETE FROM connection_rate WHERE second < ${new Date(second.getTime() - 60_000)}`);
    return granted;
  };
}
export type ConnectionRateGrant = ReturnType<typeof createConnectionRate>;

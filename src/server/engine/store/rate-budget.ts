import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { firstRowOf, oneRowOf } from '../../db/rows';
import type { RateBudgetStore } from '../engine-store';

const PendingRowSchema = z.object({ pending: z.number() });
const UsedRowSchema = z.object({ used: z.number() });

/** The gateway-wide rate cap (SMS_RATE_LIMIT), shared by every engine process through one row a second. */
export function createRateBudgetStore(db: Db): RateBudgetStore {
  return {
    /** Messages and replies that could go now (so an idle engine takes no rate allowance). */
    async pendingWork(): Promise<number> {
      const { pending } = await oneRowOf(
        db,
        PendingRowSchema,
        sql`
        SELECT (SELECT coalesce(sum(message_count - next_sequence + 1), 0) FROM campaigns WHERE status = 1 AND manually_paused IS NOT TRUE)::int
             + (SELECT coalesce(sum(last_sequence - first_sequence + 1), 0) FROM send_batches)::int
             + (SELECT count(*) FROM outbound_replies WHERE status = 'queued')::int AS pending`,
      );
      return pending;
    },

    /**
     * Takes up to `want` sends from this second's allowance of `limit`, shared by every process;
     * returns how many were granted. Old seconds are cleared as new ones start.
     */
    async takeRateBudget(now: Date, want: number, limit: number): Promise<number> {
      if (want <= 0) return 0;
      const second = new Date(Math.floor(now.getTime() / 1000) * 1000);
      const granted = await db.transaction(async (tx) => {
        await tx.execute(sql`INSERT INTO gateway_rate (second, used) VALUES (${second}, 0) ON CONFLICT (second) DO NOTHING`);
        // The row lock makes processes take their share one after the other.
        const row = await firstRowOf(tx, UsedRowSchema, sql`SELECT used FROM gateway_rate WHERE second = ${second} FOR UPDATE`);
        const share = Math.max(0, Math.min(want, limit - (row?.used ?? limit)));
        if (share > 0) await tx.execute(sql`UPDATE gateway_rate SET used = used + ${share} WHERE second = ${second}`);
        return share;
      });
      if (second.getUTCSeconds() === 0) await db.execute(sql`DELETE FROM gateway_rate WHERE second < ${new Date(second.getTime() - 60_000)}`);
      return granted;
    },

    /** Hands back the part of a grant a tick did not use, for the other processes this second. */
    async returnRateBudget(now: Date, unused: number): Promise<void> {
      if (unused <= 0) return;
      const second = new Date(Math.floor(now.getTime() / 1000) * 1000);
      await db.execute(sql`UPDATE gateway_rate SET used = GREATEST(0, used - ${unused}) WHERE second = ${second}`);
    },
  };
}

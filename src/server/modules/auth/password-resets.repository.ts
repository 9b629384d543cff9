import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { firstRowOf, MomentSchema, type Conn } from '../../db/rows';
import type { Clock } from '../../lib/time';

const ResetRowSchema = z.object({ id: z.number(), userId: z.number(), expiresAt: MomentSchema, usedAt: MomentSchema.nullable() });

/** Single-use password reset links (migration 0024): only their digest is kept. */
export function createPasswordResetsRepository(clock: Clock) {
  return {
    async insert(conn: Conn, reset: { userId: number; tokenHash: Buffer; expiresAt: Date }): Promise<void> {
      await conn.execute(sql`
        INSERT INTO password_resets (user_id, token_hash, created_at, expires_at) VALUES (${reset.userId}, ${reset.tokenHash}, ${clock.now()}, ${reset.expiresAt})`);
    },

    /** The reset a link names, locked so it is used once. */
    find(conn: Conn, tokenHash: Buffer) {
      return firstRowOf(
        conn,
        ResetRowSchema,
        sql`SELECT id::int AS id, user_id::int AS "userId", expires_at AS "expiresAt", used_at AS "usedAt" FROM password_resets WHERE token_hash = ${tokenHash} FOR UPDATE`,
      );
    },

    /** Used: this link, and every other unused link of the user, stop working. */
    async useAll(conn: Conn, userId: number): Promise<void> {
      await conn.execute(sql`UPDATE password_resets SET used_at = ${clock.now()} WHERE user_id = ${userId} AND used_at IS NULL`);
    },

    /** Resets asked for this address in the last hour (a few are enough; more would flood the inbox). */
    async recentCount(conn: Conn, userId: number): Promise<number> {
      const row = await firstRowOf(
        conn,
        z.object({ n: z.number() }),
        sql`SELECT count(*)::int AS n FROM password_resets WHERE user_id = ${userId} AND created_at > ${new Date(clock.now().getTime() - 3_600_000)}`,
      );
      return row?.n ?? 0;
    },
  };
}
export type PasswordResetsRepository = ReturnType<typeof createPasswordResetsRepository>;

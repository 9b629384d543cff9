import { and, eq, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { newestFirst, type PageWindow } from '../../db/pages';
import { firstRowOf } from '../../db/rows';
import { apiTokens } from '../../db/schema';
import { stampsOf, type Clock } from '../../lib/time';

export type TokenRow = typeof apiTokens.$inferSelect;
export type TokenKind = TokenRow['kind'];

const TokenOwnerSchema = z.object({
  tokenId: z.number(),
  userId: z.number(),
  userUuid: z.string(),
  teamId: z.number().nullable(),
  teamUuid: z.string().nullable(),
  expiresAtMs: z.number().nullable(),
});
export type TokenOwner = z.output<typeof TokenOwnerSchema>;

const active = (userId: number) => and(eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt), eq(apiTokens.kind, 'personal'));

export function createTokensRepository(db: Db, clock: Clock) {
  return {
    async insert(token: { userId: number; kind: TokenKind; name: string; tokenHash: Buffer; hint: string; expiresAt: Date | null }): Promise<TokenRow> {
      const [row] = await db
        .insert(apiTokens)
        .values({ ...token, ...stampsOf(clock) })
        .returning();
      if (!row) throw new Error('token insert returned no row');
      return row;
    },

    /** The live token with this digest, its user and the user's current team (null when the user left it). */
    findOwner(tokenHash: Buffer): Promise<TokenOwner | undefined> {
      return firstRowOf(
        db,
        TokenOwnerSchema,
        sql`SELECT t.id AS "tokenId", u.id AS "userId", u.uuid AS "userUuid", tm.id AS "teamId", tm.uuid AS "teamUuid", (extract(epoch FROM t.expires_at) * 1000)::float8 AS "expiresAtMs"
           FROM api_tokens t
           JOIN users u ON u.id = t.user_id
           LEFT JOIN memberships m ON m.user_id = u.id AND m.team_id = u.current_team_id
           LEFT JOIN teams tm ON tm.id = m.team_id
          WHERE t.token_hash = ${tokenHash} AND t.revoked_at IS NULL AND (t.expires_at IS NULL OR t.expires_at > ${clock.now()})`,
      );
    },

    /** Records use at most once a minute per token, so reads do not turn into writes. */
    async touch(tokenId: number): Promise<void> {
      await db
        .update(apiTokens)
        .set({ lastUsedAt: clock.now() })
        .where(and(eq(apiTokens.id, tokenId), sql`(${apiTokens.lastUsedAt} IS NULL OR ${apiTokens.lastUsedAt} < ${new Date(clock.now().getTime() - 60_000)})`));
    },

    listPersonal: (userId: number, window: PageWindow) => newestFirst(db, apiTokens, active(userId), window),

    async revokePersonal(userId: number, uuid: string): Promise<boolean> {
      const rows = await db
        .update(apiTokens)
        .set({ revokedAt: clock.now() })
        .where(and(active(userId), eq(apiTokens.uuid, uuid)))
        .returning({ id: apiTokens.id });
      return rows.length > 0;
    },

    async revokeById(tokenId: number): Promise<void> {
      await db
        .update(apiTokens)
        .set({ revokedAt: clock.now() })
        .where(and(eq(apiTokens.id, tokenId), isNull(apiTokens.revokedAt)));
    },
  };
}
export type TokensRepository = ReturnType<typeof createTokensRepository>;

import { and, eq, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { RoleSchema, TOKEN_SORT, type SortFieldOf } from '../../../shared/contract';
import { countOf, readPage, type Page, type PageWindow, orderOf, type ListOrder } from '../../db/pages';
import { firstRowOf, MomentSchema, rowsOf, type Conn } from '../../db/rows';
import { apiTokens } from '../../db/schema';
import { stampsOf, type Clock } from '../../lib/time';

export type TokenRow = typeof apiTokens.$inferSelect;
export type TokenKind = TokenRow['kind'];
export type TokenScope = TokenRow['scope'];

const TokenOwnerSchema = z.object({
  tokenId: z.number(),
  tokenKind: z.enum(['personal', 'session']),
  scope: z.enum(['full', 'read_only']),
  userId: z.number(),
  userUuid: z.string(),
  userEmail: z.string(),
  teamId: z.number(),
  teamUuid: z.string(),
  teamName: z.string(),
  tokenName: z.string(),
  role: RoleSchema,
  expiresAtMs: z.number().nullable(),
});
export type TokenOwner = z.output<typeof TokenOwnerSchema>;

/** A personal token as its list shows it: with the uuid of the team it acts in. */
const ListedTokenSchema = z.object({
  uuid: z.string(),
  name: z.string(),
  hint: z.string(),
  teamUuid: z.string(),
  scope: z.enum(['full', 'read_only']),
  expiresAt: MomentSchema.nullable(),
  lastUsedAt: MomentSchema.nullable(),
  createdAt: MomentSchema,
});
export type ListedToken = z.output<typeof ListedTokenSchema>;

const active = (userId: number) => and(eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt), eq(apiTokens.kind, 'personal'));

/** The list's `sort` (TOKEN_SORT). */
const ORDER: ListOrder<SortFieldOf<typeof TOKEN_SORT>> = {
  sort: TOKEN_SORT,
  columns: { created_at: sql`t.created_at`, name: sql`lower(t.name)` },
  tiebreak: sql`t.id`,
};

export function createTokensRepository(db: Db, clock: Clock) {
  return {
    async insert(
      token: {
        userId: number;
        teamId: number;
        kind: TokenKind;
        scope: TokenScope;
        name: string;
        tokenHash: Buffer;
        hint: string;
        expiresAt: Date | null;
      },
      conn: Conn = db,
    ): Promise<TokenRow> {
      const [row] = await conn
        .insert(apiTokens)
        .values({ ...token, ...stampsOf(clock) })
        .returning();
      if (!row) throw new Error('token insert returned no row');
      return row;
    },

    /**
     * The live token with this digest, its user, the team it acts in and the user's role there. A
     * token of a team its user has left finds nothing: it stops working with the membership.
     */
    findOwner(tokenHash: Buffer): Promise<TokenOwner | undefined> {
      return firstRowOf(
        db,
        TokenOwnerSchema,
        sql`SELECT t.id AS "tokenId", t.kind AS "tokenKind", t.name AS "tokenName", t.scope, u.id AS "userId", u.uuid AS "userUuid", u.email AS "userEmail",
                   tm.id AS "teamId", tm.uuid AS "teamUuid", tm.name AS "teamName", m.role,
                   (extract(epoch FROM t.expires_at) * 1000)::float8 AS "expiresAtMs"
           FROM api_tokens t
           JOIN users u ON u.id = t.user_id
           JOIN memberships m ON m.user_id = t.user_id AND m.team_id = t.team_id
           JOIN teams tm ON tm.id = t.team_id
          WHERE t.token_hash = ${tokenHash} AND t.revoked_at IS NULL AND (t.expires_at IS NULL OR t.expires_at > ${clock.now()})`,
      );
    },

    /** Moves a session to another team (its switch-team); other tokens keep theirs. */
    async moveSession(tokenId: number, teamId: number): Promise<void> {
      await db
        .update(apiTokens)
        .set({ teamId })
        .where(and(eq(apiTokens.id, tokenId), eq(apiTokens.kind, 'session')));
    },

    /** Records use at most once a minute per token, so reads do not turn into writes. */
    async touch(tokenId: number): Promise<void> {
      await db
        .update(apiTokens)
        .set({ lastUsedAt: clock.now() })
        .where(and(eq(apiTokens.id, tokenId), sql`(${apiTokens.lastUsedAt} IS NULL OR ${apiTokens.lastUsedAt} < ${new Date(clock.now().getTime() - 60_000)})`));
    },

    /** The user's live personal tokens, in every team, newest first. */
    listPersonal: (userId: number, window: PageWindow): Promise<Page<ListedToken>> =>
      readPage({
        rows: rowsOf(
          db,
          ListedTokenSchema,
          sql`
          SELECT t.uuid, t.name, t.hint, tm.uuid AS "teamUuid", t.scope, t.expires_at AS "expiresAt", t.last_used_at AS "lastUsedAt", t.created_at AS "createdAt"
            FROM api_tokens t JOIN teams tm ON tm.id = t.team_id
           WHERE t.user_id = ${userId} AND t.revoked_at IS NULL AND t.kind = 'personal'
           ORDER BY ${orderOf(ORDER, window.sort)} LIMIT ${window.limit} OFFSET ${window.offset}`,
        ),
        count: () => countOf(db, sql`SELECT count(*)::int AS total FROM api_tokens WHERE user_id = ${userId} AND revoked_at IS NULL AND kind = 'personal'`),
      }),

    async revokePersonal(userId: number, uuid: string, conn: Conn = db): Promise<boolean> {
      const rows = await conn
        .update(apiTokens)
        .set({ revokedAt: clock.now() })
        .where(and(active(userId), eq(apiTokens.uuid, uuid)))
        .returning({ id: apiTokens.id });
      return rows.length > 0;
    },

    /** Signs a user out everywhere but `keepTokenId` (their API tokens stay). */
    async revokeSessions(conn: Conn, userId: number, keepTokenId: number | null): Promise<void> {
      await conn.execute(sql`
        UPDATE api_tokens SET revoked_at = ${clock.now()}
         WHERE user_id = ${userId} AND kind = 'session' AND revoked_at IS NULL AND id IS DISTINCT FROM ${keepTokenId}`);
    },

    /** Every API token of the user, in every team (a password change or reset that asks for it). */
    async revokePersonalTokens(conn: Conn, userId: number): Promise<void> {
      await conn.execute(sql`UPDATE api_tokens SET revoked_at = ${clock.now()} WHERE user_id = ${userId} AND kind = 'personal' AND revoked_at IS NULL`);
    },

    async revokeById(tokenId: number, conn: Conn = db): Promise<void> {
      await conn
        .update(apiTokens)
        .set({ revokedAt: clock.now() })
        .where(and(eq(apiTokens.id, tokenId), isNull(apiTokens.revokedAt)));
    },
  };
}
export type TokensRepository = ReturnType<typeof createTokensRepository>;

import { KEYWORD_SORT, type SortFieldOf } from '../../../shared/contract';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import type { Conn } from '../../db/rows';
import { newestOfTeam, type PageWindow, type ListOrder } from '../../db/pages';
import { containsText } from '../../db/search';
import { contactGroups, keywordContactGroups, keywordWebhooks, keywords, webhooks } from '../../db/schema';
import { stampsOf, type Clock } from '../../lib/time';

export type KeywordRow = typeof keywords.$inferSelect;
export type KeywordFields = Pick<KeywordRow, 'keyword' | 'message' | 'help' | 'addContactToGroup' | 'callWebhook'>;
export type KeywordTargets = { groups: string[]; webhooks: string[] };

const ofTeam = (teamId: number, uuid: string) => and(eq(keywords.teamId, teamId), eq(keywords.uuid, uuid));

/** The list's `sort` (KEYWORD_SORT): the newest first without it. */
const ORDER: ListOrder<SortFieldOf<typeof KEYWORD_SORT>> = {
  sort: KEYWORD_SORT,
  columns: { created_at: keywords.createdAt, keyword: sql`lower(${keywords.keyword})` },
  tiebreak: keywords.id,
};

export function createKeywordsRepository(db: Db, clock: Clock) {
  return {
    list: (teamId: number, window: PageWindow, search?: string) =>
      newestOfTeam(db, keywords, teamId, window, search ? containsText(keywords.keyword, search) : undefined, ORDER),

    /** The keyword; in a transaction (`conn`), locked until it ends. */
    async find(teamId: number, uuid: string, conn?: Conn): Promise<KeywordRow | undefined> {
      const [row] = conn
        ? await conn.select().from(keywords).where(ofTeam(teamId, uuid)).for('update')
        : await db.select().from(keywords).where(ofTeam(teamId, uuid));
      return row;
    },

    async insert(tx: Tx, teamId: number, fields: KeywordFields): Promise<KeywordRow> {
      const [row] = await tx
        .insert(keywords)
        .values({ teamId, ...fields, ...stampsOf(clock) })
        .returning();
      if (!row) throw new Error('keyword insert returned no row');
      return row;
    },

    async update(tx: Tx, id: number, fields: KeywordFields): Promise<KeywordRow> {
      const [row] = await tx
        .update(keywords)
        .set({ ...fields, updatedAt: clock.now() })
        .where(eq(keywords.id, id))
        .returning();
      if (!row) throw new Error('keyword update returned no row');
      return row;
    },

    /** Replaces the keyword's groups and webhooks, keeping the order given. */
    async setTargets(tx: Tx, keywordId: number, groupIds: number[], webhookIds: number[]): Promise<void> {
      await tx.delete(keywordContactGroups).where(eq(keywordContactGroups.keywordId, keywordId));
      await tx.delete(keywordWebhooks).where(eq(keywordWebhooks.keywordId, keywordId));
      if (groupIds.length > 0)
        await tx.insert(keywordContactGroups).values(groupIds.map((contactGroupId, position) => ({ keywordId, contactGroupId, position })));
      if (webhookIds.length > 0) await tx.insert(keywordWebhooks).values(webhookIds.map((webhookId, position) => ({ keywordId, webhookId, position })));
    },

    /** Group and webhook uuids of each keyword, in their stored order (in a transaction, `conn`, as it sees them). */
    async targetsOf(keywordIds: number[], conn: Conn = db): Promise<Map<number, KeywordTargets>> {
      const targets = new Map<number, KeywordTargets>(keywordIds.map((id) => [id, { groups: [], webhooks: [] }]));
      if (keywordIds.length === 0) return targets;
      const [groups, hooks] = await Promise.all([
        conn
          .select({ keywordId: keywordContactGroups.keywordId, uuid: contactGroups.uuid })
          .from(keywordContactGroups)
          .innerJoin(contactGroups, eq(contactGroups.id, keywordContactGroups.contactGroupId))
          .where(inArray(keywordContactGroups.keywordId, keywordIds))
          .orderBy(asc(keywordContactGroups.position)),
        conn
          .select({ keywordId: keywordWebhooks.keywordId, uuid: webhooks.uuid })
          .from(keywordWebhooks)
          .innerJoin(webhooks, eq(webhooks.id, keywordWebhooks.webhookId))
          .where(inArray(keywordWebhooks.keywordId, keywordIds))
          .orderBy(asc(keywordWebhooks.position)),
      ]);
      for (const row of groups) targets.get(row.keywordId)?.groups.push(row.uuid);
      for (const row of hooks) targets.get(row.keywordId)?.webhooks.push(row.uuid);
      return targets;
    },

    /** Keywords equal (ignoring case) to one of the words; of one team, or of any team (the shared short code). */
    async matching(words: string[], teamId: number | null): Promise<KeywordRow[]> {
      if (words.length === 0) return [];
      const lowered = [...new Set(words.map((word) => word.toLowerCase()))];
      return db
        .select()
        .from(keywords)
        .where(and(sql`lower(${keywords.keyword}) = ANY(${sql.param(lowered)}::text[])`, teamId === null ? undefined : eq(keywords.teamId, teamId)));
    },

    /** The keyword a double opt-in request was made for (its YES runs the keyword's actions). */
    async byId(id: number): Promise<KeywordRow | undefined> {
      const [row] = await db.select().from(keywords).where(eq(keywords.id, id));
      return row;
    },

    /** Ids of the keyword's groups and webhooks, in their stored order. */
    async targetIds(keywordId: number): Promise<{ groupIds: number[]; webhookIds: number[] }> {
      const [groups, hooks] = await Promise.all([
        db
          .select({ id: keywordContactGroups.contactGroupId })
          .from(keywordContactGroups)
          .where(eq(keywordContactGroups.keywordId, keywordId))
          .orderBy(asc(keywordContactGroups.position)),
        db
          .select({ id: keywordWebhooks.webhookId })
          .from(keywordWebhooks)
          .where(eq(keywordWebhooks.keywordId, keywordId))
          .orderBy(asc(keywordWebhooks.position)),
      ]);
      return { groupIds: groups.map((g) => g.id), webhookIds: hooks.map((h) => h.id) };
    },

    async delete(conn: Conn, teamId: number, uuid: string): Promise<boolean> {
      const rows = await conn.delete(keywords).where(ofTeam(teamId, uuid)).returning({ id: keywords.id });
      return rows.length > 0;
    },
  };
}
export type KeywordsRepository = ReturnType<typeof createKeywordsRepository>;

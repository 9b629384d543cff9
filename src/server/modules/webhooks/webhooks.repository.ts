import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { newestFirst, type PageWindow } from '../../db/pages';
import { keywordWebhooks, keywords, webhooks } from '../../db/schema';

export type WebhookRow = typeof webhooks.$inferSelect;
type WebhookChanges = Partial<Pick<WebhookRow, 'name' | 'url' | 'headers' | 'secretEncrypted'>>;

const ofTeam = (teamId: number, uuid: string) => and(eq(webhooks.teamId, teamId), eq(webhooks.uuid, uuid));

export function createWebhooksRepository(db: Db) {
  return {
    list: (teamId: number, window: PageWindow) => newestFirst(db, webhooks, eq(webhooks.teamId, teamId), window),

    async find(teamId: number, uuid: string): Promise<WebhookRow | undefined> {
      const [row] = await db.select().from(webhooks).where(ofTeam(teamId, uuid));
      return row;
    },

    async insert(row: Pick<WebhookRow, 'teamId' | 'name' | 'url' | 'headers' | 'secretEncrypted'>): Promise<WebhookRow> {
      const [created] = await db.insert(webhooks).values(row).returning();
      if (!created) throw new Error('webhook insert returned no row');
      return created;
    },

    async update(teamId: number, uuid: string, changes: WebhookChanges): Promise<WebhookRow | undefined> {
      const [row] = await db
        .update(webhooks)
        .set({ ...changes, updatedAt: new Date() })
        .where(ofTeam(teamId, uuid))
        .returning();
      return row;
    },

    async delete(id: number): Promise<void> {
      await db.delete(webhooks).where(eq(webhooks.id, id));
    },

    /** Ids of the team's webhooks with these uuids (others' and unknown uuids are left out). */
    async idsByUuid(teamId: number, uuids: string[]): Promise<Map<string, number>> {
      if (uuids.length === 0) return new Map();
      const rows = await db
        .select({ id: webhooks.id, uuid: webhooks.uuid })
        .from(webhooks)
        .where(and(eq(webhooks.teamId, teamId), inArray(webhooks.uuid, uuids.map((u) => u.toLowerCase()))));
      return new Map(rows.map((row) => [row.uuid, row.id]));
    },

    /** Keywords that call the webhook, by name. */
    async keywordsCalling(webhookId: number): Promise<string[]> {
      const rows = await db
        .select({ keyword: keywords.keyword })
        .from(keywordWebhooks)
        .innerJoin(keywords, eq(keywords.id, keywordWebhooks.keywordId))
        .where(eq(keywordWebhooks.webhookId, webhookId))
        .orderBy(asc(keywords.keyword));
      return rows.map((row) => row.keyword);
    },
  };
}
export type WebhooksRepository = ReturnType<typeof createWebhooksRepository>;

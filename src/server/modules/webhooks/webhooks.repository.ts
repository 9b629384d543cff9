import { WEBHOOK_SORT, type SortFieldOf } from '../../../shared/contract';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client';
import type { WebhookOutcome } from '../../gateways/webhooks/webhook-caller';
import { countOf, newestOfTeam, readPage, teamIdsByUuid, type Page, type PageWindow, type ListOrder } from '../../db/pages';
import { containsText } from '../../db/search';
import { MomentSchema, oneRowOf, rowsOf, type Conn } from '../../db/rows';
import { keywordWebhooks, keywords, webhooks } from '../../db/schema';
import { stampsOf, type Clock } from '../../lib/time';

export type WebhookRow = typeof webhooks.$inferSelect;
const AttemptRecordSchema = z.object({
  uuid: z.string(),
  event: z.string(),
  url: z.string(),
  statusCode: z.number().nullable(),
  latencyMs: z.number(),
  error: z.string().nullable(),
  inboundMessageUuid: z.string().nullable(),
  createdAt: MomentSchema,
});
export type AttemptRecord = z.output<typeof AttemptRecordSchema>;
type WebhookChanges = Partial<Pick<WebhookRow, 'name' | 'url' | 'headers' | 'secretEncrypted'>>;

const ofTeam = (teamId: number, uuid: string) => and(eq(webhooks.teamId, teamId), eq(webhooks.uuid, uuid));

/** The list's `sort` (WEBHOOK_SORT): the newest first without it. */
const ORDER: ListOrder<SortFieldOf<typeof WEBHOOK_SORT>> = {
  sort: WEBHOOK_SORT,
  columns: { created_at: webhooks.createdAt, name: sql`lower(${webhooks.name})` },
  tiebreak: webhooks.id,
};

export function createWebhooksRepository(db: Db, clock: Clock) {
  return {
    list: (teamId: number, window: PageWindow, search?: string) =>
      newestOfTeam(db, webhooks, teamId, window, search ? containsText(webhooks.name, search) : undefined, ORDER),

    /** The webhook; in a transaction (`conn`), locked until it ends. */
    async find(teamId: number, uuid: string, conn?: Conn): Promise<WebhookRow | undefined> {
      const [row] = conn
        ? await conn.select().from(webhooks).where(ofTeam(teamId, uuid)).for('update')
        : await db.select().from(webhooks).where(ofTeam(teamId, uuid));
      return row;
    },

    async insert(conn: Conn, row: Pick<WebhookRow, 'teamId' | 'name' | 'url' | 'headers' | 'secretEncrypted'>): Promise<WebhookRow> {
      const [created] = await conn
        .insert(webhooks)
        .values({ ...row, ...stampsOf(clock) })
        .returning();
      if (!created) throw new Error('webhook insert returned no row');
      return created;
    },

    async update(conn: Conn, teamId: number, uuid: string, changes: WebhookChanges): Promise<WebhookRow | undefined> {
      const [row] = await conn
        .update(webhooks)
        .set({ ...changes, updatedAt: clock.now() })
        .where(ofTeam(teamId, uuid))
        .returning();
      return row;
    },

    async delete(conn: Conn, id: number): Promise<void> {
      await conn.delete(webhooks).where(eq(webhooks.id, id));
    },

    /** Ids of the team's webhooks with these uuids (others' and unknown uuids are left out). */
    idsByUuid: (teamId: number, uuids: string[]) => teamIdsByUuid(db, webhooks, teamId, uuids),

    async findByIds(ids: number[]): Promise<WebhookRow[]> {
      if (ids.length === 0) return [];
      return db.select().from(webhooks).where(inArray(webhooks.id, ids));
    },

    insertAttempt(
      webhookId: number,
      attempt: WebhookOutcome & { event: string; url: string; inboundMessageId: number | null },
      conn: Conn = db,
    ): Promise<AttemptRecord> {
      return oneRowOf(
        conn,
        AttemptRecordSchema,
        sql`
        INSERT INTO webhook_attempts (webhook_id, inbound_message_id, event, url, status_code, latency_ms, error, created_at)
        VALUES (${webhookId}, ${attempt.inboundMessageId}, ${attempt.event}, ${attempt.url}, ${attempt.statusCode}, ${attempt.latencyMs}, ${attempt.error}, ${clock.now()})
        RETURNING uuid, event, url, status_code AS "statusCode", latency_ms AS "latencyMs", error,
                  (SELECT uuid FROM inbound_messages WHERE id = inbound_message_id) AS "inboundMessageUuid", created_at AS "createdAt"`,
      );
    },

    listAttempts: (webhookId: number, window: PageWindow): Promise<Page<AttemptRecord>> =>
      readPage({
        rows: rowsOf(
          db,
          AttemptRecordSchema,
          sql`
          SELECT a.uuid, a.event, a.url, a.status_code AS "statusCode", a.latency_ms AS "latencyMs", a.error, m.uuid AS "inboundMessageUuid", a.created_at AS "createdAt"
            FROM webhook_attempts a LEFT JOIN inbound_messages m ON m.id = a.inbound_message_id
           WHERE a.webhook_id = ${webhookId} ORDER BY a.created_at DESC, a.id DESC LIMIT ${window.limit} OFFSET ${window.offset}`,
        ),
        count: () => countOf(db, sql`SELECT count(*)::int AS total FROM webhook_attempts WHERE webhook_id = ${webhookId}`),
      }),

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

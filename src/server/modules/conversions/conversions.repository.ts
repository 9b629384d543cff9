import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { countOf, readPage, type Page, type PageWindow } from '../../db/pages';
import { attributionQuery, AttributionRowSchema, type AttributionRow } from '../../db/revenue';
import { firstRowOf, MomentSchema, rowsOf, type Conn } from '../../db/rows';
import type { ConversionSource } from '../../../shared/contract';

const ConversionRowSchema = z.object({
  id: z.number(),
  uuid: z.string(),
  orderId: z.string(),
  phoneNumber: z.string().nullable(),
  clickCode: z.string().nullable(),
  value: z.coerce.number(),
  currency: z.string(),
  occurredAt: MomentSchema,
  source: z.enum(['api', 'shopify', 'woocommerce']),
  campaignUuid: z.string().nullable(),
  attributedBy: z.enum(['click', 'view']).nullable(),
  createdAt: MomentSchema,
});
export type ConversionRow = z.output<typeof ConversionRowSchema>;

const COLUMNS = sql.raw(`v.id::int AS id, v.uuid, v.order_id AS "orderId", v.phone_number AS "phoneNumber", v.click_code AS "clickCode",
  v.value::text AS value, v.currency, v.occurred_at AS "occurredAt", v.source, c.uuid AS "campaignUuid", v.attributed_by AS "attributedBy",
  v.created_at AS "createdAt"`);
const CAMPAIGN = sql.raw('LEFT JOIN campaigns c ON c.id = v.campaign_id');

export type NewConversion = {
  teamId: number;
  orderId: string;
  phoneNumber: string | null;
  clickCode: string | null;
  value: number;
  currency: string;
  occurredAt: Date;
  source: ConversionSource;
  shopConnectionId: number | null;
  credit: AttributionRow | undefined;
  createdAt: Date;
};

/** A team's conversions: recorded once per order id, credited when recorded, listed newest order first. */
export function createConversionsRepository(db: Db) {
  return {
    /** The team's windows: what a conversion is credited within. */
    async windowsOf(conn: Conn, teamId: number) {
      const row = await firstRowOf(
        conn,
        z.object({ clickWindowDays: z.number(), viewWindowHours: z.number() }),
        sql`SELECT click_window_days AS "clickWindowDays", view_window_hours AS "viewWindowHours" FROM teams WHERE id = ${teamId}`,
      );
      if (!row) throw new Error(`team ${teamId} not found`);
      return row;
    },

    /** The message a conversion is credited to (db/revenue.ts says how), if any. */
    attribution: (conn: Conn, teamId: number, phoneNumber: string, occurredAt: Date, windows: { clickWindowDays: number; viewWindowHours: number }) =>
      firstRowOf(conn, AttributionRowSchema, attributionQuery(teamId, phoneNumber, occurredAt, windows)),

    /** The number a short link of the team's campaigns was sent to (a click id), if the code is the team's. */
    async numberOfClick(conn: Conn, teamId: number, code: string): Promise<string | undefined> {
      const row = await firstRowOf(
        conn,
        z.object({ phoneNumber: z.string() }),
        sql`SELECT m.phone_number AS "phoneNumber" FROM short_links s JOIN messages m ON m.id = s.message_id
              JOIN campaigns c ON c.id = m.campaign_id WHERE s.code = ${code} AND c.team_id = ${teamId}`,
      );
      return row?.phoneNumber;
    },

    /**
     * Records the conversion unless the team has one with its order id: the new row, or undefined
     * (two requests with one order id cannot both insert: the unique key decides).
     */
    async insert(conn: Conn, row: NewConversion): Promise<ConversionRow | undefined> {
      return firstRowOf(
        conn,
        ConversionRowSchema,
        sql`
        WITH v AS (
          INSERT INTO conversions (team_id, order_id, phone_number, click_code, value, currency, occurred_at, source, campaign_id, message_id,
                                   attributed_by, shop_connection_id, created_at)
          VALUES (${row.teamId}, ${row.orderId}, ${row.phoneNumber}, ${row.clickCode}, ${row.value.toFixed(2)}::numeric, ${row.currency}, ${row.occurredAt},
                  ${row.source}, ${row.credit?.campaignId ?? null}, ${row.credit?.messageId ?? null}, ${row.credit?.attributedBy ?? null},
                  ${row.shopConnectionId}, ${row.createdAt})
          ON CONFLICT (team_id, order_id) DO NOTHING
          RETURNING *)
        SELECT ${COLUMNS} FROM v ${CAMPAIGN}`,
      );
    },

    findByOrder: (conn: Conn, teamId: number, orderId: string) =>
      firstRowOf(conn, ConversionRowSchema, sql`SELECT ${COLUMNS} FROM conversions v ${CAMPAIGN} WHERE v.team_id = ${teamId} AND v.order_id = ${orderId}`),

    find: (teamId: number, uuid: string) =>
      firstRowOf(db, ConversionRowSchema, sql`SELECT ${COLUMNS} FROM conversions v ${CAMPAIGN} WHERE v.team_id = ${teamId} AND v.uuid = ${uuid}`),

    /** The id of the team's campaign with this uuid (a filter), if it is the team's. */
    async campaignIdOf(teamId: number, uuid: string): Promise<number | undefined> {
      const row = await firstRowOf(db, z.object({ id: z.number() }), sql`SELECT id::int AS id FROM campaigns WHERE team_id = ${teamId} AND uuid = ${uuid}`);
      return row?.id;
    },

    list(teamId: number, filters: { campaignId?: number; phoneNumber?: string }, window: PageWindow): Promise<Page<ConversionRow>> {
      const conditions: SQL[] = [sql`v.team_id = ${teamId}`];
      if (filters.campaignId !== undefined) conditions.push(sql`v.campaign_id = ${filters.campaignId}`);
      if (filters.phoneNumber !== undefined) conditions.push(sql`v.phone_number = ${filters.phoneNumber}`);
      const where = sql.join(conditions, sql` AND `);
      return readPage({
        rows: rowsOf(
          db,
          ConversionRowSchema,
          sql`SELECT ${COLUMNS} FROM conversions v ${CAMPAIGN} WHERE ${where} ORDER BY v.occurred_at DESC, v.id DESC LIMIT ${window.limit} OFFSET ${window.offset}`,
        ),
        count: () => countOf(db, sql`SELECT count(*)::int AS total FROM conversions v WHERE ${where}`),
      });
    },
  };
}
export type ConversionsRepository = ReturnType<typeof createConversionsRepository>;

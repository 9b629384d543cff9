import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { rowsOf, type Conn } from './rows';

// Attribution and revenue in SQL, shared by the conversions module (which records and credits
// conversions) and the reads that show revenue (a campaign's summary, the overview; per variant
// later). A conversion's credit is fixed when it is recorded (docs/conversions.md); these only read it.

/**
 * The campaigns a conversion may be credited to: the team's own, not a send test (their messages go
 * to the team's own numbers, not to customers).
 */
const CREDITABLE = sql.raw(`NOT c.is_test AND c.test_of IS NULL`);

/**
 * The message a conversion of `phoneNumber` at `occurredAt` is credited to, and how: the last human
 * click (a link-preview bot's fetch is no person's) on a tracked link of a message to that number
 * within `clickWindowDays` before the order; failing that, the last campaign message delivered to it
 * within `viewWindowHours` before the order. Both edges are inclusive (a click exactly the window
 * before counts); a click or delivery after the order never does. A window of 0 is off. One statement.
 */
export function attributionQuery(teamId: number, phoneNumber: string, occurredAt: Date, windows: { clickWindowDays: number; viewWindowHours: number }): SQL {
  return sql`
    WITH click AS (
      SELECT m.id AS message_id, m.campaign_id, 'click' AS attributed_by
        FROM messages m
        JOIN campaigns c ON c.id = m.campaign_id AND c.team_id = ${teamId} AND ${CREDITABLE}
        JOIN short_links s ON s.message_id = m.id
        JOIN link_clicks k ON k.code = s.code AND NOT k.is_bot
       WHERE m.phone_number = ${phoneNumber} AND ${windows.clickWindowDays} > 0
         AND k.clicked_at <= ${occurredAt} AND k.clicked_at >= ${occurredAt}::timestamptz - make_interval(days => ${windows.clickWindowDays})
       ORDER BY k.clicked_at DESC, k.id DESC LIMIT 1),
    view AS (
      SELECT m.id AS message_id, m.campaign_id, 'view' AS attributed_by
        FROM messages m
        JOIN campaigns c ON c.id = m.campaign_id AND c.team_id = ${teamId} AND ${CREDITABLE}
       WHERE m.phone_number = ${phoneNumber} AND m.status = 'delivered' AND ${windows.viewWindowHours} > 0
         AND m.finished_at <= ${occurredAt} AND m.finished_at >= ${occurredAt}::timestamptz - make_interval(hours => ${windows.viewWindowHours})
       ORDER BY m.finished_at DESC, m.id DESC LIMIT 1)
    SELECT message_id::int AS "messageId", campaign_id::int AS "campaignId", attributed_by AS "attributedBy"
      FROM (SELECT *, 1 AS rank FROM click UNION ALL SELECT *, 2 AS rank FROM view) credit
     ORDER BY rank LIMIT 1`;
}
export const AttributionRowSchema = z.object({ messageId: z.number(), campaignId: z.number(), attributedBy: z.enum(['click', 'view']) });
export type AttributionRow = z.output<typeof AttributionRowSchema>;

/**
 * The attributed revenue of a team's campaigns grouped by message: one row per message, currency
 * (`message_id`, `campaign_id`, `currency`, `value`, `orders`). A fragment to select from: a reader
 * joins `messages` on `message_id` to group by what a message carries (a variant, a segment), or sums
 * by `campaign_id`. `campaigns` narrows it (an `IN` list or subquery of campaign ids); absent, every
 * campaign of the team.
 */
export function attributedRevenueByMessage(teamId: number, campaigns?: SQL): SQL {
  return sql`(SELECT v.message_id, v.campaign_id, v.currency, sum(v.value) AS value, count(*)::int AS orders
                FROM conversions v
               WHERE v.team_id = ${teamId} AND v.campaign_id IS NOT NULL AND v.message_id IS NOT NULL
                 ${campaigns ? sql`AND v.campaign_id IN ${campaigns}` : sql``}
               GROUP BY v.message_id, v.campaign_id, v.currency)`;
}

const RevenueRowSchema = z.object({ currency: z.string(), value: z.coerce.number(), orders: z.number() });
export type RevenueRow = z.output<typeof RevenueRowSchema>;

/** A campaign's attributed revenue, by currency (largest first). */
export function campaignRevenue(conn: Conn, teamId: number, campaignId: number): Promise<RevenueRow[]> {
  return rowsOf(
    conn,
    RevenueRowSchema,
    sql`SELECT r.currency, sum(r.value)::text AS value, sum(r.orders)::int AS orders
          FROM ${attributedRevenueByMessage(teamId, sql`(${campaignId})`)} r
         GROUP BY r.currency ORDER BY sum(r.value) DESC, r.currency`,
  );
}

/** A team's attributed revenue of orders placed in [from, to) (moments, or SQL for them), by currency (largest first): the overview's figure. */
export function attributedRevenueBetween(conn: Conn, teamId: number, from: Date | SQL, to: Date | SQL): Promise<RevenueRow[]> {
  return rowsOf(
    conn,
    RevenueRowSchema,
    sql`SELECT currency, sum(value)::text AS value, count(*)::int AS orders FROM conversions
         WHERE team_id = ${teamId} AND campaign_id IS NOT NULL AND occurred_at >= ${from} AND occurred_at < ${to}
         GROUP BY currency ORDER BY sum(value) DESC, currency`,
  );
}

/** Whether the team has recorded any conversion: revenue is shown only to a team that reports orders. */
export async function hasConversions(conn: Conn, teamId: number): Promise<boolean> {
  const { rows } = await conn.execute(sql`SELECT 1 FROM conversions WHERE team_id = ${teamId} LIMIT 1`);
  return rows.length > 0;
}

/** Revenue as the API shows it: the team's currency's orders and total, and the other currencies apart (never converted). */
export type RevenueFigures = { orders: number; revenue: number; revenue_other: Array<{ currency: string; value: number; orders: number }> };

/** Splits revenue rows by currency into the team's own and the others. */
export function revenueFigures(rows: RevenueRow[], teamCurrency: string): RevenueFigures {
  const own = rows.find((row) => row.currency === teamCurrency);
  return {
    orders: own?.orders ?? 0,
    revenue: own ? Math.round(own.value * 100) / 100 : 0,
    revenue_other: rows
      .filter((row) => row.currency !== teamCurrency)
      .map((row) => ({ currency: row.currency, value: Math.round(row.value * 100) / 100, orders: row.orders })),
  };
}

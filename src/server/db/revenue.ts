import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { MomentSchema, rowsOf, type Conn } from './rows';

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

// Revenue per segment (issue 35). A campaign's start records which of its included segments each
// recipient matched (campaign_audience.segment_ids, migration 0052); these read that record, never
// the segments evaluated again, so a number that stops matching later keeps its place. A recipient
// in two segments counts in both; one its groups alone brought, in none.

const SegmentRecipientsRowSchema = z.object({ campaignId: z.number(), segmentId: z.number(), recipients: z.number() });
const SegmentRevenueRowSchema = z.object({ campaignId: z.number(), segmentId: z.number(), currency: z.string(), value: z.coerce.number(), orders: z.number() });
const CampaignSegmentRowSchema = z.object({ id: z.number(), uuid: z.string(), name: z.string() });
const SegmentCampaignRowSchema = z.object({ id: z.number(), uuid: z.string(), name: z.string(), startedAt: MomentSchema.nullable() });

/** The figures of one segment in one campaign, as the API shows them. */
export type SegmentFigures = RevenueFigures & { recipients: number; revenue_per_recipient: number | null };

/** Per campaign of `campaignIds` and segment: the recipients it brought, and the revenue credited to the messages to them by currency. `segmentId` narrows to one segment. */
async function bySegment(conn: Conn, teamId: number, campaignIds: number[], segmentId?: number) {
  const ids = sql`${sql.param(campaignIds)}::bigint[]`;
  const one = segmentId === undefined ? sql`` : sql` AND s.segment_id = ${segmentId}`;
  const [recipients, revenue] = await Promise.all([
    rowsOf(
      conn,
      SegmentRecipientsRowSchema,
      sql`SELECT a.campaign_id::int AS "campaignId", s.segment_id::int AS "segmentId", count(*)::int AS recipients
            FROM campaign_audience a CROSS JOIN LATERAL unnest(a.segment_ids) AS s(segment_id)
           WHERE a.campaign_id = ANY(${ids})${one}
           GROUP BY 1, 2`,
    ),
    rowsOf(
      conn,
      SegmentRevenueRowSchema,
      sql`SELECT r.campaign_id::int AS "campaignId", s.segment_id::int AS "segmentId", r.currency, sum(r.value)::text AS value, sum(r.orders)::int AS orders
            FROM ${attributedRevenueByMessage(teamId, sql`(SELECT unnest(${ids}))`)} r
            JOIN messages m ON m.id = r.message_id
            JOIN campaign_audience a ON a.campaign_id = r.campaign_id AND a.phone_number = m.phone_number
            CROSS JOIN LATERAL unnest(a.segment_ids) AS s(segment_id)
           WHERE true${one}
           GROUP BY 1, 2, 3 ORDER BY sum(r.value) DESC, r.currency`,
    ),
  ]);
  return (campaignId: number, segment: number, teamCurrency: string): SegmentFigures => {
    const count = recipients.find((row) => row.campaignId === campaignId && row.segmentId === segment)?.recipients ?? 0;
    const figures = revenueFigures(
      revenue.filter((row) => row.campaignId === campaignId && row.segmentId === segment),
      teamCurrency,
    );
    return { recipients: count, ...figures, revenue_per_recipient: count > 0 ? Math.round((figures.revenue / count) * 10_000) / 10_000 : null };
  };
}

/** A started campaign's revenue per included segment, in the campaign's order (segments deleted since are left out). */
export async function campaignSegmentRevenue(conn: Conn, teamId: number, campaignId: number, teamCurrency: string) {
  const segments = await rowsOf(
    conn,
    CampaignSegmentRowSchema,
    sql`SELECT s.id::int AS id, s.uuid::text AS uuid, s.name FROM campaign_segments cs JOIN segments s ON s.id = cs.segment_id
         WHERE cs.campaign_id = ${campaignId} AND cs.kind = 'included' ORDER BY cs.position`,
  );
  if (segments.length === 0) return [];
  const figuresOf = await bySegment(conn, teamId, [campaignId]);
  return segments.map((segment) => ({ segment_uuid: segment.uuid, name: segment.name, ...figuresOf(campaignId, segment.id, teamCurrency) }));
}

/**
 * The latest `limit` started campaigns of the team that sent to the segment (newest first), each
 * with that segment's figures; `more` when older ones were left out.
 */
export async function segmentCampaignRevenue(conn: Conn, teamId: number, segmentId: number, teamCurrency: string, limit: number) {
  const campaigns = await rowsOf(
    conn,
    SegmentCampaignRowSchema,
    sql`SELECT k.id::int AS id, k.uuid::text AS uuid, k.name, k.started_sending_at AS "startedAt"
          FROM campaign_segments cs JOIN campaigns k ON k.id = cs.campaign_id
         WHERE cs.segment_id = ${segmentId} AND cs.kind = 'included' AND k.team_id = ${teamId} AND k.status <> 0
         ORDER BY k.started_sending_at DESC NULLS LAST, k.id DESC LIMIT ${limit + 1}`,
  );
  const shown = campaigns.slice(0, limit);
  const figuresOf = await bySegment(
    conn,
    teamId,
    shown.map((campaign) => campaign.id),
    segmentId,
  );
  return { campaigns: shown.map((campaign) => ({ campaign: campaign, ...figuresOf(campaign.id, segmentId, teamCurrency) })), more: campaigns.length > limit };
}

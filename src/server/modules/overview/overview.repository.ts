import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { attributedRevenueBetween, hasConversions } from '../../db/revenue';
import { MomentSchema, oneRowOf, rowsOf } from '../../db/rows';

const DayRowSchema = z.object({
  day: z.string(),
  sent: z.number(),
  delivered: z.number(),
  failed: z.number(),
  unsent: z.number(),
  segments: z.number(),
  human_clicks: z.number(),
  human_clickers: z.number(),
  inbound: z.number(),
  opt_outs: z.number(),
  campaign_opt_outs: z.number(),
  failovers: z.number(),
});
export type OverviewDayRow = z.output<typeof DayRowSchema>;

const PriceSchema = z.object({ price: z.string().nullable(), currency: z.string() });

const SendingRowSchema = z.object({
  uuid: z.string(),
  name: z.string(),
  recipients: z.number(),
  processed: z.number(),
  delivered: z.number(),
  startedAt: MomentSchema.nullable(),
  paused: z.boolean(),
});
const ScheduledRowSchema = z.object({ uuid: z.string(), name: z.string(), sendAt: MomentSchema, recipients: z.number().nullable() });
const ApprovalRowSchema = z.object({
  uuid: z.string(),
  name: z.string(),
  sendAt: MomentSchema,
  requestedAt: MomentSchema.nullable(),
  requestedBy: z.string().nullable(),
});
const ImportRowSchema = z.object({
  uuid: z.string(),
  groupUuid: z.string(),
  groupName: z.string(),
  fileName: z.string().nullable(),
  status: z.enum(['receiving', 'merging', 'completed', 'failed']),
  rowsTotal: z.number(),
  contactsAdded: z.number(),
  createdAt: MomentSchema,
});
const ReportJobRowSchema = z.object({
  uuid: z.string(),
  campaignUuid: z.string(),
  campaignName: z.string(),
  type: z.enum(['delivery', 'alt_delivery', 'recipient', 'sent', 'unsent', 'clicks']),
  status: z.enum(['queued', 'writing', 'mailing', 'sent', 'failed']),
  createdAt: MomentSchema,
});

/** A period as the overview reads it: days `from`..`to` (inclusive) of the zone `zone`. */
export type Period = { from: string; to: string; zone: string };

/**
 * What the overview reads. The period's figures come from the team's hourly counters (migration
 * 0030: at most 24 rows a day, whatever the number of messages, inbound messages and opt-outs); the
 * lists are a few rows each, by index.
 */
export function createOverviewRepository(db: Db) {
  const start = (period: Period) => sql`((${period.from}::date)::timestamp AT TIME ZONE ${period.zone})`;
  const end = (period: Period) => sql`((${period.to}::date + 1)::timestamp AT TIME ZONE ${period.zone})`;
  const int = (expression: ReturnType<typeof sql>) => sql`coalesce(${expression}, 0)::float8`;

  return {
    /** Each day of the period, days without counts included. */
    days: (teamId: number, period: Period): Promise<OverviewDayRow[]> =>
      rowsOf(
        db,
        DayRowSchema,
        sql`
        WITH counted AS (
          SELECT (hour AT TIME ZONE ${period.zone})::date AS day, sum(sent) AS sent, sum(delivered) AS delivered, sum(failed) AS failed,
                 sum(unsent) AS unsent, sum(segments) AS segments, sum(human_clicks) AS human_clicks, sum(human_clickers) AS human_clickers,
                 sum(inbound) AS inbound, sum(opt_outs) AS opt_outs, sum(campaign_opt_outs) AS campaign_opt_outs, sum(failovers) AS failovers
            FROM team_hourly_counts WHERE team_id = ${teamId} AND hour >= ${start(period)} AND hour < ${end(period)}
           GROUP BY 1)
        SELECT to_char(d, 'YYYY-MM-DD') AS day, ${int(sql`c.sent`)} AS sent, ${int(sql`c.delivered`)} AS delivered, ${int(sql`c.failed`)} AS failed,
               ${int(sql`c.unsent`)} AS unsent, ${int(sql`c.segments`)} AS segments, ${int(sql`c.human_clicks`)} AS human_clicks,
               ${int(sql`c.human_clickers`)} AS human_clickers, ${int(sql`c.inbound`)} AS inbound, ${int(sql`c.opt_outs`)} AS opt_outs,
               ${int(sql`c.campaign_opt_outs`)} AS campaign_opt_outs, ${int(sql`c.failovers`)} AS failovers
          FROM generate_series(${period.from}::date, ${period.to}::date, interval '1 day') d
          LEFT JOIN counted c ON c.day = d::date
         ORDER BY d`,
      ),

    /** Whether the team has an SMS connection (the overview then shows its failovers, even none). */
    hasConnections: async (teamId: number): Promise<boolean> =>
      (await oneRowOf(db, z.object({ present: z.boolean() }), sql`SELECT EXISTS (SELECT 1 FROM sms_connections WHERE team_id = ${teamId}) AS present`)).present,

    /** Revenue credited to the team's campaigns, of orders placed in the period (db/revenue.ts); undefined while the team has recorded no conversion. */
    async revenue(teamId: number, period: Period) {
      return (await hasConversions(db, teamId)) ? attributedRevenueBetween(db, teamId, start(period), end(period)) : undefined;
    },

    price: (teamId: number) => oneRowOf(db, PriceSchema, sql`SELECT price_per_segment::text AS price, currency FROM teams WHERE id = ${teamId}`),

    sending: (teamId: number) =>
      rowsOf(
        db,
        SendingRowSchema,
        sql`
        SELECT uuid, name, message_count AS recipients, (submitted_count + delivered_count + failed_count + unsent_count) AS processed,
               delivered_count AS delivered, started_sending_at AS "startedAt", coalesce(manually_paused, false) AS paused
          FROM campaigns WHERE team_id = ${teamId} AND status = 1 AND test_of IS NULL
         ORDER BY started_sending_at, id LIMIT 10`,
      ),

    scheduled: (teamId: number) =>
      rowsOf(
        db,
        ScheduledRowSchema,
        sql`
        SELECT c.uuid, c.name, c.scheduled_send_date AS "sendAt",
               (SELECT sum(g.contact_count) FROM campaign_groups cg JOIN contact_groups g ON g.id = cg.contact_group_id
                 WHERE cg.campaign_id = c.id AND cg.kind = 'included')::int AS recipients
          FROM campaigns c
         WHERE c.team_id = ${teamId} AND c.status = 0 AND NOT c.is_draft AND c.stopped_at IS NULL AND c.test_of IS NULL
           AND c.approval_status IN ('not_required', 'approved')
         ORDER BY c.scheduled_send_date, c.id LIMIT 5`,
      ),

    awaitingApproval: (teamId: number) =>
      rowsOf(
        db,
        ApprovalRowSchema,
        sql`
        SELECT c.uuid, c.name, c.scheduled_send_date AS "sendAt", c.approval_requested_at AS "requestedAt", u.name AS "requestedBy"
          FROM campaigns c LEFT JOIN users u ON u.id = c.approval_requested_by
         WHERE c.team_id = ${teamId} AND c.approval_status = 'pending' AND c.status = 0 AND c.stopped_at IS NULL
         ORDER BY c.approval_requested_at NULLS LAST, c.id LIMIT 10`,
      ),

    recentImports: (teamId: number) =>
      rowsOf(
        db,
        ImportRowSchema,
        sql`
        SELECT i.uuid, g.uuid AS "groupUuid", g.name AS "groupName", i.file_name AS "fileName", i.status, i.rows_total AS "rowsTotal",
               i.contacts_added AS "contactsAdded", i.created_at AS "createdAt"
          FROM contact_imports i JOIN contact_groups g ON g.id = i.contact_group_id
         WHERE i.team_id = ${teamId} ORDER BY i.created_at DESC, i.id DESC LIMIT 5`,
      ),

    recentReportJobs: (teamId: number, userId: number) =>
      rowsOf(
        db,
        ReportJobRowSchema,
        sql`
        SELECT j.uuid, c.uuid AS "campaignUuid", c.name AS "campaignName", j.type, j.status, j.created_at AS "createdAt"
          FROM report_jobs j JOIN campaigns c ON c.id = j.campaign_id
         WHERE j.user_id = ${userId} AND j.team_id = ${teamId} ORDER BY j.created_at DESC LIMIT 5`,
      ),
  };
}
export type OverviewRepository = ReturnType<typeof createOverviewRepository>;

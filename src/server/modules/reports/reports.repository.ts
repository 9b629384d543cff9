import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { ReportTypeSchema, type ReportType } from '../../../shared/contract';
import type { Db, Tx } from '../../db/client';
import { countOf, readPage, type Page } from '../../db/pages';
import { firstRowOf, MomentSchema, rowsOf } from '../../db/rows';

const GroupSchema = z.object({ id: z.number(), name: z.string(), description: z.string().nullable(), headers: z.array(z.string()) });

/** What every report of a campaign needs besides its rows (its groups as the statement reads them). */
const ReportCampaignRowSchema = z.object({
  id: z.number(),
  uuid: z.string(),
  name: z.string(),
  sender: z.string(),
  status: z.number(),
  expiryDate: MomentSchema,
  startedSendingAt: z.string().nullable(),
  messageCount: z.number(),
  unsentCount: z.number(),
  clickCount: z.number(),
  templateUuid: z.string(),
  templateName: z.string(),
  templateBody: z.string(),
  groups: z.array(GroupSchema),
});
export type ReportCampaign = Omit<z.output<typeof ReportCampaignRowSchema>, 'groups'> & {
  /** The campaign's included groups (and any group its messages name), by id. */
  groups: Map<number, { name: string; description: string | null; headers: string[] }>;
};

/** A message as the per-message reports read it; times as epoch milliseconds (cheap to read at a million rows). */
const MessageRowSchema = z.object({
  n: z.number(),
  uuid: z.string(),
  phone_number: z.string(),
  /** Null when not asked for. */
  custom_fields: z.record(z.string(), z.string()).nullable(),
  status: z.string(),
  reason: z.string().nullable(),
  body: z.string().nullable(),
  submitted_at: z.number().nullable(),
  finished_at: z.number().nullable(),
  contact_group_id: z.number().nullable(),
});
export type MessageRow = z.output<typeof MessageRowSchema>;

const ClickRowSchema = z.object({
  n: z.number(),
  phone_number: z.string(),
  link_name: z.string(),
  destination: z.string(),
  clicked_at: z.number(),
  user_agent: z.string().nullable(),
  device_type: z.string().nullable(),
  os_version: z.string().nullable(),
  browser_version: z.string().nullable(),
});
export type ClickRow = z.output<typeof ClickRowSchema>;

const ReportJobRecordSchema = z.object({
  id: z.number(),
  uuid: z.string(),
  teamId: z.number(),
  userId: z.number(),
  campaignId: z.number(),
  campaignUuid: z.string(),
  campaignName: z.string(),
  type: ReportTypeSchema,
  status: z.enum(['queued', 'writing', 'mailing', 'sent', 'failed']),
  email: z.string(),
  fileName: z.string().nullable(),
  rowCount: z.number().nullable(),
  attempts: z.number(),
  error: z.string().nullable(),
  linkExpiresAt: MomentSchema.nullable(),
  createdAt: MomentSchema,
  updatedAt: MomentSchema,
});
export type ReportJobRecord = z.output<typeof ReportJobRecordSchema>;

/** One claim of a job: its token changes at every claim, and fences every write that moves the job on. */
export type ReportLease = { jobId: number; token: string };

/** A job as its worker holds it: the record, and the lease it holds it under. */
export type ClaimedReportJob = ReportJobRecord & { lease: ReportLease };

const JOB_COLUMNS = sql`j.id, j.uuid, j.team_id AS "teamId", j.user_id AS "userId", j.campaign_id AS "campaignId", c.uuid AS "campaignUuid",
  c.name AS "campaignName", j.type, j.status, j.email, j.file_name AS "fileName", j.row_count AS "rowCount", j.attempts, j.error,
  j.link_expires_at AS "linkExpiresAt", j.created_at AS "createdAt", j.updated_at AS "updatedAt"`;

/**
 * Report rows straight from the engine's rows. Each read is an index range: messages by
 * (campaign, sequence), unsent messages by (campaign, unsent_sequence), clicks by (campaign, sequence).
 */
export function createReportsRepository(db: Db, timeZone: string) {
  const local = (column: ReturnType<typeof sql.raw>) => sql`to_char(${column} AT TIME ZONE ${timeZone}, 'YYYY-MM-DD HH24:MI:SS')`;
  // A float8 is read as a number; a timestamptz would be parsed into a Date, several times slower.
  // date_part, not extract: extract computes in numeric, slower at a million rows.
  const epochMs = (column: ReturnType<typeof sql.raw>) => sql`date_part('epoch', ${column}) * 1000`;

  return {
    async campaign(teamId: number, uuid: string): Promise<ReportCampaign | undefined> {
      const row = await firstRowOf(
        db,
        ReportCampaignRowSchema,
        sql`
        SELECT c.id, c.uuid, c.name, c.sender, c.status, c.expiry_date AS "expiryDate",
               ${local(sql.raw('c.started_sending_at'))} AS "startedSendingAt",
               c.message_count AS "messageCount", c.unsent_count AS "unsentCount", c.click_count AS "clickCount",
               t.uuid AS "templateUuid", t.name AS "templateName", t.body AS "templateBody",
               coalesce((SELECT json_agg(json_build_object('id', g.id, 'name', g.name, 'description', g.description, 'headers', g.headers))
                           FROM contact_groups g WHERE g.id IN (SELECT contact_group_id FROM campaign_groups WHERE campaign_id = c.id)), '[]') AS groups
          FROM campaigns c JOIN templates t ON t.id = c.template_id
         WHERE c.team_id = ${teamId} AND c.uuid = ${uuid.toLowerCase()}`,
      );
      if (!row) return undefined;
      return { ...row, groups: new Map(row.groups.map((g) => [g.id, { name: g.name, description: g.description, headers: g.headers }])) };
    },

    /** A group a message names that is no longer among the campaign's groups (edited since); usually none. */
    async groups(ids: number[]): Promise<Map<number, { name: string; description: string | null; headers: string[] }>> {
      if (ids.length === 0) return new Map();
      const rows = await rowsOf(
        db,
        GroupSchema,
        sql`
        SELECT id, name, description, headers FROM contact_groups WHERE id = ANY(${sql.param(ids)}::bigint[])`,
      );
      return new Map(rows.map((g) => [g.id, { name: g.name, description: g.description, headers: g.headers }]));
    },

    /**
     * Messages numbered `first`..`last` (by sequence, or by unsent_sequence for the unsent report).
     * Without `withFields`, custom fields are not read (the delivery report has none: a third of its cost).
     */
    async messages(campaignId: number, numbering: 'sequence' | 'unsent_sequence', first: number, last: number, withFields = true): Promise<MessageRow[]> {
      const n = sql.raw(`m.${numbering}`);
      return rowsOf(
        db,
        MessageRowSchema,
        sql`
        SELECT ${n} AS n, m.uuid, m.phone_number, ${withFields ? sql`m.custom_fields` : sql`NULL`} AS custom_fields, m.status, m.reason, m.body,
               ${epochMs(sql.raw('m.submitted_at'))} AS submitted_at, ${epochMs(sql.raw('m.finished_at'))} AS finished_at, m.contact_group_id
          FROM messages m
         WHERE m.campaign_id = ${campaignId} AND ${n} BETWEEN ${first} AND ${last}
         ORDER BY ${n}`,
      );
    },

    async clicks(campaignId: number, first: number, last: number): Promise<ClickRow[]> {
      return rowsOf(
        db,
        ClickRowSchema,
        sql`
        SELECT k.sequence AS n, m.phone_number, s.link_name, s.destination, ${epochMs(sql.raw('k.clicked_at'))} AS clicked_at,
               k.user_agent, k.device_type, k.os_version, k.browser_version
          FROM link_clicks k JOIN short_links s ON s.code = k.code JOIN messages m ON m.id = s.message_id
         WHERE k.campaign_id = ${campaignId} AND k.sequence BETWEEN ${first} AND ${last}
         ORDER BY k.sequence`,
      );
    },

    async insertJob(job: { teamId: number; userId: number; campaignId: number; type: ReportType; email: string }, now: Date): Promise<void> {
      await db.execute(sql`
        INSERT INTO report_jobs (team_id, user_id, campaign_id, type, email, next_attempt_at, created_at, updated_at)
        VALUES (${job.teamId}, ${job.userId}, ${job.campaignId}, ${job.type}, ${job.email}, ${now}, ${now}, ${now})`);
    },

    jobsOf: (userId: number, teamId: number, window: { limit: number; offset: number }): Promise<Page<ReportJobRecord>> =>
      readPage({
        rows: rowsOf(
          db,
          ReportJobRecordSchema,
          sql`
          SELECT ${JOB_COLUMNS} FROM report_jobs j JOIN campaigns c ON c.id = j.campaign_id
           WHERE j.user_id = ${userId} AND j.team_id = ${teamId}
           ORDER BY j.created_at DESC, j.id DESC LIMIT ${window.limit} OFFSET ${window.offset}`,
        ),
        count: () => countOf(db, sql`SELECT count(*)::int AS total FROM report_jobs WHERE user_id = ${userId} AND team_id = ${teamId}`),
      }),

    job: (uuid: string): Promise<ReportJobRecord | undefined> =>
      firstRowOf(
        db,
        ReportJobRecordSchema,
        sql`SELECT ${JOB_COLUMNS} FROM report_jobs j JOIN campaigns c ON c.id = j.campaign_id WHERE j.uuid = ${uuid.toLowerCase()}`,
      ),

    /**
     * Leases the next due job: one queued or waiting to be mailed again, or one whose worker died
     * mid-way (lease ended). SKIP LOCKED keeps workers apart; the lease hands it over after a crash.
     * Each claim draws a new token: the writes below apply only while the job still carries it.
     */
    async claimJob(now: Date, leaseMs: number): Promise<ClaimedReportJob | undefined> {
      const claimed = await firstRowOf(
        db,
        z.object({ id: z.number(), lease_token: z.number() }),
        sql`
        UPDATE report_jobs SET lease_until = ${new Date(now.getTime() + leaseMs)}, attempts = attempts + 1, lease_token = nextval('report_job_lease_tokens'),
                               status = CASE status WHEN 'queued' THEN 'writing' ELSE status END, updated_at = ${now}
         WHERE id = (
           SELECT id FROM report_jobs
            WHERE status IN ('queued', 'writing', 'mailing') AND next_attempt_at <= ${now} AND (lease_until IS NULL OR lease_until < ${now})
            ORDER BY next_attempt_at, id LIMIT 1 FOR UPDATE SKIP LOCKED)
        RETURNING id, lease_token`,
      );
      if (!claimed) return undefined;
      const job = await firstRowOf(
        db,
        ReportJobRecordSchema,
        sql`SELECT ${JOB_COLUMNS} FROM report_jobs j JOIN campaigns c ON c.id = j.campaign_id WHERE j.id = ${claimed.id}`,
      );
      return job ? { ...job, lease: { jobId: claimed.id, token: String(claimed.lease_token) } } : undefined;
    },

    /** Extends the lease of a job still in hand; false once another worker has claimed it since. */
    async renew(lease: ReportLease, now: Date, leaseMs: number): Promise<boolean> {
      const result = await db.execute(sql`
        UPDATE report_jobs SET lease_until = ${new Date(now.getTime() + leaseMs)}
         WHERE id = ${lease.jobId} AND lease_token = ${lease.token} AND status IN ('writing', 'mailing')`);
      return result.rowCount === 1;
    },

    /**
     * The CSV is written: next, the e-mail (the link's expiry is fixed now, so every retry sends the same link).
     * `publish` (the rename into place) runs while the job's row is locked under this lease: no newer
     * attempt can be claimed meanwhile, so a file is put in place only by the attempt that owns the
     * job. False, with nothing published, when the job was taken over. In the caller's transaction
     * (the row stays locked until it ends).
     */
    async written(
      tx: Tx,
      lease: ReportLease,
      file: { fileName: string; rowCount: number; linkExpiresAt: Date },
      now: Date,
      publish?: () => Promise<void>,
    ): Promise<boolean> {
      const { rows: ours } = await tx.execute(sql`SELECT 1 FROM report_jobs WHERE id = ${lease.jobId} AND lease_token = ${lease.token} FOR UPDATE`);
      if (ours.length === 0) return false;
      await publish?.();
      await tx.execute(sql`
        UPDATE report_jobs SET status = 'mailing', file_name = ${file.fileName}, row_count = ${file.rowCount}, link_expires_at = ${file.linkExpiresAt},
                               attempts = 1, error = NULL, updated_at = ${now}
         WHERE id = ${lease.jobId}`);
      return true;
    },

    /** The e-mail went; false when the job had been taken over meanwhile (the newer attempt finishes it). */
    async mailed(lease: ReportLease, now: Date): Promise<boolean> {
      const result = await db.execute(sql`
        UPDATE report_jobs SET status = 'sent', lease_until = NULL, error = NULL, updated_at = ${now}
         WHERE id = ${lease.jobId} AND lease_token = ${lease.token}`);
      return result.rowCount === 1;
    },

    /** A failed attempt: tried again at `retryAt`, or given up (`retryAt` null). False when the job was taken over. */
    async attemptFailed(lease: ReportLease, error: string, retryAt: Date | null, now: Date): Promise<boolean> {
      const result = await db.execute(sql`
        UPDATE report_jobs SET error = ${error}, lease_until = NULL, updated_at = ${now},
                               status = CASE WHEN ${retryAt === null} THEN 'failed' ELSE status END,
                               next_attempt_at = coalesce(${retryAt}::timestamptz, next_attempt_at)
         WHERE id = ${lease.jobId} AND lease_token = ${lease.token}`);
      return result.rowCount === 1;
    },
  };
}
export type ReportsRepository = ReturnType<typeof createReportsRepository>;

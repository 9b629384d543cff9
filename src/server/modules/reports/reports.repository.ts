import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { ReportJobFiltersSchema, ReportTypeSchema, type DeliveryStatus, type ReportFilters, type ReportType } from '../../../shared/contract';
import type { Db, Tx } from '../../db/client';
import { countOf, readPage, type Page, type PageWindow } from '../../db/pages';
import { firstRowOf, MomentSchema, oneRowOf, rowsOf } from '../../db/rows';
import { containsText } from '../../db/search';

const UuidRowSchema = z.object({ uuid: z.string() });
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

/** A campaign's report summary as the statement reads it: its counters, and what is counted beside them. */
const SummaryRowSchema = z.object({
  uuid: z.string(),
  name: z.string(),
  sender: z.string(),
  status: z.number(),
  startedSendingAt: z.string(),
  finishedSendingAt: z.string(),
  messages: z.number(),
  sent: z.number(),
  delivered: z.number(),
  failedCount: z.number(),
  unsent: z.number(),
  clicksTotal: z.number(),
  clicksHuman: z.number(),
  uniqueHumanClickers: z.number(),
  optOuts: z.number(),
  /** Rows of the delivery report whose Status is Expired; null when not counted (a list). */
  expired: z.number().nullable(),
});
export type SummaryRow = z.output<typeof SummaryRowSchema>;
const ListedSummaryRowSchema = SummaryRowSchema.extend({ total: z.number() });

/**
 * The delivery reports' `Status` as a condition on `messages m`: the SQL of `deliveryStatus`
 * (report-rows.ts). The filter tests check that every row a filter returns has that Status.
 */
const STATUS_CONDITIONS: Record<DeliveryStatus, SQL> = {
  Success: sql`m.status = 'delivered'`,
  Pending: sql`m.status IN ('queued', 'submitted')`,
  Expired: sql`((m.status = 'unsent' AND m.reason = 'pending') OR (m.status = 'failed' AND m.reason = 'Expired'))`,
  Failed: sql`((m.status = 'unsent' AND m.reason IS DISTINCT FROM 'pending') OR (m.status = 'failed' AND m.reason IS DISTINCT FROM 'Expired'))`,
};

// A float8 is read as a number; a timestamptz would be parsed into a Date, several times slower.
// date_part, not extract: extract computes in numeric, slower at a million rows.
const epochMs = (column: ReturnType<typeof sql.raw>) => sql`date_part('epoch', ${column}) * 1000`;

/** A MessageRow's columns of `messages m`, numbered by `n` (sequence or unsent_sequence); custom fields only when asked. */
const messageColumns = (n: SQL, withFields: boolean) =>
  sql`${n} AS n, m.uuid, m.phone_number, ${withFields ? sql`m.custom_fields` : sql`NULL`} AS custom_fields, m.status, m.reason, m.body,
      ${epochMs(sql.raw('m.submitted_at'))} AS submitted_at, ${epochMs(sql.raw('m.finished_at'))} AS finished_at, m.contact_group_id`;

/** The recipient's number contains the digits (checked to be digits by the contract: no LIKE wildcard can come in). */
const numberContains = (column: SQL, digits: string) => sql`${column} LIKE ${`%${digits}%`}`;

/** A per-message report's filters as conditions on `messages m` (none when there is none to apply). */
function messageFilters(filters: ReportFilters): SQL[] {
  const conditions: SQL[] = [];
  if (filters.status) conditions.push(STATUS_CONDITIONS[filters.status]);
  // An unsent message without a reason is listed as `pending` (report-rows.ts).
  if (filters.reason) conditions.push(sql`coalesce(m.reason, 'pending') = ${filters.reason}`);
  if (filters.search) conditions.push(numberContains(sql`m.phone_number`, filters.search));
  return conditions;
}

/** The clicks report's rows of `link_clicks k` (with the link and message each click names), numbered by the clicks' sequence. */
const CLICK_COLUMNS = sql`k.sequence AS n, m.phone_number, s.link_name, s.destination, ${epochMs(sql.raw('k.clicked_at'))} AS clicked_at,
  k.user_agent, k.device_type, k.os_version, k.browser_version`;
const CLICKS_FROM = sql`link_clicks k JOIN short_links s ON s.code = k.code JOIN messages m ON m.id = s.message_id`;

const ReportJobRecordSchema = z.object({
  id: z.number(),
  uuid: z.string(),
  teamId: z.number(),
  userId: z.number(),
  campaignId: z.number(),
  campaignUuid: z.string(),
  campaignName: z.string(),
  type: ReportTypeSchema,
  /** The page's filters the report was asked for with (`{}`: every row). */
  filters: ReportJobFiltersSchema,
  status: z.enum(['queued', 'writing', 'mailing', 'sent', 'failed']),
  email: z.string(),
  fileName: z.string().nullable(),
  rowCount: z.number().nullable(),
  /** The attempt whose stored parts are the job's CSV; null while none is kept (not written yet, or removed once its link expired). */
  fileAttempt: z.string().nullable(),
  fileBytes: z.number().nullable(),
  /** The public URL of the API process that received the request; the link is built on it. */
  publicUrl: z.string().nullable(),
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
  c.name AS "campaignName", j.type, j.filters, j.status, j.email, j.file_name AS "fileName", j.row_count AS "rowCount",
  j.file_attempt::text AS "fileAttempt", j.file_bytes AS "fileBytes", j.public_url AS "publicUrl", j.attempts, j.error,
  j.link_expires_at AS "linkExpiresAt", j.created_at AS "createdAt", j.updated_at AS "updatedAt"`;

/**
 * Report rows straight from the engine's rows. Each read is an index range: messages by
 * (campaign, sequence), unsent messages by (campaign, unsent_sequence), clicks by (campaign, sequence).
 */
/** `optOutsOf`: the opt-outs a campaign led to, as a SQL count over the campaign's id (the suppression list's `optOutsOfCampaign`). */
export function createReportsRepository(db: Db, timeZone: string, optOutsOf: (campaignId: SQL) => SQL) {
  const local = (column: ReturnType<typeof sql.raw>) => sql`to_char(${column} AT TIME ZONE ${timeZone}, 'YYYY-MM-DD HH24:MI:SS')`;

  /**
   * A campaign's summary from `campaigns c`, read from its counters: its messages by state, its clicks
   * (`click_count`, and of them people's, not link-preview bots': `human_click_count`, with
   * `human_clicker_count` the messages — one per recipient — a person clicked at least once; kept as
   * clicks come, migration 0030) and its opt-outs (`optOutsOf`, by index). `withExpired` adds the
   * delivery report's `Expired` rows: the unsent `pending` ones through the unsent index, and — only
   * for a campaign that expired with failures — the failed `Expired` ones, which only a read of all its
   * messages finds (about 1 s for a million messages on the loaded 2-core machine of the filter
   * measurements below; the list, without it, reads counters only).
   */
  const summaryColumns = (withExpired: boolean) => sql`
    c.uuid, c.name, c.sender, c.status,
    coalesce(${local(sql.raw('c.started_sending_at'))}, '') AS "startedSendingAt",
    coalesce(${local(sql.raw('c.finished_sending_at'))}, '') AS "finishedSendingAt",
    c.message_count AS messages, c.submitted_count + c.delivered_count + c.failed_count AS sent, c.delivered_count AS delivered,
    c.failed_count AS "failedCount", c.unsent_count AS unsent,
    c.click_count AS "clicksTotal", c.human_click_count AS "clicksHuman", c.human_clicker_count AS "uniqueHumanClickers",
    ${optOutsOf(sql`c.id`)} AS "optOuts",
    ${
      withExpired
        ? sql`(SELECT count(*)::int FROM messages m WHERE m.campaign_id = c.id AND m.unsent_sequence IS NOT NULL AND m.reason = 'pending')
              + CASE WHEN c.expired_at IS NOT NULL AND c.failed_count > 0
                     THEN (SELECT count(*)::int FROM messages m WHERE m.campaign_id = c.id AND m.status = 'failed' AND m.reason = 'Expired') ELSE 0 END`
        : sql`NULL::int`
    } AS expired`;

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
     * Messages numbered `first`..`last` (by sequence, or by unsent_sequence for the unsent report);
     * with `filters`, only those of the range that match them (a whole report streamed under a
     * filter reads its numbering range by range, testing each message). Without `withFields`,
     * custom fields are not read (the delivery report has none: a third of its cost).
     */
    async messages(
      campaignId: number,
      numbering: 'sequence' | 'unsent_sequence',
      first: number,
      last: number,
      withFields = true,
      filters: ReportFilters = {},
    ): Promise<MessageRow[]> {
      const n = sql.raw(`m.${numbering}`);
      const where = sql.join([sql`m.campaign_id = ${campaignId}`, sql`${n} BETWEEN ${first} AND ${last}`, ...messageFilters(filters)], sql` AND `);
      return rowsOf(
        db,
        MessageRowSchema,
        sql`
        SELECT ${messageColumns(n, withFields)}
          FROM messages m
         WHERE ${where}
         ORDER BY ${n}`,
      );
    },

    /**
     * A filtered page of a per-message report (`status`, `reason`, `search`), in the report's order, and
     * its total under the same filter. Unlike the unfiltered pages (index ranges on the numbering),
     * this reads the campaign's messages through (campaign_id, sequence) — or the unsent ones through
     * (campaign_id, unsent_sequence) — and tests each: the page costs what the rows skipped to reach
     * it cost, and the count, run once beside the page, every message of the campaign (the unsent
     * report: every unsent one). No index serves a filter on purpose: every index on messages is paid
     * for by each of a message's writes, and an index on status or reason would stop its settling
     * updates from being HOT. Measured on a campaign of a million messages (5 % failed), on the
     * 2-core machine while other work ran: 0.4–0.9 s a filtered page, against 45–60 ms for an
     * unfiltered one in the same run (3 ms on a quiet machine, BENCHMARKS.md); 1.5 s for a search
     * that matches a single number, since both statements then read every message.
     */
    filteredMessages(
      campaignId: number,
      numbering: 'sequence' | 'unsent_sequence',
      filters: ReportFilters,
      window: PageWindow,
      withFields = true,
    ): Promise<Page<MessageRow>> {
      const n = sql.raw(`m.${numbering}`);
      const conditions = [sql`m.campaign_id = ${campaignId}`];
      if (numbering === 'unsent_sequence') conditions.push(sql`m.unsent_sequence IS NOT NULL`);
      const where = sql.join([...conditions, ...messageFilters(filters)], sql` AND `);
      return readPage({
        rows: rowsOf(
          db,
          MessageRowSchema,
          sql`
          SELECT ${messageColumns(n, withFields)}
            FROM messages m
           WHERE ${where}
           ORDER BY ${n} LIMIT ${window.limit} OFFSET ${window.offset}`,
        ),
        count: () => countOf(db, sql`SELECT count(*)::int AS total FROM messages m WHERE ${where}`),
      });
    },

    /** A page of the clicks whose recipient's number contains `search`, and their total: the campaign's clicks read in order and tested (see filteredMessages). */
    filteredClicks(campaignId: number, search: string, window: PageWindow): Promise<Page<ClickRow>> {
      const where = sql`k.campaign_id = ${campaignId} AND ${numberContains(sql`m.phone_number`, search)}`;
      return readPage({
        rows: rowsOf(
          db,
          ClickRowSchema,
          sql`SELECT ${CLICK_COLUMNS} FROM ${CLICKS_FROM} WHERE ${where} ORDER BY k.sequence LIMIT ${window.limit} OFFSET ${window.offset}`,
        ),
        count: () => countOf(db, sql`SELECT count(*)::int AS total FROM ${CLICKS_FROM} WHERE ${where}`),
      });
    },

    /** One campaign's report summary (see summaryColumns for its cost). */
    summary: (teamId: number, uuid: string): Promise<SummaryRow | undefined> =>
      firstRowOf(db, SummaryRowSchema, sql`SELECT ${summaryColumns(true)} FROM campaigns c WHERE c.team_id = ${teamId} AND c.uuid = ${uuid.toLowerCase()}`),

    /**
     * The summaries of the team's campaigns that have started (send tests aside), last started first,
     * a page and its total in one statement of counters (a page past the end counts again). `expired`
     * is not counted here: it would read every message of each campaign on the page.
     */
    async summaries(teamId: number, window: PageWindow, search?: string): Promise<Page<SummaryRow>> {
      const conditions = [sql`c.team_id = ${teamId}`, sql`c.started_sending_at IS NOT NULL`, sql`NOT c.is_test`];
      if (search) conditions.push(containsText(sql`c.name`, search));
      const where = sql.join(conditions, sql` AND `);
      const page = await readPage({
        rows: rowsOf(
          db,
          ListedSummaryRowSchema,
          sql`
          WITH listed AS (
            SELECT c.*, count(*) OVER ()::int AS total FROM campaigns c WHERE ${where}
             ORDER BY c.started_sending_at DESC, c.id DESC LIMIT ${window.limit} OFFSET ${window.offset})
          SELECT ${summaryColumns(false)}, c.total FROM listed c ORDER BY c.started_sending_at DESC, c.id DESC`,
        ),
        count: () => countOf(db, sql`SELECT count(*)::int AS total FROM campaigns c WHERE ${where}`),
        totalOn: (row) => row.total,
      });
      return { rows: page.rows.map(({ total: _, ...row }) => row), total: page.total };
    },

    /** Clicks numbered `first`..`last`; with `search`, only those of the range whose recipient's number contains it. */
    async clicks(campaignId: number, first: number, last: number, search?: string): Promise<ClickRow[]> {
      const conditions = [sql`k.campaign_id = ${campaignId}`, sql`k.sequence BETWEEN ${first} AND ${last}`];
      if (search) conditions.push(numberContains(sql`m.phone_number`, search));
      return rowsOf(db, ClickRowSchema, sql`SELECT ${CLICK_COLUMNS} FROM ${CLICKS_FROM} WHERE ${sql.join(conditions, sql` AND `)} ORDER BY k.sequence`);
    },

    /** Queues a job; its uuid. */
    async insertJob(
      job: { teamId: number; userId: number; campaignId: number; type: ReportType; filters: ReportFilters; email: string; publicUrl: string },
      now: Date,
    ): Promise<string> {
      const row = await oneRowOf(
        db,
        UuidRowSchema,
        sql`
        INSERT INTO report_jobs (team_id, user_id, campaign_id, type, filters, email, public_url, next_attempt_at, created_at, updated_at)
        VALUES (${job.teamId}, ${job.userId}, ${job.campaignId}, ${job.type}, ${JSON.stringify(job.filters)}::jsonb, ${job.email}, ${job.publicUrl}, ${now}, ${now}, ${now})
        RETURNING uuid::text AS uuid`,
      );
      return row.uuid;
    },

    /** One job of the user in the team (others' jobs are not theirs to follow). */
    jobOf: (userId: number, teamId: number, uuid: string): Promise<ReportJobRecord | undefined> =>
      firstRowOf(
        db,
        ReportJobRecordSchema,
        sql`
        SELECT ${JOB_COLUMNS} FROM report_jobs j JOIN campaigns c ON c.id = j.campaign_id
         WHERE j.uuid = ${uuid.toLowerCase()} AND j.user_id = ${userId} AND j.team_id = ${teamId}`,
      ),

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
     * NO KEY UPDATE, not UPDATE: a stored part's insert (its foreign key) holds KEY SHARE on the job's
     * row, which UPDATE would conflict with, and SKIP LOCKED would then pass over a job whose lease
     * has ended while a stale attempt stores a part; NO KEY UPDATE still excludes another claim and `written`.
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
            ORDER BY next_attempt_at, id LIMIT 1 FOR NO KEY UPDATE SKIP LOCKED)
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
     * Publishes the attempt's stored parts as the job's file (`file_attempt`) while the job's row is
     * locked under this lease: no newer attempt can be claimed meanwhile, so only the attempt that
     * owns the job makes its parts a file, and a download never sees another attempt's (or half of
     * one). False, with nothing published, when the job was taken over. In the caller's transaction
     * (the row stays locked until it ends).
     */
    async written(tx: Tx, lease: ReportLease, file: { fileName: string; rowCount: number; bytes: number; linkExpiresAt: Date }, now: Date): Promise<boolean> {
      const { rows: ours } = await tx.execute(sql`SELECT 1 FROM report_jobs WHERE id = ${lease.jobId} AND lease_token = ${lease.token} FOR NO KEY UPDATE`);
      if (ours.length === 0) return false;
      await tx.execute(sql`
        UPDATE report_jobs SET status = 'mailing', file_name = ${file.fileName}, row_count = ${file.rowCount}, link_expires_at = ${file.linkExpiresAt},
                               file_attempt = ${lease.token}, file_bytes = ${file.bytes}, attempts = 1, error = NULL, updated_at = ${now}
         WHERE id = ${lease.jobId}`);
      return true;
    },

    /** Stores one part of an attempt's CSV (binary, straight from the buffer). */
    async putPart(jobId: number, attempt: string, part: number, data: Buffer): Promise<void> {
      await db.$client.query('INSERT INTO report_file_parts (job_id, attempt, part, data) VALUES ($1, $2, $3, $4)', [jobId, attempt, part, data]);
    },

    /** One stored part of a CSV; undefined past the last. */
    async part(jobId: number, attempt: string, part: number): Promise<Buffer | undefined> {
      const { rows } = await db.$client.query<{ data: Buffer }>('SELECT data FROM report_file_parts WHERE job_id = $1 AND attempt = $2 AND part = $3', [
        jobId,
        attempt,
        part,
      ]);
      return rows[0]?.data;
    },

    /** Removes the parts an attempt stored, unless they are the job's published file. */
    async discardParts(jobId: number, attempt: string): Promise<void> {
      await db.execute(sql`
        DELETE FROM report_file_parts p WHERE p.job_id = ${jobId} AND p.attempt = ${attempt}
           AND p.attempt IS DISTINCT FROM (SELECT file_attempt FROM report_jobs WHERE id = ${jobId})`);
    },

    /** Publishes stored parts as a job's file outside any lease (a one-off run, a file written before reports lived here). */
    async storeFile(jobId: number, attempt: string, file: { fileName: string; rowCount: number; bytes: number }): Promise<void> {
      await db.execute(sql`
        UPDATE report_jobs SET file_name = ${file.fileName}, row_count = ${file.rowCount}, file_attempt = ${attempt}, file_bytes = ${file.bytes}
         WHERE id = ${jobId}`);
    },

    /**
     * Removes stored reports no link can reach any more: every part of a job whose link has expired
     * (the job then keeps no file), and the parts of attempts that can never publish them: fenced by a
     * newer claim, or of a job already written, mailed or given up, or of an attempt that recorded its
     * failure (its lease let go). The parts of an attempt that still holds its job's current claim are
     * kept even when its lease looks over (it may only be slow to renew, and could still publish).
     */
    async sweepParts(now: Date): Promise<{ expiredJobs: number; parts: number; bytes: number }> {
      return db.transaction(async (tx) => {
        const expired = await tx.execute(sql`
          UPDATE report_jobs SET file_attempt = NULL, file_bytes = NULL
           WHERE link_expires_at <= ${now} AND (file_attempt IS NOT NULL OR EXISTS (SELECT 1 FROM report_file_parts p WHERE p.job_id = report_jobs.id))`);
        const { rows } = await tx.execute<{ parts: number; bytes: number }>(sql`
          WITH removed AS (
            DELETE FROM report_file_parts p USING report_jobs j
             WHERE j.id = p.job_id
               AND (j.link_expires_at <= ${now}
                    OR (p.attempt IS DISTINCT FROM j.file_attempt
                        AND (j.status <> 'writing' OR j.lease_token IS DISTINCT FROM p.attempt OR j.lease_until IS NULL)))
            RETURNING octet_length(p.data) AS size)
          SELECT count(*)::int AS parts, coalesce(sum(size), 0)::bigint AS bytes FROM removed`);
        return { expiredJobs: expired.rowCount ?? 0, parts: rows[0]!.parts, bytes: Number(rows[0]!.bytes) };
      });
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

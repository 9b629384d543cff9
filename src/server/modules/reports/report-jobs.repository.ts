import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { ReportJobFiltersSchema, ReportTypeSchema, type ReportFilters, type ReportType } from '../../../shared/contract';
import type { Db, Tx } from '../../db/client';
import { countOf, readPage, type Page } from '../../db/pages';
import { firstRowOf, MomentSchema, oneRowOf, rowsOf, type Conn } from '../../db/rows';

const UuidRowSchema = z.object({ uuid: z.string() });

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
 * Report jobs: the CSV a user asks to have e-mailed, its claims and leases (the worker), and its
 * stored parts (what a download link reads).
 */
export function createReportJobsRepository(db: Db) {
  return {
    /** Queues a job (in the caller's transaction when given one); its uuid. */
    async insertJob(
      job: { teamId: number; userId: number; campaignId: number; type: ReportType; filters: ReportFilters; email: string; publicUrl: string },
      now: Date,
      conn: Conn = db,
    ): Promise<string> {
      const row = await oneRowOf(
        conn,
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
export type ReportJobsRepository = ReturnType<typeof createReportJobsRepository>;

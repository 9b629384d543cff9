import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { JOB_STATES } from '../../shared/contract';
import type { Db } from '../db/client';
import { countOf, readPage, type Page, type PageWindow } from '../db/pages';
import { MomentSchema, rowsOf } from '../db/rows';

/** Every queue the metric `herald_jobs` counts: the team's (the admin list) and the installation's account e-mails. */
export const ALL_JOB_QUEUES = ['report', 'account_mail', 'event_delivery', 'reply'] as const;
export type JobQueueName = (typeof ALL_JOB_QUEUES)[number];
export type JobState = (typeof JOB_STATES)[number];

/**
 * The jobs not yet done or given up, one row each, read from each queue's own table: `running` while
 * a worker's lease on it runs, `queued` while it waits to run or for its retry, `failed` once given
 * up. Account e-mails belong to no team (`team_id` null). Replies are the engine's (sent within the
 * gateway's rate), listed here so all waiting work is seen in one place.
 */
export function jobRows(now: Date | SQL): SQL {
  return sql`
    SELECT 'report' AS queue, j.uuid::text AS uuid, j.team_id,
           CASE WHEN j.status = 'failed' THEN 'failed' WHEN j.lease_until > ${now} THEN 'running' ELSE 'queued' END AS state,
           j.attempts, j.error AS last_error, j.next_attempt_at, j.created_at
      FROM report_jobs j WHERE j.status IN ('queued', 'writing', 'mailing', 'failed')
    UNION ALL
    SELECT 'account_mail', NULL, NULL,
           CASE WHEN m.given_up_at IS NOT NULL THEN 'failed' WHEN m.leased_until > ${now} THEN 'running' ELSE 'queued' END,
           m.attempts, m.last_error, m.next_attempt_at, m.created_at
      FROM account_emails m WHERE m.sent_at IS NULL
    UNION ALL
    SELECT 'event_delivery', d.uuid::text, e.team_id,
           CASE WHEN d.status = 'failed' THEN 'failed' WHEN d.leased_until > ${now} THEN 'running' ELSE 'queued' END,
           d.attempts, d.last_error, d.next_attempt_at, d.created_at
      FROM event_deliveries d JOIN event_endpoints e ON e.id = d.endpoint_id WHERE d.status IN ('pending', 'failed')
    UNION ALL
    SELECT 'reply', r.uuid::text, r.team_id,
           CASE WHEN r.status = 'failed' THEN 'failed' WHEN r.lease_until > ${now} THEN 'running' ELSE 'queued' END,
           0, r.reason, r.created_at, r.created_at
      FROM outbound_replies r WHERE r.status IN ('queued', 'failed')`;
}

const JobRowSchema = z.object({
  queue: z.enum(['report', 'event_delivery', 'reply']),
  uuid: z.string(),
  state: z.enum(['queued', 'running', 'failed']),
  attempts: z.number(),
  last_error: z.string().nullable(),
  next_attempt_at: MomentSchema,
  created_at: MomentSchema,
});
export type JobRow = z.output<typeof JobRowSchema>;

/** The team's jobs, newest first (the admin list `GET /api/2.0/jobs`). */
export function listJobs(db: Db, now: Date, teamId: number, filter: { queue?: string; state?: string }, window: PageWindow): Promise<Page<JobRow>> {
  const where = sql.join(
    [sql`team_id = ${teamId}`, ...(filter.queue ? [sql`queue = ${filter.queue}`] : []), ...(filter.state ? [sql`state = ${filter.state}`] : [])],
    sql` AND `,
  );
  const rows = sql`(${jobRows(now)}) jobs WHERE ${where}`;
  return readPage({
    rows: rowsOf(
      db,
      JobRowSchema,
      sql`SELECT queue, uuid, state, attempts, last_error, next_attempt_at, created_at FROM ${rows}
           ORDER BY created_at DESC, queue, uuid LIMIT ${window.limit} OFFSET ${window.offset}`,
    ),
    count: () => countOf(db, sql`SELECT count(*)::int AS total FROM ${rows}`),
  });
}

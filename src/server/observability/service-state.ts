import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client';
import { oneRowOf } from '../db/rows';
import { quietUntil } from '../../shared/schedule/quiet-hours';
import { HELD_OWNER } from '../engine/store/unsent';
import { ALL_JOB_QUEUES, jobRows, type JobQueueName, type JobState } from '../jobs/jobs.repository';

export const MESSAGE_STATUSES = ['queued', 'submitted', 'delivered', 'failed', 'unsent'] as const;
export const REPORT_JOB_STATUSES = ['queued', 'writing', 'mailing', 'sent', 'failed'] as const;
export const EVENT_DELIVERY_STATES = ['outbox', 'pending', 'delivered', 'failed'] as const;
export const JOB_METRIC_STATES = ['queued', 'running', 'failed'] as const satisfies readonly JobState[];

/** The service's state as the metrics report it: the same for every process on the database. */
export type ServiceState = {
  messages: Record<(typeof MESSAGE_STATUSES)[number], number>;
  queueDepth: number;
  /** Queued messages of campaigns sending that wait on purpose now: a planned pause, or quiet hours. */
  queueHeld: number;
  reportJobs: Record<(typeof REPORT_JOB_STATUSES)[number], number>;
  inboundMessages: number;
  importRows: number;
  /** Events committed and not yet made into deliveries (`outbox`), and the deliveries kept, by status. */
  eventDeliveries: Record<(typeof EVENT_DELIVERY_STATES)[number], number>;
  /** The background jobs of every queue (jobs/jobs.repository.ts), by state. */
  jobs: Record<JobQueueName, Record<JobState, number>>;
};

const QuietSchema = z.object({ start: z.string(), end: z.string(), days: z.array(z.enum(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'])) });

/** A campaign sending: what is left of it, and what may hold it now. */
const SendingSchema = z.object({
  queued: z.coerce.number(),
  /** Messages in runs held for quiet hours in their numbers' zones (batches owned by no engine until the hours end). */
  held: z.coerce.number(),
  planned_pause: z.boolean(),
  throttled: z.boolean(),
  quiet: QuietSchema.nullable(),
  zone: z.string().nullable(),
});

const StateRowSchema = z.object({
  messages: z.record(z.string(), z.coerce.number()),
  sending: z.array(SendingSchema),
  replies: z.coerce.number(),
  now: z.coerce.date(),
  report_jobs: z.record(z.string(), z.coerce.number()),
  inbound: z.coerce.number(),
  import_rows: z.coerce.number(),
  event_deliveries: z.record(z.string(), z.coerce.number()),
  jobs: z.record(z.string(), z.coerce.number()),
});

/**
 * Reads the state in one statement, from the counters the engine keeps on each campaign as its
 * messages move (one row a campaign, never a scan of messages): `queued` is what is left of a
 * campaign's messages (as its summary counts it). The queue is what the engine would hand over now:
 * campaigns sending (not paused, expired or stopped) and keyword replies waiting. What waits on
 * purpose is held, not queued: a campaign inside one of its planned pauses, a throttled campaign
 * inside its team's quiet hours (its plan pauses then), and runs the engine held for quiet hours in
 * their numbers' zones. Bounded by a statement timeout so a scrape never waits on a slow database for long.
 * Jobs' leases are read on `now`, the clock they were taken on (the database's by default).
 */
export async function readServiceState(db: Db, options: { timeoutMs?: number; defaultZone?: string; now?: Date } = {}): Promise<ServiceState> {
  const timeoutMs = options.timeoutMs ?? 2_000;
  const row = await db.transaction(async (tx) => {
    await tx.execute(sql.raw(`SET LOCAL statement_timeout = ${Math.max(1, Math.floor(timeoutMs))}`));
    return oneRowOf(
      tx,
      StateRowSchema,
      sql`
      WITH left_over AS (
        SELECT id, team_id, throttled, ignore_quiet_hours, status, manually_paused, expired_at, stopped_at, submitted_count, delivered_count, failed_count, unsent_count,
               greatest(0, message_count - submitted_count - delivered_count - failed_count - unsent_count) AS queued
          FROM campaigns)
      SELECT
        (SELECT json_build_object('queued', coalesce(sum(queued), 0), 'submitted', coalesce(sum(submitted_count), 0),
                                  'delivered', coalesce(sum(delivered_count), 0), 'failed', coalesce(sum(failed_count), 0),
                                  'unsent', coalesce(sum(unsent_count), 0))
           FROM left_over) AS messages,
        (SELECT coalesce(json_agg(json_build_object(
                  'queued', l.queued,
                  'held', (SELECT coalesce(sum(b.last_sequence - b.first_sequence + 1), 0) FROM send_batches b
                            WHERE b.campaign_id = l.id AND b.owner = ${HELD_OWNER} AND b.lease_until > now()),
                  'planned_pause', EXISTS (SELECT 1 FROM campaign_pauses p WHERE p.campaign_id = l.id AND p.start_at <= now() AND p.end_at > now()),
                  'throttled', l.throttled,
                  'quiet', CASE WHEN NOT l.ignore_quiet_hours THEN tm.quiet_hours END,
                  'zone', tm.time_zone)), '[]')
           FROM left_over l JOIN teams tm ON tm.id = l.team_id
          WHERE l.status = 1 AND l.manually_paused IS NOT TRUE AND l.expired_at IS NULL AND l.stopped_at IS NULL AND l.queued > 0) AS sending,
        (SELECT count(*) FROM outbound_replies WHERE status = 'queued') AS replies,
        now() AS now,
        (SELECT coalesce(json_object_agg(status, n), '{}') FROM (SELECT status, count(*) AS n FROM report_jobs GROUP BY status) r) AS report_jobs,
        (SELECT count(*) FROM inbound_messages) AS inbound,
        (SELECT coalesce(sum(rows_total), 0) FROM contact_imports) AS import_rows,
        (SELECT coalesce(json_object_agg(status, n), '{}') FROM (SELECT status, count(*) AS n FROM event_deliveries GROUP BY status
                                                                 UNION ALL SELECT 'outbox', count(*) FROM event_outbox) d) AS event_deliveries,
        (SELECT coalesce(json_object_agg(queue || ' ' || state, n), '{}')
           FROM (SELECT queue, state, count(*) AS n FROM (${jobRows(options.now ?? sql`now()`)}) j GROUP BY queue, state) g) AS jobs`,
    );
  });
  const messages = Object.fromEntries(MESSAGE_STATUSES.map((status) => [status, row.messages[status] ?? 0])) as ServiceState['messages'];
  const reportJobs = Object.fromEntries(REPORT_JOB_STATUSES.map((status) => [status, row.report_jobs[status] ?? 0])) as ServiceState['reportJobs'];
  const eventDeliveries = Object.fromEntries(
    EVENT_DELIVERY_STATES.map((state) => [state, row.event_deliveries[state] ?? 0]),
  ) as ServiceState['eventDeliveries'];
  const jobs = Object.fromEntries(
    ALL_JOB_QUEUES.map((queue) => [queue, Object.fromEntries(JOB_METRIC_STATES.map((state) => [state, row.jobs[`${queue} ${state}`] ?? 0]))]),
  ) as ServiceState['jobs'];
  let queueDepth = row.replies;
  let queueHeld = 0;
  for (const campaign of row.sending) {
    const wholly =
      campaign.planned_pause ||
      (campaign.throttled &&
        campaign.quiet !== null &&
        quietUntil(campaign.quiet, campaign.zone ?? options.defaultZone ?? 'Europe/London', row.now.getTime()) !== null);
    const held = wholly ? campaign.queued : Math.min(campaign.queued, campaign.held);
    queueHeld += held;
    queueDepth += campaign.queued - held;
  }
  return { messages, queueDepth, queueHeld, reportJobs, inboundMessages: row.inbound, importRows: row.import_rows, eventDeliveries, jobs };
}

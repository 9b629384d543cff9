import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client';
import { oneRowOf } from '../db/rows';

export const MESSAGE_STATUSES = ['queued', 'submitted', 'delivered', 'failed', 'unsent'] as const;
export const REPORT_JOB_STATUSES = ['queued', 'writing', 'mailing', 'sent', 'failed'] as const;
export const EVENT_DELIVERY_STATES = ['outbox', 'pending', 'delivered', 'failed'] as const;

/** The service's state as the metrics report it: the same for every process on the database. */
export type ServiceState = {
  messages: Record<(typeof MESSAGE_STATUSES)[number], number>;
  queueDepth: number;
  reportJobs: Record<(typeof REPORT_JOB_STATUSES)[number], number>;
  inboundMessages: number;
  importRows: number;
  /** Events committed and not yet made into deliveries (`outbox`), and the deliveries kept, by status. */
  eventDeliveries: Record<(typeof EVENT_DELIVERY_STATES)[number], number>;
};

const StateRowSchema = z.object({
  messages: z.record(z.string(), z.coerce.number()),
  queue_depth: z.coerce.number(),
  report_jobs: z.record(z.string(), z.coerce.number()),
  inbound: z.coerce.number(),
  import_rows: z.coerce.number(),
  event_deliveries: z.record(z.string(), z.coerce.number()),
});

/**
 * Reads the state in one statement, from the counters the engine keeps on each campaign as its
 * messages move (one row a campaign, never a scan of messages): `queued` is what is left of a
 * campaign's messages (as its summary counts it). The queue is what the engine would hand over now:
 * campaigns sending (not paused, expired or stopped) and keyword replies waiting. Bounded by a
 * statement timeout so a scrape never waits on a slow database for long.
 */
export async function readServiceState(db: Db, timeoutMs = 2_000): Promise<ServiceState> {
  const row = await db.transaction(async (tx) => {
    await tx.execute(sql.raw(`SET LOCAL statement_timeout = ${Math.max(1, Math.floor(timeoutMs))}`));
    return oneRowOf(
      tx,
      StateRowSchema,
      sql`
      WITH left_over AS (
        SELECT status, manually_paused, expired_at, stopped_at, submitted_count, delivered_count, failed_count, unsent_count,
               greatest(0, message_count - submitted_count - delivered_count - failed_count - unsent_count) AS queued
          FROM campaigns)
      SELECT
        (SELECT json_build_object('queued', coalesce(sum(queued), 0), 'submitted', coalesce(sum(submitted_count), 0),
                                  'delivered', coalesce(sum(delivered_count), 0), 'failed', coalesce(sum(failed_count), 0),
                                  'unsent', coalesce(sum(unsent_count), 0))
           FROM left_over) AS messages,
        (SELECT coalesce(sum(queued), 0) FROM left_over
          WHERE status = 1 AND manually_paused IS NOT TRUE AND expired_at IS NULL AND stopped_at IS NULL)
          + (SELECT count(*) FROM outbound_replies WHERE status = 'queued') AS queue_depth,
        (SELECT coalesce(json_object_agg(status, n), '{}') FROM (SELECT status, count(*) AS n FROM report_jobs GROUP BY status) r) AS report_jobs,
        (SELECT count(*) FROM inbound_messages) AS inbound,
        (SELECT coalesce(sum(rows_total), 0) FROM contact_imports) AS import_rows,
        (SELECT coalesce(json_object_agg(status, n), '{}') FROM (SELECT status, count(*) AS n FROM event_deliveries GROUP BY status
                                                                 UNION ALL SELECT 'outbox', count(*) FROM event_outbox) d) AS event_deliveries`,
    );
  });
  const messages = Object.fromEntries(MESSAGE_STATUSES.map((status) => [status, row.messages[status] ?? 0])) as ServiceState['messages'];
  const reportJobs = Object.fromEntries(REPORT_JOB_STATUSES.map((status) => [status, row.report_jobs[status] ?? 0])) as ServiceState['reportJobs'];
  const eventDeliveries = Object.fromEntries(
    EVENT_DELIVERY_STATES.map((state) => [state, row.event_deliveries[state] ?? 0]),
  ) as ServiceState['eventDeliveries'];
  return { messages, queueDepth: row.queue_depth, reportJobs, inboundMessages: row.inbound, importRows: row.import_rows, eventDeliveries };
}

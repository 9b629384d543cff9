import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client';
import { rowsOf } from '../db/rows';
import type { Clock } from '../lib/time';

/**
 * What happened to a campaign, as its log line says: the engine starts it, finishes it (everything
 * handed over, or what was left made unsent by a stop or the expiry) and expires it; a person
 * pauses, resumes or stops it.
 */
export type CampaignEvent = 'started' | 'paused' | 'resumed' | 'stopped' | 'finished' | 'expired';

const SummaryRowSchema = z.object({
  id: z.number(),
  uuid: z.string(),
  name: z.string(),
  team: z.string(),
  recipients: z.number(),
  sent: z.number(),
  delivered: z.number(),
  failed: z.number(),
  unsent: z.number(),
  queued: z.number(),
  throttled: z.boolean(),
  elapsed: z.number().nullable(),
});
type Summary = z.output<typeof SummaryRowSchema>;

const count = (n: number) => n.toLocaleString('en-GB');

/** `4m 48s`, `2h 05m`, `12s`. */
export function duration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/** Messages a second since sending began (to the finish for a finished campaign); null before. */
const rateOf = (summary: Summary): number | null =>
  summary.elapsed === null || summary.elapsed <= 0 ? null : Math.round((summary.sent / summary.elapsed) * 10) / 10;

/** The sentence a line says, for a person reading the terminal; its fields say the same to a machine. */
export function sentenceOf(event: CampaignEvent, summary: Summary, by?: string): string {
  const who = by ? ` by ${by}` : '';
  const name = `"${summary.name}" (team ${summary.team})`;
  const rate = rateOf(summary);
  const pace = rate === null ? '' : `, ${rate} messages/s`;
  const progress = `${count(summary.sent)} of ${count(summary.recipients)} sent`;
  switch (event) {
    case 'started':
      return `campaign started: ${name}, ${count(summary.recipients)} recipients${summary.throttled ? ', spread over its sending window' : ''}`;
    case 'paused':
      return `campaign paused${who}: ${name}, ${progress}${pace}`;
    case 'resumed':
      return `campaign resumed${who}: ${name}, ${progress}, ${count(summary.queued)} to go`;
    case 'stopped':
      return `campaign stopped${who}: ${name}, ${progress}; the rest will not be sent`;
    case 'expired':
      return `campaign expired: ${name}, ${progress}; what was not sent by its expiry is unsent`;
    case 'finished':
      return (
        `campaign finished: ${name}, ${count(summary.sent)} sent (${count(summary.delivered)} delivered, ${count(summary.failed)} failed), ` +
        `${count(summary.unsent)} unsent` +
        (summary.elapsed === null ? '' : ` in ${duration(summary.elapsed)}${pace}`)
      );
  }
}

/**
 * Writes one `info` line per campaign for an event, with its counts and rate read from its row
 * (docs/operations.md, logs). Never fails its caller: a line that cannot be written is a warning.
 */
export function createCampaignEventLog(deps: { db: Db; log: Pick<FastifyBaseLogger, 'info' | 'warn'>; clock: Clock }) {
  return async function logCampaigns(event: CampaignEvent, ids: number[], by?: string): Promise<void> {
    if (ids.length === 0) return;
    try {
      const rows = await rowsOf(
        deps.db,
        SummaryRowSchema,
        sql`
        SELECT c.id, c.uuid::text, c.name, t.name AS team, c.throttled,
               greatest(c.message_count, coalesce(c.audience_estimate, 0)) AS recipients,
               c.submitted_count + c.delivered_count + c.failed_count AS sent, c.delivered_count AS delivered, c.failed_count AS failed,
               c.unsent_count AS unsent,
               greatest(0, greatest(c.message_count, coalesce(c.audience_estimate, 0)) - c.submitted_count - c.delivered_count - c.failed_count - c.unsent_count) AS queued,
               extract(epoch FROM coalesce(c.finished_sending_at, ${deps.clock.now()}) - c.started_sending_at)::float8 AS elapsed
          FROM campaigns c JOIN teams t ON t.id = c.team_id
         WHERE c.id = ANY(${sql.param(ids)}::bigint[])
         ORDER BY c.id`,
      );
      for (const summary of rows) {
        const { id: _id, uuid, name, team, elapsed, recipients, sent, delivered, failed, unsent, queued } = summary;
        deps.log.info(
          {
            event: `campaign.${event}`,
            campaign: { uuid, name },
            team,
            ...(by ? { user: by } : {}),
            counts: { recipients, sent, delivered, failed, unsent, queued },
            rate_per_second: rateOf(summary),
            elapsed_seconds: elapsed === null ? null : Math.round(elapsed),
          },
          sentenceOf(event, summary, by),
        );
      }
    } catch (error) {
      deps.log.warn({ err: error }, `campaign ${event}: its log line could not be written`);
    }
  };
}
export type CampaignEventLog = ReturnType<typeof createCampaignEventLog>;

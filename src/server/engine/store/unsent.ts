import { sql, type SQL } from 'drizzle-orm';

/** The owner of a batch held back for quiet hours (its lease ends when they do). */
export const HELD_OWNER = 'held';

/**
 * The tail of a `WITH …` statement that makes the still-queued messages `ids` (a query of ids)
 * unsent with `reason`, numbered in sequence order after the campaign's unsent so far: the unsent
 * report pages by that number. The campaign's row is updated (and so locked) first, so two of these
 * for one campaign number one after the other. Returns the ids made unsent.
 */
export function numberUnsent(
  campaignId: number,
  ids: SQL,
  reason: 'opted_out' | 'pending' | 'stopped' | 'quiet_hours' | 'local_time' | 'frequency_cap',
  now: Date,
): SQL {
  return sql`,
    chosen AS (
      SELECT m.id, row_number() OVER (ORDER BY m.sequence) AS n FROM messages m WHERE m.id IN (${ids}) AND m.status = 'queued'),
    counted AS (
      UPDATE campaigns SET unsent_count = unsent_count + (SELECT count(*) FROM chosen)
       WHERE id = ${campaignId} AND EXISTS (SELECT 1 FROM chosen)
      RETURNING unsent_count - (SELECT count(*) FROM chosen)::int AS base)
    UPDATE messages m SET status = 'unsent', reason = ${reason}, unsent_sequence = counted.base + chosen.n, finished_at = ${now}
      FROM chosen, counted WHERE m.id = chosen.id
    RETURNING m.id`;
}

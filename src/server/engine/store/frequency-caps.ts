import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Tx } from '../../db/client';
import { arrayParam } from '../../db/arrays';
import { rowsOf } from '../../db/rows';
import type { ClaimedBatch } from '../engine-store';
import { HELD_OWNER, numberUnsent } from './unsent';

/** A team's frequency cap: at most `messages` marketing messages to a number within `days` days. */
export type FrequencyCap = { messages: number; days: number };

const DAY_MS = 86_400_000;
const CountRowSchema = z.object({ phone: z.string(), sent: z.number() });

/** The cap of a team's settings columns (both set, or none). */
export function capOf(messages: number | null, days: number | null): FrequencyCap | null {
  return messages === null || days === null ? null : { messages, days };
}

/**
 * Per number of `phones`, the marketing messages the team sent it within the cap's window before
 * `now` (docs/engine.md, frequency caps), as SQL rows `phone, sent`:
 * - campaign messages handed over (submitted_at set: submitted, delivered, or failed by their
 *   receipt), not test sends, along messages_phone_submitted_idx;
 * - campaign messages claimed and not yet settled (queued in a batch some engine holds, not one
 *   held for quiet hours, and not the batch `exceptBatchId` being claimed): in hand, as good as sent;
 * - messages outside campaigns marked `marketing` (a flow's send step that is not transactional)
 *   handed over, or claimed by the reply sender and not yet settled, along outbound_replies_team_number_idx.
 */
export function marketingCounts(teamId: number, phones: string[], cap: FrequencyCap, now: Date, exceptBatchId: number | null): SQL {
  const since = new Date(now.getTime() - cap.days * DAY_MS);
  const numbers = sql`${arrayParam(phones)}::text[]`;
  // One aggregate of each kind over the batch's numbers, each read along its index (a few rows a
  // number), joined to the numbers at the end; the held batches' messages read once.
  return sql`
    WITH p AS (SELECT DISTINCT unnest(${numbers}) AS phone),
    sent AS MATERIALIZED (
      SELECT m.phone_number AS phone, count(*)::int AS n FROM messages m JOIN campaigns c ON c.id = m.campaign_id
       WHERE m.phone_number = ANY(${numbers}) AND m.submitted_at > ${since} AND c.team_id = ${teamId} AND NOT c.is_test
       GROUP BY 1),
    held AS MATERIALIZED (
      SELECT m.phone_number AS phone, count(*)::int AS n
        FROM send_batches b JOIN campaigns c ON c.id = b.campaign_id
        JOIN messages m ON m.campaign_id = b.campaign_id AND m.sequence BETWEEN b.first_sequence AND b.last_sequence AND m.status = 'queued'
       WHERE c.team_id = ${teamId} AND c.status = 1 AND NOT c.is_test AND b.owner <> ${HELD_OWNER} AND b.id <> ${exceptBatchId ?? 0}
         AND m.phone_number = ANY(${numbers})
       GROUP BY 1),
    replied AS MATERIALIZED (
      SELECT r.to_number AS phone, count(*)::int AS n FROM outbound_replies r
       WHERE r.team_id = ${teamId} AND r.to_number = ANY(${numbers}) AND r.created_at > ${since} AND r.marketing
         AND (r.status IN ('submitted', 'delivered', 'undelivered') OR (r.status = 'queued' AND r.lease_until >= ${now}))
       GROUP BY 1)
    SELECT p.phone, (coalesce(sent.n, 0) + coalesce(held.n, 0) + coalesce(replied.n, 0))::int AS sent
      FROM p LEFT JOIN sent ON sent.phone = p.phone LEFT JOIN held ON held.phone = p.phone LEFT JOIN replied ON replied.phone = p.phone`;
}

/**
 * The numbers of the team at the cap now, as SQL rows `phone` (the campaign review's count of
 * recipients the cap would skip): what marketingCounts counts as handed over, read over the team's
 * campaigns that sent within the window (but `exceptCampaignId`, the campaign reviewed) rather
 * than along given numbers.
 */
export function numbersAtCap(teamId: number, cap: FrequencyCap, now: Date, exceptCampaignId: number | null): SQL {
  const since = new Date(now.getTime() - cap.days * DAY_MS);
  return sql`
    SELECT s.phone FROM (
      SELECT m.phone_number AS phone FROM campaigns c JOIN messages m ON m.campaign_id = c.id
       WHERE c.team_id = ${teamId} AND NOT c.is_test AND c.id <> ${exceptCampaignId ?? 0} AND c.started_sending_at IS NOT NULL
         AND (c.finished_sending_at IS NULL OR c.finished_sending_at > ${since}) AND m.submitted_at > ${since}
      UNION ALL
      SELECT r.to_number FROM outbound_replies r
       WHERE r.team_id = ${teamId} AND r.marketing AND r.created_at > ${since} AND r.status IN ('submitted', 'delivered', 'undelivered')) s
     GROUP BY s.phone HAVING count(*) >= ${cap.messages}`;
}

/**
 * The messages over the cap, in the order given (the order they would go): a number already at the
 * cap gets none, and the messages of one batch to one number count each other. Reads the counts in
 * one statement, under the team's cap lock: two claims of one team (two campaigns, or a campaign and
 * the reply sender) count one after the other, each seeing what the other claimed.
 */
export async function overTheCap<M extends { id: number; phoneNumber: string }>(
  tx: Tx,
  teamId: number,
  cap: FrequencyCap,
  messages: M[],
  now: Date,
  exceptBatchId: number | null,
): Promise<Set<number>> {
  if (messages.length === 0) return new Set();
  await lockTeamCap(tx, teamId);
  const counted = await rowsOf(
    tx,
    CountRowSchema,
    marketingCounts(
      teamId,
      messages.map((m) => m.phoneNumber),
      cap,
      now,
      exceptBatchId,
    ),
  );
  const sent = new Map(counted.map((row) => [row.phone, row.sent]));
  const over = new Set<number>();
  for (const message of messages) {
    const count = sent.get(message.phoneNumber) ?? 0;
    if (count >= cap.messages) over.add(message.id);
    else sent.set(message.phoneNumber, count + 1);
  }
  return over;
}

/** The team's cap lock, held to the end of the transaction (teams in id order when there are several). */
export async function lockTeamCap(tx: Tx, teamId: number): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('herald.frequency_cap'), ${teamId}::int)`);
}

/** The frequency caps of teams (those without one left out). */
export async function capsOf(tx: Tx, teamIds: number[]): Promise<Map<number, FrequencyCap>> {
  const rows = await rowsOf(
    tx,
    z.object({ id: z.number(), messages: z.number(), days: z.number() }),
    sql`SELECT id::int AS id, frequency_cap_messages AS messages, frequency_cap_days AS days FROM teams
         WHERE id = ANY(${arrayParam(teamIds)}::bigint[]) AND frequency_cap_messages IS NOT NULL ORDER BY id`,
  );
  return new Map(rows.map((row) => [row.id, { messages: row.messages, days: row.days }]));
}

/**
 * A claimed campaign batch less the messages over the team's cap: those become unsent
 * (`frequency_cap`), numbered for the unsent report like opt-outs (opt-outs.ts), and are not handed
 * over. Without a cap (the default) nothing is read.
 */
export async function withoutCapped(
  tx: Tx,
  campaignId: number,
  teamId: number,
  cap: FrequencyCap | null,
  batch: ClaimedBatch,
  now: Date,
): Promise<ClaimedBatch> {
  if (cap === null || batch.messages.length === 0) return batch;
  const over = await overTheCap(tx, teamId, cap, batch.messages, now, batch.batchId);
  if (over.size === 0) return batch;
  const capped = await rowsOf(
    tx,
    z.object({ id: z.number() }),
    sql`
      WITH capped AS (SELECT unnest(${sql.param([...over])}::bigint[]) AS id)
      ${numberUnsent(campaignId, sql`SELECT id FROM capped`, 'frequency_cap', now)}`,
  );
  const skipped = new Set(capped.map((row) => row.id));
  return { ...batch, messages: batch.messages.filter((m) => !skipped.has(m.id)) };
}

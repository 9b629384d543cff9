import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, Tx } from '../../db/client';
import { arrayParam } from '../../db/arrays';
import { withoutPlans } from '../../db/plans';
import { firstRowOf } from '../../db/rows';
import { measure } from '../../../shared/sms';
import type { BatchOutcome, InDoubtPolicy, Lease } from '../engine-store';
import { settleEarlyReceipts } from './receipts';
import { numberUnsent } from './unsent';

const OwnedBatchRowSchema = z.object({ campaign_id: z.number(), expired: z.boolean(), stopped: z.boolean() });

/**
 * The checkpoint, in one transaction fenced by the token: what the gateway accepted is
 * submitted, what it refused failed, what is in doubt failed (`in_doubt`) or left queued per the
 * policy, what was never handed over left queued; the counters move with them; the batch is
 * deleted, or released at once for what is left (unsent instead, once the campaign has expired or
 * was stopped). Locks the batch, then the campaign's row (the lock order in claims.ts).
 */
export async function settleBatch(db: Db, lease: Lease, outcome: BatchOutcome, inDoubt: InDoubtPolicy, now: Date, owner: string): Promise<'settled' | 'lost'> {
  return db.transaction(async (tx) => {
    const batch = await firstRowOf(
      tx,
      OwnedBatchRowSchema,
      sql`
        SELECT b.campaign_id, (c.expiry_date <= ${now} OR c.expired_at IS NOT NULL) AS expired, c.stopped_at IS NOT NULL AS stopped
          FROM send_batches b JOIN campaigns c ON c.id = b.campaign_id
         WHERE b.id = ${lease.batchId} AND b.token = ${lease.token} FOR UPDATE OF b`,
    );
    if (!batch) return 'lost';
    const campaignId = batch.campaign_id;
    await writeOutcome(tx, campaignId, outcome, inDoubt, now, owner);
    const leftover = [...outcome.notSent, ...(inDoubt === 'fail' ? [] : outcome.inDoubt)];
    const ended = batch.expired || batch.stopped;
    if (ended && leftover.length > 0) {
      // Nothing goes after the expiry or a stop: what this batch did not hand over is unsent, like the rest.
      await tx.execute(sql`
          WITH late AS (SELECT id FROM messages WHERE id = ANY(${sql.param(leftover)}::bigint[]) AND status = 'queued')
          ${numberUnsent(campaignId, sql`SELECT id FROM late`, batch.expired ? 'pending' : 'stopped', now)}`);
    }
    if (!ended && leftover.length > 0) {
      await tx.execute(sql`UPDATE send_batches SET lease_until = '-infinity', submitting = false WHERE id = ${lease.batchId}`);
    } else {
      await tx.execute(sql`DELETE FROM send_batches WHERE id = ${lease.batchId}`);
    }
    if (outcome.submitted.length > 0)
      await settleEarlyReceipts(
        tx,
        outcome.submitted.map((s) => s.gatewayId),
      );
    return 'settled';
  });
}

/**
 * A function giving the SMS parts of a body (for the overview's count and cost). Bodies repeat (a
 * campaign without personal fields sends one body), so each distinct body is measured once.
 */
function segmentCounter(): (body: string) => number {
  const measured = new Map<string, number>();
  return (body) => {
    let segments = measured.get(body);
    if (segments === undefined) {
      segments = measure(body).segments;
      measured.set(body, segments);
    }
    return segments;
  };
}

/** The messages' new states and the campaign's counters, in one statement (only messages still queued move). */
async function writeOutcome(tx: Tx, campaignId: number, outcome: BatchOutcome, inDoubt: InDoubtPolicy, now: Date, owner: string): Promise<void> {
  const doubtful = inDoubt === 'fail' ? outcome.inDoubt : [];
  const segmentsOf = segmentCounter();
  const rows = [
    ...outcome.submitted.map((s) => ({
      id: s.id,
      status: 'submitted',
      body: s.body as string | null,
      gatewayId: s.gatewayId as string | null,
      reason: null as string | null,
      segments: segmentsOf(s.body),
      connectionId: s.connectionId ?? null,
    })),
    ...outcome.rejected.map((r) => ({
      id: r.id,
      status: 'failed',
      body: r.body,
      gatewayId: null,
      reason: r.reason,
      segments: 0,
      connectionId: r.connectionId ?? null,
    })),
    ...doubtful.map((id) => ({ id, status: 'failed', body: null, gatewayId: null, reason: 'in_doubt', segments: 0, connectionId: null })),
  ];
  if (rows.length === 0 && outcome.inDoubt.length === 0) return;
  const ids = rows.map((row) => row.id);
  // Found through the primary key and joined by hash, whatever the statistics say. The ids are the
  // batch's own (its claim read them from this campaign): no condition on campaign_id, which the
  // planner would add as a bitmap of the campaign's whole sequence index (40 ms a batch at a million).
  await withoutPlans(
    tx,
    ['enable_nestloop', 'enable_seqscan'],
    sql`
    WITH incoming AS (
      SELECT * FROM unnest(${arrayParam(ids)}::bigint[], ${arrayParam(rows.map((r) => r.status))}::text[], ${arrayParam(rows.map((r) => r.body))}::text[],
                           ${arrayParam(rows.map((r) => r.gatewayId))}::text[], ${arrayParam(rows.map((r) => r.reason))}::text[],
                           ${arrayParam(rows.map((r) => r.segments))}::int[], ${arrayParam(rows.map((r) => r.connectionId))}::bigint[])
                    AS t(id, status, body, gateway_id, reason, segments, connection_id)),
    written AS (
      UPDATE messages m SET status = i.status, reason = i.reason, body = coalesce(i.body, m.body), gateway_id = i.gateway_id,
                            connection_id = i.connection_id,
                            submitted_at = CASE WHEN i.status = 'submitted' THEN ${now}::timestamptz END,
                            finished_at = CASE WHEN i.status = 'failed' THEN ${now}::timestamptz END,
                            submitted_by = ${owner}
        FROM incoming i WHERE m.id = i.id AND m.status = 'queued' AND m.id = ANY(${arrayParam(ids)}::bigint[])
      RETURNING m.status, i.segments)
    UPDATE campaigns SET submitted_count = submitted_count + (SELECT count(*) FROM written WHERE status = 'submitted'),
                         failed_count = failed_count + (SELECT count(*) FROM written WHERE status = 'failed'),
                         segments_submitted = segments_submitted + (SELECT coalesce(sum(segments), 0) FROM written WHERE status = 'submitted'),
                         in_doubt_count = in_doubt_count + ${inDoubt === 'ask' ? 0 : outcome.inDoubt.length}
     WHERE id = ${campaignId}`,
  );
}

import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, Tx } from '../../db/client';
import { rowsOf } from '../../db/rows';
import type { ExpiryStore } from '../engine-store';
import { settleEarlyReceipts } from './receipts';
import { HELD_OWNER } from './unsent';
import { campaignLifecycle } from '../../modules/campaigns/lifecycle';

/** A receipt waits this long for its submission's record before it is dropped (it names nothing Herald sent). */
const EARLY_RECEIPT_MAX_AGE_MS = 3_600_000;
/** Early receipts older than this are tried again each pass (a submission recorded in a race with them). */
const EARLY_RECEIPT_RETRY_MS = 5_000;

const DeadBatchRowSchema = z.object({ first: z.number(), last: z.number(), submitting: z.boolean() });
const GatewayIdRowSchema = z.object({ gateway_id: z.string() });

/**
 * The expiry of campaigns. At a campaign's expiry date: queued messages become unsent (`pending`),
 * submitted ones without a final receipt failed (`Expired`), and no claim is offered any more. A batch
 * still being handed over by a live owner is left to it: its owner stops at the expiry and settles
 * what it handed over (submitted) and what it did not (unsent). A batch whose owner died is handled
 * here: its messages are unsent, or failed `in_doubt` if it was being handed over (nothing is sent
 * after the expiry, so the in-doubt policy cannot resend them). The step is repeated for a campaign
 * while it has batches of dead owners.
 */
export function createExpiryStore(db: Db): ExpiryStore {
  return {
    async expire(now: Date): Promise<number[]> {
      await sweepEarlyReceipts(db, now);
      await sweepStopped(db, now);
      const done: number[] = [];
      const cut: number[] = [];
      for (;;) {
        const id = await db.transaction(async (tx) => {
          // SKIP LOCKED: a campaign being claimed, or settled, is expired on the next pass.
          const campaign = await campaignLifecycle.expireNext(tx, now, done);
          if (!campaign) return undefined;
          // Batches of dead owners only (a live one is locked while it settles, or renews its lease).
          const dead = await dropBatches(tx, campaign.id, sql`lease_until < ${now}`);
          const doubtful = dead.filter((batch) => batch.submitting);
          await tx.execute(sql`
            WITH locked AS (
              -- Messages a receipt is settling right now are skipped: their receipt settles them.
              SELECT id, status, sequence FROM messages
               WHERE campaign_id = ${campaign.id} AND status IN ('queued', 'submitted') FOR UPDATE SKIP LOCKED),
            open AS (
              SELECT l.id, l.status, l.sequence,
                     EXISTS (SELECT 1 FROM unnest(${sql.param(doubtful.map((b) => b.first))}::int[], ${sql.param(doubtful.map((b) => b.last))}::int[]) AS d(first, last)
                              WHERE l.sequence BETWEEN d.first AND d.last) AS in_doubt
                FROM locked l
               WHERE l.status = 'submitted'
                  OR NOT EXISTS (SELECT 1 FROM send_batches b WHERE b.campaign_id = ${campaign.id} AND l.sequence BETWEEN b.first_sequence AND b.last_sequence)),
            numbered AS (
              SELECT id, status, in_doubt,
                     CASE WHEN status = 'queued' AND NOT in_doubt THEN row_number() OVER (PARTITION BY status = 'queued' AND NOT in_doubt ORDER BY sequence) END AS n
                FROM open),
            counted AS (SELECT unsent_count FROM campaigns WHERE id = ${campaign.id}),
            written AS (
              UPDATE messages m SET status = CASE WHEN o.n IS NOT NULL THEN 'unsent' ELSE 'failed' END,
                                    reason = CASE WHEN o.n IS NOT NULL THEN 'pending' WHEN o.status = 'queued' THEN 'in_doubt' ELSE 'Expired' END,
                                    unsent_sequence = (SELECT unsent_count FROM counted) + o.n,
                                    finished_at = ${now}
                FROM numbered o WHERE m.id = o.id
              RETURNING o.status AS was, o.n, o.in_doubt)
            UPDATE campaigns SET unsent_count = unsent_count + (SELECT count(n) FROM written),
                                 submitted_count = submitted_count - (SELECT count(*) FROM written WHERE was = 'submitted'),
                                 failed_count = failed_count + (SELECT count(*) FROM written WHERE n IS NULL),
                                 in_doubt_count = in_doubt_count + (SELECT count(*) FROM written WHERE was = 'queued' AND in_doubt)
             WHERE id = ${campaign.id}`);
          if (campaign.cut) cut.push(campaign.id);
          return campaign.id;
        });
        if (id === undefined) return cut;
        done.push(id);
      }
    },
  };
}

/** Deletes a campaign's batches that meet `condition` (skipping any a live owner holds locked); their ranges. */
function dropBatches(tx: Tx, campaignId: number, condition: SQL) {
  return rowsOf(
    tx,
    DeadBatchRowSchema,
    sql`
    DELETE FROM send_batches WHERE id IN (
      SELECT id FROM send_batches WHERE campaign_id = ${campaignId} AND ${condition} FOR UPDATE SKIP LOCKED)
    RETURNING first_sequence AS first, last_sequence AS last, submitting`,
  );
}

/**
 * Campaigns stopped while sending (`PUT …/stop`): what is still queued outside a live batch becomes
 * unsent (`stopped`), numbered for the unsent report; batches of dead owners are dropped (what one of
 * them was handing over is failed `in_doubt`: nothing is sent after a stop, so it cannot be offered
 * again), and so are batches held for quiet hours. A live owner settles its own batch: what it did
 * not hand over is unsent too (settle.ts). `stop_swept` marks the sweep done, so the campaign can
 * finish; it is repeated while dead or held batches are left.
 */
async function sweepStopped(db: Db, now: Date): Promise<void> {
  const done: number[] = [];
  for (;;) {
    const id = await db.transaction(async (tx) => {
      const campaign = await campaignLifecycle.sweepNextStopped(tx, now, done);
      if (!campaign) return undefined;
      const dropped = await dropBatches(tx, campaign.id, sql`(lease_until < ${now} OR owner = ${HELD_OWNER})`);
      const doubtful = dropped.filter((batch) => batch.submitting);
      // Claims wait on the campaign's row (locked above) and a live batch's messages are left to
      // their owner, so nothing else moves these messages meanwhile.
      await tx.execute(sql`
        WITH open AS (
          SELECT m.id, m.sequence,
                 EXISTS (SELECT 1 FROM unnest(${sql.param(doubtful.map((b) => b.first))}::int[], ${sql.param(doubtful.map((b) => b.last))}::int[]) AS d(first, last)
                          WHERE m.sequence BETWEEN d.first AND d.last) AS in_doubt
            FROM messages m
           WHERE m.campaign_id = ${campaign.id} AND m.status = 'queued'
             AND NOT EXISTS (SELECT 1 FROM send_batches b WHERE b.campaign_id = ${campaign.id} AND m.sequence BETWEEN b.first_sequence AND b.last_sequence)),
        numbered AS (
          SELECT id, in_doubt, CASE WHEN NOT in_doubt THEN row_number() OVER (PARTITION BY in_doubt ORDER BY sequence) END AS n FROM open),
        counted AS (SELECT unsent_count FROM campaigns WHERE id = ${campaign.id}),
        written AS (
          UPDATE messages m SET status = CASE WHEN o.in_doubt THEN 'failed' ELSE 'unsent' END,
                                reason = CASE WHEN o.in_doubt THEN 'in_doubt' ELSE 'stopped' END,
                                unsent_sequence = (SELECT unsent_count FROM counted) + o.n,
                                finished_at = ${now}
            FROM numbered o WHERE m.id = o.id
          RETURNING o.n, o.in_doubt)
        UPDATE campaigns SET unsent_count = unsent_count + (SELECT count(n) FROM written),
                             failed_count = failed_count + (SELECT count(*) FROM written WHERE in_doubt),
                             in_doubt_count = in_doubt_count + (SELECT count(*) FROM written WHERE in_doubt)
         WHERE id = ${campaign.id}`);
      return campaign.id;
    });
    if (id === undefined) return;
    done.push(id);
  }
}

/** Early receipts: those a race left behind applied now, those too old to find their message dropped. */
async function sweepEarlyReceipts(db: Db, now: Date): Promise<void> {
  const rows = await rowsOf(
    db,
    GatewayIdRowSchema,
    sql`
    SELECT gateway_id FROM early_receipts WHERE received_at < ${new Date(now.getTime() - EARLY_RECEIPT_RETRY_MS)} ORDER BY received_at LIMIT 1000`,
  );
  if (rows.length === 0) return;
  await db.transaction((tx) =>
    settleEarlyReceipts(
      tx,
      rows.map((row) => row.gateway_id),
    ).then(() => undefined),
  );
  await db.execute(sql`DELETE FROM early_receipts WHERE received_at < ${new Date(now.getTime() - EARLY_RECEIPT_MAX_AGE_MS)}`);
}

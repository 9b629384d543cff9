import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, Tx } from '../../db/client';
import { arrayParam } from '../../db/arrays';
import { withoutPlans } from '../../db/plans';
import { parseRows, rowsOf } from '../../db/rows';
import type { ReceiptRecord, ReceiptStore } from '../engine-store';

/** A campaign's messages a statement settled, counted by their new status. */
const SettledRowSchema = z.object({ campaign_id: z.number(), delivered: z.number(), failed: z.number() });
type Settled = z.output<typeof SettledRowSchema>;
const GatewayIdRowSchema = z.object({ gateway_id: z.string() });

/**
 * Moves the campaigns' counters by the messages a statement settled (its rows of campaign_id and
 * count by new status), one campaign after the other in id order: two of these at once lock the
 * campaigns they share in the same order, so they never wait on each other in a cycle.
 */
async function countSettled(tx: Tx, settled: Settled[]): Promise<void> {
  for (const row of [...settled].sort((a, b) => a.campaign_id - b.campaign_id)) {
    await tx.execute(sql`
      UPDATE campaigns SET submitted_count = submitted_count - ${row.delivered + row.failed},
                           delivered_count = delivered_count + ${row.delivered}, failed_count = failed_count + ${row.failed}
       WHERE id = ${row.campaign_id}`);
  }
}

/**
 * Receipts that came before the submission they name was recorded, applied once it is: each settles
 * its message if still submitted, and leaves early_receipts once its message is found, whatever its
 * state (nothing else will ever look for it). Those whose submission is still not recorded wait on.
 */
export async function settleEarlyReceipts(tx: Tx, gatewayIds: string[]): Promise<void> {
  // Almost always none wait: one look at the (small) table first, so the update below only ever
  // joins the few that do.
  const waiting = await rowsOf(
    tx,
    GatewayIdRowSchema,
    sql`
    SELECT gateway_id FROM early_receipts WHERE gateway_id = ANY(${arrayParam(gatewayIds)}::text[])`,
  );
  if (waiting.length === 0) return;
  const ids = arrayParam(waiting.map((row) => row.gateway_id));
  // Both found through their indexes and joined by hash, whatever the statistics say. (Each early
  // receipt's message is looked up by its own id alone: a lookup by the whole list for each of
  // thousands of receipts took seconds.)
  const { rows: settled } = await withoutPlans(
    tx,
    ['enable_nestloop', 'enable_seqscan'],
    sql`
    WITH settled AS (
      UPDATE messages m SET status = r.status, reason = r.reason, finished_at = r.received_at
        FROM early_receipts r
       WHERE r.gateway_id = ANY(${ids}::text[]) AND m.gateway_id = ANY(${ids}::text[])
         AND m.gateway_id = r.gateway_id AND m.status = 'submitted'
      RETURNING m.campaign_id, m.status),
    gone AS (
      DELETE FROM early_receipts r WHERE r.gateway_id = ANY(${ids}::text[])
         AND r.gateway_id IN (SELECT m.gateway_id FROM messages m WHERE m.gateway_id = ANY(${ids}::text[])))
    SELECT campaign_id, count(*) FILTER (WHERE status = 'delivered')::int AS delivered, count(*) FILTER (WHERE status = 'failed')::int AS failed
      FROM settled GROUP BY campaign_id`,
  );
  await countSettled(tx, parseRows(SettledRowSchema, settled));
}

/** A receipt's status as a message outside a campaign says it: `failed` at the handset is `undelivered` (`failed` there means refused at the hand-over). */
const REPLY_STATUS = sql`CASE i.status WHEN 'delivered' THEN 'delivered' ELSE 'undelivered' END`;

/**
 * Settles the submitted messages outside a campaign (outbound_replies) that receipts name (`columns`:
 * the receipts as rows `i`); returns how many. They move no campaign's counters.
 */
async function settleReplyReceipts(tx: Tx, columns: SQL): Promise<number> {
  const { rowCount } = await tx.execute(sql`
    UPDATE outbound_replies r SET status = ${REPLY_STATUS}, reason = i.reason, updated_at = i.received_at
      FROM ${columns} WHERE r.gateway_id = i.gateway_id AND r.status = 'submitted'`);
  return rowCount ?? 0;
}

/**
 * Receipts for messages outside a campaign that came before their submission was recorded (another
 * process's receipt queue stored them as early): applied once the submission is (the reply sender's
 * settle), and forgotten.
 */
export async function settleEarlyReplyReceipts(db: Db, gatewayIds: string[]): Promise<void> {
  if (gatewayIds.length === 0) return;
  await db.execute(sql`
    WITH settled AS (
      UPDATE outbound_replies r SET status = CASE e.status WHEN 'delivered' THEN 'delivered' ELSE 'undelivered' END, reason = e.reason, updated_at = e.received_at
        FROM early_receipts e
       WHERE e.gateway_id = ANY(${arrayParam(gatewayIds)}::text[]) AND r.gateway_id = e.gateway_id AND r.status = 'submitted'
      RETURNING r.gateway_id)
    DELETE FROM early_receipts WHERE gateway_id IN (SELECT gateway_id FROM settled)`);
}

/** Delivery receipts: they settle submitted messages, many in one transaction. */
export function createReceiptStore(db: Db): ReceiptStore {
  return {
    /**
     * A receipt for a message already settled (expired, or a redelivery) changes nothing. One for a
     * message sent outside a campaign (outbound_replies: an inbox reply, a keyword's reply…) makes it
     * delivered or undelivered. One that arrives before its submission is recorded waits in
     * early_receipts, and is tried again at once in case the submission landed meanwhile.
     */
    async markReceipts(receipts: ReceiptRecord[]): Promise<void> {
      if (receipts.length === 0) return;
      const columns = sql`unnest(${arrayParam(receipts.map((r) => r.gatewayId))}::text[], ${arrayParam(receipts.map((r) => r.status))}::text[],
                                 ${arrayParam(receipts.map((r) => r.reason))}::text[], ${arrayParam(receipts.map((r) => r.at.toISOString()))}::timestamptz[])
                            AS i(gateway_id, status, reason, received_at)`;
      await db.transaction(async (tx) => {
        const settle = async () => {
          // Found through the gateway-id index and joined by hash, whatever the statistics say.
          const { rows } = await withoutPlans(
            tx,
            ['enable_nestloop', 'enable_seqscan'],
            sql`
            WITH settled AS (
              UPDATE messages m SET status = i.status, reason = i.reason, finished_at = i.received_at
                FROM ${columns} WHERE m.gateway_id = i.gateway_id AND m.status = 'submitted'
                 AND m.gateway_id = ANY(${arrayParam(receipts.map((r) => r.gatewayId))}::text[])
              RETURNING m.campaign_id, m.status)
            SELECT campaign_id, count(*) FILTER (WHERE status = 'delivered')::int AS delivered, count(*) FILTER (WHERE status = 'failed')::int AS failed
              FROM settled GROUP BY campaign_id`,
          );
          const settled = parseRows(SettledRowSchema, rows);
          await countSettled(tx, settled);
          const replies = await settleReplyReceipts(tx, columns);
          return settled.reduce((sum, row) => sum + row.delivered + row.failed, replies);
        };
        if ((await settle()) === receipts.length) return;
        const early = await rowsOf(
          tx,
          GatewayIdRowSchema,
          sql`
          INSERT INTO early_receipts (gateway_id, status, reason, received_at)
          SELECT i.gateway_id, i.status, i.reason, i.received_at FROM ${columns}
           WHERE NOT EXISTS (SELECT 1 FROM messages m WHERE m.gateway_id = i.gateway_id)
             AND NOT EXISTS (SELECT 1 FROM outbound_replies r WHERE r.gateway_id = i.gateway_id)
          ON CONFLICT (gateway_id) DO NOTHING
          RETURNING gateway_id`,
        );
        if (early.length > 0)
          await settleEarlyReceipts(
            tx,
            early.map((row) => row.gateway_id),
          );
        // A submission recorded between the first statement and the insert (its owner's settle
        // committed in between) was neither settled nor kept waiting: each statement sees what was
        // committed when it began, so this one settles it.
        if (early.length < receipts.length) await settle();
      });
    },
  };
}

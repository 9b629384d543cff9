import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows';
import type { QueuedReply, ReplyStore } from '../engine-store';
import { settleEarlyReplyReceipts } from './receipts';
import { capsOf, overTheCap } from './frequency-caps';

const PickedRowSchema = z.object({ id: z.number(), teamId: z.number(), phoneNumber: z.string(), marketing: z.boolean() });
const QueuedReplyRowSchema = z.object({ id: z.number(), uuid: z.string(), teamId: z.number(), to: z.string(), from: z.string(), body: z.string() });

/** Messages outside a campaign (keyword and inbox replies, flows, confirmations): queued by their owners, leased and sent by the engine ahead of campaigns. */
export function createReplyStore(db: Db): ReplyStore {
  return {
    /**
     * Messages outside campaigns waiting to go (keyword and inbox replies, confirmations, flows'
     * messages), oldest first; each is claimed by one worker. A marketing one (a flow's send step not
     * marked transactional) whose number is at its team's frequency cap is not claimed but unsent
     * (`frequency_cap`), counted as a campaign's claim counts (frequency-caps.ts).
     */
    async claimReplies(limit: number, now: Date, leaseMs: number): Promise<QueuedReply[]> {
      return db.transaction(async (tx) => {
        const picked = await rowsOf(
          tx,
          PickedRowSchema,
          sql`
          SELECT id, team_id::int AS "teamId", to_number AS "phoneNumber", marketing FROM outbound_replies
           WHERE status = 'queued' AND (lease_until IS NULL OR lease_until < ${now})
           ORDER BY created_at, id LIMIT ${limit} FOR UPDATE SKIP LOCKED`,
        );
        if (picked.length === 0) return [];
        const marketing = picked.filter((row) => row.marketing);
        const over = new Set<number>();
        if (marketing.length > 0) {
          // Teams in id order (capsOf's), so two claimers lock their caps in the same order.
          for (const [teamId, cap] of await capsOf(tx, [...new Set(marketing.map((row) => row.teamId))])) {
            for (const id of await overTheCap(
              tx,
              teamId,
              cap,
              marketing.filter((row) => row.teamId === teamId),
              now,
              null,
            ))
              over.add(id);
          }
        }
        if (over.size > 0)
          await tx.execute(sql`
            UPDATE outbound_replies SET status = 'unsent', reason = 'frequency_cap', updated_at = ${now}, lease_until = NULL
             WHERE id = ANY(${sql.param([...over])}::bigint[])`);
        const claimed = picked.filter((row) => !over.has(row.id)).map((row) => row.id);
        if (claimed.length === 0) return [];
        return rowsOf(
          tx,
          QueuedReplyRowSchema,
          sql`
          UPDATE outbound_replies r SET lease_until = ${new Date(now.getTime() + leaseMs)}
           WHERE r.id = ANY(${sql.param(claimed)}::bigint[])
          RETURNING r.id, r.uuid, r.team_id::int AS "teamId", r.to_number AS "to", r.sender AS "from", r.body`,
        );
      });
    },

    /** Accepted replies are submitted (with the gateway's id), refused ones failed with the reason; the rest go back to the queue. */
    async settleReplies(
      outcome: {
        submitted: Array<{ id: number; gatewayId: string; connectionId?: number }>;
        rejected: Array<{ id: number; reason: string; connectionId?: number }>;
        unknown: number[];
      },
      now: Date,
    ): Promise<void> {
      const { submitted, rejected, unknown } = outcome;
      await db.execute(sql`
        WITH s AS (
          UPDATE outbound_replies r SET status = 'submitted', gateway_id = i.gateway_id, connection_id = i.connection_id, updated_at = ${now}, lease_until = NULL
            FROM unnest(${sql.param(submitted.map((x) => x.id))}::bigint[], ${sql.param(submitted.map((x) => x.gatewayId))}::text[],
                        ${sql.param(submitted.map((x) => x.connectionId ?? null))}::bigint[]) AS i(id, gateway_id, connection_id)
           WHERE r.id = i.id),
        f AS (
          UPDATE outbound_replies r SET status = 'failed', reason = i.reason, connection_id = i.connection_id, updated_at = ${now}, lease_until = NULL
            FROM unnest(${sql.param(rejected.map((x) => x.id))}::bigint[], ${sql.param(rejected.map((x) => x.reason))}::text[],
                        ${sql.param(rejected.map((x) => x.connectionId ?? null))}::bigint[]) AS i(id, reason, connection_id)
           WHERE r.id = i.id)
        UPDATE outbound_replies SET lease_until = NULL WHERE id = ANY(${sql.param(unknown)}::bigint[])`);
      // A receipt that beat this record (stored as early by another process) settles the reply now.
      await settleEarlyReplyReceipts(
        db,
        submitted.map((x) => x.gatewayId),
      );
    },
  };
}

import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows';
import type { QueuedReply, ReplyStore } from '../engine-store';
import { settleEarlyReplyReceipts } from './receipts';

const QueuedReplyRowSchema = z.object({ id: z.number(), uuid: z.string(), teamId: z.number(), to: z.string(), from: z.string(), body: z.string() });

/** Messages outside a campaign (keyword and inbox replies, flows, confirmations): queued by their owners, leased and sent by the engine ahead of campaigns. */
export function createReplyStore(db: Db): ReplyStore {
  return {
    /** Keyword replies waiting to go (the inbound pipeline queues them); each is claimed by one worker. */
    async claimReplies(limit: number, now: Date, leaseMs: number): Promise<QueuedReply[]> {
      return rowsOf(
        db,
        QueuedReplyRowSchema,
        sql`
        UPDATE outbound_replies r SET lease_until = ${new Date(now.getTime() + leaseMs)}
         WHERE r.id IN (
           SELECT id FROM outbound_replies WHERE status = 'queued' AND (lease_until IS NULL OR lease_until < ${now})
            ORDER BY created_at, id LIMIT ${limit} FOR UPDATE SKIP LOCKED)
        RETURNING r.id, r.uuid, r.team_id::int AS "teamId", r.to_number AS "to", r.sender AS "from", r.body`,
      );
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

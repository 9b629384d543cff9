import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { arrayParam } from '../../db/arrays';
import type { Db, Tx } from '../../db/client';
import { MomentSchema, oneRowOf, rowsOf } from '../../db/rows';
import type { DueReceipts, Recorded, SimulatorLedger } from './simulator';

const DeliveryRowSchema = z.object({ client_ref: z.string(), gateway_id: z.string() });
/** How many offered messages were new, and which were fenced out (to_json: a JSON array). */
const RecordedRowSchema = z.object({ n: z.number(), fenced: z.array(z.string()) });
/**
 * The advisory lock between hand-overs (shared) and recalls under a fence (exclusive). Any number
 * no other lock of Herald's uses.
 */
const FENCE_LOCK = 4_841_311;
/** A receipt row due: gateway_ids through to_json (a JSON array), failed a boolean[]. */
const PendingReceiptsRowSchema = z.object({ id: z.number(), gateway_ids: z.array(z.string()), failed: z.array(z.boolean()), due_at: MomentSchema });

/**
 * The simulator's record in the database: one row per client reference, whatever happens, and the
 * receipts not yet acknowledged (`simulator_pending_receipts`), which outlive a crash of the process
 * that would have delivered them — as an SMSC keeps what it could not deliver. Recalls under a fence
 * leave it in `simulator_fences`, and a hand-over under a smaller fence is refused for those
 * references: an engine that lost its lease mid-hand-over cannot send what its successor, told the
 * simulator had not taken it, sends itself. A fence is the attempt token of the SmsGateway port
 * (a batch's lease token), a recall its `taken`: this ordering is the simulator's own guarantee,
 * and its tables (`simulator_deliveries`, `simulator_fences`, `simulator_pending_receipts`) are its
 * own; nothing else reads or writes them.
 */
export function createSimulatorLedger(db: Db): SimulatorLedger {
  return {
    async recall(clientRefs, fence) {
      if (clientRefs.length === 0) return [];
      const read = (conn: Db | Tx) =>
        rowsOf(
          conn,
          DeliveryRowSchema,
          sql`
          SELECT client_ref, gateway_id FROM simulator_deliveries WHERE client_ref = ANY(${sql.param(clientRefs)}::text[])`,
        );
      if (fence === undefined) return (await read(db)).map((row) => ({ clientRef: row.client_ref, gatewayId: row.gateway_id }));
      // The fence is set under the exclusive lock, which waits for every hand-over under way (they hold
      // it shared) and keeps new ones out until it is written; the read comes after, so it sees them all.
      const rows = await db.transaction(async (tx) => {
        await tx.execute(sql`SELECT pg_advisory_xact_lock(${FENCE_LOCK})`);
        await tx.execute(sql`
          INSERT INTO simulator_fences (client_ref, fence) SELECT unnest(${sql.param(clientRefs)}::text[]), ${fence}::bigint
          ON CONFLICT (client_ref) DO UPDATE SET fence = greatest(simulator_fences.fence, excluded.fence)`);
        return read(tx);
      });
      return rows.map((row) => ({ clientRef: row.client_ref, gatewayId: row.gateway_id }));
    },

    async record(batch, dueAt, fence) {
      if (batch.length === 0) return [];
      const column = (pick: (m: (typeof batch)[number]) => string | boolean) => arrayParam(batch.map(pick));
      return db.transaction(async (tx) => {
        // Shared: hand-overs go side by side, but not while a recall sets its fence (see recall). Its
        // own statement, so the next one's snapshot is taken after any wait and sees that fence.
        await tx.execute(sql`SELECT pg_advisory_xact_lock_shared(${FENCE_LOCK})`);
        // The usual case, every message new, is one statement: the messages and, for those new, their
        // receipts waiting to be delivered — together or not at all. It answers only how many were new
        // and which were fenced out (reading thousands of references back cost as much as writing
        // them); when some were not new, the references are read after, and those seen before counted
        // as submitted again.
        const counted = await oneRowOf(
          tx,
          RecordedRowSchema,
          sql`
          WITH offered AS (
            SELECT * FROM unnest(${column((m) => m.clientRef)}::text[], ${column((m) => m.gatewayId)}::text[], ${column((m) => m.to)}::text[],
                                 ${column((m) => m.from)}::text[], ${column((m) => m.body)}::text[], ${column((m) => m.failed)}::boolean[])
                       AS o(client_ref, gateway_id, to_number, from_name, body, failed)),
          fenced AS (
            SELECT f.client_ref FROM simulator_fences f
             WHERE ${fence ?? null}::bigint IS NOT NULL AND f.client_ref = ANY(${column((m) => m.clientRef)}::text[]) AND f.fence > ${fence ?? null}::bigint),
          inserted AS (
            INSERT INTO simulator_deliveries (client_ref, gateway_id, to_number, from_name, body)
            SELECT client_ref, gateway_id, to_number, from_name, body FROM offered WHERE client_ref NOT IN (SELECT client_ref FROM fenced)
            ON CONFLICT (client_ref) DO NOTHING
            RETURNING client_ref, gateway_id),
          pending AS (
            INSERT INTO simulator_pending_receipts (gateway_ids, failed, due_at)
            SELECT array_agg(i.gateway_id), array_agg(o.failed), ${dueAt}::timestamptz
              FROM inserted i JOIN offered o USING (client_ref)
            HAVING count(*) > 0)
          SELECT (SELECT count(*) FROM inserted)::int AS n, to_json(ARRAY(SELECT client_ref FROM fenced)) AS fenced`,
        );
        const fencedOut = new Set(counted.fenced);
        if (counted.n === batch.length) return batch.map((message) => ({ clientRef: message.clientRef, gatewayId: message.gatewayId, isNew: true }));
        const known = await rowsOf(
          tx,
          DeliveryRowSchema,
          sql`
          SELECT client_ref, gateway_id FROM simulator_deliveries WHERE client_ref = ANY(${column((m) => m.clientRef)}::text[])`,
        );
        const ours = new Map(batch.map((message) => [message.clientRef, message.gatewayId]));
        const fresh = new Set(known.filter((row) => ours.get(row.client_ref) === row.gateway_id).map((row) => row.client_ref));
        const seen = batch.filter((message) => !fresh.has(message.clientRef) && !fencedOut.has(message.clientRef)).map((message) => message.clientRef);
        const before = new Map<string, string>();
        if (seen.length > 0) {
          const rows = await rowsOf(
            tx,
            DeliveryRowSchema,
            sql`
            UPDATE simulator_deliveries SET submissions = submissions + 1 WHERE client_ref = ANY(${sql.param(seen)}::text[])
            RETURNING client_ref, gateway_id`,
          );
          for (const row of rows) before.set(row.client_ref, row.gateway_id);
        }
        return batch.map((message): Recorded => {
          if (fencedOut.has(message.clientRef)) return { clientRef: message.clientRef, fencedOut: true };
          if (fresh.has(message.clientRef)) return { clientRef: message.clientRef, gatewayId: message.gatewayId, isNew: true };
          return { clientRef: message.clientRef, gatewayId: before.get(message.clientRef)!, isNew: false };
        });
      });
    },

    /**
     * Delivers receipts that are due, two batches' at a time (a few thousand: the size the engine writes best), and forgets them only once `deliver`
     * resolved (they were stored): the rows stay locked (SKIP LOCKED keeps other processes off them)
     * while they are delivered, and a failure or a crash meanwhile leaves them for the next look.
     */
    async deliverDue(now, deliver) {
      return db.transaction(async (tx) => {
        const rows = await rowsOf(
          tx,
          PendingReceiptsRowSchema,
          sql`
          SELECT id, to_json(gateway_ids) AS gateway_ids, failed, due_at FROM simulator_pending_receipts
           WHERE due_at <= ${now}::timestamptz ORDER BY due_at LIMIT 2 FOR UPDATE SKIP LOCKED`,
        );
        if (rows.length === 0) return 0;
        const due: DueReceipts[] = rows.map((row) => ({ gatewayIds: row.gateway_ids, failed: row.failed, dueAt: row.due_at }));
        await deliver(due);
        await tx.execute(sql`DELETE FROM simulator_pending_receipts WHERE id = ANY(${sql.param(rows.map((row) => row.id))}::bigint[])`);
        return rows.length;
      });
    },
  };
}

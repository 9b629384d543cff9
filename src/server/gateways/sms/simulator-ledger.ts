import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { arrayParam } from '../../db/arrays';
import type { Db } from '../../db/client';
import { MomentSchema, oneRowOf, rowsOf } from '../../db/rows';
import type { DueReceipts, SimulatorLedger } from './simulator';

const DeliveryRowSchema = z.object({ client_ref: z.string(), gateway_id: z.string() });
const CountRowSchema = z.object({ n: z.number() });
/** A receipt row due: gateway_ids through to_json (a JSON array), failed a boolean[]. */
const PendingReceiptsRowSchema = z.object({ id: z.number(), gateway_ids: z.array(z.string()), failed: z.array(z.boolean()), due_at: MomentSchema });

/**
 * The simulator's record in the database: one row per client reference, whatever happens, and the
 * receipts not yet acknowledged (`simulator_pending_receipts`), which outlive a crash of the process
 * that would have delivered them — as an SMSC keeps what it could not deliver.
 */
export function createSimulatorLedger(db: Db): SimulatorLedger {
  return {
    async recall(clientRefs) {
      if (clientRefs.length === 0) return [];
      const rows = await rowsOf(
        db,
        DeliveryRowSchema,
        sql`
        SELECT client_ref, gateway_id FROM simulator_deliveries WHERE client_ref = ANY(${sql.param(clientRefs)}::text[])`,
      );
      return rows.map((row) => ({ clientRef: row.client_ref, gatewayId: row.gateway_id }));
    },

    async record(batch, dueAt) {
      if (batch.length === 0) return [];
      const column = (pick: (m: (typeof batch)[number]) => string | boolean) => arrayParam(batch.map(pick));
      // The usual case, every message new, is one statement: the messages and, for those new, their
      // receipts waiting to be delivered — together or not at all. It answers only how many were new
      // (reading thousands of references back cost as much as writing them); when some were not, the
      // references are read after, and those seen before counted as submitted again.
      const counted = await oneRowOf(
        db,
        CountRowSchema,
        sql`
        WITH inserted AS (
          INSERT INTO simulator_deliveries (client_ref, gateway_id, to_number, from_name, body)
          SELECT * FROM unnest(${column((m) => m.clientRef)}::text[], ${column((m) => m.gatewayId)}::text[], ${column((m) => m.to)}::text[],
                               ${column((m) => m.from)}::text[], ${column((m) => m.body)}::text[])
          ON CONFLICT (client_ref) DO NOTHING
          RETURNING client_ref, gateway_id),
        pending AS (
          INSERT INTO simulator_pending_receipts (gateway_ids, failed, due_at)
          SELECT array_agg(i.gateway_id), array_agg(o.failed), ${dueAt}::timestamptz
            FROM inserted i JOIN unnest(${column((m) => m.clientRef)}::text[], ${column((m) => m.failed)}::boolean[]) AS o(client_ref, failed) USING (client_ref)
          HAVING count(*) > 0)
        SELECT count(*)::int AS n FROM inserted`,
      );
      if (counted.n === batch.length) return batch.map((message) => ({ clientRef: message.clientRef, gatewayId: message.gatewayId, isNew: true }));
      const known = await rowsOf(
        db,
        DeliveryRowSchema,
        sql`
        SELECT client_ref, gateway_id FROM simulator_deliveries WHERE client_ref = ANY(${column((m) => m.clientRef)}::text[])`,
      );
      const ours = new Map(batch.map((message) => [message.clientRef, message.gatewayId]));
      const fresh = new Set(known.filter((row) => ours.get(row.client_ref) === row.gateway_id).map((row) => row.client_ref));
      const seen = batch.filter((message) => !fresh.has(message.clientRef)).map((message) => message.clientRef);
      const before = new Map<string, string>();
      if (seen.length > 0) {
        const rows = await rowsOf(
          db,
          DeliveryRowSchema,
          sql`
          UPDATE simulator_deliveries SET submissions = submissions + 1 WHERE client_ref = ANY(${sql.param(seen)}::text[])
          RETURNING client_ref, gateway_id`,
        );
        for (const row of rows) before.set(row.client_ref, row.gateway_id);
      }
      return batch.map((message) =>
        fresh.has(message.clientRef)
          ? { clientRef: message.clientRef, gatewayId: message.gatewayId, isNew: true }
          : { clientRef: message.clientRef, gatewayId: before.get(message.clientRef)!, isNew: false },
      );
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

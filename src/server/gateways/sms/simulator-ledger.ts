import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { SimulatorLedger } from './simulator';

/** The simulator's record in the database: one row per client reference, whatever happens. */
export function createSimulatorLedger(db: Db): SimulatorLedger {
  return {
    async recall(clientRefs) {
      if (clientRefs.length === 0) return [];
      const { rows } = await db.execute<{ client_ref: string; gateway_id: string }>(sql`
        SELECT client_ref, gateway_id FROM simulator_deliveries WHERE client_ref = ANY(${sql.param(clientRefs)}::text[])`);
      return rows.map((row) => ({ clientRef: row.client_ref, gatewayId: row.gateway_id }));
    },
    async record(batch) {
      if (batch.length === 0) return [];
      const column = (pick: (m: (typeof batch)[number]) => string) => sql.param(batch.map(pick));
      // The usual case, every message new, is one insert; those seen before are looked up after.
      const { rows: inserted } = await db.execute<{ client_ref: string }>(sql`
        INSERT INTO simulator_deliveries (client_ref, gateway_id, to_number, from_name, body)
        SELECT * FROM unnest(${column((m) => m.clientRef)}::text[], ${column((m) => m.gatewayId)}::text[], ${column((m) => m.to)}::text[],
                             ${column((m) => m.from)}::text[], ${column((m) => m.body)}::text[])
        ON CONFLICT (client_ref) DO NOTHING
        RETURNING client_ref`);
      const fresh = new Set(inserted.map((row) => row.client_ref));
      const seen = batch.filter((message) => !fresh.has(message.clientRef)).map((message) => message.clientRef);
      const before = new Map<string, string>();
      if (seen.length > 0) {
        const { rows } = await db.execute<{ client_ref: string; gateway_id: string }>(sql`
          UPDATE simulator_deliveries SET submissions = submissions + 1 WHERE client_ref = ANY(${sql.param(seen)}::text[])
          RETURNING client_ref, gateway_id`);
        for (const row of rows) before.set(row.client_ref, row.gateway_id);
      }
      return batch.map((message) =>
        fresh.has(message.clientRef)
          ? { clientRef: message.clientRef, gatewayId: message.gatewayId, isNew: true }
          : { clientRef: message.clientRef, gatewayId: before.get(message.clientRef)!, isNew: false },
      );
    },
  };
}

import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { SimulatorLedger } from './simulator';

/** The simulator's record in the database: one row per client reference, whatever happens. */
export function createSimulatorLedger(db: Db): SimulatorLedger {
  return {
    async record(batch) {
      if (batch.length === 0) return [];
      const { rows } = await db.execute<{ clientRef: string; gatewayId: string; isNew: boolean }>(sql`
        WITH incoming AS (
          SELECT * FROM unnest(${sql.param(batch.map((m) => m.clientRef))}::text[], ${sql.param(batch.map((m) => m.gatewayId))}::text[],
                               ${sql.param(batch.map((m) => m.to))}::text[], ${sql.param(batch.map((m) => m.from))}::text[],
                               ${sql.param(batch.map((m) => m.body))}::text[]) AS t(client_ref, gateway_id, to_number, from_name, body)),
        inserted AS (
          INSERT INTO simulator_deliveries (client_ref, gateway_id, to_number, from_name, body) SELECT * FROM incoming
          ON CONFLICT (client_ref) DO UPDATE SET submissions = simulator_deliveries.submissions + 1
          RETURNING client_ref, gateway_id, (xmax = 0) AS is_new)
        SELECT i.client_ref AS "clientRef", n.gateway_id AS "gatewayId", n.is_new AS "isNew"
          FROM incoming i JOIN inserted n ON n.client_ref = i.client_ref`);
      return rows;
    },
  };
}

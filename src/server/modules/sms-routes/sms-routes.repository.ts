import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { firstRowOf, rowsOf, type Conn } from '../../db/rows';
import type { RouteRule } from '../../gateways/sms/routing/route-rules';
import type { Clock } from '../../lib/time';

const RuleSchema = z.object({ countries: z.array(z.string()), connections: z.array(z.string()), sender: z.string().nullable() });

/** What routing needs of a connection: the rules name it by uuid; the review prices and names it. */
const RouteConnectionRowSchema = z.object({
  id: z.number(),
  uuid: z.string(),
  name: z.string(),
  provider: z.string(),
  senders: z.array(z.string()),
  enabled: z.boolean(),
  pricePerSegment: z.record(z.string(), z.number()).nullable(),
});
export type RouteConnectionRow = z.output<typeof RouteConnectionRowSchema>;

const ROUTED_COLUMNS = sql.raw(`c.id::int AS id, c.uuid, c.name, c.provider, c.senders, c.enabled, c.price_per_segment AS "pricePerSegment"`);

/** A team's routes (sms_routes, one row a team; no row: no routes) and the connections they name. */
export function createSmsRoutesRepository(db: Db, clock: Clock) {
  return {
    /** The team's rules as stored, in order; null when it has none (no row). */
    async rulesOf(teamId: number, conn: Conn = db): Promise<RouteRule[] | null> {
      const row = await firstRowOf(conn, z.object({ rules: z.array(RuleSchema) }), sql`SELECT rules FROM sms_routes WHERE team_id = ${teamId}`);
      return row ? row.rules : null;
    },

    /** The rules replaced as a whole; an empty list removes the row (no routes). */
    async replace(conn: Conn, teamId: number, rules: RouteRule[]): Promise<void> {
      if (rules.length === 0) {
        await conn.execute(sql`DELETE FROM sms_routes WHERE team_id = ${teamId}`);
        return;
      }
      await conn.execute(sql`
        INSERT INTO sms_routes (team_id, rules, updated_at) VALUES (${teamId}, ${JSON.stringify(rules)}::jsonb, ${clock.now()})
        ON CONFLICT (team_id) DO UPDATE SET rules = EXCLUDED.rules, updated_at = EXCLUDED.updated_at`);
    },

    /**
     * The team's connections among `uuids`. `share`: each held (FOR SHARE) until `conn`'s transaction
     * ends, so a connection cannot be deleted between being checked and being named by the routes.
     */
    connectionsAmong: (teamId: number, uuids: string[], conn: Conn = db, share = false) =>
      uuids.length === 0
        ? Promise.resolve([])
        : rowsOf(
            conn,
            RouteConnectionRowSchema,
            sql`SELECT ${ROUTED_COLUMNS} FROM sms_connections c
                 WHERE c.team_id = ${teamId} AND c.uuid = ANY(${sql.param(uuids)}::uuid[])${share ? sql` FOR SHARE` : sql``}`,
          ),

    /** Every connection of the team, in the order they were made (the order they are tried without routes). */
    connectionsOf: (teamId: number, conn: Conn = db) =>
      rowsOf(conn, RouteConnectionRowSchema, sql`SELECT ${ROUTED_COLUMNS} FROM sms_connections c WHERE c.team_id = ${teamId} ORDER BY c.created_at, c.id`),
  };
}
export type SmsRoutesRepository = ReturnType<typeof createSmsRoutesRepository>;

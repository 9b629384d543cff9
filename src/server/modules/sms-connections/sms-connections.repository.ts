import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { countOf, readPage, type Page, type PageWindow } from '../../db/pages';
import { firstRowOf, MomentSchema, rowsOf, type Conn } from '../../db/rows';
import type { Clock } from '../../lib/time';

const ConnectionRowSchema = z.object({
  id: z.number(),
  uuid: z.string(),
  teamId: z.number(),
  name: z.string(),
  provider: z.string(),
  baseUrl: z.string().nullable(),
  credentialsEncrypted: z.instanceof(Buffer),
  senders: z.array(z.string()),
  maxPerSecond: z.number(),
  enabled: z.boolean(),
  pricePerSegment: z.record(z.string(), z.number()).nullable(),
  createdAt: MomentSchema,
  updatedAt: MomentSchema,
  // The router's state of it (sms_connection_states), null where it has no row yet.
  circuit: z.enum(['closed', 'open', 'half_open']).nullable(),
  openUntil: MomentSchema.nullable(),
  lastError: z.string().nullable(),
  lastErrorAt: MomentSchema.nullable(),
  stateDay: z.string().nullable(),
  messagesToday: z.number().nullable(),
  errorsToday: z.number().nullable(),
  failoversToday: z.number().nullable(),
});
export type ConnectionRow = z.output<typeof ConnectionRowSchema>;

const COLUMNS = sql.raw(`c.id::int AS id, c.uuid, c.team_id::int AS "teamId", c.name, c.provider, c.base_url AS "baseUrl",
  c.credentials_encrypted AS "credentialsEncrypted", c.senders, c.max_per_second AS "maxPerSecond", c.enabled,
  c.price_per_segment AS "pricePerSegment",
  c.created_at AS "createdAt", c.updated_at AS "updatedAt",
  s.circuit, s.open_until AS "openUntil", s.last_error AS "lastError", s.last_error_at AS "lastErrorAt", s.day::text AS "stateDay",
  s.messages_today AS "messagesToday", s.errors_today AS "errorsToday", s.failovers_today AS "failoversToday"`);

/** Every read joins the router's state row, which the router alone writes. */
const STATE = sql.raw('LEFT JOIN sms_connection_states s ON s.connection_id = c.id');

export type ConnectionChanges = Partial<{
  name: string;
  baseUrl: string | null;
  credentialsEncrypted: Buffer;
  senders: string[];
  maxPerSecond: number;
  enabled: boolean;
  pricePerSegment: Record<string, number> | null;
}>;

const COLUMN_OF: Record<keyof ConnectionChanges, string> = {
  name: 'name',
  baseUrl: 'base_url',
  credentialsEncrypted: 'credentials_encrypted',
  senders: 'senders',
  maxPerSecond: 'max_per_second',
  enabled: 'enabled',
  pricePerSegment: 'price_per_segment',
};

function assignment(key: keyof ConnectionChanges, value: unknown): SQL {
  const column = sql.raw(COLUMN_OF[key]);
  if (key === 'senders') return sql`${column} = ${sql.param(value)}::text[]`;
  if (key === 'pricePerSegment') return sql`${column} = ${value === null ? null : JSON.stringify(value)}::jsonb`;
  return sql`${column} = ${value}`;
}

/** A team's SMS connections, as the API reads and edits them. */
export function createSmsConnectionsRepository(db: Db, clock: Clock) {
  return {
    list(teamId: number, window: PageWindow): Promise<Page<ConnectionRow>> {
      return readPage({
        rows: rowsOf(
          db,
          ConnectionRowSchema,
          sql`SELECT ${COLUMNS} FROM sms_connections c ${STATE} WHERE c.team_id = ${teamId}
               ORDER BY c.created_at DESC, c.id DESC LIMIT ${window.limit} OFFSET ${window.offset}`,
        ),
        count: () => countOf(db, sql`SELECT count(*)::int AS total FROM sms_connections WHERE team_id = ${teamId}`),
      });
    },

    /** The team's connection; `lock` (the connection's row, not its state, which the router keeps writing): held until `conn`'s transaction ends, the "before" of a change. */
    find: (teamId: number, uuid: string, conn: Conn = db, lock = false) =>
      firstRowOf(
        conn,
        ConnectionRowSchema,
        sql`SELECT ${COLUMNS} FROM sms_connections c ${STATE} WHERE c.team_id = ${teamId} AND c.uuid = ${uuid}${lock ? sql` FOR UPDATE OF c` : sql``}`,
      ),

    async insert(
      conn: Conn,
      row: Pick<
        ConnectionRow,
        'teamId' | 'name' | 'provider' | 'baseUrl' | 'credentialsEncrypted' | 'senders' | 'maxPerSecond' | 'enabled' | 'pricePerSegment'
      >,
    ): Promise<ConnectionRow> {
      const now = clock.now();
      const created = await firstRowOf(
        conn,
        ConnectionRowSchema,
        sql`
        WITH c AS (
          INSERT INTO sms_connections (team_id, name, provider, base_url, credentials_encrypted, senders, max_per_second, enabled, price_per_segment,
                                      created_at, updated_at)
          VALUES (${row.teamId}, ${row.name}, ${row.provider}, ${row.baseUrl}, ${row.credentialsEncrypted}, ${sql.param(row.senders)}::text[],
                  ${row.maxPerSecond}, ${row.enabled}, ${row.pricePerSegment === null ? null : JSON.stringify(row.pricePerSegment)}::jsonb, ${now}, ${now})
          RETURNING *)
        SELECT ${COLUMNS} FROM c ${STATE}`,
      );
      if (!created) throw new Error('sms connection insert returned no row');
      return created;
    },

    update(conn: Conn, teamId: number, uuid: string, changes: ConnectionChanges): Promise<ConnectionRow | undefined> {
      const sets = (Object.entries(changes) as Array<[keyof ConnectionChanges, unknown]>).map(([key, value]) => assignment(key, value));
      sets.push(sql`updated_at = ${clock.now()}`);
      return firstRowOf(
        conn,
        ConnectionRowSchema,
        sql`
        WITH c AS (UPDATE sms_connections SET ${sql.join(sets, sql`, `)} WHERE team_id = ${teamId} AND uuid = ${uuid} RETURNING *)
        SELECT ${COLUMNS} FROM c ${STATE}`,
      );
    },

    /**
     * What still uses a connection: whether one of the team's routes names it, and how many messages
     * and keyword replies are on their way through it (submitted, their final status not in yet).
     */
    async usesOf(conn: Conn, teamId: number, connection: { id: number; uuid: string }) {
      const row = await firstRowOf(
        conn,
        z.object({ routed: z.boolean(), messages: z.number(), replies: z.number() }),
        sql`SELECT EXISTS (SELECT 1 FROM sms_routes WHERE team_id = ${teamId}
                            AND rules @> ${JSON.stringify([{ connections: [connection.uuid] }])}::jsonb) AS routed,
                   (SELECT count(*)::int FROM messages WHERE connection_id = ${connection.id} AND status = 'submitted') AS messages,
                   (SELECT count(*)::int FROM outbound_replies WHERE connection_id = ${connection.id} AND status = 'submitted') AS replies`,
      );
      return row!;
    },

    /** The senders the team's routes name for rules that go through this connection (each once). */
    async routeSendersOf(conn: Conn, teamId: number, connectionUuid: string): Promise<string[]> {
      const rows = await rowsOf(
        conn,
        z.object({ sender: z.string() }),
        sql`SELECT DISTINCT r.rule->>'sender' AS sender
              FROM sms_routes s CROSS JOIN LATERAL jsonb_array_elements(s.rules) AS r(rule)
             WHERE s.team_id = ${teamId} AND r.rule->'connections' @> ${JSON.stringify([connectionUuid])}::jsonb
               AND jsonb_typeof(r.rule->'sender') = 'string'
             ORDER BY 1`,
      );
      return rows.map((row) => row.sender);
    },

    async delete(conn: Conn, id: number): Promise<void> {
      await conn.execute(sql`DELETE FROM sms_connections WHERE id = ${id}`);
    },
  };
}
export type SmsConnectionsRepository = ReturnType<typeof createSmsConnectionsRepository>;

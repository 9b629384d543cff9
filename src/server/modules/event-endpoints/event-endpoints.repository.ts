import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { countOf, readPage, type Page, type PageWindow } from '../../db/pages';
import { firstRowOf, MomentSchema, rowsOf, type Conn } from '../../db/rows';
import type { Clock } from '../../lib/time';

const EndpointRowSchema = z.object({
  id: z.number(),
  uuid: z.string(),
  teamId: z.number(),
  createdBy: z.number().nullable(),
  url: z.string(),
  description: z.string(),
  events: z.array(z.string()),
  headers: z.record(z.string(), z.string()),
  enabled: z.boolean(),
  secretEncrypted: z.instanceof(Buffer),
  previousSecretEncrypted: z.instanceof(Buffer).nullable(),
  previousSecretUntil: MomentSchema.nullable(),
  failingSince: MomentSchema.nullable(),
  disabledReason: z.string().nullable(),
  createdAt: MomentSchema,
  updatedAt: MomentSchema,
});
export type EndpointRow = z.output<typeof EndpointRowSchema>;

const ENDPOINT_COLUMNS = sql.raw(`e.id::int AS id, e.uuid, e.team_id::int AS "teamId", e.created_by::int AS "createdBy", e.url, e.description, e.events,
  e.headers, e.enabled, e.secret_encrypted AS "secretEncrypted", e.previous_secret_encrypted AS "previousSecretEncrypted",
  e.previous_secret_until AS "previousSecretUntil", e.failing_since AS "failingSince", e.disabled_reason AS "disabledReason",
  e.created_at AS "createdAt", e.updated_at AS "updatedAt"`);

const DeliveryRowSchema = z.object({
  id: z.number(),
  uuid: z.string(),
  endpointId: z.number(),
  type: z.string(),
  itemCount: z.number(),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number(),
  lastStatusCode: z.number().nullable(),
  lastError: z.string().nullable(),
  nextAttemptAt: MomentSchema,
  createdAt: MomentSchema,
  finishedAt: MomentSchema.nullable(),
});
export type DeliveryRow = z.output<typeof DeliveryRowSchema>;

const DELIVERY_COLUMNS = sql.raw(`d.id::int AS id, d.uuid, d.endpoint_id::int AS "endpointId", d.type, d.item_count AS "itemCount", d.status, d.attempts,
  d.last_status_code AS "lastStatusCode", d.last_error AS "lastError", d.next_attempt_at AS "nextAttemptAt", d.created_at AS "createdAt",
  d.finished_at AS "finishedAt"`);

const DeliveryDetailRowSchema = DeliveryRowSchema.extend({
  payload: z.object({ type: z.string(), timestamp: z.string(), data: z.record(z.string(), z.unknown()) }),
});
export type DeliveryDetailRow = z.output<typeof DeliveryDetailRowSchema>;

const AttemptRowSchema = z.object({ statusCode: z.number().nullable(), latencyMs: z.number(), error: z.string().nullable(), createdAt: MomentSchema });
export type DeliveryAttemptRow = z.output<typeof AttemptRowSchema>;

export type EndpointChanges = Partial<{
  url: string;
  events: string[];
  headers: Record<string, string>;
  enabled: boolean;
  description: string;
  secretEncrypted: Buffer;
  previousSecretEncrypted: Buffer | null;
  previousSecretUntil: Date | null;
}>;

const COLUMN_OF: Record<keyof EndpointChanges, string> = {
  url: 'url',
  events: 'events',
  headers: 'headers',
  enabled: 'enabled',
  description: 'description',
  secretEncrypted: 'secret_encrypted',
  previousSecretEncrypted: 'previous_secret_encrypted',
  previousSecretUntil: 'previous_secret_until',
};

/** A column's new value, typed as the column is. */
function assignment(key: keyof EndpointChanges, value: unknown): SQL {
  const column = sql.raw(COLUMN_OF[key]);
  if (key === 'events') return sql`${column} = ${sql.param(value)}::text[]`;
  if (key === 'headers') return sql`${column} = ${JSON.stringify(value)}::jsonb`;
  return sql`${column} = ${value}`;
}

/** A team's event endpoints and each one's deliveries: what the API reads and edits. */
export function createEventEndpointsRepository(db: Db, clock: Clock) {
  const findWhere = (where: SQL, conn: Conn = db, lock = false) =>
    firstRowOf(conn, EndpointRowSchema, sql`SELECT ${ENDPOINT_COLUMNS} FROM event_endpoints e WHERE ${where}${lock ? sql` FOR UPDATE` : sql``}`);

  return {
    list(teamId: number, window: PageWindow): Promise<Page<EndpointRow>> {
      return readPage({
        rows: rowsOf(
          db,
          EndpointRowSchema,
          sql`SELECT ${ENDPOINT_COLUMNS} FROM event_endpoints e WHERE e.team_id = ${teamId}
               ORDER BY e.created_at DESC, e.id DESC LIMIT ${window.limit} OFFSET ${window.offset}`,
        ),
        count: () => countOf(db, sql`SELECT count(*)::int AS total FROM event_endpoints WHERE team_id = ${teamId}`),
      });
    },

    /** The team's endpoint; `lock`: held until `conn`'s transaction ends, the "before" of a change. */
    find: (teamId: number, uuid: string, conn: Conn = db, lock = false) => findWhere(sql`e.team_id = ${teamId} AND e.uuid = ${uuid}`, conn, lock),
    findById: (id: number) => findWhere(sql`e.id = ${id}`),

    async insert(
      row: {
        teamId: number;
        createdBy: number;
        url: string;
        description: string;
        events: string[];
        headers: Record<string, string>;
        enabled: boolean;
        secretEncrypted: Buffer;
      },
      conn: Conn = db,
    ): Promise<EndpointRow> {
      const now = clock.now();
      const created = await firstRowOf(
        conn,
        EndpointRowSchema,
        sql`
        WITH e AS (
          INSERT INTO event_endpoints (team_id, created_by, url, description, events, headers, enabled, secret_encrypted, created_at, updated_at)
          VALUES (${row.teamId}, ${row.createdBy}, ${row.url}, ${row.description}, ${sql.param(row.events)}::text[], ${JSON.stringify(row.headers)}::jsonb,
                  ${row.enabled}, ${row.secretEncrypted}, ${now}, ${now})
          RETURNING *)
        SELECT ${ENDPOINT_COLUMNS} FROM e`,
      );
      if (!created) throw new Error('event endpoint insert returned no row');
      return created;
    },

    /** Enabling an endpoint clears its failure record: it starts afresh. */
    update(teamId: number, uuid: string, changes: EndpointChanges, conn: Conn = db): Promise<EndpointRow | undefined> {
      const sets = (Object.entries(changes) as Array<[keyof EndpointChanges, unknown]>).map(([key, value]) => assignment(key, value));
      if (changes.enabled === true) sets.push(sql`failing_since = NULL, disabled_reason = NULL`);
      sets.push(sql`updated_at = ${clock.now()}`);
      return firstRowOf(
        conn,
        EndpointRowSchema,
        sql`
        WITH e AS (UPDATE event_endpoints SET ${sql.join(sets, sql`, `)} WHERE team_id = ${teamId} AND uuid = ${uuid} RETURNING *)
        SELECT ${ENDPOINT_COLUMNS} FROM e`,
      );
    },

    async delete(id: number, conn: Conn = db): Promise<void> {
      await conn.execute(sql`DELETE FROM event_endpoints WHERE id = ${id}`);
    },

    listDeliveries(endpointId: number, window: PageWindow, status?: string): Promise<Page<DeliveryRow>> {
      const where = status ? sql`d.endpoint_id = ${endpointId} AND d.status = ${status}` : sql`d.endpoint_id = ${endpointId}`;
      return readPage({
        rows: rowsOf(
          db,
          DeliveryRowSchema,
          sql`SELECT ${DELIVERY_COLUMNS} FROM event_deliveries d WHERE ${where} ORDER BY d.created_at DESC, d.id DESC LIMIT ${window.limit} OFFSET ${window.offset}`,
        ),
        count: () => countOf(db, sql`SELECT count(*)::int AS total FROM event_deliveries d WHERE ${where}`),
      });
    },

    findDelivery: (endpointId: number, uuid: string, conn: Conn = db) =>
      firstRowOf(
        conn,
        DeliveryDetailRowSchema,
        sql`SELECT ${DELIVERY_COLUMNS}, d.payload FROM event_deliveries d WHERE d.endpoint_id = ${endpointId} AND d.uuid = ${uuid}`,
      ),

    attemptsOf: (deliveryId: number, conn: Conn = db) =>
      rowsOf(
        conn,
        AttemptRowSchema,
        sql`SELECT status_code AS "statusCode", latency_ms AS "latencyMs", error, created_at AS "createdAt"
              FROM event_delivery_attempts WHERE delivery_id = ${deliveryId} ORDER BY id`,
      ),

    /** Sends a delivery again from now, with a fresh 24 hours of retries (same body, same `webhook-id`). */
    redeliver(deliveryId: number, retryUntil: Date, conn: Conn = db): Promise<DeliveryRow | undefined> {
      return firstRowOf(
        conn,
        DeliveryRowSchema,
        sql`
        WITH d AS (UPDATE event_deliveries SET status = 'pending', next_attempt_at = ${clock.now()}, retry_until = ${retryUntil}, finished_at = NULL
                    WHERE id = ${deliveryId} RETURNING *)
        SELECT ${DELIVERY_COLUMNS} FROM d`,
      );
    },
  };
}
export type EventEndpointsRepository = ReturnType<typeof createEventEndpointsRepository>;

import { AUDIT_EVENT_SORT, type SortFieldOf } from '../../../shared/contract';
import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { countOf, readPage, type Page, type PageWindow, orderOf, type ListOrder } from '../../db/pages';
import { firstRowOf, MomentSchema, rowsOf, type Conn } from '../../db/rows';
import type { Clock } from '../../lib/time';

export type AuditChanges = Record<string, { before?: unknown; after?: unknown }>;

/** What happened, by whom, to what. */
export type AuditRecord = {
  teamId: number | null;
  actor: { kind: 'user' | 'token' | 'anonymous'; uuid: string | null; name: string };
  action: string;
  resourceType: string | null;
  resourceUuid: string | null;
  changes: AuditChanges | null;
  ip: string | null;
};

const EventRowSchema = z.object({
  id: z.number(),
  uuid: z.string(),
  actorKind: z.enum(['user', 'token', 'anonymous']),
  actorUuid: z.string().nullable(),
  actorName: z.string(),
  action: z.string(),
  resourceType: z.string().nullable(),
  resourceUuid: z.string().nullable(),
  changes: z.record(z.string(), z.object({ before: z.unknown().optional(), after: z.unknown().optional() })).nullable(),
  ip: z.string().nullable(),
  createdAt: MomentSchema,
});
export type AuditEventRow = z.infer<typeof EventRowSchema>;

export type AuditFilters = { actor?: string; action?: string; resourceUuid?: string; from?: Date; to?: Date };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The audit log (migration 0024): rows are written, never changed (the table refuses it). */
/** The list's `sort` (AUDIT_EVENT_SORT): events are numbered as they are recorded, so their id is their order in time. */
const ORDER: ListOrder<SortFieldOf<typeof AUDIT_EVENT_SORT>> = { sort: AUDIT_EVENT_SORT, columns: { created_at: sql`e.id` } };

export function createAuditRepository(db: Db, clock: Clock) {
  const where = (teamId: number, filters: AuditFilters): SQL => {
    const conditions: SQL[] = [sql`e.team_id = ${teamId}`];
    if (filters.actor) {
      conditions.push(
        UUID.test(filters.actor)
          ? sql`e.actor_uuid = ${filters.actor}::uuid`
          : sql`e.actor_name ILIKE ${`%${filters.actor.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`,
      );
    }
    if (filters.action) conditions.push(sql`e.action = ${filters.action}`);
    if (filters.resourceUuid) conditions.push(sql`e.resource_uuid = ${filters.resourceUuid}::uuid`);
    if (filters.from) conditions.push(sql`e.created_at >= ${filters.from}`);
    if (filters.to) conditions.push(sql`e.created_at < ${filters.to}`);
    return sql.join(conditions, sql` AND `);
  };
  const columns = sql`e.id::int AS id, e.uuid::text AS uuid, e.actor_kind AS "actorKind", e.actor_uuid::text AS "actorUuid", e.actor_name AS "actorName",
    e.action, e.resource_type AS "resourceType", e.resource_uuid::text AS "resourceUuid", e.changes, e.ip, e.created_at AS "createdAt"`;

  return {
    /** Records an event, in the caller's transaction when given one. */
    async record(event: AuditRecord, conn: Conn = db): Promise<void> {
      await conn.execute(sql`
        INSERT INTO audit_events (team_id, actor_kind, actor_uuid, actor_name, action, resource_type, resource_uuid, changes, ip, created_at)
        VALUES (${event.teamId}, ${event.actor.kind}, ${event.actor.uuid}::uuid, ${event.actor.name}, ${event.action}, ${event.resourceType},
                ${event.resourceUuid !== null && UUID.test(event.resourceUuid) ? event.resourceUuid : null}::uuid, ${event.changes === null ? null : JSON.stringify(event.changes)}::jsonb, ${event.ip}, ${clock.now()})`);
    },

    /** Newest first. */
    list(teamId: number, filters: AuditFilters, window: PageWindow): Promise<Page<AuditEventRow>> {
      const condition = where(teamId, filters);
      return readPage({
        rows: rowsOf(
          db,
          EventRowSchema,
          sql`SELECT ${columns} FROM audit_events e WHERE ${condition} ORDER BY ${orderOf(ORDER, window.sort)} LIMIT ${window.limit} OFFSET ${window.offset}`,
        ),
        count: () => countOf(db, sql`SELECT count(*)::int AS total FROM audit_events e WHERE ${condition}`),
      });
    },

    /** Every matching event, newest first, `size` at a time (for the CSV export). */
    async *each(teamId: number, filters: AuditFilters, size = 1000): AsyncGenerator<AuditEventRow[]> {
      const condition = where(teamId, filters);
      let before = Number.MAX_SAFE_INTEGER;
      for (;;) {
        const rows = await rowsOf(
          db,
          EventRowSchema,
          sql`SELECT ${columns} FROM audit_events e WHERE ${condition} AND e.id < ${before} ORDER BY e.id DESC LIMIT ${size}`,
        );
        if (rows.length === 0) return;
        yield rows;
        before = rows[rows.length - 1]!.id;
      }
    },

    /** Who a token is: its user (uuid, name) and, for an API token, its name. */
    actorOf(tokenId: number, conn: Conn = db) {
      return firstRowOf(
        conn,
        z.object({ userUuid: z.string(), userName: z.string(), tokenName: z.string(), kind: z.enum(['personal', 'session']) }),
        sql`SELECT u.uuid::text AS "userUuid", u.name AS "userName", t.name AS "tokenName", t.kind FROM api_tokens t JOIN users u ON u.id = t.user_id WHERE t.id = ${tokenId}`,
      );
    },

    /** The team a user's sign-in is recorded in: the team they work in. */
    async teamOfUser(userId: number): Promise<number | null> {
      const row = await firstRowOf(
        db,
        z.object({ teamId: z.number().nullable() }),
        sql`SELECT current_team_id::int AS "teamId" FROM users WHERE id = ${userId}`,
      );
      return row?.teamId ?? null;
    },
  };
}
export type AuditRepository = ReturnType<typeof createAuditRepository>;

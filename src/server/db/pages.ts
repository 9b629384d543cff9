import { and, desc, eq, getTableName, inArray, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import type { ListSort } from '../../shared/contract';
import type { Db } from './client';
import { oneRowOf, type Conn } from './rows';

/** The rows of a page, and the list's `sort` as the request gave it (absent: the list's own order). */
export type PageWindow = { limit: number; offset: number; sort?: string };

/** A page of rows and the total they are a page of: what every list of the API is read as. */
export type Page<T> = { rows: T[]; total: number };

/**
 * The one way a list is read: a page of rows and their total. Either the page's own statement
 * carries the total on its rows (`totalOn`: a team's counter row read in the same statement, the
 * fast path of the busiest lists — one statement a page), and `count` runs only for a page past the
 * end, which has no row to carry it; or, without `totalOn`, `count` runs beside the page.
 */
export async function readPage<R>(read: { rows: Promise<R[]>; count: () => Promise<number>; totalOn?: (row: R) => number }): Promise<Page<R>> {
  if (!read.totalOn) {
    const [rows, total] = await Promise.all([read.rows, read.count()]);
    return { rows, total };
  }
  const rows = await read.rows;
  return { rows, total: rows[0] === undefined ? await read.count() : read.totalOn(rows[0]) };
}

/** `count(*)` of a statement's rows, checked: the `count` of a `readPage`. */
export async function countOf(conn: Conn, statement: SQL): Promise<number> {
  return (await oneRowOf(conn, TotalSchema, statement)).total;
}
const TotalSchema = z.object({ total: z.number() });

/**
 * How a list's `sort` reads in SQL (issue 23, point 4): an expression for each field the contract lets
 * it be sorted by (CAMPAIGN_SORT…, shared/contract/sorts.ts), and the tiebreak, the row's id in the
 * same direction, where the field is not unique on its own.
 */
export type ListOrder<F extends string> = { sort: ListSort<F>; columns: Record<F, SQL | PgColumn>; tiebreak?: SQL | PgColumn };

/**
 * The ORDER BY of a page: the field `sort` names (the list's default without it) in its direction,
 * then the tiebreak in the same direction, so pages neither overlap nor skip. Only the list's own
 * expressions reach the SQL; the request's text only picks one of them (and the contract has already
 * answered any other value with 422).
 */
export function orderOf<F extends string>(order: ListOrder<F>, sort: string | undefined): SQL {
  const chosen = sort ?? order.sort.byDefault;
  const descending = chosen.startsWith('-');
  const field = descending ? chosen.slice(1) : chosen;
  if (!(order.sort.fields as readonly string[]).includes(field)) throw new Error(`This list cannot be sorted by ${chosen}.`);
  const direction = sql.raw(descending ? 'DESC' : 'ASC');
  const keys = [order.columns[field as F], ...(order.tiebreak ? [order.tiebreak] : [])];
  return sql.join(
    keys.map((key) => sql`${key} ${direction}`),
    sql`, `,
  );
}

type NewestFirstTable = PgTable & { id: PgColumn; createdAt: PgColumn };

type TeamOwnedTable = PgTable & { id: PgColumn; uuid: PgColumn; teamId: PgColumn };

/** Tables whose rows are counted per team by triggers (migration 0018). */
export type CountedTable = 'templates' | 'senders' | 'keywords' | 'webhooks' | 'contact_groups' | 'vanity_domains' | 'campaigns';

/** The team's number of rows of a counted table, as a scalar subquery (read once per statement). */
export const teamRowCount = (teamId: number, table: CountedTable): SQL<number> =>
  sql<number>`(SELECT coalesce((SELECT row_count::int FROM team_row_counts WHERE team_id = ${teamId} AND resource = ${table}), 0))`;

/** The team's counter row alone: the `count` of a page whose rows carry `teamRowCount`. */
export const teamRowCountOf = (db: Db, teamId: number, table: CountedTable): Promise<number> =>
  countOf(db, sql`SELECT ${teamRowCount(teamId, table)} AS total`);

/**
 * One page of a team's rows, newest first (or in the order `window.sort` names, read by `order`), and
 * their total. Unfiltered, in one statement: the total is the team's counter row, not a count over
 * every row. With `filter` (a list's `search`), the matching rows are counted beside the page.
 */
export function newestOfTeam<T extends NewestFirstTable & { teamId: PgColumn }, F extends string = never>(
  db: Db,
  table: T,
  teamId: number,
  window: PageWindow,
  filter?: SQL,
  order?: ListOrder<F>,
): Promise<Page<T['$inferSelect']>> {
  const name = getTableName(table) as CountedTable;
  const ofTeam = eq(table.teamId, teamId);
  const where = filter ? and(ofTeam, filter) : ofTeam;
  const rows = db
    .select({ row: table as PgTable, total: teamRowCount(teamId, name) } as never)
    .from(table as PgTable)
    .where(where)
    .orderBy(...(order ? [orderOf(order, window.sort)] : [desc(table.createdAt), desc(table.id)]))
    .limit(window.limit)
    .offset(window.offset) as unknown as Promise<Array<{ row: T['$inferSelect']; total: number }>>;
  const page = filter
    ? readPage({ rows, count: () => countOf(db, sql`SELECT count(*)::int AS total FROM ${table} WHERE ${where}`) })
    : readPage({ rows, count: () => teamRowCountOf(db, teamId, name), totalOn: (entry) => entry.total });
  return page.then((read) => ({ rows: read.rows.map((entry) => entry.row), total: read.total }));
}

/** Ids of the team's rows with these uuids; another team's and unknown uuids are left out (the caller answers 422). */
export async function teamIdsByUuid<T extends TeamOwnedTable>(db: Db, table: T, teamId: number, uuids: string[]): Promise<Map<string, number>> {
  if (uuids.length === 0) return new Map();
  const rows = (await db
    .select({ id: table.id, uuid: table.uuid })
    .from(table as PgTable)
    .where(
      and(
        eq(table.teamId, teamId),
        inArray(
          table.uuid,
          uuids.map((uuid) => uuid.toLowerCase()),
        ),
      ),
    )) as Array<{ id: number; uuid: string }>;
  return new Map(rows.map((row) => [row.uuid, row.id]));
}

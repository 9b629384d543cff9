import { and, count, desc, eq, getTableName, inArray, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from './client';

export type PageWindow = { limit: number; offset: number };

type NewestFirstTable = PgTable & { id: PgColumn; createdAt: PgColumn };

/** One page of a team's resources, newest first (created_at, then id: a stable order), and the total. */
export async function newestFirst<T extends NewestFirstTable>(db: Db, table: T, where: SQL | undefined, window: PageWindow) {
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(table as PgTable)
      .where(where)
      .orderBy(desc(table.createdAt), desc(table.id))
      .limit(window.limit)
      .offset(window.offset),
    db.select({ value: count() }).from(table as PgTable).where(where),
  ]);
  return { rows: rows as T['$inferSelect'][], total: total?.value ?? 0 };
}

type TeamOwnedTable = PgTable & { id: PgColumn; uuid: PgColumn; teamId: PgColumn };

/** Tables whose rows are counted per team by triggers (migration 0018). */
export type CountedTable = 'templates' | 'senders' | 'keywords' | 'webhooks' | 'contact_groups' | 'vanity_domains' | 'campaigns';

/** The team's number of rows of a counted table, as a scalar subquery (read once per statement). */
export const teamRowCount = (teamId: number, table: CountedTable): SQL<number> =>
  sql<number>`(SELECT coalesce((SELECT row_count::int FROM team_row_counts WHERE team_id = ${teamId} AND resource = ${table}), 0))`;

/** When a page comes back empty (past the end) there is no row to carry the total: read it alone. */
export async function teamRowCountOf(db: Db, teamId: number, table: CountedTable): Promise<number> {
  const { rows } = await db.execute<{ total: number }>(sql`SELECT ${teamRowCount(teamId, table)} AS total`);
  return rows[0]?.total ?? 0;
}

/**
 * One page of a team's rows, newest first, and their total, in one statement: the total is the
 * team's counter row, not a count over every row.
 */
export async function newestOfTeam<T extends NewestFirstTable & { teamId: PgColumn }>(db: Db, table: T, teamId: number, window: PageWindow) {
  const name = getTableName(table) as CountedTable;
  const rows = (await db
    .select({ row: table as PgTable, total: teamRowCount(teamId, name) } as never)
    .from(table as PgTable)
    .where(eq(table.teamId, teamId))
    .orderBy(desc(table.createdAt), desc(table.id))
    .limit(window.limit)
    .offset(window.offset)) as Array<{ row: T['$inferSelect']; total: number }>;
  const total = rows[0]?.total ?? (await teamRowCountOf(db, teamId, name));
  return { rows: rows.map((entry) => entry.row), total };
}

/** Ids of the team's rows with these uuids; another team's and unknown uuids are left out (the caller answers 422). */
export async function teamIdsByUuid<T extends TeamOwnedTable>(db: Db, table: T, teamId: number, uuids: string[]): Promise<Map<string, number>> {
  if (uuids.length === 0) return new Map();
  const rows = (await db
    .select({ id: table.id, uuid: table.uuid })
    .from(table as PgTable)
    .where(and(eq(table.teamId, teamId), inArray(table.uuid, uuids.map((uuid) => uuid.toLowerCase()))))) as Array<{ id: number; uuid: string }>;
  return new Map(rows.map((row) => [row.uuid, row.id]));
}

import { and, count, desc, eq, inArray, type SQL } from 'drizzle-orm';
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

/** Ids of the team's rows with these uuids; another team's and unknown uuids are left out (the caller answers 422). */
export async function teamIdsByUuid<T extends TeamOwnedTable>(db: Db, table: T, teamId: number, uuids: string[]): Promise<Map<string, number>> {
  if (uuids.length === 0) return new Map();
  const rows = (await db
    .select({ id: table.id, uuid: table.uuid })
    .from(table as PgTable)
    .where(and(eq(table.teamId, teamId), inArray(table.uuid, uuids.map((uuid) => uuid.toLowerCase()))))) as Array<{ id: number; uuid: string }>;
  return new Map(rows.map((row) => [row.uuid, row.id]));
}

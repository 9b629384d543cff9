import { count, desc, type SQL } from 'drizzle-orm';
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

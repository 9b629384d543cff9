import { SENDER_SORT, type SortFieldOf } from '../../../shared/contract';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { Conn } from '../../db/rows';
import { newestOfTeam, type PageWindow, type ListOrder } from '../../db/pages';
import { containsText } from '../../db/search';
import { senders } from '../../db/schema';
import { stampsOf, type Clock } from '../../lib/time';

export type SenderRow = typeof senders.$inferSelect;

const ofTeam = (teamId: number, uuid: string) => and(eq(senders.teamId, teamId), eq(senders.uuid, uuid));

/** The list's `sort` (SENDER_SORT): the newest first without it. */
const ORDER: ListOrder<SortFieldOf<typeof SENDER_SORT>> = {
  sort: SENDER_SORT,
  columns: { created_at: senders.createdAt, sender: sql`lower(${senders.sender})` },
  tiebreak: senders.id,
};

export function createSendersRepository(db: Db, clock: Clock) {
  return {
    list: (teamId: number, window: PageWindow, search?: string) =>
      newestOfTeam(db, senders, teamId, window, search ? containsText(senders.sender, search) : undefined, ORDER),

    /** The sender; in a transaction (`conn`), locked until it ends. */
    async find(teamId: number, uuid: string, conn?: Conn): Promise<SenderRow | undefined> {
      const [row] = conn
        ? await conn.select().from(senders).where(ofTeam(teamId, uuid)).for('update')
        : await db.select().from(senders).where(ofTeam(teamId, uuid));
      return row;
    },

    /** Whether the team has this sender (exactly as written: handsets show it as it is). */
    async has(teamId: number, sender: string): Promise<boolean> {
      const [row] = await db
        .select({ id: senders.id })
        .from(senders)
        .where(and(eq(senders.teamId, teamId), eq(senders.sender, sender)));
      return row !== undefined;
    },

    /** Adds the sender to the team's list unless it is there already (an admin's new sender, used in a template or campaign). */
    async register(teamId: number, sender: string): Promise<void> {
      await db
        .insert(senders)
        .values({ teamId, sender, ...stampsOf(clock) })
        .onConflictDoNothing();
    },

    async insert(conn: Conn, teamId: number, sender: string): Promise<SenderRow> {
      const [row] = await conn
        .insert(senders)
        .values({ teamId, sender, ...stampsOf(clock) })
        .returning();
      if (!row) throw new Error('sender insert returned no row');
      return row;
    },

    async update(conn: Conn, teamId: number, uuid: string, sender: string): Promise<SenderRow | undefined> {
      const [row] = await conn.update(senders).set({ sender, updatedAt: clock.now() }).where(ofTeam(teamId, uuid)).returning();
      return row;
    },

    async delete(conn: Conn, teamId: number, uuid: string): Promise<boolean> {
      const rows = await conn.delete(senders).where(ofTeam(teamId, uuid)).returning({ id: senders.id });
      return rows.length > 0;
    },
  };
}
export type SendersRepository = ReturnType<typeof createSendersRepository>;

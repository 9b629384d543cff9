import { and, count, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { Conn } from '../../db/rows';
import { newestOfTeam, type PageWindow } from '../../db/pages';
import { links, vanityDomains } from '../../db/schema';
import { stampsOf, type Clock } from '../../lib/time';

export type VanityDomainRow = typeof vanityDomains.$inferSelect;

const ofTeam = (teamId: number, uuid: string) => and(eq(vanityDomains.teamId, teamId), eq(vanityDomains.uuid, uuid));

export function createVanityDomainsRepository(db: Db, clock: Clock) {
  return {
    list: (teamId: number, window: PageWindow) => newestOfTeam(db, vanityDomains, teamId, window),

    /** The domain; in a transaction (`conn`), locked until it ends. */
    async find(teamId: number, uuid: string, conn?: Conn): Promise<VanityDomainRow | undefined> {
      const [row] = conn
        ? await conn.select().from(vanityDomains).where(ofTeam(teamId, uuid)).for('update')
        : await db.select().from(vanityDomains).where(ofTeam(teamId, uuid));
      return row;
    },

    async findById(id: number): Promise<VanityDomainRow | undefined> {
      const [row] = await db.select().from(vanityDomains).where(eq(vanityDomains.id, id));
      return row;
    },

    /** The service's own link domain of the team. */
    async findDefault(teamId: number): Promise<VanityDomainRow | undefined> {
      const [row] = await db
        .select()
        .from(vanityDomains)
        .where(and(eq(vanityDomains.teamId, teamId), isNull(vanityDomains.domain)));
      return row;
    },

    async insert(conn: Conn, teamId: number, domain: string): Promise<VanityDomainRow> {
      const [row] = await conn
        .insert(vanityDomains)
        .values({ teamId, domain, ...stampsOf(clock) })
        .returning();
      if (!row) throw new Error('vanity domain insert returned no row');
      return row;
    },

    async update(conn: Conn, teamId: number, uuid: string, domain: string): Promise<VanityDomainRow | undefined> {
      const [row] = await conn.update(vanityDomains).set({ domain, updatedAt: clock.now() }).where(ofTeam(teamId, uuid)).returning();
      return row;
    },

    async delete(conn: Conn, id: number): Promise<void> {
      await conn.delete(vanityDomains).where(eq(vanityDomains.id, id));
    },

    async linkCount(id: number): Promise<number> {
      const [row] = await db.select({ value: count() }).from(links).where(eq(links.vanityDomainId, id));
      return row?.value ?? 0;
    },
  };
}
export type VanityDomainsRepository = ReturnType<typeof createVanityDomainsRepository>;

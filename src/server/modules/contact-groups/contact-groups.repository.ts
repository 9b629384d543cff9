import { CONTACT_GROUP_SORT, type SortFieldOf } from '../../../shared/contract';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import type { Conn } from '../../db/rows';
import { newestOfTeam, teamIdsByUuid, type PageWindow, type ListOrder } from '../../db/pages';
import { containsText } from '../../db/search';
import { contactGroups, keywordContactGroups, keywords } from '../../db/schema';
import { stampsOf, type Clock } from '../../lib/time';

export type ContactGroupRow = typeof contactGroups.$inferSelect;
type ContactGroupFields = Pick<ContactGroupRow, 'name' | 'description' | 'headers'>;

const ofTeam = (teamId: number, uuid: string) => and(eq(contactGroups.teamId, teamId), eq(contactGroups.uuid, uuid));

/** The list's `sort` (CONTACT_GROUP_SORT): the newest first without it. */
const ORDER: ListOrder<SortFieldOf<typeof CONTACT_GROUP_SORT>> = {
  sort: CONTACT_GROUP_SORT,
  columns: { created_at: contactGroups.createdAt, updated_at: contactGroups.updatedAt, name: sql`lower(${contactGroups.name})` },
  tiebreak: contactGroups.id,
};

export function createContactGroupsRepository(db: Db, clock: Clock) {
  return {
    list: (teamId: number, window: PageWindow, search?: string) =>
      newestOfTeam(db, contactGroups, teamId, window, search ? containsText(contactGroups.name, search) : undefined, ORDER),

    /** The team's group; `lock`: held (`FOR UPDATE`) until `conn`'s transaction ends, the "before" of a change. */
    async find(teamId: number, uuid: string, conn: Conn = db, lock = false): Promise<ContactGroupRow | undefined> {
      const query = conn.select().from(contactGroups).where(ofTeam(teamId, uuid));
      const [row] = lock ? await query.for('update') : await query;
      return row;
    },

    async insert(teamId: number, fields: ContactGroupFields, tx: Tx | Db = db): Promise<ContactGroupRow> {
      const [row] = await tx
        .insert(contactGroups)
        .values({ teamId, ...fields, ...stampsOf(clock) })
        .returning();
      if (!row) throw new Error('contact group insert returned no row');
      return row;
    },

    async update(id: number, fields: Partial<ContactGroupFields>, conn: Conn = db): Promise<ContactGroupRow> {
      const [row] = await conn
        .update(contactGroups)
        .set({ ...fields, updatedAt: clock.now() })
        .where(eq(contactGroups.id, id))
        .returning();
      if (!row) throw new Error('contact group update returned no row');
      return row;
    },

    async delete(id: number, conn: Conn = db): Promise<void> {
      await conn.delete(contactGroups).where(eq(contactGroups.id, id));
    },

    /** Ids of the team's groups with these uuids (others' and unknown uuids are left out). */
    idsByUuid: (teamId: number, uuids: string[]) => teamIdsByUuid(db, contactGroups, teamId, uuids),

    async namesOf(ids: number[]): Promise<Array<{ id: number; uuid: string; name: string }>> {
      if (ids.length === 0) return [];
      const rows = await db
        .select({ id: contactGroups.id, uuid: contactGroups.uuid, name: contactGroups.name })
        .from(contactGroups)
        .where(inArray(contactGroups.id, ids));
      return ids.map((id) => rows.find((row) => row.id === id)).filter((row) => row !== undefined);
    },

    /** Keywords that add numbers to the group, by name. */
    async keywordsAddingTo(groupId: number, conn: Conn = db): Promise<string[]> {
      const rows = await conn
        .select({ keyword: keywords.keyword })
        .from(keywordContactGroups)
        .innerJoin(keywords, eq(keywords.id, keywordContactGroups.keywordId))
        .where(eq(keywordContactGroups.contactGroupId, groupId))
        .orderBy(asc(keywords.keyword));
      return rows.map((row) => row.keyword);
    },
  };
}
export type ContactGroupsRepository = ReturnType<typeof createContactGroupsRepository>;

import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { contactGroups } from '../../db/schema';

export function createContactGroupsRepository(db: Db) {
  return {
    /** Ids of the team's groups with these uuids (others' and unknown uuids are left out). */
    async idsByUuid(teamId: number, uuids: string[]): Promise<Map<string, number>> {
      if (uuids.length === 0) return new Map();
      const rows = await db
        .select({ id: contactGroups.id, uuid: contactGroups.uuid })
        .from(contactGroups)
        .where(and(eq(contactGroups.teamId, teamId), inArray(contactGroups.uuid, uuids.map((u) => u.toLowerCase()))));
      return new Map(rows.map((row) => [row.uuid, row.id]));
    },
  };
}
export type ContactGroupsRepository = ReturnType<typeof createContactGroupsRepository>;

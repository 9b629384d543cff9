import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { teamRowCountOf, type PageWindow } from '../../db/pages';
import { campaigns, templates } from '../../db/schema';

export type TemplateRow = typeof templates.$inferSelect;
type TemplateFields = Pick<TemplateRow, 'name' | 'body' | 'sender'>;

const ofTeam = (teamId: number, uuid: string) => and(eq(templates.teamId, teamId), eq(templates.uuid, uuid));
const SENDING = 1;

export function createTemplatesRepository(db: Db) {
  // The most read list: built once and prepared in PostgreSQL (named statement, no planning per request).
  const teamId = sql.placeholder('teamId');
  const listPage = db
    .select({
      template: templates,
      locked: sql<boolean>`EXISTS (SELECT 1 FROM campaigns c WHERE c.template_id = templates.id AND c.status = ${SENDING})`,
      total: sql<number>`(SELECT coalesce((SELECT row_count::int FROM team_row_counts WHERE team_id = ${teamId} AND resource = 'templates'), 0))`,
    })
    .from(templates)
    .where(eq(templates.teamId, teamId))
    .orderBy(desc(templates.createdAt), desc(templates.id))
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'))
    .prepare('templates_list_page');

  return {
    /** A page of the team's templates, newest first, each with whether a sending campaign locks it, and the total: one statement. */
    async list(teamId: number, window: PageWindow): Promise<{ rows: Array<TemplateRow & { locked: boolean }>; total: number }> {
      const rows = await listPage.execute({ teamId, limit: window.limit, offset: window.offset });
      const total = rows[0]?.total ?? (await teamRowCountOf(db, teamId, 'templates'));
      return { rows: rows.map(({ template, locked }) => ({ ...template, locked })), total };
    },

    async find(teamId: number, uuid: string): Promise<TemplateRow | undefined> {
      const [row] = await db.select().from(templates).where(ofTeam(teamId, uuid));
      return row;
    },

    async insert(teamId: number, fields: TemplateFields): Promise<TemplateRow> {
      const [row] = await db.insert(templates).values({ teamId, ...fields }).returning();
      if (!row) throw new Error('template insert returned no row');
      return row;
    },

    async update(id: number, fields: TemplateFields): Promise<TemplateRow> {
      const [row] = await db.update(templates).set({ ...fields, updatedAt: new Date() }).where(eq(templates.id, id)).returning();
      if (!row) throw new Error('template update returned no row');
      return row;
    },

    async delete(id: number): Promise<void> {
      await db.delete(templates).where(eq(templates.id, id));
    },

    /** Templates among `ids` that a sending campaign uses (they are locked). */
    async lockedAmong(ids: number[]): Promise<Set<number>> {
      if (ids.length === 0) return new Set();
      const rows = await db
        .selectDistinct({ templateId: campaigns.templateId })
        .from(campaigns)
        .where(and(inArray(campaigns.templateId, ids), eq(campaigns.status, SENDING)));
      return new Set(rows.map((row) => row.templateId));
    },

    async campaignCount(id: number): Promise<number> {
      const [row] = await db.select({ value: count() }).from(campaigns).where(eq(campaigns.templateId, id));
      return row?.value ?? 0;
    },
  };
}
export type TemplatesRepository = ReturnType<typeof createTemplatesRepository>;

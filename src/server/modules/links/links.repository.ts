import { and, count, desc, eq, inArray, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { Conn } from '../../db/rows';
import type { PageWindow } from '../../db/pages';
import { links, templates, vanityDomains } from '../../db/schema';
import { stampsOf, type Clock } from '../../lib/time';

/** A link with what its resource shows of its template and domain. */
export type LinkRecord = typeof links.$inferSelect & { templateUuid: string; vanityDomainUuid: string; vanityDomain: string | null };
type LinkFields = Pick<typeof links.$inferSelect, 'templateId' | 'vanityDomainId' | 'name' | 'destination'>;

export function createLinksRepository(db: Db, clock: Clock) {
  const select = (where: SQL | undefined, conn: Conn = db) =>
    conn
      .select({ link: links, templateUuid: templates.uuid, vanityDomainUuid: vanityDomains.uuid, vanityDomain: vanityDomains.domain })
      .from(links)
      .innerJoin(templates, eq(templates.id, links.templateId))
      .innerJoin(vanityDomains, eq(vanityDomains.id, links.vanityDomainId))
      .where(where);
  const flatten = (row: { link: typeof links.$inferSelect; templateUuid: string; vanityDomainUuid: string; vanityDomain: string | null }): LinkRecord => ({
    ...row.link,
    templateUuid: row.templateUuid,
    vanityDomainUuid: row.vanityDomainUuid,
    vanityDomain: row.vanityDomain,
  });

  return {
    async list(teamId: number, window: PageWindow, templateId?: number): Promise<{ rows: LinkRecord[]; total: number }> {
      const where = and(eq(links.teamId, teamId), templateId === undefined ? undefined : eq(links.templateId, templateId));
      const [rows, [total]] = await Promise.all([
        select(where).orderBy(desc(links.createdAt), desc(links.id)).limit(window.limit).offset(window.offset),
        db.select({ value: count() }).from(links).where(where),
      ]);
      return { rows: rows.map(flatten), total: total?.value ?? 0 };
    },

    /** The link; in a transaction (`conn`), locked until it ends (the link's row only, not its template's or domain's). */
    async find(teamId: number, uuid: string, conn?: Conn): Promise<LinkRecord | undefined> {
      const where = and(eq(links.teamId, teamId), eq(links.uuid, uuid));
      const [row] = conn ? await select(where, conn).for('update', { of: links }) : await select(where);
      return row && flatten(row);
    },

    /** The links of the templates (in a transaction, `conn`, as it sees them). */
    async ofTemplates(templateIds: number[], conn: Conn = db): Promise<LinkRecord[]> {
      if (templateIds.length === 0) return [];
      return (await select(inArray(links.templateId, templateIds), conn).orderBy(links.id)).map(flatten);
    },

    /** Returns the new link's uuid. */
    async insert(conn: Conn, teamId: number, fields: LinkFields): Promise<string> {
      const [row] = await conn
        .insert(links)
        .values({ teamId, ...fields, ...stampsOf(clock) })
        .returning({ uuid: links.uuid });
      if (!row) throw new Error('link insert returned no row');
      return row.uuid;
    },

    async update(conn: Conn, id: number, fields: LinkFields): Promise<void> {
      await conn
        .update(links)
        .set({ ...fields, updatedAt: clock.now() })
        .where(eq(links.id, id));
    },

    async delete(conn: Conn, id: number): Promise<void> {
      await conn.delete(links).where(eq(links.id, id));
    },
  };
}
export type LinksRepository = ReturnType<typeof createLinksRepository>;

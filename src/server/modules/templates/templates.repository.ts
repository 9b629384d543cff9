import { and, count, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { PgDialect } from 'drizzle-orm/pg-core';
import { TEMPLATE_SORT, type SortFieldOf } from '../../../shared/contract';
import { countOf, orderOf, readPage, teamRowCountOf, type ListOrder, type Page, type PageWindow } from '../../db/pages';
import { containsPattern, containsText } from '../../db/search';
import { parseRows, type Conn } from '../../db/rows';
import { campaigns, templates } from '../../db/schema';
import { stampsOf, type Clock } from '../../lib/time';

export type TemplateRow = typeof templates.$inferSelect;
type TemplateFields = Pick<TemplateRow, 'name' | 'body' | 'sender'>;

const ofTeam = (teamId: number, uuid: string) => and(eq(templates.teamId, teamId), eq(templates.uuid, uuid));
const SENDING = 1;

/** A row of a page (`pageStatements`): times as epoch milliseconds, the team's total on every row. */
const ListedRowSchema = z.object({
  id: z.number(),
  uuid: z.string(),
  name: z.string(),
  body: z.string(),
  sender: z.string(),
  created_ms: z.number(),
  updated_ms: z.number(),
  locked: z.boolean(),
  total: z.number(),
});
const LISTED_COLUMNS = `t.id, t.uuid, t.name, t.body, t.sender,
         (extract(epoch FROM t.created_at) * 1000)::float8 AS created_ms, (extract(epoch FROM t.updated_at) * 1000)::float8 AS updated_ms,
         EXISTS (SELECT 1 FROM campaigns c WHERE c.template_id = t.id AND c.status = ${SENDING}) AS locked`;
/** The list's `sort` (TEMPLATE_SORT) as the page's text reads it: `alias` is the table's name in the statement. */
const orderText = (alias: string, sort: string | undefined): string =>
  new PgDialect().sqlToQuery(
    orderOf(
      {
        sort: TEMPLATE_SORT,
        columns: { created_at: sql.raw(`${alias}created_at`), updated_at: sql.raw(`${alias}updated_at`), name: sql.raw(`lower(${alias}name)`) },
        tiebreak: sql.raw(`${alias}id`),
      } satisfies ListOrder<SortFieldOf<typeof TEMPLATE_SORT>>,
      sort,
    ),
  ).sql;

/**
 * The statements of a page, for each order (`sort`): the page's ids are chosen by the inner order
 * (from the index, for the default), the rows come back in the same order outside.
 */
const pageStatements = (sort: string | undefined) => {
  const inner = orderText('', sort);
  const outer = orderText('t.', sort);
  return {
    list: `
  SELECT ${LISTED_COLUMNS},
         (SELECT coalesce((SELECT row_count::int FROM team_row_counts WHERE team_id = $1 AND resource = 'templates'), 0)) AS total
    FROM (SELECT id FROM templates WHERE team_id = $1 ORDER BY ${inner} LIMIT $2 OFFSET $3) page
    JOIN templates t ON t.id = page.id
   ORDER BY ${outer}`,
    /** The list of the templates whose name matches the pattern $4: the total is the matches' count, taken before the page is cut. */
    search: `
  SELECT ${LISTED_COLUMNS}, page.total
    FROM (SELECT id, (count(*) OVER ())::int AS total FROM templates WHERE team_id = $1 AND name ILIKE $4 ESCAPE '\\'
           ORDER BY ${inner} LIMIT $2 OFFSET $3) page
    JOIN templates t ON t.id = page.id
   ORDER BY ${outer}`,
  };
};
/** Each order's statements, made once (each is a named statement, planned once per connection). */
const STATEMENTS = new Map([undefined, ...TEMPLATE_SORT.fields.flatMap((field) => [field, `-${field}`])].map((sort) => [sort, pageStatements(sort)]));

export function createTemplatesRepository(db: Db, clock: Clock) {
  return {
    /**
     * A page of the team's templates, newest first, each with whether a sending campaign locks it,
     * and the total, in one statement. The most read list: a named statement (planned once per
     * connection), times read as epoch numbers (no date text to parse). The page is chosen from the
     * index first, so the lock flag and the times are computed for its rows only, not for every row skipped.
     */
    async list(teamId: number, window: PageWindow, search?: string): Promise<Page<TemplateRow & { locked: boolean }>> {
      const statements = STATEMENTS.get(window.sort)!;
      const named = window.sort === undefined ? '' : `:${window.sort}`;
      const query = search
        ? { name: `templates_search_page${named}`, text: statements.search, values: [teamId, window.limit, window.offset, containsPattern(search)] }
        : { name: `templates_list_page${named}`, text: statements.list, values: [teamId, window.limit, window.offset] };
      const rows = db.$client.query(query).then((result) => parseRows(ListedRowSchema, result.rows));
      const count = search
        ? () => countOf(db, sql`SELECT count(*)::int AS total FROM templates WHERE team_id = ${teamId} AND ${containsText(templates.name, search)}`)
        : () => teamRowCountOf(db, teamId, 'templates');
      const page = await readPage({ rows, count, totalOn: (row) => row.total });
      return {
        rows: page.rows.map((row) => ({
          id: row.id,
          uuid: row.uuid,
          teamId,
          name: row.name,
          body: row.body,
          sender: row.sender,
          createdAt: new Date(row.created_ms),
          updatedAt: new Date(row.updated_ms),
          locked: row.locked,
        })),
        total: page.total,
      };
    },

    /** The template; in a transaction (`conn`), locked until it ends. */
    async find(teamId: number, uuid: string, conn?: Conn): Promise<TemplateRow | undefined> {
      const [row] = conn
        ? await conn.select().from(templates).where(ofTeam(teamId, uuid)).for('update')
        : await db.select().from(templates).where(ofTeam(teamId, uuid));
      return row;
    },

    async insert(conn: Conn, teamId: number, fields: TemplateFields): Promise<TemplateRow> {
      const [row] = await conn
        .insert(templates)
        .values({ teamId, ...fields, ...stampsOf(clock) })
        .returning();
      if (!row) throw new Error('template insert returned no row');
      return row;
    },

    async update(conn: Conn, id: number, fields: TemplateFields): Promise<TemplateRow> {
      const [row] = await conn
        .update(templates)
        .set({ ...fields, updatedAt: clock.now() })
        .where(eq(templates.id, id))
        .returning();
      if (!row) throw new Error('template update returned no row');
      return row;
    },

    async delete(conn: Conn, id: number): Promise<void> {
      await conn.delete(templates).where(eq(templates.id, id));
    },

    /** Templates among `ids` that a sending campaign uses (they are locked). */
    async lockedAmong(ids: number[], conn: Conn = db): Promise<Set<number>> {
      if (ids.length === 0) return new Set();
      const rows = await conn
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

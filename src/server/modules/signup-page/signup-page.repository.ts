import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { firstRowOf, MomentSchema, rowsOf, type Conn } from '../../db/rows';
import type { Clock } from '../../lib/time';

const PageRowSchema = z.object({
  slug: z.string(),
  enabled: z.boolean(),
  heading: z.string(),
  consentText: z.string(),
  frequencyText: z.string(),
  groupId: z.coerce.number().nullable(),
  groupUuid: z.string().nullable(),
  askFirstName: z.boolean(),
  createdAt: MomentSchema,
  updatedAt: MomentSchema,
});
export type SignupPageRow = z.output<typeof PageRowSchema>;

const PublicPageRowSchema = PageRowSchema.extend({
  teamId: z.coerce.number(),
  teamName: z.string(),
  defaultCountry: z.string().nullable(),
});
/** A page as the public route serves it: on, with a group, and its team's name and country. */
export type PublicSignupPageRow = z.output<typeof PublicPageRowSchema> & { groupId: number };

export type SignupPageFields = {
  slug: string;
  enabled: boolean;
  heading: string;
  consentText: string;
  frequencyText: string;
  groupId: number;
  askFirstName: boolean;
};

const COLUMNS = sql`p.slug, p.enabled, p.heading, p.consent_text AS "consentText", p.frequency_text AS "frequencyText",
  p.group_id AS "groupId", g.uuid AS "groupUuid", p.ask_first_name AS "askFirstName", p.created_at AS "createdAt", p.updated_at AS "updatedAt"`;

/** The team's sign-up page (one a team, `signup_pages`), and what the public page reads of it. */
export function createSignupPagesRepository(db: Db, clock: Clock) {
  return {
    async findOfTeam(teamId: number, conn: Conn = db): Promise<SignupPageRow | undefined> {
      return firstRowOf(
        conn,
        PageRowSchema,
        sql`SELECT ${COLUMNS} FROM signup_pages p LEFT JOIN contact_groups g ON g.id = p.group_id WHERE p.team_id = ${teamId}`,
      );
    },

    /** Creates or replaces the team's page (a slug another team holds fails on `signup_pages_slug_key`). */
    async save(conn: Conn, teamId: number, page: SignupPageFields): Promise<void> {
      const now = clock.now();
      await conn.execute(sql`
        INSERT INTO signup_pages (team_id, slug, enabled, heading, consent_text, frequency_text, group_id, ask_first_name, created_at, updated_at)
        VALUES (${teamId}, ${page.slug}, ${page.enabled}, ${page.heading}, ${page.consentText}, ${page.frequencyText}, ${page.groupId}, ${page.askFirstName}, ${now}, ${now})
        ON CONFLICT (team_id) DO UPDATE
          SET slug = excluded.slug, enabled = excluded.enabled, heading = excluded.heading, consent_text = excluded.consent_text,
              frequency_text = excluded.frequency_text, group_id = excluded.group_id, ask_first_name = excluded.ask_first_name,
              updated_at = excluded.updated_at`);
    },

    /**
     * The page at `slug` if it is on and has a group, as served on `host`: a team's link domain
     * serves that team's page only (another team's slug there is not found); any other host, the
     * service's own among them, serves every page.
     */
    async findPublic(slug: string, host: string): Promise<PublicSignupPageRow | undefined> {
      const row = await firstRowOf(
        db,
        PublicPageRowSchema,
        sql`SELECT ${COLUMNS}, p.team_id AS "teamId", t.name AS "teamName", t.default_country AS "defaultCountry"
              FROM signup_pages p JOIN teams t ON t.id = p.team_id LEFT JOIN contact_groups g ON g.id = p.group_id
             WHERE p.slug = ${slug} AND p.enabled AND p.group_id IS NOT NULL
               AND NOT EXISTS (SELECT 1 FROM vanity_domains vd WHERE vd.domain = ${host} AND vd.team_id <> p.team_id)`,
      );
      return row && row.groupId !== null ? { ...row, groupId: row.groupId } : undefined;
    },

    /** The team's own link domains (not the service's), oldest first. */
    async domainsOf(teamId: number, conn: Conn = db): Promise<string[]> {
      const rows = await rowsOf(
        conn,
        z.object({ domain: z.string() }),
        sql`SELECT domain FROM vanity_domains WHERE team_id = ${teamId} AND domain IS NOT NULL ORDER BY created_at, id`,
      );
      return rows.map((row) => row.domain);
    },
  };
}
export type SignupPagesRepository = ReturnType<typeof createSignupPagesRepository>;

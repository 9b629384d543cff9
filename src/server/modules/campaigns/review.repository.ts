import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { fieldConflictsOf, prefixesOf, recipientsOf } from '../../db/audience';
import { numbersAtCap, type FrequencyCap } from '../../engine/store/frequency-caps';
import { MomentSchema, oneRowOf, rowsOf } from '../../db/rows';
import { GSM_BASIC_CHARACTERS, GSM_EXTENSION_CHARACTERS } from '../../../shared/sms/gsm-charset';

/** One `{{field}}` of a body as SQL reads it: the spellings its value may have in `custom_fields`, and its fallback. */
export type FieldToken = { spellings: string[]; fallback?: string };

/** Characters in a PostgreSQL bracket expression, each escaped where it would mean something. */
const bracket = (characters: string) => [...characters].map((c) => (/[\\\][^-]/.test(c) ? `\\${c}` : c)).join('');
/** Any character that makes a text UCS-2, and any character that counts two septets. */
const NOT_GSM = `[^${bracket(GSM_BASIC_CHARACTERS + GSM_EXTENSION_CHARACTERS)}]`;
const NOT_EXTENSION = `[^${bracket(GSM_EXTENSION_CHARACTERS)}]`;

const CountsRowSchema = z.object({ included: z.number(), distinct: z.number(), excluded: z.number(), opted_out: z.number(), total: z.number() });
const ShapeRowSchema = z.object({ n: z.number(), fields: z.record(z.string(), z.unknown()) });
const MissingRowSchema = z.object({ missing: z.array(z.number()) });
const ConflictsRowSchema = z.object({ total: z.number(), fields: z.array(z.number()) });
const GroupRowSchema = z.object({ id: z.number(), uuid: z.string(), name: z.string(), headers: z.array(z.string()), contacts: z.number() });
const TestSendRowSchema = z.object({ uuid: z.string(), phone: z.string(), status: z.string(), createdAt: MomentSchema });

/** A field's value as rendered: its first spelling present; NULL when the contact has none. */
const valueOf = (token: FieldToken) =>
  sql`coalesce(${sql.join(
    token.spellings.map((spelling) => sql`r.custom_fields ->> ${spelling}`),
    sql`, `,
  )})`;

/** What a body's fields become for one recipient, joined (the rest of the body is the same for all). */
function renderedFields(tokens: FieldToken[]): SQL {
  if (tokens.length === 0) return sql`''`;
  const parts = tokens.map(
    (token) =>
      sql`CASE WHEN ${valueOf(token)} IS NULL THEN ${token.fallback ?? ' '}::text WHEN ${valueOf(token)} = '' THEN ${token.fallback ?? ''}::text ELSE ${valueOf(token)} END`,
  );
  return sql`concat(${sql.join(parts, sql`, `)})`;
}

/**
 * The recipients of a campaign with segments, as SQL (issue 35): `rows` `phone_number, custom_fields`
 * (the fields its messages carry), `numbers` rows `phone_number` alone, cheaper where no field is read.
 * Absent, the review reads the included groups less the excluded ones.
 */
export type ReviewAudience = { rows: SQL; numbers: SQL };

/** What the review of a campaign reads from its audience (docs/interface.md, the review). */
export function createReviewRepository(db: Db) {
  return {
    /** Included contacts, distinct numbers among them, and those excluded or opted out (distinct); `total` who get a message. */
    async recipientCounts(included: number[], excluded: number[], optoutsId: number) {
      return oneRowOf(
        db,
        CountsRowSchema,
        sql`
        WITH inc AS (SELECT phone_number FROM contacts WHERE contact_group_id = ANY(${sql.param(included)}::bigint[])),
        d AS (SELECT DISTINCT phone_number FROM inc),
        flags AS (
          SELECT EXISTS (SELECT 1 FROM contacts x WHERE x.contact_group_id = ANY(${sql.param(excluded)}::bigint[]) AND x.phone_number = d.phone_number) AS ex,
                 EXISTS (SELECT 1 FROM contacts x WHERE x.contact_group_id = ${optoutsId} AND x.phone_number = d.phone_number) AS oo
            FROM d)
        SELECT (SELECT count(*) FROM inc)::int AS included, count(*)::int AS distinct,
               count(*) FILTER (WHERE ex)::int AS excluded, count(*) FILTER (WHERE oo AND NOT ex)::int AS opted_out,
               count(*) FILTER (WHERE NOT ex AND NOT oo)::int AS total
          FROM flags`,
      );
    },

    /** Recipients of the audience the team's frequency cap would skip if the campaign were sent now (frequency-caps.ts). */
    async frequencyCapped(
      teamId: number,
      cap: FrequencyCap,
      now: Date,
      included: number[],
      excluded: number[],
      audience?: ReviewAudience,
      campaignId?: number,
    ) {
      const numbers = audience ? audience.numbers : recipientsOf(included, excluded);
      const row = await oneRowOf(
        db,
        z.object({ n: z.number() }),
        sql`
        WITH capped AS (${numbersAtCap(teamId, cap, now, campaignId ?? null)})
        SELECT count(*)::int AS n FROM capped k WHERE EXISTS (SELECT 1 FROM (${numbers}) a WHERE a.phone_number = k.phone)`,
      );
      return row.n;
    },

    /** The groups with their field names (headers) and contact counts, in the order given. */
    async groups(ids: number[]) {
      const rows = await rowsOf(
        db,
        GroupRowSchema,
        sql`SELECT id, uuid, name, headers, contact_count AS contacts FROM contact_groups WHERE id = ANY(${sql.param(ids)}::bigint[])`,
      );
      return ids.flatMap((id) => rows.filter((row) => row.id === id));
    },

    /**
     * The audience cut by what its fields make of the body: recipients whose rendered fields have the
     * same length (extension characters twice) and the same need for UCS-2 are measured alike. One
     * recipient's fields of each shape, and how many have it.
     */
    async shapes(included: number[], excluded: number[], tokens: FieldToken[], audience?: ReviewAudience) {
      // Without a field in the body every recipient renders the same: their numbers are enough.
      const recipients = audience
        ? tokens.length > 0
          ? audience.rows
          : sql`SELECT n.phone_number, '{}'::jsonb AS custom_fields FROM (${audience.numbers}) n`
        : recipientsOf(included, excluded);
      return rowsOf(
        db,
        ShapeRowSchema,
        sql`
        WITH r AS (${recipients}),
        k AS (SELECT r.custom_fields, ${renderedFields(tokens)} AS t FROM r),
        g AS (SELECT length(t) + length(regexp_replace(t, ${NOT_EXTENSION}, '', 'g')) AS len, t ~ ${NOT_GSM} AS wide, custom_fields FROM k)
        SELECT DISTINCT ON (len, wide) count(*) OVER (PARTITION BY len, wide)::int AS n, custom_fields AS fields FROM g ORDER BY len, wide`,
      );
    },

    /** The audience's numbers by their first six digits: one number of each prefix, and how many share it. */
    async prefixes(included: number[], excluded: number[], audience?: ReviewAudience) {
      const query = audience
        ? sql`SELECT left(a.phone_number, 6) AS prefix, min(a.phone_number) AS sample, count(*)::int AS n FROM (${audience.numbers}) a GROUP BY 1`
        : prefixesOf(included, excluded);
      return rowsOf(db, z.object({ prefix: z.string(), sample: z.string(), n: z.number() }), query);
    },

    /** Per field, the recipients whose value is missing or empty. */
    async missing(included: number[], excluded: number[], fields: FieldToken[], audience?: ReviewAudience): Promise<number[]> {
      if (fields.length === 0) return [];
      const counts = fields.map((field) => sql`count(*) FILTER (WHERE coalesce(${valueOf(field)}, '') = '')::int`);
      const row = await oneRowOf(
        db,
        MissingRowSchema,
        sql`WITH r AS (${audience ? audience.rows : recipientsOf(included, excluded)}) SELECT ARRAY[${sql.join(counts, sql`, `)}] AS missing FROM r`,
      );
      return row.missing;
    },

    /**
     * Recipients whose included groups hold different non-empty values for the fields `names` (any
     * case): per field, and in all. None with one included group (it holds a number once).
     */
    async conflicts(included: number[], excluded: number[], names: string[]): Promise<{ total: number; fields: number[] }> {
      if (included.length <= 1 || names.length === 0) return { total: 0, fields: names.map(() => 0) };
      return oneRowOf(db, ConflictsRowSchema, fieldConflictsOf(included, excluded, names));
    },

    /** The fields of one recipient of an audience; undefined when the number is none of its recipients. */
    async recipientFields(included: number[], excluded: number[], phoneNumber: string): Promise<Record<string, string> | undefined> {
      const rows = await rowsOf(
        db,
        z.object({ fields: z.record(z.string(), z.unknown()) }),
        sql`SELECT r.custom_fields AS fields FROM (${recipientsOf(included, excluded)}) r WHERE r.phone_number = ${phoneNumber}`,
      );
      const fields = rows[0]?.fields;
      return fields && Object.fromEntries(Object.entries(fields).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
    },

    /** Test sends made from a campaign, newest first, with the state of their one message. */
    async testSends(campaignId: number) {
      return rowsOf(
        db,
        TestSendRowSchema,
        sql`
        SELECT c.uuid, r.phone_number AS phone, coalesce((SELECT m.status FROM messages m WHERE m.campaign_id = c.id LIMIT 1), 'queued') AS status,
               c.created_at AS "createdAt"
          FROM campaigns c JOIN campaign_test_recipients r ON r.campaign_id = c.id
         WHERE c.test_of = ${campaignId}
         ORDER BY c.created_at DESC, c.id DESC LIMIT 20`,
      );
    },
  };
}
export type ReviewRepository = ReturnType<typeof createReviewRepository>;

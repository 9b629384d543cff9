import { sql, type SQL } from 'drizzle-orm';

/**
 * The recipients of a campaign: each distinct number of the included groups that no excluded group
 * holds (the caller adds default_optouts there), with its custom fields merged over its contacts in
 * the included groups (`mergedFields`), and the first included group that has it.
 * Rows `phone_number, custom_fields, contact_group_id`. The one definition, so counting, reviewing,
 * previewing and sending agree. `includedGroupIds` in the campaign's order (`included_contact_groups`):
 * where two groups disagree, the first listed wins.
 * `chunk`: only the first `limit` by number after the number `after` (the engine writes a large
 * audience a chunk at a time).
 */
export function recipientsOf(includedGroupIds: number[], excludedGroupIds: number[], chunk?: { after: string | null; limit: number }) {
  const after = chunk?.after == null ? sql`` : sql`AND c.phone_number > ${chunk.after}`;
  // In number order only for a chunk: a whole audience is numbered by its reader.
  const limit = chunk ? sql`ORDER BY c.phone_number LIMIT ${chunk.limit}` : sql``;
  // One group holds each number once: nothing to merge, the rows as they are (the common case, and
  // the one a million-recipient send takes).
  if (includedGroupIds.length <= 1)
    return sql`SELECT c.phone_number, c.custom_fields, c.contact_group_id FROM contacts c
                WHERE ${inAudience(includedGroupIds, excludedGroupIds)} ${after} ${limit}`;
  // Several: each number's rows gathered along the phone-number index, in the order of the groups
  // (no sort of whole rows), merged only for the numbers in more than one group.
  const rank = sql`array_position(${sql.param(includedGroupIds)}::bigint[], c.contact_group_id)`;
  return sql`SELECT p.phone_number,
                    CASE WHEN cardinality(p.fields) = 1 THEN p.fields[1]
                         -- Two groups, no empty value: the first's over the second's, without a call.
                         WHEN cardinality(p.fields) = 2 AND NOT ${hasEmpty(sql`p.fields[1]`)} AND NOT ${hasEmpty(sql`p.fields[2]`)} THEN p.fields[2] || p.fields[1]
                         ELSE ${mergedFields(sql`p.fields`)} END AS custom_fields,
                    (${sql.param(includedGroupIds)}::bigint[])[p.first] AS contact_group_id
               FROM (SELECT c.phone_number, array_agg(c.custom_fields ORDER BY ${rank}) AS fields, min(${rank}) AS first
                       FROM contacts c
                      WHERE ${inAudience(includedGroupIds, excludedGroupIds)} ${after}
                      GROUP BY c.phone_number ${limit}) p`;
}

/**
 * The merge of one number's custom fields over several of its contacts (docs/engine.md, "One
 * number in several groups"): `fields` a jsonb[] of their custom fields, the first group's first.
 * Field by field: a non-empty value beats an empty or missing one; between non-empty values the
 * first wins. A field empty in every contact stays empty. (Migration 0035: `herald_merged_fields`.)
 */
export function mergedFields(fields: SQL): SQL {
  return sql`herald_merged_fields(${fields})`;
}

/** Whether a contact's custom fields hold an empty (or null) value. */
const hasEmpty = (fields: SQL) => sql`(${fields} @? '$.* ? (@ == "" || @ == null)')`;

/**
 * Per field of `fieldNames` (any case), how many recipients' included groups hold different
 * non-empty values for it, and how many recipients have at least one such field. Empty values never
 * disagree: the merge fills them. Rows `total, fields` (an int[] in the order of `fieldNames`).
 * One included group cannot disagree with itself: the caller need not ask.
 */
export function fieldConflictsOf(includedGroupIds: number[], excludedGroupIds: number[], fieldNames: string[]) {
  const names = sql.param(fieldNames.map((name) => name.toLowerCase()));
  return sql`
    WITH v AS (
      SELECT c.phone_number, lower(e.key) AS field, e.value
        FROM contacts c CROSS JOIN LATERAL jsonb_each_text(c.custom_fields) AS e
       WHERE ${inAudience(includedGroupIds, excludedGroupIds)} AND lower(e.key) = ANY(${names}::text[]) AND e.value <> ''),
    d AS (SELECT phone_number, field FROM v GROUP BY phone_number, field HAVING count(DISTINCT value) > 1)
    SELECT (SELECT count(DISTINCT phone_number) FROM d)::int AS total,
           ARRAY(SELECT (SELECT count(*) FROM d WHERE d.field = n.name)::int FROM unnest(${names}::text[]) WITH ORDINALITY AS n(name, i) ORDER BY n.i) AS fields`;
}

/**
 * How many distinct recipients `recipientsOf` has, from phone numbers alone: no contact's fields,
 * no sorting of whole rows (2.4 s rather than 4.4 s at a million on a group written seconds before;
 * less once it is vacuumed). One included group holds each number once: no de-duplication then.
 */
export function countRecipientsOf(includedGroupIds: number[], excludedGroupIds: number[]) {
  const counted = includedGroupIds.length === 1 ? sql`count(*)` : sql`count(DISTINCT c.phone_number)`;
  return sql`SELECT ${counted}::int AS total FROM contacts c WHERE ${inAudience(includedGroupIds, excludedGroupIds)}`;
}

/** The condition on a contact `c` of being in the audience: in an included group, and in no excluded one. */
function inAudience(includedGroupIds: number[], excludedGroupIds: number[]) {
  return sql`c.contact_group_id = ANY(${sql.param(includedGroupIds)}::bigint[])
                AND NOT EXISTS (SELECT 1 FROM contacts x WHERE x.contact_group_id = ANY(${sql.param(excludedGroupIds)}::bigint[]) AND x.phone_number = c.phone_number)`;
}

/**
 * The audience's distinct numbers counted by their first six digits (which settle a number's time
 * zone: `lib/phone-zones.ts`), with one number of each. Rows `prefix, sample, n`.
 */
export function prefixesOf(includedGroupIds: number[], excludedGroupIds: number[]) {
  return sql`SELECT left(c.phone_number, 6) AS prefix, min(c.phone_number) AS sample, count(DISTINCT c.phone_number)::int AS n FROM contacts c
              WHERE ${inAudience(includedGroupIds, excludedGroupIds)} GROUP BY 1`;
}

import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Condition, LeafCondition, SegmentMatch } from '../../shared/contract';
import { formatTimestamp } from '../../shared/time/local-timestamps';
import { countryOfNumber } from '../gateways/sms/routing/route-rules';
import { optInsOf, suppressionListOf } from '../modules/suppressions/suppressions.sql';
import { recipientsOf } from './audience';
import { firstRowOf, rowsOf, type Conn } from './rows';

/**
 * The segment compiler (issue 35; used by modules/segments and by the engine's start): a segment's conditions as one SQL set of the team's distinct
 * numbers. docs/segments.md describes the rules; in short:
 *
 * - The universe is the team's contacts: every distinct number of its contact groups but the
 *   suppression list (`groupIds`). An opted-out number in another group is still in a segment; a
 *   campaign's audience takes the suppression list away, as it does for groups.
 * - A field is read from the number's fields merged over its contacts the way a campaign merges them
 *   (db/audience.ts): the groups oldest first, a non-empty value beats an empty one, and between
 *   non-empty values the oldest group's wins. A field name matches in any case.
 * - Each condition is a predicate over one row of the universe; conditions of the team's behaviour
 *   are `number IN (set)`, which PostgreSQL answers with one hash of the set (a semi-join, or a
 *   hashed subplan under `any`), not a lookup per number.
 * - A condition never errors on a contact's data: text that is not a number or a date never matches.
 * - What keeps it fast at a million contacts (the field read inline, the behaviour windows' indexes
 *   of migration 0051, no parallel workers): docs/segments.md, "Speed".
 */

/** A segment's match and conditions (SegmentInput without its name). */
export type SegmentShape = { match: SegmentMatch; conditions: Condition[] };

/** What the compiler needs from the database, resolved before (segments.repository.ts `scopeOf`). */
export type SegmentScope = {
  teamId: number;
  /** The team's contact groups, oldest first, without its suppression list. */
  groupIds: number[];
  /** The ids of the groups the conditions name, by uuid (only the team's). */
  groups: ReadonlyMap<string, number>;
  /** The ids of the campaigns the conditions name, by uuid (only the team's). */
  campaigns: ReadonlyMap<string, number>;
  /** Each six-digit prefix of the universe's numbers and its country (only when a condition is about countries). */
  prefixCountries: ReadonlyMap<string, string | null>;
  /** Now, for `within_days` of behaviour. */
  now: Date;
  /** Today's date `YYYY-MM-DD` in the team's time zone, for the date conditions of fields. */
  today: string;
};

/**
 * The team's contact groups a segment is evaluated over, oldest first (the order that settles a
 * disagreement of fields), without its suppression list: rows `id`.
 */
export const segmentGroupsOf = (teamId: number): SQL =>
  sql`SELECT g.id FROM contact_groups g WHERE g.team_id = ${teamId} AND g.id IS DISTINCT FROM ${suppressionListOf(teamId)} ORDER BY g.created_at, g.id`;

/**
 * The settings of a transaction that evaluates segments, until it ends: hashes of sets of numbers
 * in memory rather than through temporary files, and no parallel workers. A behaviour condition is
 * one hash of its numbers (half a million in the benchmark) that each worker would build again for
 * itself: on a small machine the copies cost more than the workers save (docs/segments.md, "Speed").
 */
export async function useSegmentSettings(conn: Conn): Promise<void> {
  await conn.execute(sql`SELECT set_config('work_mem', '64MB', true), set_config('max_parallel_workers_per_gather', '0', true)`);
}

/** Whether any condition reads a contact's fields (the universe then carries them). */
export const readsFields = (shape: SegmentShape): boolean => leavesOf(shape).some((leaf) => leaf.type === 'field');

/** Each leaf condition with its path in the request (`conditions.0.conditions.1`), for errors. */
export function leavesWithPaths(shape: SegmentShape): Array<{ leaf: LeafCondition; path: string }> {
  return shape.conditions.flatMap((condition, i) =>
    condition.type === 'group_of_conditions'
      ? condition.conditions.map((leaf, j) => ({ leaf, path: `conditions.${i}.conditions.${j}` }))
      : [{ leaf: condition, path: `conditions.${i}` }],
  );
}
const leavesOf = (shape: SegmentShape): LeafCondition[] => leavesWithPaths(shape).map(({ leaf }) => leaf);

/**
 * The universe: the team's distinct numbers, with their merged fields when `fields` (rows
 * `phone_number, custom_fields`), else numbers alone (no merging, no fields read).
 */
function universeOf(scope: SegmentScope, fields: boolean): SQL {
  if (fields) return sql`SELECT r.phone_number, r.custom_fields FROM (${recipientsOf(scope.groupIds, [])}) r`;
  const ids = sql`${sql.param(scope.groupIds)}::bigint[]`;
  // One group holds each number once: no de-duplication then.
  return scope.groupIds.length <= 1
    ? sql`SELECT c.phone_number FROM contacts c WHERE c.contact_group_id = ANY(${ids})`
    : sql`SELECT DISTINCT c.phone_number FROM contacts c WHERE c.contact_group_id = ANY(${ids})`;
}

/** The segment's numbers: rows `phone_number`, each once. */
export function segmentNumbersOf(shape: SegmentShape, scope: SegmentScope): SQL {
  return sql`SELECT u.phone_number FROM (${universeOf(scope, readsFields(shape))}) u WHERE ${predicateOf(shape.match, shape.conditions, scope)}`;
}

/** The segment's numbers with their merged fields: rows `phone_number, custom_fields` (the contacts page). */
export function segmentRowsOf(shape: SegmentShape, scope: SegmentScope): SQL {
  return sql`SELECT u.phone_number, u.custom_fields FROM (${universeOf(scope, true)}) u WHERE ${predicateOf(shape.match, shape.conditions, scope)}`;
}

/** How many numbers the segment has now: rows `total`. */
export function segmentCountOf(shape: SegmentShape, scope: SegmentScope): SQL {
  return sql`SELECT count(*)::int AS total FROM (${segmentNumbersOf(shape, scope)}) s`;
}

function predicateOf(match: SegmentMatch, conditions: Condition[], scope: SegmentScope): SQL {
  const parts = conditions.map((condition) =>
    condition.type === 'group_of_conditions' ? predicateOf(condition.match, condition.conditions, scope) : leafOf(condition, scope),
  );
  return sql`(${sql.join(parts, match === 'all' ? sql` AND ` : sql` OR `)})`;
}

/** One condition as a predicate that is true or false, never null (so `not` and `any` read plainly). */
function leafOf(leaf: LeafCondition, scope: SegmentScope): SQL {
  switch (leaf.type) {
    case 'field':
      return sql`coalesce(${fieldPredicate(leaf, scope)}, false)`;
    case 'group': {
      // A group deleted since the segment was saved holds no one (the API refuses an unknown one with 422).
      const id = scope.groups.get(leaf.group_uuid.toLowerCase()) ?? null;
      const member = sql`u.phone_number IN (SELECT g.phone_number FROM contacts g WHERE g.contact_group_id = ${id}::bigint)`;
      return leaf.op === 'in' ? member : sql`NOT ${member}`;
    }
    case 'country': {
      const wanted = new Set(leaf.values);
      const prefixes = [...scope.prefixCountries].filter(([, country]) => country !== null && wanted.has(country)).map(([prefix]) => prefix);
      const within = sql`left(u.phone_number, 6) = ANY(${sql.param(prefixes)}::text[])`;
      return leaf.op === 'in' ? within : sql`NOT ${within}`;
    }
    case 'event':
      return sql`u.phone_number IN (${eventNumbersOf(leaf, scope)})`;
  }
}

type FieldCondition = Extract<LeafCondition, { type: 'field' }>;

/**
 * A contact's field `name` in any case, as `herald_field` (migration 0047) reads it, without calling
 * it for every contact: the exact key inline (the common case, a lookup); else the call (a function
 * with a subquery, some ten microseconds) only when the fields' JSON text, lowered, holds the name
 * lowered as a key (`"name":`), which every key equal to it ignoring case puts there. A contact
 * without the field at all (a group that has no such column) costs a microsecond, not the call.
 */
function fieldValueOf(fields: SQL, name: string): SQL {
  const asKey = sql`to_jsonb(lower(${name}::text))::text || ':'`;
  return sql`coalesce(${fields} ->> ${name}, CASE WHEN strpos(lower(${fields}::text), ${asKey}) > 0 THEN herald_field(${fields}, ${name}) END)`;
}

function fieldPredicate(leaf: FieldCondition, scope: SegmentScope): SQL {
  const value = fieldValueOf(sql`u.custom_fields`, leaf.field);
  const given = leaf.value === undefined ? '' : String(leaf.value).trim();
  const today = sql`${scope.today}::date`;
  const days = Number(given);
  const date = sql`herald_date_of(${value})`;
  switch (leaf.op) {
    case 'equals':
      return sql`lower(btrim(${value})) = lower(${given})`;
    case 'not_equals':
      // A number without the field (or with it empty) is not equal to the value either.
      return sql`coalesce(lower(btrim(${value})), '') <> lower(${given})`;
    case 'contains':
      return sql`strpos(lower(${value}), lower(${given})) > 0`;
    case 'is_empty':
      return sql`coalesce(btrim(${value}), '') = ''`;
    case 'is_not_empty':
      return sql`coalesce(btrim(${value}), '') <> ''`;
    case 'gt':
      return sql`herald_number_of(${value}) > ${given}::numeric`;
    case 'lt':
      return sql`herald_number_of(${value}) < ${given}::numeric`;
    case 'before':
      return sql`${date} < ${given}::date`;
    case 'after':
      return sql`${date} > ${given}::date`;
    case 'within_last_days':
      return sql`${date} BETWEEN ${today} - ${days}::int AND ${today}`;
    case 'within_next_days':
      return sql`${date} BETWEEN ${today} AND ${today} + ${days}::int`;
    case 'anniversary_within_days':
      return sql`herald_next_anniversary(${date}, ${today}) <= ${today} + ${days}::int`;
  }
}

type EventCondition = Extract<LeafCondition, { type: 'event' }>;

/** Messages that reached the gateway: submitted, delivered or failed (never unsent or still queued). */
const RECEIVED = sql`m.status IN ('submitted', 'delivered', 'failed')`;
/** When a message was sent (or, failed before it left, when it failed). */
const SENT_AT = sql`coalesce(m.submitted_at, m.finished_at, m.created_at)`;

/** The failure classes (contract/segments.ts FAILURE_CLASSES) from a failed message's stored reason (docs/engine.md). */
const FAILURE_REASONS = { expired: 'Expired', in_doubt: 'in_doubt', no_route: 'no_route' } as const;

/** The numbers that did what an event condition says: rows `phone_number` (not distinct: `IN` needs no more). */
function eventNumbersOf(leaf: EventCondition, scope: SegmentScope): SQL {
  const since = leaf.within_days === undefined ? null : new Date(scope.now.getTime() - leaf.within_days * 86_400_000);
  const after = (column: SQL) => (since ? sql` AND ${column} >= ${since}` : sql``);
  let campaign = sql``;
  if (leaf.campaign_uuid !== undefined) {
    // A campaign deleted since the segment was saved was received by no one.
    campaign = sql` AND k.id = ${scope.campaigns.get(leaf.campaign_uuid.toLowerCase()) ?? null}::bigint`;
  }
  // The team's campaigns, but test sends (a test of a campaign, or a test campaign).
  const ofTeam = sql`k.team_id = ${scope.teamId} AND NOT k.is_test AND k.test_of IS NULL${campaign}`;
  switch (leaf.event) {
    case 'received':
      return sql`SELECT m.phone_number FROM messages m JOIN campaigns k ON k.id = m.campaign_id WHERE ${ofTeam} AND ${RECEIVED}${after(SENT_AT)}`;
    case 'delivered':
      return sql`SELECT m.phone_number FROM messages m JOIN campaigns k ON k.id = m.campaign_id
                  WHERE ${ofTeam} AND m.status = 'delivered'${after(sql`coalesce(m.finished_at, m.submitted_at)`)}`;
    case 'failed': {
      const reasons = Object.values(FAILURE_REASONS);
      const cls = leaf.reason_class;
      const reason =
        cls === undefined
          ? sql``
          : cls === 'carrier'
            ? sql` AND coalesce(m.reason, '') <> ALL(${sql.param(reasons)}::text[])`
            : sql` AND m.reason = ${FAILURE_REASONS[cls]}`;
      return sql`SELECT m.phone_number FROM messages m JOIN campaigns k ON k.id = m.campaign_id
                  WHERE ${ofTeam} AND m.status = 'failed'${reason}${after(sql`coalesce(m.finished_at, m.submitted_at, m.created_at)`)}`;
    }
    case 'clicked':
      // A person's click (not a bot's) on a tracked link of a message, within the window by the click's time.
      // A click names its short link's code; the link, its message (link_clicks.sequence numbers the clicks, not the messages).
      return sql`SELECT m.phone_number FROM link_clicks lc JOIN short_links s ON s.code = lc.code
                   JOIN messages m ON m.id = s.message_id JOIN campaigns k ON k.id = m.campaign_id
                  WHERE ${ofTeam} AND NOT lc.is_bot${after(sql`lc.clicked_at`)}`;
    case 'not_clicked':
      // Received a message in scope (the campaign, the window by send time) and clicked none of them as a person.
      return sql`SELECT m.phone_number FROM messages m JOIN campaigns k ON k.id = m.campaign_id
                   LEFT JOIN (short_links s JOIN link_clicks lc ON lc.code = s.code AND NOT lc.is_bot) ON s.message_id = m.id
                  WHERE ${ofTeam} AND ${RECEIVED}${after(SENT_AT)}
                  GROUP BY m.phone_number HAVING count(lc.id) = 0`;
    case 'replied':
      return sql`SELECT i.from_number FROM inbound_messages i WHERE i.team_id = ${scope.teamId}${after(sql`i.received_at`)}`;
    case 'opted_in':
      return optInsOf(scope.teamId, since);
    case 'converted': {
      const credited =
        leaf.campaign_uuid === undefined ? sql`` : sql` AND v.campaign_id = ${scope.campaigns.get(leaf.campaign_uuid.toLowerCase()) ?? null}::bigint`;
      const above = leaf.value_gt === undefined ? sql`` : sql` AND v.value > ${leaf.value_gt}`;
      return sql`SELECT v.phone_number FROM conversions v
                  WHERE v.team_id = ${scope.teamId} AND v.phone_number IS NOT NULL${credited}${above}${after(sql`v.occurred_at`)}`;
    }
  }
}

const IdRowSchema = z.object({ id: z.coerce.number() });
const RefRowSchema = z.object({ kind: z.enum(['group', 'campaign']), uuid: z.string(), id: z.coerce.number() });
const ZoneRowSchema = z.object({ zone: z.string().nullable() });
const PrefixRowSchema = z.object({ prefix: z.string(), sample: z.string() });
const ShapeRowSchema = z.object({ id: z.coerce.number(), match: z.enum(['all', 'any']), conditions: z.array(z.unknown()) });

/** The ids a segment's conditions name, resolved in the team: what is missing is another team's, unknown or deleted. */
export type SegmentReferences = { groups: Map<string, number>; campaigns: Map<string, number> };

/** The team's groups and campaigns that the conditions of `shapes` name (by uuid, lower case). */
export async function segmentReferencesOf(conn: Conn, teamId: number, shapes: SegmentShape[]): Promise<SegmentReferences> {
  const leaves = shapes.flatMap((shape) => leavesOf(shape));
  const groups = [...new Set(leaves.flatMap((leaf) => (leaf.type === 'group' ? [leaf.group_uuid.toLowerCase()] : [])))];
  const campaigns = [...new Set(leaves.flatMap((leaf) => (leaf.type === 'event' && leaf.campaign_uuid ? [leaf.campaign_uuid.toLowerCase()] : [])))];
  const found = { groups: new Map<string, number>(), campaigns: new Map<string, number>() };
  if (groups.length + campaigns.length === 0) return found;
  const rows = await rowsOf(
    conn,
    RefRowSchema,
    sql`SELECT 'group' AS kind, g.uuid::text AS uuid, g.id FROM contact_groups g WHERE g.team_id = ${teamId} AND g.uuid::text = ANY(${sql.param(groups)}::text[])
        UNION ALL
        SELECT 'campaign', k.uuid::text, k.id FROM campaigns k WHERE k.team_id = ${teamId} AND k.uuid::text = ANY(${sql.param(campaigns)}::text[])`,
  );
  for (const row of rows) (row.kind === 'group' ? found.groups : found.campaigns).set(row.uuid, row.id);
  return found;
}

/**
 * What evaluating segments of a team needs (`SegmentScope`): its groups oldest first without the
 * suppression list, today in its time zone (else `zone`, APP_TIMEZONE), and, when a condition is
 * about countries, the country of each six-digit prefix of its numbers (a number's first six digits
 * settle its country, as the review's route estimate reads them; one number of each is placed by
 * libphonenumber's metadata, `countryOfNumber`).
 */
export async function segmentScopeOf(
  conn: Conn,
  teamId: number,
  shapes: SegmentShape[],
  references: SegmentReferences,
  zone: string,
  now: Date,
): Promise<SegmentScope> {
  const groupIds = (await rowsOf(conn, IdRowSchema, segmentGroupsOf(teamId))).map((group) => group.id);
  const team = await firstRowOf(conn, ZoneRowSchema, sql`SELECT time_zone AS zone FROM teams WHERE id = ${teamId}`);
  const prefixCountries = new Map<string, string | null>();
  if (shapes.some((shape) => leavesOf(shape).some((leaf) => leaf.type === 'country'))) {
    const prefixes = await rowsOf(conn, PrefixRowSchema, prefixSamplesOf(groupIds));
    for (const { prefix, sample } of prefixes) prefixCountries.set(prefix, countryOfNumber(sample));
  }
  const today = formatTimestamp(now, team?.zone || zone).slice(0, 10);
  return { teamId, groupIds, groups: references.groups, campaigns: references.campaigns, prefixCountries, now, today };
}

/**
 * Each six-digit prefix of the numbers of the groups `groupIds`, with its least number: rows `prefix,
 * sample`. Read by skipping along the group's number index (contacts_group_phone_key) from one prefix
 * to the next, one index look-up a prefix, rather than reading every contact (a million contacts
 * under a handful of prefixes: milliseconds, not a second). Numbers are stored as E.164 digits, so
 * every number of a prefix `p` lies between `p` and `p` followed by twenty nines; the next look-up
 * starts after that (after the number itself for one shorter than six digits, its own prefix), and
 * always after the number just found, so the walk ends whatever the data.
 */
function prefixSamplesOf(groupIds: number[]): SQL {
  const after = sql`CASE WHEN length(w.sample) < 6 THEN w.sample ELSE greatest(w.sample, left(w.sample, 6) || repeat('9', 20)) END`;
  return sql`
    WITH RECURSIVE walk (group_id, sample) AS (
      SELECT g.id, (SELECT min(c.phone_number) FROM contacts c WHERE c.contact_group_id = g.id) FROM unnest(${sql.param(groupIds)}::bigint[]) AS g(id)
      UNION ALL
      SELECT w.group_id, (SELECT min(c.phone_number) FROM contacts c WHERE c.contact_group_id = w.group_id AND c.phone_number > ${after})
        FROM walk w WHERE w.sample IS NOT NULL)
    SELECT left(w.sample, 6) AS prefix, min(w.sample) AS sample FROM walk w WHERE w.sample IS NOT NULL GROUP BY 1`;
}

/** A campaign's audience as it names it: groups (the suppression list among the excluded) and segments. */
export type CampaignAudience = { includedGroupIds: number[]; excludedGroupIds: number[]; includedSegmentIds: number[]; excludedSegmentIds: number[] };

/**
 * The distinct numbers of a campaign with segments, evaluated now: those of its included groups and
 * of any included segment, less those of its excluded groups (and the suppression list, which the
 * caller puts among them) and of any excluded segment. Rows `phone_number`.
 */
export async function audienceNumbersOf(conn: Conn, teamId: number, audience: CampaignAudience, zone: string, now: Date): Promise<SQL> {
  const { included, excluded } = await audienceSetsOf(conn, teamId, audience, zone, now);
  return sql`(${sql.join(
    included.map((set) => set.numbers),
    sql` UNION `,
  )}) EXCEPT (${sql.join(excluded, sql` UNION `)})`;
}

/**
 * The same numbers as `audienceNumbersOf`, each with the included segments it matched (rows
 * `phone_number, segment_ids`; `{}` for a number its groups alone brought): what the start records
 * (campaign_audience) so that revenue per segment reads who each segment brought then.
 */
export async function audienceMembershipOf(conn: Conn, teamId: number, audience: CampaignAudience, zone: string, now: Date): Promise<SQL> {
  const { included, excluded } = await audienceSetsOf(conn, teamId, audience, zone, now);
  // A segment's set holds a number once, and so does one group; several groups may hold it more than once.
  const distinct = (segmentId: number | null) => (segmentId === null && audience.includedGroupIds.length > 1 ? sql`DISTINCT ` : sql``);
  const tagged = included.map((set) => sql`SELECT ${distinct(set.segmentId)}t.phone_number, ${set.segmentId}::bigint AS segment_id FROM (${set.numbers}) t`);
  return sql`
    SELECT i.phone_number, coalesce(array_agg(i.segment_id ORDER BY i.segment_id) FILTER (WHERE i.segment_id IS NOT NULL), '{}')::bigint[] AS segment_ids
      FROM (${sql.join(tagged, sql` UNION ALL `)}) i
     WHERE NOT EXISTS (SELECT 1 FROM (${sql.join(excluded, sql` UNION ALL `)}) x WHERE x.phone_number = i.phone_number)
     GROUP BY i.phone_number`;
}

/** The sets of numbers a campaign's audience is made of: each included one (a segment's with its id, the groups' with none), and the excluded ones. */
async function audienceSetsOf(
  conn: Conn,
  teamId: number,
  audience: CampaignAudience,
  zone: string,
  now: Date,
): Promise<{ included: Array<{ segmentId: number | null; numbers: SQL }>; excluded: SQL[] }> {
  const ids = [...audience.includedSegmentIds, ...audience.excludedSegmentIds];
  const rows =
    ids.length === 0
      ? []
      : await rowsOf(conn, ShapeRowSchema, sql`SELECT id, match, conditions FROM segments WHERE id = ANY(${sql.param(ids)}::bigint[]) AND team_id = ${teamId}`);
  const shapes = new Map(rows.map((row) => [row.id, { match: row.match, conditions: row.conditions as Condition[] }]));
  const all = [...shapes.values()];
  const scope = await segmentScopeOf(conn, teamId, all, await segmentReferencesOf(conn, teamId, all), zone, now);
  const of = (segmentIds: number[]) =>
    segmentIds.flatMap((id) => (shapes.has(id) ? [{ segmentId: id, numbers: segmentNumbersOf(shapes.get(id)!, scope) }] : []));
  const included = [
    { segmentId: null, numbers: sql`SELECT c.phone_number FROM contacts c WHERE c.contact_group_id = ANY(${sql.param(audience.includedGroupIds)}::bigint[])` },
    ...of(audience.includedSegmentIds),
  ];
  const excluded = [
    sql`SELECT x.phone_number FROM contacts x WHERE x.contact_group_id = ANY(${sql.param(audience.excludedGroupIds)}::bigint[])`,
    ...of(audience.excludedSegmentIds).map((set) => set.numbers),
  ];
  return { included, excluded };
}

/**
 * The rows a campaign with segments writes as messages, from its numbers `numbers` (rows
 * `phone_number`, in the order wanted): rows `phone_number, custom_fields, contact_group_id`. A number
 * in an included group has its fields merged over the included groups, the first listed first (as
 * `recipientsOf`); a number only a segment brought has them merged over the team's groups, oldest
 * first (as the segment reads them). A number whose contacts are gone since has none.
 */
export function audienceRowsOf(numbers: SQL, includedGroupIds: number[], teamGroups: SQL): SQL {
  const included = sql`${sql.param(includedGroupIds)}::bigint[]`;
  return sql`
    SELECT a.phone_number, coalesce(f.fields, '{}'::jsonb) AS custom_fields, f.group_id AS contact_group_id
      FROM (${numbers}) a
      LEFT JOIN LATERAL (
        SELECT herald_merged_fields(array_agg(c.custom_fields ORDER BY r.rank)) AS fields, (array_agg(c.contact_group_id ORDER BY r.rank))[1] AS group_id
          FROM contacts c
          JOIN (SELECT o.id, o.rank FROM unnest(${included}) WITH ORDINALITY AS o(id, rank)
                UNION ALL
                SELECT t.id, 1000000 + row_number() OVER () FROM (${teamGroups}) t WHERE t.id <> ALL(${included})) r ON r.id = c.contact_group_id
         WHERE c.phone_number = a.phone_number
           AND (r.rank < 1000000 OR NOT EXISTS (SELECT 1 FROM contacts i WHERE i.phone_number = a.phone_number AND i.contact_group_id = ANY(${included})))
      ) f ON true`;
}

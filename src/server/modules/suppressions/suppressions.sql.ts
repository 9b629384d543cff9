import { sql, type SQL } from 'drizzle-orm';

/**
 * The suppression list in SQL, for statements that must stay one statement over a set of numbers
 * (the engine's claim and start). Where the list is stored is known here and in
 * suppressions.repository.ts only: a team's list is its `default_optouts` contact group (the
 * spec's contact-group API shows it as a group), its history the `opt_out_events` table.
 */

/** The id of a team's suppression list (a scalar subquery: planned once, then an index lookup). */
export const suppressionListOf = (teamId: SQL | number): SQL =>
  sql`(SELECT g.id FROM contact_groups g WHERE g.team_id = ${teamId} AND g.system_role = 'optouts')`;

/** The id of the suppression list of the team that owns a campaign. */
export const suppressionListOfCampaign = (campaignId: SQL | number): SQL =>
  suppressionListOf(sql`(SELECT k.team_id FROM campaigns k WHERE k.id = ${campaignId})`);

/**
 * The numbers of `phones` (a `text[]`) that the list `listId` holds, as rows of `phone`: one
 * lookup per number along the list's group-and-number index.
 */
export const suppressedAmong = (listId: SQL, phones: SQL): SQL =>
  sql`SELECT s.phone_number AS phone FROM contacts s WHERE s.contact_group_id = ${listId} AND s.phone_number = ANY(${phones})`;

/** Whether the list `listId` holds the number `phone` (a column or a parameter): for a filter over many rows. */
export const isSuppressed = (listId: SQL | number, phone: SQL): SQL =>
  sql`EXISTS (SELECT 1 FROM contacts s WHERE s.contact_group_id = ${listId} AND s.phone_number = ${phone})`;

/** The opt-outs a campaign led to (the history's opt-outs that name it, through opt_out_events_campaign_idx), as an `int`. */
export const optOutsOfCampaign = (campaignId: SQL): SQL =>
  sql`(SELECT count(*)::int FROM opt_out_events e WHERE e.campaign_id = ${campaignId} AND e.kind = 'opt_out')`;

/**
 * The numbers that opted in (START, or a removal from the list) in a team's history, since `since`
 * when given, as rows of `phone_number`: a segment's `opted_in` condition (modules/segments).
 */
export const optInsOf = (teamId: number, since: Date | null): SQL =>
  sql`SELECT e.phone_number FROM opt_out_events e WHERE e.team_id = ${teamId} AND e.kind = 'opt_in'${since ? sql` AND e.created_at >= ${since}` : sql``}`;

import { CONTACT_SORT, type SortFieldOf } from '../../../shared/contract';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { countRecipientsOf, mergedFields, recipientsOf } from '../../db/audience';
import type { Db, Tx } from '../../db/client';
import { countOf, readPage, type Page, type PageWindow, orderOf, type ListOrder } from '../../db/pages';
import { firstRowOf, MomentSchema, oneRowOf, rowsOf } from '../../db/rows';
import type { Clock } from '../../lib/time';

const FieldsSchema = z.record(z.string(), z.string());
const ContactRecordSchema = z.object({ phoneNumber: z.string(), customFields: FieldsSchema, createdAt: MomentSchema, updatedAt: MomentSchema });
export type ContactRecord = z.output<typeof ContactRecordSchema>;
const RecipientSchema = z.object({ phoneNumber: z.string(), customFields: FieldsSchema });
// bigint[] elements arrive as text (the int8 parser is for single values).
const GroupIdsSchema = z.array(z.coerce.number());
const LockedGroupSchema = z.object({ modifying: z.boolean(), headers: z.array(z.string()) });
export type NewContact = { phoneNumber: string; customFields: Record<string, string> };

/** Raw SQL where set-based statements beat the query builder (unnest for bulk writes). */
/** The list's `sort` (CONTACT_SORT): by number, either way along the group's index; a number is unique in its group. */
const ORDER: ListOrder<SortFieldOf<typeof CONTACT_SORT>> = { sort: CONTACT_SORT, columns: { phone_number: sql`phone_number` } };

export function createContactsRepository(db: Db, clock: Clock) {
  return {
    /** Teams with the number in one of their own groups, system lists such as the suppression list aside (a STOP to the shared short code reaches each). */
    async teamsHolding(phoneNumber: string): Promise<number[]> {
      const rows = await rowsOf(
        db,
        z.object({ team_id: z.number() }),
        sql`
        SELECT DISTINCT g.team_id FROM contacts c JOIN contact_groups g ON g.id = c.contact_group_id
         WHERE c.phone_number = ${phoneNumber} AND g.system_role IS NULL ORDER BY g.team_id`,
      );
      return rows.map((row) => row.team_id);
    },

    /** Locks the group row: changes to one group's contacts happen one at a time, so its count stays exact. */
    lockGroup: (tx: Tx, groupId: number): Promise<{ modifying: boolean; headers: string[] }> =>
      oneRowOf(tx, LockedGroupSchema, sql`SELECT modifying_since IS NOT NULL AS modifying, headers FROM contact_groups WHERE id = ${groupId} FOR UPDATE`),

    /** Inserts or replaces (same number: later custom fields win); returns how many numbers are new. */
    async upsert(tx: Tx, groupId: number, contacts: NewContact[]): Promise<number> {
      if (contacts.length === 0) return 0;
      const now = clock.now();
      const { inserted } = await oneRowOf(
        tx,
        z.object({ inserted: z.number() }),
        sql`
        WITH written AS (
          INSERT INTO contacts (contact_group_id, phone_number, custom_fields, created_at, updated_at)
          SELECT ${groupId}, phone, fields::jsonb, ${now}, ${now}
            FROM unnest(${sql.param(contacts.map((c) => c.phoneNumber))}::text[], ${sql.param(contacts.map((c) => JSON.stringify(c.customFields)))}::text[]) AS t(phone, fields)
          ON CONFLICT (contact_group_id, phone_number) DO UPDATE SET custom_fields = EXCLUDED.custom_fields, updated_at = EXCLUDED.updated_at
          RETURNING (xmax = 0) AS inserted
        )
        SELECT count(*) FILTER (WHERE inserted)::int AS inserted FROM written`,
      );
      return inserted;
    },

    /** Adds the numbers the group lacks, keeping existing contacts (and their fields) as they are. */
    async insertMissing(tx: Tx, groupId: number, phoneNumbers: string[]): Promise<number> {
      const now = clock.now();
      const result = await tx.execute(sql`
        INSERT INTO contacts (contact_group_id, phone_number, created_at, updated_at)
        SELECT ${groupId}, phone, ${now}, ${now} FROM unnest(${sql.param(phoneNumbers)}::text[]) AS t(phone)
        ON CONFLICT (contact_group_id, phone_number) DO NOTHING`);
      return result.rowCount ?? 0;
    },

    /** Adds fields to one contact's (a sign-up page's fields, confirmed by YES): a field given replaces its value, others are kept. */
    async mergeFields(tx: Tx, groupId: number, phoneNumber: string, fields: Record<string, string>): Promise<void> {
      await tx.execute(sql`
        UPDATE contacts SET custom_fields = custom_fields || ${JSON.stringify(fields)}::jsonb, updated_at = ${clock.now()}
         WHERE contact_group_id = ${groupId} AND phone_number = ${phoneNumber}`);
    },

    async remove(tx: Tx, groupId: number, phoneNumbers: string[]): Promise<number> {
      const result = await tx.execute(sql`DELETE FROM contacts WHERE contact_group_id = ${groupId} AND phone_number = ANY(${sql.param(phoneNumbers)}::text[])`);
      return result.rowCount ?? 0;
    },

    /** Moves the group's count by `delta`, adds custom-field names it did not have, and touches it. */
    async adjustGroup(tx: Tx, groupId: number, delta: number, headers?: string[]): Promise<void> {
      await tx.execute(sql`
        UPDATE contact_groups
           SET contact_count = contact_count + ${delta},
               headers = ${headers ? sql`${JSON.stringify(headers)}::jsonb` : sql`headers`},
               updated_at = ${clock.now()}
         WHERE id = ${groupId}`);
    },

    async emptyGroup(tx: Tx, groupId: number): Promise<void> {
      await tx.execute(sql`DELETE FROM contacts WHERE contact_group_id = ${groupId}`);
      await tx.execute(sql`UPDATE contact_groups SET contact_count = 0, updated_at = ${clock.now()} WHERE id = ${groupId}`);
    },

    list(groupId: number, window: PageWindow, search?: string): Promise<Page<ContactRecord>> {
      const where = search ? sql`contact_group_id = ${groupId} AND phone_number LIKE ${`%${search}%`}` : sql`contact_group_id = ${groupId}`;
      return readPage({
        rows: rowsOf(
          db,
          ContactRecordSchema,
          sql`
          SELECT phone_number AS "phoneNumber", custom_fields AS "customFields", created_at AS "createdAt", updated_at AS "updatedAt"
            FROM contacts WHERE ${where} ORDER BY ${orderOf(ORDER, window.sort)} LIMIT ${window.limit} OFFSET ${window.offset}`,
        ),
        count: () => countOf(db, sql`SELECT count(*)::int AS total FROM contacts WHERE ${where}`),
      });
    },

    /** Up to `limit` of the group's contacts after the number `after` (keyset order), for an export read in pages. */
    pageAfter: (groupId: number, after: string, limit: number): Promise<Array<{ phoneNumber: string; customFields: Record<string, string> }>> =>
      rowsOf(
        db,
        RecipientSchema,
        sql`
        SELECT phone_number AS "phoneNumber", custom_fields AS "customFields" FROM contacts
         WHERE contact_group_id = ${groupId} AND phone_number > ${after} ORDER BY phone_number LIMIT ${limit}`,
      ),

    /**
     * The first recipient (by number) of the team's latest campaign that uses the template, with
     * its custom fields merged over the included groups as the campaign sends them (`recipientsOf`).
     */
    async firstRecipientOfLatestCampaign(
      teamId: number,
      templateId: number,
      optoutsGroupId: number,
    ): Promise<{ phoneNumber: string; customFields: Record<string, string> } | undefined> {
      const campaign = await firstRowOf(
        db,
        z.object({ included: GroupIdsSchema, excluded: GroupIdsSchema }),
        sql`
        SELECT coalesce(array_agg(g.contact_group_id ORDER BY g.position) FILTER (WHERE g.kind = 'included'), '{}') AS included,
               coalesce(array_agg(g.contact_group_id) FILTER (WHERE g.kind = 'excluded'), '{}') AS excluded
          FROM (SELECT id FROM campaigns WHERE team_id = ${teamId} AND template_id = ${templateId} ORDER BY created_at DESC, id DESC LIMIT 1) c
          JOIN campaign_groups g ON g.campaign_id = c.id`,
      );
      if (!campaign || campaign.included.length === 0) return undefined;
      return firstRowOf(
        db,
        RecipientSchema,
        sql`
        SELECT r.phone_number AS "phoneNumber", r.custom_fields AS "customFields"
          FROM (${recipientsOf(campaign.included, [...campaign.excluded, optoutsGroupId])}) r ORDER BY r.phone_number LIMIT 1`,
      );
    },

    /**
     * The team's contact with this number (custom fields for a preview), its fields merged over the
     * team's groups as a campaign merges them (`mergedFields`), the most recently changed group
     * first where they disagree: no campaign says which group comes first.
     */
    latestOfTeam(teamId: number, phoneNumber: string): Promise<ContactRecord | undefined> {
      return firstRowOf(
        db,
        ContactRecordSchema,
        sql`
        WITH rows AS (
          SELECT c.custom_fields, c.created_at, c.updated_at, row_number() OVER (ORDER BY c.updated_at DESC, c.contact_group_id) AS rank
            FROM contacts c JOIN contact_groups g ON g.id = c.contact_group_id
           WHERE g.team_id = ${teamId} AND c.phone_number = ${phoneNumber}),
        a AS (SELECT array_agg(custom_fields ORDER BY rank) AS fields, min(created_at) AS created, max(updated_at) AS updated, count(*) AS n FROM rows)
        SELECT ${phoneNumber}::text AS "phoneNumber", ${mergedFields(sql`a.fields`)} AS "customFields", a.created AS "createdAt", a.updated AS "updatedAt"
          FROM a WHERE a.n > 0`,
      );
    },
  };
}
export type ContactsRepository = ReturnType<typeof createContactsRepository>;

export function createRecipientsRepository(db: Db) {
  const count = (includedGroupIds: number[], excludedGroupIds: number[]): Promise<number> => countOf(db, countRecipientsOf(includedGroupIds, excludedGroupIds));
  return {
    count,

    async page(includedGroupIds: number[], excludedGroupIds: number[], window: PageWindow): Promise<Page<string>> {
      const recipients = recipientsOf(includedGroupIds, excludedGroupIds);
      const page = await readPage({
        rows: rowsOf(
          db,
          z.object({ phone_number: z.string() }),
          sql`SELECT phone_number FROM (${recipients}) r ORDER BY phone_number LIMIT ${window.limit} OFFSET ${window.offset}`,
        ),
        count: () => count(includedGroupIds, excludedGroupIds),
      });
      return { rows: page.rows.map((row) => row.phone_number), total: page.total };
    },
  };
}
export type RecipientsRepository = ReturnType<typeof createRecipientsRepository>;

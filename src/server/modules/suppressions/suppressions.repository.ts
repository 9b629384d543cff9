import { OPT_OUT_EVENT_SORT, type SortFieldOf } from '../../../shared/contract';
import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, Tx } from '../../db/client';
import { countOf, readPage, type Page, type PageWindow, orderOf, type ListOrder } from '../../db/pages';
import { firstRowOf, MomentSchema, oneRowOf, rowsOf } from '../../db/rows';
import type { Clock } from '../../lib/time';
import { isSuppressed, suppressionListOf } from './suppressions.sql';

type Conn = Db | Tx;

/** Where an opt-out or opt-in came from: a handset's keyword, a CSV import, a change by hand (dashboard or API token), or a provider's status callback saying the recipient opted out there. */
export type OptOutSource = 'keyword' | 'import' | 'dashboard' | 'api' | 'provider';
/** Where a suppression came from (the opt-out history's `source`). */
export type SuppressionSource = OptOutSource;
export type OptOutKind = 'opt_out' | 'opt_in';

/** Who changed default_optouts by hand, and why (an opt-in by hand carries a reason). */
export type OptOutActor = { teamId: number; source: OptOutSource; userId: number | null; reason?: string | null };

const OptOutEventRowSchema = z.object({
  id: z.number(),
  phoneNumber: z.string(),
  kind: z.enum(['opt_out', 'opt_in']),
  source: z.enum(['keyword', 'import', 'dashboard', 'api', 'provider']),
  campaignUuid: z.string().nullable(),
  campaignName: z.string().nullable(),
  userUuid: z.string().nullable(),
  userName: z.string().nullable(),
  reason: z.string().nullable(),
  createdAt: MomentSchema,
});
export type OptOutEventRow = z.output<typeof OptOutEventRowSchema>;

/**
 * The team's campaign whose message last went to `phone` (submitted to the gateway) at or before
 * `at`: the campaign an opt-out followed. Found through messages_phone_number_idx (migration 0027):
 * a number's messages, however large the table, and each one's campaign by primary key.
 */
const precedingCampaign = (teamId: number, phone: SQL, at: Date): SQL => sql`(
  SELECT m.campaign_id FROM messages m JOIN campaigns c ON c.id = m.campaign_id
   WHERE m.phone_number = ${phone} AND c.team_id = ${teamId} AND m.submitted_at <= ${at}
   ORDER BY m.submitted_at DESC, m.id DESC LIMIT 1)`;

/** The columns of an event for numbers selected as `phone`: an opt-out names the campaign it followed, an opt-in none. */
const eventColumns = (actor: OptOutActor, kind: OptOutKind, at: Date): SQL =>
  sql`${actor.teamId}::bigint, phone, ${kind}, ${actor.source}, ${kind === 'opt_out' ? precedingCampaign(actor.teamId, sql`phone`, at) : sql`NULL::bigint`},
      ${actor.userId}::bigint, ${actor.reason ?? null}::text, ${at}::timestamptz`;

const INSERT = sql`INSERT INTO opt_out_events (team_id, phone_number, kind, source, campaign_id, user_id, reason, created_at)`;

/** The opt-out history (migration 0026): one row per number that entered or left a team's default_optouts. */
/** The list's `sort` (OPT_OUT_EVENT_SORT). */
const ORDER: ListOrder<SortFieldOf<typeof OPT_OUT_EVENT_SORT>> = {
  sort: OPT_OUT_EVENT_SORT,
  columns: { created_at: sql`e.created_at` },
  tiebreak: sql`e.id`,
};

/**
 * The suppression list's storage (a team's `default_optouts` group and the `opt_out_events`
 * history): the only code, with suppressions.sql.ts, that names it. Reached through the
 * `Suppressions` interface (suppressions.ts).
 */
export function createSuppressionsRepository(db: Db, clock: Clock) {
  return {
    /** A new team's (empty) list: its default_optouts group, which the contact-group API shows and never lets go. */
    async createList(tx: Tx, teamId: number): Promise<void> {
      const now = clock.now();
      await tx.execute(sql`
        INSERT INTO contact_groups (team_id, name, description, deletable, system_role, created_at, updated_at)
        VALUES (${teamId}, 'default_optouts', 'Numbers that asked not to receive messages; excluded from every campaign.', false, 'optouts', ${now}, ${now})`);
    },

    /** The team's list: the id of its default_optouts group. */
    async listOf(teamId: number, conn: Conn = db): Promise<number> {
      const row = await firstRowOf(conn, z.object({ id: z.number().nullable() }), sql`SELECT ${suppressionListOf(teamId)} AS id`);
      if (row === undefined || row.id === null) throw new Error(`team ${teamId} has no default_optouts group`);
      return row.id;
    },

    /** The numbers of `phoneNumbers` the list holds (one statement, however many). */
    async holdsAmong(conn: Conn, listId: number, phoneNumbers: string[]): Promise<Set<string>> {
      if (phoneNumbers.length === 0) return new Set();
      const rows = await rowsOf(
        conn,
        z.object({ phone: z.string() }),
        sql`SELECT DISTINCT u.phone FROM unnest(${sql.param(phoneNumbers)}::text[]) AS u(phone) WHERE ${isSuppressed(listId, sql`u.phone`)}`,
      );
      return new Set(rows.map((row) => row.phone));
    },

    /**
     * How many distinct numbers of `numbers` (a statement whose rows have `phone_number`) the team's
     * list holds: nothing is read of them while the list is empty.
     */
    async countAmong(conn: Conn, teamId: number, numbers: SQL): Promise<number> {
      const row = await oneRowOf(
        conn,
        z.object({ n: z.number() }),
        sql`
        WITH optouts AS (SELECT id FROM contact_groups WHERE id = ${suppressionListOf(teamId)} AND contact_count > 0)
        SELECT count(DISTINCT r.phone_number)::int AS n
          FROM optouts g
          JOIN contacts o ON o.contact_group_id = g.id
          JOIN (${numbers}) r ON r.phone_number = o.phone_number`,
      );
      return row.n;
    },

    /** When the number last opted out of the team (its latest opt-out event), if the history has one. */
    async lastOptOutAt(conn: Db | Tx, teamId: number, phoneNumber: string): Promise<Date | undefined> {
      const row = await firstRowOf(
        conn,
        z.object({ at: MomentSchema.nullable() }),
        sql`SELECT max(created_at) AS at FROM opt_out_events WHERE team_id = ${teamId} AND phone_number = ${phoneNumber} AND kind = 'opt_out'`,
      );
      return row?.at ?? undefined;
    },

    /** Whether the team's history holds the number. */
    async hasHistory(conn: Conn, teamId: number, phoneNumber: string): Promise<boolean> {
      const row = await firstRowOf(
        conn,
        z.object({ held: z.boolean() }),
        sql`SELECT true AS held FROM opt_out_events WHERE team_id = ${teamId} AND phone_number = ${phoneNumber} LIMIT 1`,
      );
      return row !== undefined;
    },

    /** Replaces the number with `token` in the team's history (its erasure); returns the events changed. */
    async anonymise(tx: Tx, teamId: number, phoneNumber: string, token: string): Promise<number> {
      const result = await tx.execute(sql`UPDATE opt_out_events SET phone_number = ${token} WHERE team_id = ${teamId} AND phone_number = ${phoneNumber}`);
      return result.rowCount ?? 0;
    },

    /**
     * Events for the numbers among `phoneNumbers` that are about to enter (`opt_out`: not yet in
     * the group) or leave (`opt_in`: in it) default_optouts, in the caller's transaction, before
     * the change and with the group locked, so only real changes are recorded. One statement,
     * however many numbers. Returns how many events were written.
     */
    async recordChange(tx: Tx, groupId: number, kind: OptOutKind, phoneNumbers: string[], actor: OptOutActor, at: Date = clock.now()): Promise<number> {
      if (phoneNumbers.length === 0) return 0;
      const membership = sql`EXISTS (SELECT 1 FROM contacts c WHERE c.contact_group_id = ${groupId} AND c.phone_number = t.phone)`;
      const result = await tx.execute(sql`
        ${INSERT}
        SELECT ${eventColumns(actor, kind, at)}
          FROM (SELECT DISTINCT phone FROM unnest(${sql.param(phoneNumbers)}::text[]) AS u(phone)) t
         WHERE ${kind === 'opt_out' ? sql`NOT ${membership}` : membership}`);
      return result.rowCount ?? 0;
    },

    /** An opt-in event for every number of default_optouts, before it is emptied (in the caller's transaction, the group locked). */
    async recordFlush(tx: Tx, groupId: number, actor: OptOutActor, at: Date = clock.now()): Promise<number> {
      const result = await tx.execute(sql`
        ${INSERT}
        SELECT ${eventColumns(actor, 'opt_in', at)} FROM (SELECT phone_number AS phone FROM contacts WHERE contact_group_id = ${groupId}) t`);
      return result.rowCount ?? 0;
    },

    /**
     * An opt-out event for every number of an import that default_optouts does not hold yet, read
     * from the import's staged rows (`numbers`: a statement of `phone_number`) in one INSERT … SELECT
     * (an import may have millions of rows): in the merge's transaction, before the merge, with the
     * group locked.
     */
    async recordImport(tx: Tx, groupId: number, numbers: SQL, actor: OptOutActor, at: Date = clock.now()): Promise<number> {
      const result = await tx.execute(sql`
        ${INSERT}
        SELECT ${eventColumns(actor, 'opt_out', at)}
          FROM (SELECT DISTINCT n.phone_number AS phone FROM (${numbers}) n) t
         WHERE NOT EXISTS (SELECT 1 FROM contacts c WHERE c.contact_group_id = ${groupId} AND c.phone_number = t.phone)`);
      return result.rowCount ?? 0;
    },

    /** Whether the group holds the number (in the caller's transaction). */
    async holds(tx: Conn, groupId: number, phoneNumber: string): Promise<boolean> {
      const row = await firstRowOf(
        tx,
        z.object({ held: z.boolean() }),
        sql`SELECT true AS held FROM contacts WHERE contact_group_id = ${groupId} AND phone_number = ${phoneNumber}`,
      );
      return row !== undefined;
    },

    /** Teams whose default_optouts holds the number (START to the shared short code reaches each). */
    async teamsOptedOut(phoneNumber: string): Promise<number[]> {
      const rows = await rowsOf(
        db,
        z.object({ teamId: z.number() }),
        sql`
        SELECT g.team_id AS "teamId" FROM contacts c JOIN contact_groups g ON g.id = c.contact_group_id
         WHERE c.phone_number = ${phoneNumber} AND g.system_role = 'optouts' ORDER BY g.team_id`,
      );
      return rows.map((row) => row.teamId);
    },

    /** The team whose campaign message last went to the number, if any (whom HELP to the shared short code answers for). */
    async lastSenderOf(phoneNumber: string): Promise<number | undefined> {
      const row = await firstRowOf(
        db,
        z.object({ teamId: z.number() }),
        sql`
        SELECT c.team_id AS "teamId" FROM messages m JOIN campaigns c ON c.id = m.campaign_id
         WHERE m.phone_number = ${phoneNumber} AND m.submitted_at IS NOT NULL
         ORDER BY m.submitted_at DESC, m.id DESC LIMIT 1`,
      );
      return row?.teamId;
    },

    /**
     * Opt-outs per campaign: the opt_out events that name it (each the campaign whose message last
     * went to the number before it opted out). Campaigns without any are counted 0. Read through
     * opt_out_events_campaign_idx.
     */
    async countByCampaign(campaignIds: number[]): Promise<Map<number, number>> {
      const counts = new Map<number, number>(campaignIds.map((id) => [id, 0]));
      if (campaignIds.length === 0) return counts;
      const rows = await rowsOf(
        db,
        z.object({ campaignId: z.number(), count: z.number() }),
        sql`
        SELECT campaign_id AS "campaignId", count(*)::int AS count FROM opt_out_events
         WHERE campaign_id = ANY(${sql.param([...new Set(campaignIds)])}::bigint[]) AND kind = 'opt_out'
         GROUP BY campaign_id`,
      );
      for (const row of rows) counts.set(row.campaignId, row.count);
      return counts;
    },

    /** A team's history, newest first; of one number when given. */
    list(teamId: number, phoneNumber: string | undefined, window: PageWindow): Promise<Page<OptOutEventRow>> {
      const where = phoneNumber === undefined ? sql`e.team_id = ${teamId}` : sql`e.team_id = ${teamId} AND e.phone_number = ${phoneNumber}`;
      return readPage({
        rows: rowsOf(
          db,
          OptOutEventRowSchema,
          sql`
          SELECT e.id, e.phone_number AS "phoneNumber", e.kind, e.source, c.uuid::text AS "campaignUuid", c.name AS "campaignName",
                 u.uuid::text AS "userUuid", u.name AS "userName", e.reason, e.created_at AS "createdAt"
            FROM opt_out_events e LEFT JOIN campaigns c ON c.id = e.campaign_id LEFT JOIN users u ON u.id = e.user_id
           WHERE ${where} ORDER BY ${orderOf(ORDER, window.sort)} LIMIT ${window.limit} OFFSET ${window.offset}`,
        ),
        count: () => countOf(db, sql`SELECT count(*)::int AS total FROM opt_out_events e WHERE ${where}`),
      });
    },
  };
}
export type SuppressionsRepository = ReturnType<typeof createSuppressionsRepository>;

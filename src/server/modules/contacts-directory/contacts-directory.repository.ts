import { DIRECTORY_CONTACT_SORT, OUTBOUND_MESSAGE_KINDS, OUTBOUND_MESSAGE_STATUSES, type SortFieldOf } from '../../../shared/contract';
import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, Tx } from '../../db/client';
import { countOf, readPage, type Page, type PageWindow, orderOf, type ListOrder } from '../../db/pages';
import { MomentSchema, oneRowOf, rowsOf, type Conn } from '../../db/rows';
import { containsFoldedText, containsText } from '../../db/search';
import { MESSAGE_CONNECTION_COLUMNS } from '../../lib/message-connections';
import type { Clock } from '../../lib/time';

const FieldsSchema = z.record(z.string(), z.string());
const DirectoryRowSchema = z.object({ phoneNumber: z.string(), groups: z.array(z.object({ uuid: z.string(), name: z.string() })) });
export type DirectoryRow = z.output<typeof DirectoryRowSchema>;

const MembershipRowSchema = z.object({
  uuid: z.string(),
  name: z.string(),
  optouts: z.boolean(),
  customFields: FieldsSchema,
  createdAt: MomentSchema,
});
const MessageRowSchema = z.object({
  campaignUuid: z.string(),
  campaignName: z.string(),
  status: z.enum(['queued', 'submitted', 'delivered', 'failed', 'unsent']),
  reason: z.string().nullable(),
  submittedAt: MomentSchema.nullable(),
  finishedAt: MomentSchema.nullable(),
  body: z.string().nullable(),
  customFields: FieldsSchema,
  routed: z.boolean(),
  connection_uuid: z.string().nullable(),
  connection_name: z.string().nullable(),
  connection_provider: z.string().nullable(),
  gateway_id: z.string().nullable(),
  total: z.number(),
});
const ClickRowSchema = z.object({
  campaignUuid: z.string(),
  campaignName: z.string(),
  linkName: z.string(),
  clickedAt: MomentSchema,
  isBot: z.boolean(),
  userAgent: z.string().nullable(),
  ip: z.string().nullable(),
  deviceType: z.string().nullable(),
  osVersion: z.string().nullable(),
  browserVersion: z.string().nullable(),
  total: z.number(),
});
const InboundRowSchema = z.object({
  uuid: z.string(),
  body: z.string(),
  keyword: z.string().nullable(),
  optedOut: z.boolean(),
  receivedAt: MomentSchema,
  total: z.number(),
});
const ReplyRowSchema = z.object({
  id: z.number(),
  body: z.string(),
  kind: z.enum(OUTBOUND_MESSAGE_KINDS),
  status: z.enum(OUTBOUND_MESSAGE_STATUSES),
  createdAt: MomentSchema,
});
export type MembershipRow = z.output<typeof MembershipRowSchema>;
export type MessageRow = z.output<typeof MessageRowSchema>;
export type ClickRow = z.output<typeof ClickRowSchema>;
export type InboundRow = z.output<typeof InboundRowSchema>;
export type ReplyRow = z.output<typeof ReplyRowSchema>;
const ReplyClickRowSchema = ClickRowSchema.omit({ campaignUuid: true, campaignName: true, total: true }).extend({ replyId: z.number() });
export type ReplyClickRow = z.output<typeof ReplyClickRowSchema>;

/** What `search` matches: digits the number contains, or text a custom field's value contains. */
export type DirectorySearch = { digits?: string; text: string };

/** How many rows of each kind an erasure anonymised. */
export type Anonymised = { messages: number; clicks: number; inbound: number; replies: number };

const limitOf = (cap: number | undefined): SQL => (cap === undefined ? sql`` : sql`LIMIT ${cap}`);

/**
 * The team's contacts by number, across its groups (issue 20, point 4): search, one number's
 * records, and its erasure. Every statement is scoped by the team: a group's, a campaign's or an
 * inbound message's `team_id`.
 */
/** The list's `sort` (DIRECTORY_CONTACT_SORT), inside the page's choice and outside it: a number is listed once. */
const INNER_ORDER: ListOrder<SortFieldOf<typeof DIRECTORY_CONTACT_SORT>> = { sort: DIRECTORY_CONTACT_SORT, columns: { phone_number: sql`c.phone_number` } };
const OUTER_ORDER: ListOrder<SortFieldOf<typeof DIRECTORY_CONTACT_SORT>> = { sort: DIRECTORY_CONTACT_SORT, columns: { phone_number: sql`p.phone_number` } };

export function createContactsDirectoryRepository(db: Db, clock: Clock) {
  /** The numbers of the team's groups that match the search (all of them without one). */
  const matching = (teamId: number, search?: DirectorySearch): SQL => {
    const conditions: SQL[] = [sql`g.team_id = ${teamId}`];
    if (search) {
      const text = sql`EXISTS (SELECT 1 FROM jsonb_each_text(c.custom_fields) f WHERE ${containsFoldedText(sql`f.value`, search.text)})`;
      conditions.push(search.digits ? sql`(${containsText(sql`c.phone_number`, search.digits)} OR ${text})` : text);
    }
    return sql`SELECT DISTINCT c.phone_number FROM contacts c JOIN contact_groups g ON g.id = c.contact_group_id WHERE ${sql.join(conditions, sql` AND `)}`;
  };

  return {
    list(teamId: number, window: PageWindow, search?: DirectorySearch): Promise<Page<DirectoryRow>> {
      return readPage({
        rows: rowsOf(
          db,
          DirectoryRowSchema,
          sql`
          WITH page AS (${matching(teamId, search)} ORDER BY ${orderOf(INNER_ORDER, window.sort)} LIMIT ${window.limit} OFFSET ${window.offset})
          SELECT p.phone_number AS "phoneNumber",
                 json_agg(json_build_object('uuid', g.uuid::text, 'name', g.name) ORDER BY g.name, g.id) AS groups
            FROM page p JOIN contacts c ON c.phone_number = p.phone_number JOIN contact_groups g ON g.id = c.contact_group_id AND g.team_id = ${teamId}
           GROUP BY p.phone_number ORDER BY ${orderOf(OUTER_ORDER, window.sort)}`,
        ),
        count: () => countOf(db, sql`SELECT count(*)::int AS total FROM (${matching(teamId, search)}) m`),
      });
    },

    /** The groups of the team that hold the number; `optouts` for the team's suppression list (`listId`). */
    memberships: (conn: Conn, teamId: number, phoneNumber: string, listId: number): Promise<MembershipRow[]> =>
      rowsOf(
        conn,
        MembershipRowSchema,
        sql`
        SELECT g.uuid::text AS uuid, g.name, g.id = ${listId} AS optouts, c.custom_fields AS "customFields", c.created_at AS "createdAt"
          FROM contacts c JOIN contact_groups g ON g.id = c.contact_group_id
         WHERE g.team_id = ${teamId} AND c.phone_number = ${phoneNumber} ORDER BY g.name, g.id`,
      ),

    /** Messages of the team's campaigns to the number, newest first, each row carrying the total. */
    messages: (teamId: number, phoneNumber: string, cap?: number): Promise<MessageRow[]> =>
      rowsOf(
        db,
        MessageRowSchema,
        sql`
        SELECT k.uuid::text AS "campaignUuid", k.name AS "campaignName", m.status, m.reason, m.submitted_at AS "submittedAt", m.finished_at AS "finishedAt",
               m.body, m.custom_fields AS "customFields",
               ${MESSAGE_CONNECTION_COLUMNS}, (count(*) OVER ())::int AS total
          FROM messages m JOIN campaigns k ON k.id = m.campaign_id
          -- The connection that carried it, read only (no foreign key: a deleted one leaves null).
          LEFT JOIN sms_connections sc ON sc.id = m.connection_id
         WHERE m.phone_number = ${phoneNumber} AND k.team_id = ${teamId}
         ORDER BY m.created_at DESC, m.id DESC ${limitOf(cap)}`,
      ),

    clicks: (teamId: number, phoneNumber: string, cap?: number): Promise<ClickRow[]> =>
      rowsOf(
        db,
        ClickRowSchema,
        sql`
        SELECT k.uuid::text AS "campaignUuid", k.name AS "campaignName", s.link_name AS "linkName", l.clicked_at AS "clickedAt", l.is_bot AS "isBot",
               l.user_agent AS "userAgent", l.ip, l.device_type AS "deviceType", l.os_version AS "osVersion", l.browser_version AS "browserVersion",
               (count(*) OVER ())::int AS total
          FROM messages m JOIN campaigns k ON k.id = m.campaign_id JOIN short_links s ON s.message_id = m.id JOIN link_clicks l ON l.code = s.code
         WHERE m.phone_number = ${phoneNumber} AND k.team_id = ${teamId}
         ORDER BY l.clicked_at DESC, l.id DESC ${limitOf(cap)}`,
      ),

    inbound: (teamId: number, phoneNumber: string, cap?: number): Promise<InboundRow[]> =>
      rowsOf(
        db,
        InboundRowSchema,
        sql`
        SELECT uuid::text AS uuid, body, keyword, opted_out AS "optedOut", received_at AS "receivedAt", (count(*) OVER ())::int AS total
          FROM inbound_messages WHERE team_id = ${teamId} AND from_number = ${phoneNumber}
         ORDER BY received_at DESC, id DESC ${limitOf(cap)}`,
      ),

    replies: (teamId: number, phoneNumber: string): Promise<ReplyRow[]> =>
      rowsOf(
        db,
        ReplyRowSchema,
        sql`
        SELECT id::int AS id, body, kind, status, created_at AS "createdAt" FROM outbound_replies
         WHERE team_id = ${teamId} AND to_number = ${phoneNumber} ORDER BY created_at DESC, id DESC`,
      ),

    /** Clicks on the tracked links of those messages (a flow's), newest first. */
    replyClicks: (teamId: number, phoneNumber: string): Promise<ReplyClickRow[]> =>
      rowsOf(
        db,
        ReplyClickRowSchema,
        sql`
        SELECT o.id::int AS "replyId", s.link_name AS "linkName", l.clicked_at AS "clickedAt", l.is_bot AS "isBot",
               l.user_agent AS "userAgent", l.ip, l.device_type AS "deviceType", l.os_version AS "osVersion", l.browser_version AS "browserVersion"
          FROM outbound_replies o JOIN short_links s ON s.outbound_reply_id = o.id JOIN link_clicks l ON l.code = s.code
         WHERE o.team_id = ${teamId} AND o.to_number = ${phoneNumber}
         ORDER BY l.clicked_at DESC, l.id DESC`,
      ),

    /** Whether the team holds anything about the number beyond its groups (sent messages, inbound, replies, test sends; the opt-out history is the suppression list's). */
    async holdsRecords(conn: Conn, teamId: number, phoneNumber: string): Promise<boolean> {
      const { held } = await oneRowOf(
        conn,
        z.object({ held: z.boolean() }),
        sql`
        SELECT EXISTS (SELECT 1 FROM messages m JOIN campaigns k ON k.id = m.campaign_id WHERE m.phone_number = ${phoneNumber} AND k.team_id = ${teamId})
            OR EXISTS (SELECT 1 FROM inbound_messages WHERE team_id = ${teamId} AND from_number = ${phoneNumber})
            OR EXISTS (SELECT 1 FROM outbound_replies WHERE team_id = ${teamId} AND to_number = ${phoneNumber})
            OR EXISTS (SELECT 1 FROM campaign_test_recipients r JOIN campaigns k ON k.id = r.campaign_id WHERE r.phone_number = ${phoneNumber} AND k.team_id = ${teamId})
            AS held`,
      );
      return held;
    },

    /**
     * Locks the team's groups that hold the number (in id order, as every change of a group's
     * contacts does), so their counts stay exact; says whether one is being imported into.
     */
    async lockGroups(tx: Tx, teamId: number, phoneNumber: string): Promise<{ modifying: boolean }> {
      const rows = await rowsOf(
        tx,
        z.object({ modifying: z.boolean() }),
        sql`
        SELECT g.modifying_since IS NOT NULL AS modifying FROM contact_groups g
         WHERE g.team_id = ${teamId} AND EXISTS (SELECT 1 FROM contacts c WHERE c.contact_group_id = g.id AND c.phone_number = ${phoneNumber})
         ORDER BY g.id FOR UPDATE OF g`,
      );
      return { modifying: rows.some((row) => row.modifying) };
    },

    /** Whether something is still to be sent to the number: a campaign message or a keyword reply not yet handed over. */
    async sendingTo(tx: Tx, teamId: number, phoneNumber: string): Promise<boolean> {
      const { sending } = await oneRowOf(
        tx,
        z.object({ sending: z.boolean() }),
        sql`
        SELECT EXISTS (SELECT 1 FROM messages m JOIN campaigns k ON k.id = m.campaign_id
                        WHERE m.phone_number = ${phoneNumber} AND k.team_id = ${teamId} AND m.status = 'queued')
            OR EXISTS (SELECT 1 FROM outbound_replies WHERE team_id = ${teamId} AND to_number = ${phoneNumber} AND status = 'queued') AS sending`,
      );
      return sending;
    },

    /**
     * Takes the number out of every group of the team but its suppression list (`listId`, the group
     * default_optouts), each group's count moved by what left it; on the list it stays, without its
     * custom fields. Returns the groups left and whether it stays opted out.
     */
    async leaveGroups(tx: Tx, teamId: number, phoneNumber: string, listId: number): Promise<{ groupsLeft: number; keptAsOptOut: boolean }> {
      const { groupsLeft } = await oneRowOf(
        tx,
        z.object({ groupsLeft: z.number() }),
        sql`
        WITH removed AS (
          DELETE FROM contacts c USING contact_groups g
           WHERE g.id = c.contact_group_id AND g.team_id = ${teamId} AND g.id <> ${listId} AND c.phone_number = ${phoneNumber}
          RETURNING c.contact_group_id),
        moved AS (
          UPDATE contact_groups g SET contact_count = g.contact_count - r.n, updated_at = ${clock.now()}
            FROM (SELECT contact_group_id, count(*)::int AS n FROM removed GROUP BY contact_group_id) r
           WHERE g.id = r.contact_group_id RETURNING g.id)
        SELECT count(*)::int AS "groupsLeft" FROM moved`,
      );
      const kept = await tx.execute(sql`
        UPDATE contacts SET custom_fields = '{}'::jsonb WHERE contact_group_id = ${listId} AND phone_number = ${phoneNumber}`);
      return { groupsLeft, keptAsOptOut: (kept.rowCount ?? 0) > 0 };
    },

    /**
     * Replaces the number with `token` wherever the team's records hold it, and what was personal
     * with it (a message's custom fields and text, a click's address and user agent, an inbound
     * message's text). Rows stay, so every count and report keeps its totals.
     */
    async anonymise(tx: Tx, teamId: number, phoneNumber: string, token: string): Promise<Anonymised> {
      const count = async (statement: SQL) => (await tx.execute(statement)).rowCount ?? 0;
      const ofTeam = sql`k.id = m.campaign_id AND k.team_id = ${teamId} AND m.phone_number = ${phoneNumber}`;
      // Clicks first: they are found through their message's number (a campaign's, or a flow's message in outbound_replies).
      const clicks =
        (await count(sql`
        UPDATE link_clicks l SET user_agent = NULL, ip = NULL
          FROM short_links s, messages m, campaigns k
         WHERE l.code = s.code AND s.message_id = m.id AND ${ofTeam}`)) +
        (await count(sql`
        UPDATE link_clicks l SET user_agent = NULL, ip = NULL
          FROM short_links s, outbound_replies o
         WHERE l.code = s.code AND s.outbound_reply_id = o.id AND o.team_id = ${teamId} AND o.to_number = ${phoneNumber}`));
      const messages = await count(sql`
        UPDATE messages m SET phone_number = ${token}, custom_fields = '{}'::jsonb, body = NULL FROM campaigns k WHERE ${ofTeam}`);
      await tx.execute(sql`
        UPDATE campaign_test_recipients r SET phone_number = ${token}, custom_fields = '{}'::jsonb FROM campaigns k
         WHERE k.id = r.campaign_id AND k.team_id = ${teamId} AND r.phone_number = ${phoneNumber}`);
      const inbound = await count(sql`
        UPDATE inbound_messages SET from_number = ${token}, body = '' WHERE team_id = ${teamId} AND from_number = ${phoneNumber}`);
      // A reply's text goes as a campaign message's does: a flow's or a member's may name the person.
      const replies = await count(sql`UPDATE outbound_replies SET to_number = ${token}, body = '' WHERE team_id = ${teamId} AND to_number = ${phoneNumber}`);
      // The inbox's state of the conversation (status, assignee, read marker) says nothing once the number is gone.
      await tx.execute(sql`DELETE FROM conversations WHERE team_id = ${teamId} AND phone_number = ${phoneNumber}`);
      return { messages, clicks, inbound, replies };
    },
  };
}
export type ContactsDirectoryRepository = ReturnType<typeof createContactsDirectoryRepository>;

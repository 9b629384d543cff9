import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { CONVERSATION_MESSAGE_KINDS, type ConversationStatus } from '../../../shared/contract';
import type { Db, Tx } from '../../db/client';
import { countOf, readPage, type Page, type PageWindow } from '../../db/pages';
import { firstRowOf, MomentSchema, oneRowOf, rowsOf, type Conn } from '../../db/rows';
import { containsFoldedText, containsText } from '../../db/search';

const MemberRowSchema = z.object({ uuid: z.string(), name: z.string(), email: z.string() });

const ConversationRowSchema = z.object({
  phoneNumber: z.string(),
  name: z.string(),
  status: z.enum(['open', 'closed', 'snoozed']),
  assignee: MemberRowSchema.nullable(),
  snoozedUntil: MomentSchema.nullable(),
  unread: z.boolean(),
  lastActivityAt: MomentSchema.nullable(),
  lastDirection: z.enum(['inbound', 'outbound']).nullable(),
  lastBody: z.string().nullable(),
  lastAt: MomentSchema.nullable(),
  total: z.number().optional(),
});
export type ConversationRow = z.output<typeof ConversationRowSchema>;

const MessageRowSchema = z.object({
  direction: z.enum(['inbound', 'outbound']),
  body: z.string(),
  status: z.string(),
  createdAt: MomentSchema,
  kind: z.enum(CONVERSATION_MESSAGE_KINDS),
  campaignUuid: z.string().nullable(),
  author: MemberRowSchema.nullable(),
});
export type MessageRow = z.output<typeof MessageRowSchema>;

const SavedReplyRowSchema = z.object({
  id: z.number(),
  uuid: z.string(),
  name: z.string(),
  body: z.string(),
  createdAt: MomentSchema,
  updatedAt: MomentSchema,
});
export type SavedReplyRow = z.output<typeof SavedReplyRowSchema>;

export type ConversationFilters = { status?: ConversationStatus; assigneeId?: number | null; unread?: boolean; search?: { digits?: string; text: string } };
export type ConversationChange = { status: ConversationStatus; assigneeId: number | null; snoozedUntil: Date | null };

/** The status as read at `now`: a snooze whose time has passed is open (no job wakes it). */
const statusAt = (now: Date) => sql`(CASE WHEN cv.status = 'snoozed' AND cv.snoozed_until <= ${now} THEN 'open' ELSE cv.status END)`;
const unreadOf = sql`(cv.last_inbound_at IS NOT NULL AND cv.last_inbound_at > coalesce(cv.read_at, '-infinity'::timestamptz))`;
const memberJson = (alias: string) =>
  sql.raw(`CASE WHEN ${alias}.id IS NULL THEN NULL ELSE json_build_object('uuid', ${alias}.uuid::text, 'name', ${alias}.name, 'email', ${alias}.email) END`);

/**
 * The contact's name in the team's groups: a `name` field, else `first_name` and `last_name`
 * (the first group by name that has one), else empty.
 */
const nameOf = (teamId: SQL, phoneNumber: SQL) => sql`coalesce((
  SELECT coalesce(nullif(trim(c.custom_fields->>'name'), ''), nullif(trim(concat_ws(' ', c.custom_fields->>'first_name', c.custom_fields->>'last_name')), ''))
    FROM contacts c JOIN contact_groups g ON g.id = c.contact_group_id
   WHERE g.team_id = ${teamId} AND c.phone_number = ${phoneNumber}
     AND coalesce(nullif(trim(c.custom_fields->>'name'), ''), nullif(trim(concat_ws(' ', c.custom_fields->>'first_name', c.custom_fields->>'last_name')), '')) IS NOT NULL
   ORDER BY g.name, g.id LIMIT 1), '')`;

/** A conversation row `cv` as the API shows it, with its latest inbound message or reply (each found through its team-and-number index). */
const conversationColumns = (now: Date) => sql`
  cv.phone_number AS "phoneNumber", ${nameOf(sql`cv.team_id`, sql`cv.phone_number`)} AS name, ${statusAt(now)} AS status,
  ${memberJson('u')} AS assignee,
  CASE WHEN ${statusAt(now)} = 'snoozed' THEN cv.snoozed_until END AS "snoozedUntil",
  ${unreadOf} AS unread, cv.last_activity_at AS "lastActivityAt",
  last.direction AS "lastDirection", last.body AS "lastBody", last.at AS "lastAt"`;

const lastMessageJoin = sql`
  LEFT JOIN users u ON u.id = cv.assignee_id
  LEFT JOIN LATERAL (
    SELECT * FROM (
      (SELECT 'inbound' AS direction, i.body, i.received_at AS at, i.id FROM inbound_messages i
        WHERE i.team_id = cv.team_id AND i.from_number = cv.phone_number ORDER BY i.received_at DESC, i.id DESC LIMIT 1)
      UNION ALL
      (SELECT 'outbound', r.body, r.created_at, r.id FROM outbound_replies r
        WHERE r.team_id = cv.team_id AND r.to_number = cv.phone_number ORDER BY r.created_at DESC, r.id DESC LIMIT 1)
    ) x ORDER BY x.at DESC, x.direction LIMIT 1) last ON true`;

/**
 * A number's messages in a team: its campaigns' (test sends included; found through the messages'
 * number index, then their campaign's team), everything sent to it outside a campaign, and what it
 * sent. A test send (`is_test`, or a campaign's test: `test_of`) is `test`. `rank` orders messages of the same instant: what arrived before what answered it.
 */
const threadOf = (teamId: number, phoneNumber: string) => sql`
  SELECT 'outbound' AS direction, coalesce(m.body, '') AS body, m.status, coalesce(m.submitted_at, m.created_at) AS "createdAt",
         CASE WHEN k.test_of IS NULL AND NOT k.is_test THEN 'campaign' ELSE 'test' END AS kind, k.uuid::text AS "campaignUuid", NULL::json AS author, 1 AS rank, m.id
    FROM messages m JOIN campaigns k ON k.id = m.campaign_id
   WHERE m.phone_number = ${phoneNumber} AND k.team_id = ${teamId}
  UNION ALL
  SELECT 'outbound', r.body, r.status, r.created_at, r.kind, NULL, ${memberJson('a')}, 1, r.id
    FROM outbound_replies r LEFT JOIN users a ON a.id = r.author_id
   WHERE r.team_id = ${teamId} AND r.to_number = ${phoneNumber}
  UNION ALL
  SELECT 'inbound', i.body, 'received', i.received_at, 'inbound', NULL, NULL, 0, i.id
    FROM inbound_messages i WHERE i.team_id = ${teamId} AND i.from_number = ${phoneNumber}`;

export function createConversationsRepository(db: Db) {
  return {
    /** A message arrived from the number: the conversation is made, or reopened (a snooze ends), and is unread. */
    async received(tx: Tx, teamId: number, phoneNumber: string, at: Date): Promise<void> {
      await tx.execute(sql`
        INSERT INTO conversations (team_id, phone_number, status, last_activity_at, last_inbound_at, created_at, updated_at)
        VALUES (${teamId}, ${phoneNumber}, 'open', ${at}, ${at}, ${at}, ${at})
        ON CONFLICT (team_id, phone_number) DO UPDATE
          SET status = 'open', snoozed_until = NULL, last_inbound_at = excluded.last_inbound_at,
              last_activity_at = greatest(conversations.last_activity_at, excluded.last_activity_at), updated_at = excluded.updated_at`);
    },

    /** A member wrote to the number: the conversation is made if new; what was in it is read (they answered it). */
    async written(tx: Tx, teamId: number, phoneNumber: string, at: Date): Promise<void> {
      await tx.execute(sql`
        INSERT INTO conversations (team_id, phone_number, status, last_activity_at, read_at, created_at, updated_at)
        VALUES (${teamId}, ${phoneNumber}, 'open', ${at}, ${at}, ${at}, ${at})
        ON CONFLICT (team_id, phone_number) DO UPDATE
          SET last_activity_at = greatest(conversations.last_activity_at, excluded.last_activity_at),
              read_at = greatest(conversations.read_at, excluded.read_at), updated_at = excluded.updated_at`);
    },

    /** Marks what arrived so far read, for the whole team; false when nothing was unread. */
    async markRead(teamId: number, phoneNumber: string, at: Date): Promise<boolean> {
      const { rowCount } = await db.execute(sql`
        UPDATE conversations cv SET read_at = ${at}
         WHERE cv.team_id = ${teamId} AND cv.phone_number = ${phoneNumber} AND ${unreadOf}`);
      return (rowCount ?? 0) > 0;
    },

    /** The conversation's state, or undefined when no message arrived from the number and no member wrote to it. */
    find: (conn: Conn, teamId: number, phoneNumber: string, now: Date): Promise<ConversationRow | undefined> =>
      firstRowOf(
        conn,
        ConversationRowSchema,
        sql`SELECT ${conversationColumns(now)} FROM conversations cv ${lastMessageJoin} WHERE cv.team_id = ${teamId} AND cv.phone_number = ${phoneNumber}`,
      ),

    /** The stored state to change, locked. */
    lockState: (tx: Tx, teamId: number, phoneNumber: string) =>
      firstRowOf(tx, z.object({ id: z.number() }), sql`SELECT id FROM conversations WHERE team_id = ${teamId} AND phone_number = ${phoneNumber} FOR UPDATE`),

    /** Writes the state (making the conversation when the number had none). */
    async save(tx: Tx, teamId: number, phoneNumber: string, change: ConversationChange, at: Date): Promise<void> {
      await tx.execute(sql`
        INSERT INTO conversations (team_id, phone_number, status, assignee_id, snoozed_until, last_activity_at, created_at, updated_at)
        VALUES (${teamId}, ${phoneNumber}, ${change.status}, ${change.assigneeId}, ${change.snoozedUntil}, ${at}, ${at}, ${at})
        ON CONFLICT (team_id, phone_number) DO UPDATE
          SET status = excluded.status, assignee_id = excluded.assignee_id, snoozed_until = excluded.snoozed_until, updated_at = excluded.updated_at`);
    },

    /** The team's conversations, latest activity first, filtered. */
    list(teamId: number, filters: ConversationFilters, window: PageWindow, now: Date): Promise<Page<ConversationRow>> {
      const conditions: SQL[] = [sql`cv.team_id = ${teamId}`];
      if (filters.status) conditions.push(sql`${statusAt(now)} = ${filters.status}`);
      if (filters.assigneeId !== undefined)
        conditions.push(filters.assigneeId === null ? sql`cv.assignee_id IS NULL` : sql`cv.assignee_id = ${filters.assigneeId}`);
      if (filters.unread !== undefined) conditions.push(filters.unread ? unreadOf : sql`NOT ${unreadOf}`);
      if (filters.search) {
        const { digits, text } = filters.search;
        const body = (column: SQL) => containsFoldedText(column, text);
        const alternatives = [
          sql`${containsFoldedText(nameOf(sql`cv.team_id`, sql`cv.phone_number`), text)}`,
          sql`EXISTS (SELECT 1 FROM inbound_messages i WHERE i.team_id = cv.team_id AND i.from_number = cv.phone_number AND ${body(sql`i.body`)})`,
          sql`EXISTS (SELECT 1 FROM outbound_replies r WHERE r.team_id = cv.team_id AND r.to_number = cv.phone_number AND ${body(sql`r.body`)})`,
          sql`EXISTS (SELECT 1 FROM messages m JOIN campaigns k ON k.id = m.campaign_id
                       WHERE m.phone_number = cv.phone_number AND k.team_id = cv.team_id AND ${body(sql`m.body`)})`,
        ];
        if (digits) alternatives.unshift(containsText(sql`cv.phone_number`, digits));
        conditions.push(sql`(${sql.join(alternatives, sql` OR `)})`);
      }
      const where = sql.join(conditions, sql` AND `);
      return readPage({
        rows: rowsOf(
          db,
          ConversationRowSchema,
          sql`
          SELECT ${conversationColumns(now)} FROM conversations cv ${lastMessageJoin}
           WHERE ${where} ORDER BY cv.last_activity_at DESC, cv.id DESC LIMIT ${window.limit} OFFSET ${window.offset}`,
        ),
        count: () => countOf(db, sql`SELECT count(*)::int AS total FROM conversations cv WHERE ${where}`),
      });
    },

    /** A page of the number's messages, newest first (the service turns the page round). */
    thread(teamId: number, phoneNumber: string, window: PageWindow): Promise<Page<MessageRow>> {
      return readPage({
        rows: rowsOf(
          db,
          MessageRowSchema,
          sql`
          SELECT direction, body, status, "createdAt", kind, "campaignUuid", author FROM (${threadOf(teamId, phoneNumber)}) t
           ORDER BY "createdAt" DESC, rank DESC, id DESC LIMIT ${window.limit} OFFSET ${window.offset}`,
        ),
        count: () => countOf(db, sql`SELECT count(*)::int AS total FROM (${threadOf(teamId, phoneNumber)}) t`),
      });
    },

    /** The id of the user with this uuid if a member of the team. */
    memberId: async (conn: Conn, teamId: number, userUuid: string): Promise<number | undefined> =>
      (
        await firstRowOf(
          conn,
          z.object({ id: z.number() }),
          sql`SELECT u.id FROM users u JOIN memberships ms ON ms.user_id = u.id WHERE u.uuid = ${userUuid}::uuid AND ms.team_id = ${teamId}`,
        )
      )?.id,

    /** Queues an inbox reply for the engine's reply sender; returns it as the thread shows it. */
    async queueReply(
      tx: Tx,
      reply: { teamId: number; toNumber: string; sender: string; body: string; authorId: number; at: Date },
    ): Promise<MessageRow & { uuid: string }> {
      const { id } = await oneRowOf(
        tx,
        z.object({ id: z.number() }),
        sql`
        INSERT INTO outbound_replies (team_id, to_number, sender, body, kind, author_id, created_at, updated_at)
        VALUES (${reply.teamId}, ${reply.toNumber}, ${reply.sender}, ${reply.body}, 'inbox_reply', ${reply.authorId}, ${reply.at}, ${reply.at})
        RETURNING id`,
      );
      return oneRowOf(
        tx,
        MessageRowSchema.extend({ uuid: z.string() }),
        sql`
        SELECT r.uuid::text AS uuid, 'outbound' AS direction, r.body, r.status, r.created_at AS "createdAt", r.kind, NULL AS "campaignUuid", ${memberJson('a')} AS author
          FROM outbound_replies r LEFT JOIN users a ON a.id = r.author_id WHERE r.id = ${id}`,
      );
    },

    savedReplies: {
      list: (teamId: number, window: PageWindow): Promise<Page<SavedReplyRow>> =>
        readPage({
          rows: rowsOf(
            db,
            SavedReplyRowSchema,
            sql`
            SELECT id, uuid::text AS uuid, name, body, created_at AS "createdAt", updated_at AS "updatedAt" FROM saved_replies
             WHERE team_id = ${teamId} ORDER BY name, id LIMIT ${window.limit} OFFSET ${window.offset}`,
          ),
          count: () => countOf(db, sql`SELECT count(*)::int AS total FROM saved_replies WHERE team_id = ${teamId}`),
        }),

      find: (conn: Conn, teamId: number, uuid: string, lock = false): Promise<SavedReplyRow | undefined> =>
        firstRowOf(
          conn,
          SavedReplyRowSchema,
          sql`
          SELECT id, uuid::text AS uuid, name, body, created_at AS "createdAt", updated_at AS "updatedAt" FROM saved_replies
           WHERE team_id = ${teamId} AND uuid = ${uuid}::uuid ${lock ? sql`FOR UPDATE` : sql``}`,
        ),

      insert: (tx: Tx, teamId: number, input: { name: string; body: string }, at: Date): Promise<SavedReplyRow> =>
        oneRowOf(
          tx,
          SavedReplyRowSchema,
          sql`
          INSERT INTO saved_replies (team_id, name, body, created_at, updated_at) VALUES (${teamId}, ${input.name}, ${input.body}, ${at}, ${at})
          RETURNING id, uuid::text AS uuid, name, body, created_at AS "createdAt", updated_at AS "updatedAt"`,
        ),

      update: (tx: Tx, id: number, input: { name: string; body: string }, at: Date): Promise<SavedReplyRow> =>
        oneRowOf(
          tx,
          SavedReplyRowSchema,
          sql`
          UPDATE saved_replies SET name = ${input.name}, body = ${input.body}, updated_at = ${at} WHERE id = ${id}
          RETURNING id, uuid::text AS uuid, name, body, created_at AS "createdAt", updated_at AS "updatedAt"`,
        ),

      async delete(tx: Tx, id: number): Promise<void> {
        await tx.execute(sql`DELETE FROM saved_replies WHERE id = ${id}`);
      },
    },
  };
}
export type ConversationsRepository = ReturnType<typeof createConversationsRepository>;

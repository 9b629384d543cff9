import {
  ASSIGNEE_ME,
  ASSIGNEE_NONE,
  type Conversation,
  type ConversationListQuery,
  type ConversationMessage,
  type ConversationUpdate,
  type SavedReply,
} from '../../../shared/contract';
import type { Db, Tx } from '../../db/client';
import type { PageWindow } from '../../db/pages';
import type { AuthContext } from '../../http/auth';
import { ConflictError, NotFoundError, ValidationError } from '../../lib/errors';
import { normalizePhoneNumber, phoneSearch } from '../../lib/phone-numbers';
import { SHORT_CODE_SENDER } from '../../lib/short-code';
import { formatTimestamp, parseTimestamp, type Clock } from '../../lib/time';
import type { AuditTrail } from '../audit/audit-trail';
import type { Suppressions } from '../suppressions/suppressions.service';
import type { ConversationRow, ConversationsRepository, MessageRow, SavedReplyRow } from './conversations.repository';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const OPTED_OUT_REPLY =
  'This number opted out (it is on the team’s suppression list), so it cannot be messaged: nothing was sent. It can be written to again once it texts START.';

/**
 * The inbox (docs/inbox.md): a team's conversations, one per number, each every message to and from
 * it; the state Herald keeps beside them (status, assignee, snooze, the team's read marker); one-off
 * replies, sent by the engine's reply sender through the team's route; and saved replies. A team
 * sees and writes to only numbers it holds something about (else 404, as the contact directory).
 */
export function createConversationsService(deps: {
  db: Db;
  audit: Pick<AuditTrail, 'record'>;
  conversations: ConversationsRepository;
  suppressions: Pick<Suppressions, 'listOf' | 'check' | 'checkMany'>;
  /** The country the team's national numbers are read in (team settings, else DEFAULT_COUNTRY). */
  countryOf: (teamId: number) => Promise<string>;
  /** Whether the team holds anything about a number: the contact directory's rule, so the inbox and the contact page agree. */
  knows: (teamId: number, phoneNumber: string) => Promise<boolean>;
  clock: Clock;
  config: { appTimezone: string };
}) {
  const time = (moment: Date | null) => formatTimestamp(moment, deps.config.appTimezone);

  const present = (row: ConversationRow, optedOut: boolean): Conversation => ({
    phone_number: row.phoneNumber,
    name: row.name,
    status: row.status,
    assignee: row.assignee,
    snoozed_until: time(row.snoozedUntil),
    unread: row.unread,
    opted_out: optedOut,
    last_activity_at: time(row.lastActivityAt),
    last_message:
      row.lastDirection === null || row.lastAt === null ? null : { direction: row.lastDirection, body: row.lastBody ?? '', created_at: time(row.lastAt) },
  });
  /** A number the team holds but has no conversation state for: open, read, assigned to no one. */
  const fresh = (phoneNumber: string, name = ''): ConversationRow => ({
    phoneNumber,
    name,
    status: 'open',
    assignee: null,
    snoozedUntil: null,
    unread: false,
    lastActivityAt: null,
    lastDirection: null,
    lastBody: null,
    lastAt: null,
  });
  const message = (row: MessageRow): ConversationMessage => ({
    direction: row.direction,
    body: row.body,
    status: row.status,
    created_at: time(row.createdAt),
    kind: row.kind,
    campaign_uuid: row.campaignUuid,
    author: row.author,
  });
  const savedReply = (row: SavedReplyRow): SavedReply => ({
    uuid: row.uuid,
    name: row.name,
    body: row.body,
    created_at: time(row.createdAt),
    updated_at: time(row.updatedAt),
  });

  /** The number as stored, or 404: a number that cannot be read, or one the team holds nothing about. */
  const numberOf = async (auth: AuthContext, input: string): Promise<string> => {
    const normalized = normalizePhoneNumber(input, await deps.countryOf(auth.teamId));
    if (!normalized.ok || !(await deps.knows(auth.teamId, normalized.number))) throw new NotFoundError();
    return normalized.number;
  };

  const optedOut = async (conn: Db | Tx, teamId: number, phoneNumber: string) =>
    deps.suppressions.check(conn, await deps.suppressions.listOf(teamId, conn), phoneNumber);

  const stateOf = async (conn: Db | Tx, auth: AuthContext, phoneNumber: string): Promise<Conversation> =>
    present(
      (await deps.conversations.find(conn, auth.teamId, phoneNumber, deps.clock.now())) ?? fresh(phoneNumber),
      await optedOut(conn, auth.teamId, phoneNumber),
    );

  const findSavedReply = async (conn: Db | Tx, auth: AuthContext, uuid: string, lock = false) => {
    const row = UUID.test(uuid) ? await deps.conversations.savedReplies.find(conn, auth.teamId, uuid, lock) : undefined;
    if (!row) throw new NotFoundError();
    return row;
  };

  return {
    async list(auth: AuthContext, query: ConversationListQuery, window: PageWindow): Promise<{ items: Conversation[]; total: number }> {
      let assigneeId: number | null | undefined;
      if (query.assignee === ASSIGNEE_NONE) assigneeId = null;
      else if (query.assignee === ASSIGNEE_ME) assigneeId = auth.userId;
      // Someone who is not a member has no conversations here: nothing matches.
      else if (query.assignee !== undefined) assigneeId = (await deps.conversations.memberId(deps.db, auth.teamId, query.assignee)) ?? -1;
      const text = query.search?.trim();
      const search = text ? { text, digits: await phoneSearch(text, () => deps.countryOf(auth.teamId)) } : undefined;
      const { rows, total } = await deps.conversations.list(
        auth.teamId,
        { status: query.status, assigneeId, unread: query.unread === undefined ? undefined : query.unread === 'true', search },
        window,
        deps.clock.now(),
      );
      const listId = await deps.suppressions.listOf(auth.teamId);
      const suppressed = await deps.suppressions.checkMany(
        deps.db,
        listId,
        rows.map((row) => row.phoneNumber),
      );
      return { items: rows.map((row) => present(row, suppressed.has(row.phoneNumber))), total };
    },

    /**
     * A page of the thread, newest last, and the conversation's state. Reading it marks what arrived
     * so far read for the whole team (not recorded in the audit trail: it changes no message and no
     * setting, as a token's last use does not).
     */
    async thread(auth: AuthContext, input: string, window: PageWindow) {
      const phoneNumber = await numberOf(auth, input);
      await deps.conversations.markRead(auth.teamId, phoneNumber, deps.clock.now());
      const { rows, total } = await deps.conversations.thread(auth.teamId, phoneNumber, window);
      return { items: rows.reverse().map(message), total, conversation: await stateOf(deps.db, auth, phoneNumber) };
    },

    /**
     * A one-off reply: queued in outbound_replies (kind `inbox_reply`) for the engine's reply sender,
     * which sends it ahead of campaigns through the team's route, as a keyword's reply goes. Refused
     * with 409 for a number on the suppression list, checked in the transaction that queues.
     */
    async reply(auth: AuthContext, input: string, body: string): Promise<ConversationMessage> {
      return deps.db.transaction(async (tx) => {
        const phoneNumber = await numberOf(auth, input);
        if (await optedOut(tx, auth.teamId, phoneNumber)) throw new ConflictError(OPTED_OUT_REPLY);
        const now = deps.clock.now();
        const queued = await deps.conversations.queueReply(tx, {
          teamId: auth.teamId,
          toNumber: phoneNumber,
          sender: SHORT_CODE_SENDER,
          body,
          authorId: auth.userId,
          at: now,
        });
        await deps.conversations.written(tx, auth.teamId, phoneNumber, now);
        const sent = message(queued);
        await deps.audit.record(tx, auth, { resourceType: 'conversation_message', resourceUuid: queued.uuid, after: { phone_number: phoneNumber, ...sent } });
        return sent;
      });
    },

    /** Status, assignee (a member of the team, else 422) and snooze; the fields left out keep their values. */
    async update(auth: AuthContext, input: string, patch: ConversationUpdate): Promise<Conversation> {
      return deps.db.transaction(async (tx) => {
        const phoneNumber = await numberOf(auth, input);
        await deps.conversations.lockState(tx, auth.teamId, phoneNumber);
        const now = deps.clock.now();
        const before = await stateOf(tx, auth, phoneNumber);
        const stored = await deps.conversations.find(tx, auth.teamId, phoneNumber, now);

        let assigneeId: number | null = before.assignee === null ? null : ((await deps.conversations.memberId(tx, auth.teamId, before.assignee.uuid)) ?? null);
        if (patch.assignee_uuid !== undefined) {
          if (patch.assignee_uuid === null) assigneeId = null;
          else {
            const id = await deps.conversations.memberId(tx, auth.teamId, patch.assignee_uuid);
            if (id === undefined) throw ValidationError.field('assignee_uuid', 'The selected assignee uuid is not a member of the team.');
            assigneeId = id;
          }
        }

        const status = patch.status ?? stored?.status ?? 'open';
        let snoozedUntil: Date | null = status === 'snoozed' ? (stored?.snoozedUntil ?? null) : null;
        if (patch.snoozed_until !== undefined && patch.snoozed_until !== null) {
          if (status !== 'snoozed') throw ValidationError.field('snoozed_until', 'The snoozed until is only given with the status snoozed.');
          const parsed = parseTimestamp(patch.snoozed_until, deps.config.appTimezone);
          if (!parsed) throw ValidationError.field('snoozed_until', 'The snoozed until is not a valid date and time.');
          snoozedUntil = parsed;
        }
        if (status === 'snoozed') {
          if (snoozedUntil === null) throw ValidationError.field('snoozed_until', 'The snoozed until field is required when the status is snoozed.');
          if (snoozedUntil <= now) throw ValidationError.field('snoozed_until', 'The snoozed until must be in the future.');
        }

        await deps.conversations.save(tx, auth.teamId, phoneNumber, { status, assigneeId, snoozedUntil }, now);
        const after = await stateOf(tx, auth, phoneNumber);
        await deps.audit.record(tx, auth, { resourceType: 'conversation', resourceUuid: null, before, after });
        return after;
      });
    },

    savedReplies: {
      async list(auth: AuthContext, window: PageWindow): Promise<{ items: SavedReply[]; total: number }> {
        const { rows, total } = await deps.conversations.savedReplies.list(auth.teamId, window);
        return { items: rows.map(savedReply), total };
      },

      async show(auth: AuthContext, uuid: string): Promise<SavedReply> {
        return savedReply(await findSavedReply(deps.db, auth, uuid));
      },

      async create(auth: AuthContext, input: { name: string; body: string }): Promise<SavedReply> {
        return deps.db.transaction(async (tx) => {
          const created = savedReply(await deps.conversations.savedReplies.insert(tx, auth.teamId, input, deps.clock.now()));
          await deps.audit.record(tx, auth, { resourceType: 'saved_reply', resourceUuid: created.uuid, after: created });
          return created;
        });
      },

      async update(auth: AuthContext, uuid: string, patch: { name?: string; body?: string }): Promise<SavedReply> {
        return deps.db.transaction(async (tx) => {
          const row = await findSavedReply(tx, auth, uuid, true);
          const before = savedReply(row);
          const after = savedReply(
            await deps.conversations.savedReplies.update(tx, row.id, { name: patch.name ?? row.name, body: patch.body ?? row.body }, deps.clock.now()),
          );
          await deps.audit.record(tx, auth, { resourceType: 'saved_reply', resourceUuid: after.uuid, before, after });
          return after;
        });
      },

      async delete(auth: AuthContext, uuid: string): Promise<void> {
        await deps.db.transaction(async (tx) => {
          const row = await findSavedReply(tx, auth, uuid, true);
          await deps.conversations.savedReplies.delete(tx, row.id);
          await deps.audit.record(tx, auth, { resourceType: 'saved_reply', resourceUuid: row.uuid, before: savedReply(row) });
        });
      },
    },
  };
}
export type ConversationsService = ReturnType<typeof createConversationsService>;

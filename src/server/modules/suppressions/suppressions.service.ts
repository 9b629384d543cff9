import type { SQL } from 'drizzle-orm';
import type { OptOutEvent } from '../../../shared/contract';
import type { Db, Tx } from '../../db/client';
import type { PageWindow } from '../../db/pages';
import type { AuthContext } from '../../http/auth';
import { ValidationError } from '../../lib/errors';
import { normalizePhoneNumber } from '../../lib/phone-numbers';
import { formatTimestamp } from '../../lib/time';
import type { ContactsRepository, NewContact } from '../contacts/contacts.repository';
import type { OptOutActor, OptOutEventRow, SuppressionSource, SuppressionsRepository } from './suppressions.repository';

export type { SuppressionSource };
/** Who or what changed a team's list: its team, the source, the user (if any) and, for a removal, the reason. */
export type SuppressionActor = OptOutActor;
/** A group row, as far as telling the suppression list from other groups goes. */
type GroupLike = { systemRole: string | null };

/**
 * A team's suppression list: the numbers it never sends campaigns (or keyword replies) to, with the
 * history of every entry and exit (who, what, when, from which source, why). The one owner of
 * opt-outs: inbound (STOP, START and their synonyms), imports, the contact-group API, the campaign
 * review, the engine (through suppressions.sql.ts, in its own statements) and the coming provider
 * adapters all go through it. The list is shown by the spec's contact-group API as the group
 * `default_optouts`, as before; `listOf` gives its id to code that builds audiences from group ids.
 *
 * Changes (`add`, `addContacts`, `remove`, `clear`, `recordImport`) run in the caller's
 * transaction, with the list locked by the caller (contacts.repository's `lockGroup`), and record
 * an event only for a real change: a number already on the list is not added again, one not on it
 * not removed.
 */
export interface Suppressions {
  /** A new team's empty list (in the team's creating transaction). */
  createList(tx: Tx, teamId: number): Promise<void>;
  /** The id of the team's list (its `default_optouts` group). */
  listOf(teamId: number, conn?: Db | Tx): Promise<number>;
  /** Whether a contact group is a team's suppression list. */
  isList(group: GroupLike): boolean;
  /** Whether the list holds the number. */
  check(conn: Db | Tx, listId: number, phoneNumber: string): Promise<boolean>;
  /** The numbers of many that the list holds (one statement). */
  checkMany(conn: Db | Tx, listId: number, phoneNumbers: string[]): Promise<Set<string>>;
  /** How many distinct numbers of a statement's rows (`phone_number`) the team's list holds. */
  countAmong(conn: Db | Tx, teamId: number, numbers: SQL): Promise<number>;
  /** The teams whose list holds the number (START to the shared short code reaches each). */
  teamsSuppressing(phoneNumber: string): Promise<number[]>;
  /** Puts numbers on the list, each new one recorded with the actor's source; returns how many were new. */
  add(tx: Tx, listId: number, actor: SuppressionActor, phoneNumbers: string[], at?: Date): Promise<number>;
  /**
   * The contact-group API's add to `default_optouts`: numbers new to the list recorded as opt-outs,
   * then every contact written with its custom fields (a number already there has them replaced),
   * the group's count and `headers` moved. Returns how many were new.
   */
  addContacts(tx: Tx, listId: number, actor: SuppressionActor, contacts: NewContact[], headers?: string[]): Promise<number>;
  /** An opt-out for every number of an import's staged rows (a statement of `phone_number`) not on the list yet: before the import's merge writes them (one statement). */
  recordImport(tx: Tx, listId: number, numbers: SQL, actor: SuppressionActor): Promise<number>;
  /** Takes numbers off the list, each recorded as an opt-in with the actor's source and reason; returns how many left. */
  remove(tx: Tx, listId: number, actor: SuppressionActor, phoneNumbers: string[], at?: Date): Promise<number>;
  /** Takes every number off the list, each recorded as an opt-in with the actor's reason; returns how many left. */
  clear(tx: Tx, listId: number, actor: SuppressionActor): Promise<number>;
  /** The team's history (of one number when given), newest first, as the API answers it. */
  history(auth: AuthContext, phoneNumber: string | undefined, window: PageWindow): Promise<{ items: OptOutEvent[]; total: number }>;
  /** Opt-outs each campaign led to (0 for those without). */
  countByCampaign(campaignIds: number[]): Promise<Map<number, number>>;
  /**
   * Since when the list holds the number: undefined when it does not; null when it does but its
   * history cannot say since when (a number put there before the history was kept).
   */
  optedOutSince(conn: Db | Tx, listId: number, teamId: number, phoneNumber: string): Promise<Date | null | undefined>;
  /** Whether the team's history holds the number. */
  hasHistory(conn: Db | Tx, teamId: number, phoneNumber: string): Promise<boolean>;
  /** The number replaced by `token` in the team's history (an erasure); returns the events changed. */
  anonymise(tx: Tx, teamId: number, phoneNumber: string, token: string): Promise<number>;
  /** The team whose campaign message last went to the number, if any (whom HELP to the shared short code answers for). */
  lastSenderOf(phoneNumber: string): Promise<number | undefined>;
}

export function createSuppressions(deps: {
  repository: SuppressionsRepository;
  contacts: Pick<ContactsRepository, 'insertMissing' | 'upsert' | 'remove' | 'adjustGroup' | 'emptyGroup'>;
  config: { appTimezone: string; defaultCountry: string };
}): Suppressions {
  const { repository, contacts } = deps;
  const present = (row: OptOutEventRow): OptOutEvent => ({
    phone_number: row.phoneNumber,
    kind: row.kind,
    source: row.source,
    campaign: row.campaignUuid === null ? null : { uuid: row.campaignUuid, name: row.campaignName ?? '' },
    user: row.userUuid === null ? null : { uuid: row.userUuid, name: row.userName ?? '' },
    reason: row.reason,
    created_at: formatTimestamp(row.createdAt, deps.config.appTimezone),
  });

  return {
    createList: (tx, teamId) => repository.createList(tx, teamId),
    listOf: (teamId, conn) => repository.listOf(teamId, conn),
    isList: (group) => group.systemRole === 'optouts',
    check: (conn, listId, phoneNumber) => repository.holds(conn, listId, phoneNumber),
    checkMany: (conn, listId, phoneNumbers) => repository.holdsAmong(conn, listId, phoneNumbers),
    countAmong: (conn, teamId, numbers) => repository.countAmong(conn, teamId, numbers),
    teamsSuppressing: (phoneNumber) => repository.teamsOptedOut(phoneNumber),

    async add(tx, listId, actor, phoneNumbers, at) {
      const added = await repository.recordChange(tx, listId, 'opt_out', phoneNumbers, actor, at);
      if (added > 0) await contacts.adjustGroup(tx, listId, await contacts.insertMissing(tx, listId, phoneNumbers));
      return added;
    },

    async addContacts(tx, listId, actor, rows, headers) {
      const added = await repository.recordChange(
        tx,
        listId,
        'opt_out',
        rows.map((row) => row.phoneNumber),
        actor,
      );
      await contacts.adjustGroup(tx, listId, await contacts.upsert(tx, listId, rows), headers);
      return added;
    },

    recordImport: (tx, listId, numbers, actor) => repository.recordImport(tx, listId, numbers, actor),

    async remove(tx, listId, actor, phoneNumbers, at) {
      const removed = await repository.recordChange(tx, listId, 'opt_in', phoneNumbers, actor, at);
      if (removed > 0) await contacts.adjustGroup(tx, listId, -(await contacts.remove(tx, listId, phoneNumbers)));
      return removed;
    },

    async clear(tx, listId, actor) {
      const removed = await repository.recordFlush(tx, listId, actor);
      await contacts.emptyGroup(tx, listId);
      return removed;
    },

    async history(auth, phoneNumber, window) {
      let number: string | undefined;
      if (phoneNumber !== undefined) {
        const normalized = normalizePhoneNumber(phoneNumber, deps.config.defaultCountry);
        if (!normalized.ok) throw ValidationError.field('phone_number', `The phone number ${JSON.stringify(phoneNumber)} ${normalized.reason}.`);
        number = normalized.number;
      }
      const { rows, total } = await repository.list(auth.teamId, number, window);
      return { items: rows.map(present), total };
    },

    countByCampaign: (campaignIds) => repository.countByCampaign(campaignIds),
    async optedOutSince(conn, listId, teamId, phoneNumber) {
      if (!(await repository.holds(conn, listId, phoneNumber))) return undefined;
      return (await repository.lastOptOutAt(conn, teamId, phoneNumber)) ?? null;
    },
    hasHistory: (conn, teamId, phoneNumber) => repository.hasHistory(conn, teamId, phoneNumber),
    anonymise: (tx, teamId, phoneNumber, token) => repository.anonymise(tx, teamId, phoneNumber, token),
    lastSenderOf: (phoneNumber) => repository.lastSenderOf(phoneNumber),
  };
}

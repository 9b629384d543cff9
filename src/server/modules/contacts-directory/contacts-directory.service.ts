import { randomBytes } from 'node:crypto';
import {
  CONTACT_DETAIL_CAP,
  type ContactDetail,
  type ContactErasure,
  type ContactExport,
  type DirectoryContact,
  type OptOutEvent,
} from '../../../shared/contract';
import type { Db, Tx } from '../../db/client';
import type { PageWindow } from '../../db/pages';
import type { AuthContext } from '../../http/auth';
import { ConflictError, NotFoundError } from '../../lib/errors';
import { normalizePhoneNumber, phoneSearch } from '../../lib/phone-numbers';
import { carriedBy } from '../../lib/message-connections';
import { formatTimestamp, type Clock } from '../../lib/time';
import type { Suppressions } from '../suppressions/suppressions.service';
import type { AuditTrail } from '../audit/audit-trail';
import type { ConsentService } from '../consent/consent.service';
import type { FlowsService } from '../flows/flows.service';
import type { ClickRow, ContactsDirectoryRepository, InboundRow, MembershipRow, MessageRow } from './contacts-directory.repository';

const SENDING =
  'Something is still to be sent to this number (a queued campaign message or keyword reply). Stop the campaign, or erase the number when it has finished.';
const MODIFYING = 'A group that holds this number is being imported into; try again when the import has finished.';
/** Opt-out events read a page at a time for the export (a number has few). */
const EVENTS_PAGE = 1000;

/**
 * The team's contacts by number, across its groups: search, one number's records (the detail and
 * the complete export), and its erasure (GDPR Art. 17).
 */
export function createContactsDirectoryService(deps: {
  db: Db;
  audit: AuditTrail;
  directory: ContactsDirectoryRepository;
  suppressions: Pick<Suppressions, 'history' | 'listOf' | 'hasHistory' | 'anonymise'>;
  /** The number's consent records and double opt-in requests: shown, exported and erased with the rest. */
  consent: Pick<ConsentService, 'ofNumber' | 'holds' | 'erase'>;
  /** The number's flow runs: erased with the rest (the flows module owns their tables). */
  flows: Pick<FlowsService, 'holds' | 'erase' | 'exportOf'>;
  /** The country the team's national numbers are read in (team settings, else DEFAULT_COUNTRY). */
  countryOf: (teamId: number) => Promise<string>;
  clock: Clock;
  config: { appTimezone: string };
}) {
  const time = (moment: Date | null) => formatTimestamp(moment, deps.config.appTimezone);

  /** The number as stored, or 404: a number that cannot be read is one the team holds nothing about. */
  const numberOf = async (auth: AuthContext, input: string): Promise<string> => {
    const normalized = normalizePhoneNumber(input, await deps.countryOf(auth.teamId));
    if (!normalized.ok) throw new NotFoundError();
    return normalized.number;
  };

  const membership = (row: MembershipRow) => ({ uuid: row.uuid, name: row.name, custom_fields: row.customFields, added_at: time(row.createdAt) });
  const message = (row: MessageRow) => ({
    campaign: { uuid: row.campaignUuid, name: row.campaignName },
    status: row.status,
    reason: row.reason,
    sent_at: time(row.submittedAt),
    delivered_at: row.status === 'delivered' ? time(row.finishedAt) : '',
    // The connection and the provider's id, for a message one of the team's connections carried.
    ...carriedBy(row),
  });
  const click = (row: ClickRow) => ({
    campaign: { uuid: row.campaignUuid, name: row.campaignName },
    link_name: row.linkName,
    clicked_at: time(row.clickedAt),
    is_bot: row.isBot,
  });
  const inbound = (row: InboundRow) => ({ uuid: row.uuid, body: row.body, keyword: row.keyword, opted_out: row.optedOut, received_at: time(row.receivedAt) });
  const listOf = <R extends { total: number }, T>(rows: R[], present: (row: R) => T) => ({ total: rows[0]?.total ?? 0, items: rows.map(present) });

  /** Every opt-out event of the number, page after page. */
  const allEvents = async (auth: AuthContext, phoneNumber: string): Promise<OptOutEvent[]> => {
    const events: OptOutEvent[] = [];
    for (let offset = 0; ; offset += EVENTS_PAGE) {
      const { items, total } = await deps.suppressions.history(auth, phoneNumber, { limit: EVENTS_PAGE, offset });
      events.push(...items);
      if (items.length === 0 || events.length >= total) return events;
    }
  };

  /** Whether the team holds anything about the number beyond its groups: records, its opt-out history, or its consent. */
  const holdsRecords = async (conn: Db | Tx, teamId: number, phoneNumber: string) =>
    (await deps.directory.holdsRecords(conn, teamId, phoneNumber)) ||
    (await deps.suppressions.hasHistory(conn, teamId, phoneNumber)) ||
    (await deps.consent.holds(conn, teamId, phoneNumber)) ||
    (await deps.flows.holds(conn, teamId, phoneNumber));

  return {
    /** Whether the team holds anything about the number (its other routes answer 404 otherwise). */
    async knows(teamId: number, phoneNumber: string): Promise<boolean> {
      const listId = await deps.suppressions.listOf(teamId);
      return (await deps.directory.memberships(deps.db, teamId, phoneNumber, listId)).length > 0 || (await holdsRecords(deps.db, teamId, phoneNumber));
    },

    async search(auth: AuthContext, window: PageWindow, search?: string): Promise<{ items: DirectoryContact[]; total: number }> {
      const text = search ?? '';
      const matching = text === '' ? undefined : { text, digits: await phoneSearch(text, () => deps.countryOf(auth.teamId)) };
      const { rows, total } = await deps.directory.list(auth.teamId, window, matching);
      return { items: rows.map((row) => ({ phone_number: row.phoneNumber, groups: row.groups })), total };
    },

    async detail(auth: AuthContext, input: string): Promise<ContactDetail> {
      const phoneNumber = await numberOf(auth, input);
      const listId = await deps.suppressions.listOf(auth.teamId);
      const [groups, messages, clicks, inboundMessages, events, consent] = await Promise.all([
        deps.directory.memberships(deps.db, auth.teamId, phoneNumber, listId),
        deps.directory.messages(auth.teamId, phoneNumber, CONTACT_DETAIL_CAP),
        deps.directory.clicks(auth.teamId, phoneNumber, CONTACT_DETAIL_CAP),
        deps.directory.inbound(auth.teamId, phoneNumber, CONTACT_DETAIL_CAP),
        deps.suppressions.history(auth, phoneNumber, { limit: CONTACT_DETAIL_CAP, offset: 0 }),
        deps.consent.ofNumber(deps.db, auth.teamId, phoneNumber),
      ]);
      if (groups.length === 0 && !(await holdsRecords(deps.db, auth.teamId, phoneNumber))) throw new NotFoundError();
      return {
        phone_number: phoneNumber,
        opted_out: groups.some((group) => group.optouts),
        groups: groups.map(membership),
        messages: listOf(messages, message),
        clicks: listOf(clicks, click),
        inbound_messages: listOf(inboundMessages, inbound),
        opt_out_events: { total: events.total, items: events.items },
        opt_in_request: consent.latest,
      };
    },

    /** Everything the team holds about the number, complete. */
    async export(auth: AuthContext, input: string): Promise<{ fileName: string; document: ContactExport }> {
      const phoneNumber = await numberOf(auth, input);
      const listId = await deps.suppressions.listOf(auth.teamId);
      const [groups, messages, clicks, inboundMessages, replies, replyClicks, events, consent, flowRuns] = await Promise.all([
        deps.directory.memberships(deps.db, auth.teamId, phoneNumber, listId),
        deps.directory.messages(auth.teamId, phoneNumber),
        deps.directory.clicks(auth.teamId, phoneNumber),
        deps.directory.inbound(auth.teamId, phoneNumber),
        deps.directory.replies(auth.teamId, phoneNumber),
        deps.directory.replyClicks(auth.teamId, phoneNumber),
        allEvents(auth, phoneNumber),
        deps.consent.ofNumber(deps.db, auth.teamId, phoneNumber),
        deps.flows.exportOf(auth.teamId, phoneNumber),
      ]);
      if (groups.length === 0 && !(await holdsRecords(deps.db, auth.teamId, phoneNumber))) throw new NotFoundError();
      return {
        fileName: `contact-${phoneNumber}.json`,
        document: {
          phone_number: phoneNumber,
          exported_at: time(deps.clock.now()),
          opted_out: groups.some((group) => group.optouts),
          groups: groups.map(membership),
          messages: messages.map((row) => ({ ...message(row), body: row.body, custom_fields: row.customFields })),
          clicks: clicks.map((row) => ({
            ...click(row),
            user_agent: row.userAgent,
            ip: row.ip,
            device_type: row.deviceType,
            os_version: row.osVersion,
            browser_version: row.browserVersion,
          })),
          inbound_messages: inboundMessages.map(inbound),
          replies: replies.map((row) => ({
            body: row.body,
            kind: row.kind,
            status: row.status,
            created_at: time(row.createdAt),
            clicks: replyClicks
              .filter((click) => click.replyId === row.id)
              .map((click) => ({
                link_name: click.linkName,
                clicked_at: time(click.clickedAt),
                is_bot: click.isBot,
                user_agent: click.userAgent,
                ip: click.ip,
                device_type: click.deviceType,
                os_version: click.osVersion,
                browser_version: click.browserVersion,
              })),
          })),
          opt_out_events: events,
          consent_records: consent.records,
          opt_in_requests: consent.requests,
          flow_runs: flowRuns,
        },
      };
    },

    /**
     * Erasure, in one transaction: the number leaves every group of the team, and a random token
     * (never derived from the number, so it cannot be reversed by trying numbers) replaces it in
     * the team's messages, clicks, inbound messages, replies, flow runs and opt-out history (its
     * active runs end); its consent records and double opt-in requests are deleted. An opted-out
     * number stays in default_optouts, bare: suppressing it is what keeps it from being texted again.
     */
    async erase(auth: AuthContext, input: string): Promise<ContactErasure> {
      const phoneNumber = await numberOf(auth, input);
      const token = `erased-${randomBytes(8).toString('hex')}`;
      return deps.db.transaction(async (tx) => {
        const locked = await deps.directory.lockGroups(tx, auth.teamId, phoneNumber);
        const listId = await deps.suppressions.listOf(auth.teamId, tx);
        const held = (await deps.directory.memberships(tx, auth.teamId, phoneNumber, listId)).length > 0;
        if (!held && !(await holdsRecords(tx, auth.teamId, phoneNumber))) throw new NotFoundError();
        if (locked.modifying) throw new ConflictError(MODIFYING);
        if (await deps.directory.sendingTo(tx, auth.teamId, phoneNumber)) throw new ConflictError(SENDING);
        const { groupsLeft, keptAsOptOut } = await deps.directory.leaveGroups(tx, auth.teamId, phoneNumber, listId);
        const anonymised = await deps.directory.anonymise(tx, auth.teamId, phoneNumber, token);
        const optOutEvents = await deps.suppressions.anonymise(tx, auth.teamId, phoneNumber, token);
        // Consent records and opt-in requests are deleted, not anonymised: without the number they prove nothing.
        await deps.consent.erase(tx, auth.teamId, phoneNumber);
        const flowRuns = await deps.flows.erase(tx, auth.teamId, phoneNumber, token, deps.clock.now());
        const erasure: ContactErasure = {
          erased_as: token,
          groups_left: groupsLeft,
          messages_anonymised: anonymised.messages,
          clicks_anonymised: anonymised.clicks,
          inbound_anonymised: anonymised.inbound,
          replies_anonymised: anonymised.replies,
          flow_runs_anonymised: flowRuns,
          opt_out_events_anonymised: optOutEvents,
          kept_as_opt_out: keptAsOptOut,
        };
        // The log keeps what was done and the token that replaced the number, never the number: no "before", no uuid.
        await deps.audit.record(tx, auth, { resourceType: 'contact', resourceUuid: null, after: erasure, created: false });
        return erasure;
      });
    },
  };
}
export type ContactsDirectoryService = ReturnType<typeof createContactsDirectoryService>;

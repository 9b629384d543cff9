import type { Contact } from '../../../shared/contract';
import type { Db, Tx } from '../../db/client';
import type { PageWindow } from '../../db/pages';
import type { AuthContext } from '../../http/auth';
import { ConflictError, NotFoundError, ValidationError } from '../../lib/errors';
import { normalizePhoneNumber, phoneSearch } from '../../lib/phone-numbers';
import { csvLine } from '../../lib/csv';
import { formatTimestamp, type Clock } from '../../lib/time';
import type { AuditTrail } from '../audit/audit-trail';
import type { ContactGroupRow, ContactGroupsRepository } from '../contact-groups/contact-groups.repository';
import type { ContactGroupsService } from '../contact-groups/contact-groups.service';
import type { OptInRepository } from '../consent/opt-in.repository';
import type { SuppressionActor, Suppressions } from '../suppressions/suppressions.service';
import type { ContactRecord, ContactsRepository, NewContact, RecipientsRepository } from './contacts.repository';

const MODIFYING = 'The group is being imported into; try again when the import has finished.';
/** Contacts read a page at a time for a group's CSV export. */
const EXPORT_PAGE = 1000;

/** A file name any browser and file system takes: the group's name in ASCII letters, digits and dashes. */
const fileNameOf = (name: string, uuid: string): string => {
  const slug = name
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .toLowerCase();
  return `${slug || uuid}-contacts.csv`;
};

export function createContactsService(deps: {
  db: Db;
  audit: AuditTrail;
  contacts: ContactsRepository;
  recipients: RecipientsRepository;
  contactGroups: Pick<ContactGroupsRepository, 'find' | 'insert' | 'idsByUuid'>;
  suppressions: Pick<Suppressions, 'isList' | 'listOf' | 'addContacts' | 'remove' | 'clear'>;
  present: ContactGroupsService['present'];
  /** Numbers a member or an API token puts in a group: their consent is recorded (docs/consent.md). */
  consent: Pick<OptInRepository, 'withoutConsent' | 'recordMany'>;
  clock: Clock;
  /** The country the team's national numbers are read in (team settings, else DEFAULT_COUNTRY). */
  countryOf: (teamId: number) => Promise<string>;
  config: { appTimezone: string };
}) {
  const presentContact = (record: ContactRecord): Contact => ({
    phone_number: record.phoneNumber,
    custom_fields: record.customFields,
    created_at: formatTimestamp(record.createdAt, deps.config.appTimezone),
    updated_at: formatTimestamp(record.updatedAt, deps.config.appTimezone),
  });

  const findGroup = async (auth: AuthContext, uuid: string) => {
    const row = await deps.contactGroups.find(auth.teamId, uuid);
    if (!row) throw new NotFoundError();
    return row;
  };

  /** The group as its GET shows it, read in `tx` (the "before" or "after" of a change to its contacts). */
  const reload = async (tx: Tx, auth: AuthContext, row: ContactGroupRow) => deps.present((await deps.contactGroups.find(auth.teamId, row.uuid, tx))!);

  /**
   * Runs `change` on the group in one transaction, the group locked (refused while an import writes
   * to it), and records it there: the group before and after, and what the request said besides
   * (`notes`: the reason numbers opt back in).
   */
  const changeGroup = (
    auth: AuthContext,
    group: ContactGroupRow,
    change: (tx: Tx, locked: { headers: string[] }) => Promise<void>,
    notes?: Record<string, string>,
  ) =>
    deps.db.transaction(async (tx) => {
      const locked = await deps.contacts.lockGroup(tx, group.id);
      if (locked.modifying) throw new ConflictError(MODIFYING);
      const before = await reload(tx, auth, group);
      await change(tx, locked);
      const after = await reload(tx, auth, group);
      await deps.audit.record(tx, auth, { resourceType: 'contact_group', resourceUuid: group.uuid, before, after, notes });
      return after;
    });

  /** Every number normalised; one bad number refuses the whole request, naming each bad row and why. */
  const normalizeAll = async (auth: AuthContext, numbers: string[], field: (index: number) => string): Promise<string[]> => {
    const country = await deps.countryOf(auth.teamId);
    const errors: Record<string, string[]> = {};
    const normalized = numbers.map((input, index) => {
      const result = normalizePhoneNumber(input, country);
      if (result.ok) return result.number;
      errors[field(index)] = [`The phone number ${JSON.stringify(input)} ${result.reason}.`];
      return '';
    });
    if (Object.keys(errors).length > 0) throw new ValidationError(errors);
    return normalized;
  };

  /** One row per number; a number given twice keeps its later custom fields. */
  const distinct = (contacts: NewContact[]) => [...new Map(contacts.map((contact) => [contact.phoneNumber, contact])).values()];

  const withHeaders = (headers: string[], contacts: NewContact[]) => {
    const known = new Set(headers.map((h) => h.toLowerCase()));
    const added = [...new Set(contacts.flatMap((c) => Object.keys(c.customFields)))].filter((name) => !known.has(name.toLowerCase()));
    return added.length > 0 ? [...headers, ...added] : undefined;
  };

  /** A change of default_optouts by hand is the caller's: `dashboard` from a session, `api` from an API token. */
  const handActor = (auth: AuthContext, reason?: string): SuppressionActor => ({
    teamId: auth.teamId,
    source: auth.tokenKind === 'session' ? 'dashboard' : 'api',
    userId: auth.userId,
    reason: reason ?? null,
  });
  const isOptouts = (group: ContactGroupRow) => deps.suppressions.isList(group);

  /**
   * A member (the dashboard) or an API token putting numbers in a group other than default_optouts
   * says they agreed: each number the team holds no consent of yet gets one, with who wrote it as
   * evidence. A number already with consent is not recorded again (a sync that updates fields is
   * no new agreement).
   */
  const recordConsent = async (tx: Tx, auth: AuthContext, phoneNumbers: string[]) => {
    const session = auth.tokenKind === 'session';
    await deps.consent.recordMany(tx, {
      teamId: auth.teamId,
      phoneNumbers: await deps.consent.withoutConsent(tx, auth.teamId, phoneNumbers),
      source: session ? 'dashboard' : 'api',
      at: deps.clock.now(),
      textShown: '',
      evidence: { user_uuid: auth.userUuid },
      tokenId: session ? undefined : auth.tokenId,
    });
  };

  /** Into default_optouts, the suppression list adds them: numbers new to it are recorded as opt-outs, in the write's transaction (the group locked). */
  const write = async (tx: Tx, auth: AuthContext, group: ContactGroupRow, headers: string[], contacts: NewContact[], actor: SuppressionActor) => {
    const rows = distinct(contacts);
    if (isOptouts(group)) {
      await deps.suppressions.addContacts(tx, group.id, actor, rows, withHeaders(headers, contacts));
      return;
    }
    const inserted = await deps.contacts.upsert(tx, group.id, rows);
    await deps.contacts.adjustGroup(tx, group.id, inserted, withHeaders(headers, contacts));
    await recordConsent(
      tx,
      auth,
      rows.map((row) => row.phoneNumber),
    );
  };

  return {
    async list(auth: AuthContext, groupUuid: string, window: PageWindow, search?: string) {
      const group = await findGroup(auth, groupUuid);
      const digits = search ? await phoneSearch(search, () => deps.countryOf(auth.teamId)) : undefined;
      const { rows, total } = await deps.contacts.list(group.id, window, digits);
      return { items: rows.map(presentContact), total };
    },

    async add(auth: AuthContext, groupUuid: string, contacts: Array<{ phone_number: string; custom_fields?: Record<string, string> }>) {
      const group = await findGroup(auth, groupUuid);
      const numbers = await normalizeAll(
        auth,
        contacts.map((c) => c.phone_number),
        (i) => `contacts.${i}.phone_number`,
      );
      return changeGroup(auth, group, (tx, locked) =>
        write(
          tx,
          auth,
          group,
          locked.headers,
          contacts.map((c, i) => ({ phoneNumber: numbers[i]!, customFields: c.custom_fields ?? {} })),
          handActor(auth),
        ),
      );
    },

    /** Numbers taken out of default_optouts by hand opt back in: each is recorded, with the reason given. */
    async remove(auth: AuthContext, groupUuid: string, phoneNumbers: string[], reason?: string) {
      const group = await findGroup(auth, groupUuid);
      const numbers = [...new Set(await normalizeAll(auth, phoneNumbers, (i) => `phone_numbers.${i}`))];
      return changeGroup(
        auth,
        group,
        async (tx) => {
          if (isOptouts(group)) {
            await deps.suppressions.remove(tx, group.id, handActor(auth, reason), numbers);
            // Touched as any group is by a removal, even when none of the numbers was on the list.
            await deps.contacts.adjustGroup(tx, group.id, 0);
          } else await deps.contacts.adjustGroup(tx, group.id, -(await deps.contacts.remove(tx, group.id, numbers)));
        },
        reason === undefined ? undefined : { reason },
      );
    },

    /** Emptying default_optouts opts every number in it back in, each recorded with the reason given. */
    async flush(auth: AuthContext, groupUuid: string, reason?: string) {
      const group = await findGroup(auth, groupUuid);
      return changeGroup(
        auth,
        group,
        async (tx) => {
          if (isOptouts(group)) await deps.suppressions.clear(tx, group.id, handActor(auth, reason));
          else await deps.contacts.emptyGroup(tx, group.id);
        },
        reason === undefined ? undefined : { reason },
      );
    },

    /**
     * The group as a CSV file, streamed: `phone_number` then the group's headers, read a page at a
     * time (keyset by number, so each page is an index range), never the whole file in memory.
     */
    async exportCsv(auth: AuthContext, groupUuid: string): Promise<{ fileName: string; lines: AsyncIterable<string> }> {
      const group = await findGroup(auth, groupUuid);
      const headers = group.headers;
      // A field the contacts spell another way than the header (any case) is still its column.
      const valueOf = (fields: Record<string, string>, header: string): string | undefined => {
        if (header in fields) return fields[header];
        const lower = header.toLowerCase();
        const key = Object.keys(fields).find((name) => name.toLowerCase() === lower);
        return key === undefined ? undefined : fields[key];
      };
      async function* lines() {
        // The byte order mark makes spreadsheets read the file as UTF-8; cells are neutralised as in reports.
        yield '\uFEFF' + csvLine(['phone_number', ...headers]);
        for (let after = ''; ;) {
          const page = await deps.contacts.pageAfter(group.id, after, EXPORT_PAGE);
          if (page.length === 0) return;
          yield page.map((contact) => csvLine([contact.phoneNumber, ...headers.map((header) => valueOf(contact.customFields, header))])).join('');
          after = page[page.length - 1]!.phoneNumber;
        }
      }
      return { fileName: fileNameOf(group.name, group.uuid), lines: lines() };
    },

    /** A new group of these numbers, made whole or not at all. */
    async bulk(auth: AuthContext, input: { name: string; description?: string | null; contacts: string[] }) {
      const numbers = await normalizeAll(auth, input.contacts, (i) => `contacts.${i}`);
      return deps.db.transaction(async (tx) => {
        const created = await deps.contactGroups.insert(auth.teamId, { name: input.name, description: input.description ?? null, headers: [] }, tx);
        const inserted = await deps.contacts.upsert(tx, created.id, distinct(numbers.map((phoneNumber) => ({ phoneNumber, customFields: {} }))));
        await deps.contacts.adjustGroup(tx, created.id, inserted);
        await recordConsent(tx, auth, numbers);
        const group = await reload(tx, auth, created);
        await deps.audit.record(tx, auth, { resourceType: 'contact_group', resourceUuid: group.uuid, after: group });
        return group;
      });
    },

    /** Included minus excluded minus default_optouts, distinct; every group uuid must be the team's. */
    async unique(auth: AuthContext, input: { included_contact_group_uuids: string[]; excluded_contact_group_uuids: string[] }, window: PageWindow) {
      const resolve = async (uuids: string[], field: string) => {
        const valid = uuids.filter((uuid) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(uuid));
        const ids = await deps.contactGroups.idsByUuid(auth.teamId, valid);
        if (valid.length !== uuids.length || ids.size !== new Set(valid.map((u) => u.toLowerCase())).size)
          throw ValidationError.field(field, `The selected ${field.replace(/_/g, ' ')} is invalid.`);
        return [...ids.values()];
      };
      const included = await resolve(input.included_contact_group_uuids, 'included_contact_group_uuids');
      const excluded = await resolve(input.excluded_contact_group_uuids, 'excluded_contact_group_uuids');
      const optouts = await deps.suppressions.listOf(auth.teamId);
      const { rows, total } = await deps.recipients.page(included, [...excluded, optouts], window);
      return { items: rows.map((phone_number) => ({ phone_number })), total };
    },

    /** The contact a template preview uses by default: the first recipient of its latest campaign. */
    async firstRecipientOf(auth: AuthContext, templateId: number): Promise<{ phoneNumber: string; fields: Record<string, string> } | undefined> {
      const contact = await deps.contacts.firstRecipientOfLatestCampaign(auth.teamId, templateId, await deps.suppressions.listOf(auth.teamId));
      return contact && { phoneNumber: contact.phoneNumber, fields: contact.customFields };
    },

    /** Custom fields of the team's contact with this number, for a preview. */
    async fieldsOf(auth: AuthContext, phoneNumber: string): Promise<{ phoneNumber: string; fields: Record<string, string> } | undefined> {
      const normalized = normalizePhoneNumber(phoneNumber, await deps.countryOf(auth.teamId));
      if (!normalized.ok) return undefined;
      const contact = await deps.contacts.latestOfTeam(auth.teamId, normalized.number);
      return contact && { phoneNumber: contact.phoneNumber, fields: contact.customFields };
    },
  };
}
export type ContactsService = ReturnType<typeof createContactsService>;

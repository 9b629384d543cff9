import { createHash } from 'node:crypto';
import { SHORT_CODE_ALPHABET, SHORT_CODE_LENGTH, type Encoding, type Template, type TemplateInput } from '../../../shared/contract';
import { fieldUses, measure, render, shorthandNames, stripForUtf8 } from '../../../shared/sms';
import { isForeignKeyViolation, type Db } from '../../db/client';
import type { Conn } from '../../db/rows';
import type { PageWindow } from '../../db/pages';
import type { AuthContext } from '../../http/auth';
import { ConflictError, LockedError, NotFoundError, TEMPLATE_LOCKED, ValidationError } from '../../lib/errors';
import { formatTimestamp } from '../../lib/time';
import type { AuditTrail } from '../audit/audit-trail';
import type { LinkRecord, LinksRepository } from '../links/links.repository';
import type { LinksService } from '../links/links.service';
import type { ContactsService } from '../contacts/contacts.service';
import type { VanityDomainsRepository } from '../vanity-domains/vanity-domains.repository';
import type { VanityDomainsService } from '../vanity-domains/vanity-domains.service';
import type { SenderRule } from '../senders/senders.service';
import type { TemplateRow, TemplatesRepository } from './templates.repository';

/** A stable, realistic short code for previews (real codes are made per recipient at send time). */
function sampleCode(seed: string): string {
  const digest = createHash('sha256').update(seed).digest();
  let code = '';
  for (let i = 0; i < SHORT_CODE_LENGTH; i++) code += SHORT_CODE_ALPHABET[digest[i]! % SHORT_CODE_ALPHABET.length];
  return code;
}

const sameName = (a: string, b: string) => a === b || a.toLowerCase() === b.toLowerCase();

/** Link shorthands of the body that name none of the links: they will be sent as a blank space. */
function missingLinkWarnings(body: string, links: LinkRecord[]): string[] {
  return shorthandNames(body)
    .links.filter((name) => !links.some((link) => sameName(link.name, name)))
    .map((name) => `::${name}:: names no link of this template; it will be sent as a blank space.`);
}

export function createTemplatesService(deps: {
  db: Db;
  /** Each change is recorded in its own transaction. */
  audit: Pick<AuditTrail, 'record'>;
  /** The range of SMS parts a body makes over groups' recipients (the campaigns service's). */
  audienceSegments?: (
    auth: AuthContext,
    body: string,
    links: Record<string, string>,
    groupUuids: string[],
  ) => Promise<{ recipients: number; segments: { min: number; typical: number; max: number } }>;
  templates: TemplatesRepository;
  links: Pick<LinksRepository, 'ofTemplates'>;
  /** A link as the API shows it (the links module's presenter). */
  presentLink: LinksService['present'];
  vanityDomains: Pick<VanityDomainsRepository, 'findDefault'>;
  urlBase: VanityDomainsService['urlBase'];
  contactFields: ContactsService['fieldsOf'];
  firstRecipient: ContactsService['firstRecipientOf'];
  /** Which senders the caller may use (the senders module's). */
  senderRule: Pick<SenderRule, 'check' | 'adopt'>;
  config: { appTimezone: string };
}) {
  const zone = deps.config.appTimezone;

  /** `used`: the link names of the body, when the caller has them already. */
  const present = (row: TemplateRow, links: LinkRecord[], locked: boolean, used = shorthandNames(row.body).links): Template => {
    return {
      uuid: row.uuid,
      name: row.name,
      body: row.body,
      links: used.length === 0 ? [] : links.filter((link) => used.some((name) => sameName(link.name, name))).map((link) => deps.presentLink(link)),
      is_locked: locked,
      sender: row.sender,
      created_at: formatTimestamp(row.createdAt, zone),
      updated_at: formatTimestamp(row.updatedAt, zone),
    };
  };

  /** In a transaction, `conn`: read in it (a read on another connection would wait for one while holding this one). */
  const presentOne = async (row: TemplateRow, conn?: Conn) => {
    const [links, locked] = await Promise.all([deps.links.ofTemplates([row.id], conn), deps.templates.lockedAmong([row.id], conn)]);
    return present(row, links, locked.has(row.id));
  };

  const find = async (auth: AuthContext, uuid: string) => {
    const row = await deps.templates.find(auth.teamId, uuid);
    if (!row) throw new NotFoundError();
    return row;
  };

  /** force_utf8 strips what cannot be carried as text; what is left must still be a body. */
  const fieldsOf = (input: TemplateInput) => {
    const body = input.force_utf8 ? stripForUtf8(input.body) : input.body;
    if (body.trim().length === 0) throw ValidationError.field('body', 'The body field is required.');
    return { name: input.name, body, sender: input.sender };
  };

  /** Each link as the short link a recipient gets, with a sample code. */
  const sampleLinks = (links: LinkRecord[]) =>
    Object.fromEntries(links.map((link) => [link.name, `${deps.urlBase({ domain: link.vanityDomain })}/${sampleCode(link.uuid)}`]));

  return {
    /** Sample short links of a template's links, each as long as a real one (the campaign review measures with them). */
    async linkSamples(teamId: number, templateUuid: string): Promise<Record<string, string>> {
      const template = await deps.templates.find(teamId, templateUuid);
      return template ? sampleLinks(await deps.links.ofTemplates([template.id])) : {};
    },

    async list(auth: AuthContext, window: PageWindow, search?: string) {
      const { rows, total } = await deps.templates.list(auth.teamId, window, search);
      // Only a body that names links shows them: the others need no lookup.
      const used = rows.map((row) => shorthandNames(row.body).links);
      const links = await deps.links.ofTemplates(rows.filter((_, index) => used[index]!.length > 0).map((row) => row.id));
      const items = rows.map((row, index) => present(row, links.length ? links.filter((link) => link.templateId === row.id) : [], row.locked, used[index]));
      return { items, total };
    },

    show: async (auth: AuthContext, uuid: string) => presentOne(await find(auth, uuid)),

    async create(auth: AuthContext, input: TemplateInput) {
      const fields = fieldsOf(input);
      await deps.senderRule.check(auth, fields.sender);
      const template = await deps.db.transaction(async (tx) => {
        const created = await presentOne(await deps.templates.insert(tx, auth.teamId, fields), tx);
        await deps.audit.record(tx, auth, { resourceType: 'template', resourceUuid: created.uuid, after: created });
        return created;
      });
      await deps.senderRule.adopt(auth, fields.sender);
      return template;
    },

    async update(auth: AuthContext, uuid: string, input: TemplateInput) {
      const row = await find(auth, uuid);
      if ((await deps.templates.lockedAmong([row.id])).has(row.id)) throw new LockedError(TEMPLATE_LOCKED);
      const fields = fieldsOf(input);
      await deps.senderRule.check(auth, fields.sender);
      const template = await deps.db.transaction(async (tx) => {
        const current = await deps.templates.find(auth.teamId, uuid, tx);
        if (!current) throw new NotFoundError();
        const before = await presentOne(current, tx);
        const updated = await presentOne(await deps.templates.update(tx, row.id, fields), tx);
        await deps.audit.record(tx, auth, { resourceType: 'template', resourceUuid: uuid, before, after: updated });
        return updated;
      });
      await deps.senderRule.adopt(auth, fields.sender);
      return template;
    },

    async delete(auth: AuthContext, uuid: string) {
      const row = await find(auth, uuid);
      const inUse = async () => {
        const campaigns = await deps.templates.campaignCount(row.id);
        return new ConflictError(`The template is used by ${campaigns} campaign${campaigns === 1 ? '' : 's'}; it cannot be deleted.`);
      };
      if ((await deps.templates.campaignCount(row.id)) > 0) throw await inUse();
      await deps.db
        .transaction(async (tx) => {
          const current = await deps.templates.find(auth.teamId, uuid, tx);
          if (!current) throw new NotFoundError();
          const before = await presentOne(current, tx);
          await deps.templates.delete(tx, row.id);
          await deps.audit.record(tx, auth, { resourceType: 'template', resourceUuid: uuid, before });
        })
        .catch(async (error) => {
          // Counted after the rollback, on a connection of its own.
          throw isForeignKeyViolation(error) ? await inUse() : error;
        });
    },

    /**
     * The body as a recipient reads it: links as short links (with a sample code), custom fields
     * from the team's contact `phoneNumber`, else from the first recipient of the latest campaign
     * that uses the template (with neither, each field shows as the blank space it would be sent as).
     */
    async preview(auth: AuthContext, uuid: string, phoneNumber?: string) {
      const row = await find(auth, uuid);
      const contact = phoneNumber === undefined ? await deps.firstRecipient(auth, row.id) : await deps.contactFields(auth, phoneNumber);
      if (phoneNumber !== undefined && !contact) throw ValidationError.field('phone_number', 'The phone number is not a contact of this team.');
      const [links, locked] = await Promise.all([deps.links.ofTemplates([row.id]), deps.templates.lockedAmong([row.id])]);
      const fields = contact?.fields ?? {};
      const hasValue = (name: string) => Object.keys(fields).some((key) => sameName(key, name));
      const warnings = [
        ...missingLinkWarnings(row.body, links),
        // A field with a fallback everywhere never leaves a gap: no warning for it.
        ...fieldUses(row.body)
          .filter((use) => !use.fallback)
          .map((use) => use.name)
          .filter((name) => !hasValue(name))
          .map((name) =>
            contact
              ? `{{${name}}} has no value for this contact; it will be sent as a blank space.`
              : `{{${name}}} has no value without a contact; it shows as a blank space.`,
          ),
      ];
      return {
        ...present(row, links, locked.has(row.id)),
        body: render(row.body, { links: sampleLinks(links), fields }),
        links: links.map((link) => deps.presentLink(link)),
        phone_number: contact?.phoneNumber ?? '',
        warnings,
      };
    },

    /**
     * Encoding of a body as it will be sent: each `::NAME::` at its short-link length (the
     * template's link when `template_uuid` is given, else a link on the team's own domain) and
     * each `{{field}}` as the one space it is without a contact.
     */
    async encoding(auth: AuthContext, input: { body: string; template_uuid?: string; contact_groups?: string[] }): Promise<Encoding> {
      let linkUrls: Record<string, string>;
      let warnings: string[] = [];
      if (input.template_uuid !== undefined) {
        const template = await deps.templates.find(auth.teamId, input.template_uuid);
        if (!template) throw ValidationError.field('template_uuid', 'The selected template uuid is invalid.');
        const links = await deps.links.ofTemplates([template.id]);
        linkUrls = sampleLinks(links);
        warnings = missingLinkWarnings(input.body, links);
      } else {
        const own = await deps.vanityDomains.findDefault(auth.teamId);
        const url = `${deps.urlBase({ domain: own?.domain ?? null })}/${'x'.repeat(SHORT_CODE_LENGTH)}`;
        linkUrls = Object.fromEntries(shorthandNames(input.body).links.map((name) => [name, url]));
      }
      const measured = measure(render(input.body, { links: linkUrls, fields: {} }));
      const audience =
        input.contact_groups && deps.audienceSegments ? await deps.audienceSegments(auth, input.body, linkUrls, input.contact_groups) : undefined;
      return {
        encoding: measured.encoding,
        length: measured.length,
        segments: measured.segments,
        per_segment: measured.per_segment,
        warnings,
        ...(audience ? { audience } : {}),
      };
    },
  };
}
export type TemplatesService = ReturnType<typeof createTemplatesService>;

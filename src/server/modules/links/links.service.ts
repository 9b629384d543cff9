import type { Link, LinkInput } from '../../../shared/contract';
import { isUniqueViolation, type Db } from '../../db/client';
import type { Conn } from '../../db/rows';
import type { PageWindow } from '../../db/pages';
import type { AuthContext } from '../../http/auth';
import { LockedError, NotFoundError, TEMPLATE_LOCKED, ValidationError } from '../../lib/errors';
import { formatTimestamp } from '../../lib/time';
import type { AuditTrail } from '../audit/audit-trail';
import type { TemplatesRepository } from '../templates/templates.repository';
import type { VanityDomainsRepository } from '../vanity-domains/vanity-domains.repository';
import type { LinkRecord, LinksRepository } from './links.repository';

function presentLink(record: LinkRecord, timeZone: string): Link {
  return {
    id: record.id,
    uuid: record.uuid,
    vanity_domain_id: record.vanityDomainId,
    template_id: record.templateId,
    vanity_domain_uuid: record.vanityDomainUuid,
    template_uuid: record.templateUuid,
    name: record.name,
    destination: record.destination,
    created_at: formatTimestamp(record.createdAt, timeZone),
    updated_at: formatTimestamp(record.updatedAt, timeZone),
  };
}

export function createLinksService(deps: {
  db: Db;
  /** Each change is recorded in its own transaction. */
  audit: Pick<AuditTrail, 'record'>;
  links: LinksRepository;
  templates: Pick<TemplatesRepository, 'find' | 'lockedAmong'>;
  vanityDomains: Pick<VanityDomainsRepository, 'find'>;
  config: { appTimezone: string };
}) {
  const present = (record: LinkRecord) => presentLink(record, deps.config.appTimezone);

  /** In a transaction (`conn`), the link is locked until it ends. */
  const find = async (auth: AuthContext, uuid: string, conn?: Conn) => {
    const record = await deps.links.find(auth.teamId, uuid, conn);
    if (!record) throw new NotFoundError();
    return record;
  };

  /** The link's template and domain must be the team's (422 naming the field); a locked template refuses changes (423). */
  const resolve = async (auth: AuthContext, input: LinkInput) => {
    const [template, domain] = await Promise.all([
      deps.templates.find(auth.teamId, input.template_uuid),
      deps.vanityDomains.find(auth.teamId, input.vanity_domain_uuid),
    ]);
    const errors: Record<string, string[]> = {};
    if (!template) errors.template_uuid = ['The selected template uuid is invalid.'];
    if (!domain) errors.vanity_domain_uuid = ['The selected vanity domain uuid is invalid.'];
    if (!template || !domain) throw new ValidationError(errors);
    await refuseIfLocked(template.id);
    return { templateId: template.id, vanityDomainId: domain.id, name: input.name, destination: input.destination };
  };

  const refuseIfLocked = async (templateId: number) => {
    if ((await deps.templates.lockedAmong([templateId])).has(templateId)) throw new LockedError(TEMPLATE_LOCKED);
  };

  const refuseDuplicate = (error: unknown): never => {
    if (isUniqueViolation(error, 'links_template_name_key')) throw ValidationError.field('name', 'The template already has a link with this name.');
    throw error;
  };

  return {
    /** A link as the API shows it (also inside a template). */
    present,
    async list(auth: AuthContext, window: PageWindow, templateUuid?: string) {
      let templateId: number | undefined;
      if (templateUuid !== undefined) {
        const template = await deps.templates.find(auth.teamId, templateUuid);
        if (!template) return { items: [], total: 0 };
        templateId = template.id;
      }
      const { rows, total } = await deps.links.list(auth.teamId, window, templateId);
      return { items: rows.map(present), total };
    },

    show: async (auth: AuthContext, uuid: string) => present(await find(auth, uuid)),

    async create(auth: AuthContext, input: LinkInput) {
      const fields = await resolve(auth, input);
      return deps.db.transaction(async (tx) => {
        const uuid = await deps.links.insert(tx, auth.teamId, fields).catch(refuseDuplicate);
        const created = present(await find(auth, uuid, tx));
        await deps.audit.record(tx, auth, { resourceType: 'link', resourceUuid: uuid, after: created });
        return created;
      });
    },

    async update(auth: AuthContext, uuid: string, input: LinkInput) {
      const record = await find(auth, uuid);
      await refuseIfLocked(record.templateId);
      const fields = await resolve(auth, input);
      return deps.db.transaction(async (tx) => {
        const before = present(await find(auth, uuid, tx));
        await deps.links.update(tx, record.id, fields).catch(refuseDuplicate);
        const after = present(await find(auth, uuid, tx));
        await deps.audit.record(tx, auth, { resourceType: 'link', resourceUuid: uuid, before, after });
        return after;
      });
    },

    async delete(auth: AuthContext, uuid: string) {
      const record = await find(auth, uuid);
      await refuseIfLocked(record.templateId);
      await deps.db.transaction(async (tx) => {
        const before = present(await find(auth, uuid, tx));
        await deps.links.delete(tx, record.id);
        await deps.audit.record(tx, auth, { resourceType: 'link', resourceUuid: uuid, before });
      });
    },
  };
}
export type LinksService = ReturnType<typeof createLinksService>;

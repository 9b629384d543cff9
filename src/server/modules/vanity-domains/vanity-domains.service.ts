import type { VanityDomain, VanityDomainInput } from '../../../shared/contract';
import { isForeignKeyViolation, isUniqueViolation, type Db } from '../../db/client';
import type { PageWindow } from '../../db/pages';
import type { AuthContext } from '../../http/auth';
import { ConflictError, NotFoundError, ValidationError } from '../../lib/errors';
import { selfLinks } from '../../lib/presenters';
import { formatTimestamp } from '../../lib/time';
import type { AuditTrail } from '../audit/audit-trail';
import type { VanityDomainRow, VanityDomainsRepository } from './vanity-domains.repository';

const OWN_DOMAIN = "The service's own link domain cannot be changed or deleted.";

export function createVanityDomainsService(deps: {
  db: Db;
  /** Each change is recorded in its own transaction. */
  audit: Pick<AuditTrail, 'record'>;
  vanityDomains: VanityDomainsRepository;
  config: { publicUrl: string; appTimezone: string };
}) {
  const ownBase = `${deps.config.publicUrl}/l`;

  /** What short links on the domain start with: PUBLIC_URL/l for the service's own, https://<domain> otherwise. */
  const urlBase = (row: Pick<VanityDomainRow, 'domain'>) => (row.domain === null ? ownBase : `https://${row.domain}`);

  const present = (row: VanityDomainRow): VanityDomain => ({
    uuid: row.uuid,
    domain: row.domain ?? ownBase.replace(/^https?:\/\//, ''),
    url_base: urlBase(row),
    is_default: row.domain === null,
    status: row.status,
    created_at: formatTimestamp(row.createdAt, deps.config.appTimezone),
    updated_at: formatTimestamp(row.updatedAt, deps.config.appTimezone),
    links: selfLinks(deps.config.publicUrl, 'vanity-domains', row.uuid),
  });

  const refuseDuplicate = (error: unknown): never => {
    if (isUniqueViolation(error, 'vanity_domains_team_domain_key')) throw ValidationError.field('domain', 'The domain has already been taken.');
    throw error;
  };

  const customDomain = async (auth: AuthContext, uuid: string) => {
    const row = await deps.vanityDomains.find(auth.teamId, uuid);
    if (!row) throw new NotFoundError();
    if (row.domain === null) throw new ConflictError(OWN_DOMAIN);
    return row;
  };

  return {
    urlBase,

    async list(auth: AuthContext, window: PageWindow) {
      const { rows, total } = await deps.vanityDomains.list(auth.teamId, window);
      return { items: rows.map(present), total };
    },

    async show(auth: AuthContext, uuid: string) {
      const row = await deps.vanityDomains.find(auth.teamId, uuid);
      if (!row) throw new NotFoundError();
      return present(row);
    },

    async create(auth: AuthContext, input: VanityDomainInput) {
      return deps.db.transaction(async (tx) => {
        const after = present(await deps.vanityDomains.insert(tx, auth.teamId, input.domain).catch(refuseDuplicate));
        await deps.audit.record(tx, auth, { resourceType: 'vanity_domain', resourceUuid: after.uuid, after });
        return after;
      });
    },

    async update(auth: AuthContext, uuid: string, input: VanityDomainInput) {
      await customDomain(auth, uuid);
      return deps.db.transaction(async (tx) => {
        const current = await deps.vanityDomains.find(auth.teamId, uuid, tx);
        if (!current) throw new NotFoundError();
        const row = await deps.vanityDomains.update(tx, auth.teamId, uuid, input.domain).catch(refuseDuplicate);
        if (!row) throw new NotFoundError();
        const after = present(row);
        await deps.audit.record(tx, auth, { resourceType: 'vanity_domain', resourceUuid: uuid, before: present(current), after });
        return after;
      });
    },

    async delete(auth: AuthContext, uuid: string) {
      const row = await customDomain(auth, uuid);
      const inUse = async () => {
        const used = await deps.vanityDomains.linkCount(row.id);
        return new ConflictError(`The vanity domain is used by ${used} link${used === 1 ? '' : 's'}; move or delete them first.`);
      };
      if ((await deps.vanityDomains.linkCount(row.id)) > 0) throw await inUse();
      // A link made meanwhile still holds the domain (foreign key): the same answer.
      await deps.db
        .transaction(async (tx) => {
          const current = await deps.vanityDomains.find(auth.teamId, uuid, tx);
          if (!current) throw new NotFoundError();
          await deps.vanityDomains.delete(tx, row.id);
          await deps.audit.record(tx, auth, { resourceType: 'vanity_domain', resourceUuid: uuid, before: present(current) });
        })
        .catch(async (error) => {
          // Counted after the rollback, on a connection of its own.
          throw isForeignKeyViolation(error) ? await inUse() : error;
        });
    },
  };
}
export type VanityDomainsService = ReturnType<typeof createVanityDomainsService>;

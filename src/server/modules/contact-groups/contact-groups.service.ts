import type { ContactGroup, ContactGroupInput } from '../../../shared/contract';
import type { Db } from '../../db/client';
import type { PageWindow } from '../../db/pages';
import type { AuthContext } from '../../http/auth';
import { ConflictError, NotFoundError } from '../../lib/errors';
import { selfLinks } from '../../lib/presenters';
import { formatTimestamp } from '../../lib/time';
import type { AuditTrail } from '../audit/audit-trail';
import type { Suppressions } from '../suppressions/suppressions.service';
import type { ContactGroupRow, ContactGroupsRepository } from './contact-groups.repository';

export function createContactGroupsService(deps: {
  db: Db;
  audit: AuditTrail;
  contactGroups: ContactGroupsRepository;
  suppressions: Pick<Suppressions, 'isList'>;
  config: { publicUrl: string; appTimezone: string };
}) {
  const present = (row: ContactGroupRow): ContactGroup => ({
    uuid: row.uuid,
    name: row.name,
    description: row.description,
    deletable: row.deletable,
    number_of_contacts: row.contactCount,
    status: row.modifyingSince ? 'Modifying' : row.contactCount === 0 ? 'Empty' : 'Ready',
    headers: row.headers,
    created_at: formatTimestamp(row.createdAt, deps.config.appTimezone),
    updated_at: formatTimestamp(row.updatedAt, deps.config.appTimezone),
    links: selfLinks(deps.config.publicUrl, 'contact-groups', row.uuid),
  });

  const find = async (auth: AuthContext, uuid: string) => {
    const row = await deps.contactGroups.find(auth.teamId, uuid);
    if (!row) throw new NotFoundError();
    return row;
  };

  return {
    present,

    async list(auth: AuthContext, window: PageWindow, search?: string) {
      const { rows, total } = await deps.contactGroups.list(auth.teamId, window, search);
      return { items: rows.map(present), total };
    },

    show: async (auth: AuthContext, uuid: string) => present(await find(auth, uuid)),

    async create(auth: AuthContext, input: ContactGroupInput) {
      return deps.db.transaction(async (tx) => {
        const group = present(
          await deps.contactGroups.insert(auth.teamId, { name: input.name, description: input.description ?? null, headers: input.headers ?? [] }, tx),
        );
        await deps.audit.record(tx, auth, { resourceType: 'contact_group', resourceUuid: group.uuid, after: group });
        return group;
      });
    },

    /** default_optouts keeps its name; fields left out keep their values. */
    async update(auth: AuthContext, uuid: string, input: ContactGroupInput) {
      return deps.db.transaction(async (tx) => {
        const row = await deps.contactGroups.find(auth.teamId, uuid, tx, true);
        if (!row) throw new NotFoundError();
        if (deps.suppressions.isList(row)) throw new ConflictError('The default_optouts group cannot be renamed or changed.');
        const changes = {
          name: input.name,
          ...(input.description !== undefined ? { description: input.description } : {}),
          ...(input.headers ? { headers: input.headers } : {}),
        };
        const group = present(await deps.contactGroups.update(row.id, changes, tx));
        await deps.audit.record(tx, auth, { resourceType: 'contact_group', resourceUuid: uuid, before: present(row), after: group });
        return group;
      });
    },

    async delete(auth: AuthContext, uuid: string) {
      await deps.db.transaction(async (tx) => {
        const row = await deps.contactGroups.find(auth.teamId, uuid, tx, true);
        if (!row) throw new NotFoundError();
        if (!row.deletable) throw new ConflictError('The default_optouts group cannot be deleted.');
        if (row.modifyingSince) throw new ConflictError('The group is being imported into; delete it when the import has finished.');
        const keywords = await deps.contactGroups.keywordsAddingTo(row.id, tx);
        if (keywords.length > 0)
          throw new ConflictError(`The group is used by the keyword${keywords.length === 1 ? '' : 's'} ${keywords.join(', ')}; detach it first.`);
        await deps.contactGroups.delete(row.id, tx);
        await deps.audit.record(tx, auth, { resourceType: 'contact_group', resourceUuid: uuid, before: present(row) });
      });
    },
  };
}
export type ContactGroupsService = ReturnType<typeof createContactGroupsService>;

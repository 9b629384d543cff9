import type { ContactGroup, ContactGroupInput } from '../../../shared/contract';
import type { PageWindow } from '../../db/pages';
import type { AuthContext } from '../../http/auth';
import { ConflictError, NotFoundError } from '../../lib/errors';
import { selfLinks } from '../../lib/presenters';
import { formatTimestamp } from '../../lib/time';
import type { Suppressions } from '../suppressions/suppressions.service';
import type { ContactGroupRow, ContactGroupsRepository } from './contact-groups.repository';

export function createContactGroupsService(deps: {
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

    create: async (auth: AuthContext, input: ContactGroupInput) =>
      present(await deps.contactGroups.insert(auth.teamId, { name: input.name, description: input.description ?? null, headers: input.headers ?? [] })),

    /** default_optouts keeps its name; fields left out keep their values. */
    async update(auth: AuthContext, uuid: string, input: ContactGroupInput) {
      const row = await find(auth, uuid);
      if (deps.suppressions.isList(row)) throw new ConflictError('The default_optouts group cannot be renamed or changed.');
      const changes = {
        name: input.name,
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.headers ? { headers: input.headers } : {}),
      };
      return present(await deps.contactGroups.update(row.id, changes));
    },

    async delete(auth: AuthContext, uuid: string) {
      const row = await find(auth, uuid);
      if (!row.deletable) throw new ConflictError('The default_optouts group cannot be deleted.');
      if (row.modifyingSince) throw new ConflictError('The group is being imported into; delete it when the import has finished.');
      const keywords = await deps.contactGroups.keywordsAddingTo(row.id);
      if (keywords.length > 0)
        throw new ConflictError(`The group is used by the keyword${keywords.length === 1 ? '' : 's'} ${keywords.join(', ')}; detach it first.`);
      await deps.contactGroups.delete(row.id);
    },
  };
}
export type ContactGroupsService = ReturnType<typeof createContactGroupsService>;

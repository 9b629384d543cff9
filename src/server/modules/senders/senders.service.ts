import type { Sender, SenderInput } from '../../../shared/contract';
import { isUniqueViolation } from '../../db/client';
import type { PageWindow } from '../../db/pages';
import type { AuthContext } from '../../http/auth';
import { NotFoundError, ValidationError } from '../../lib/errors';
import { selfLinks } from '../../lib/presenters';
import { formatTimestamp } from '../../lib/time';
import type { SenderRow, SendersRepository } from './senders.repository';

const TAKEN = 'The sender has already been taken.';

export function createSendersService(deps: { senders: SendersRepository; config: { publicUrl: string; appTimezone: string } }) {
  const present = (row: SenderRow): Sender => ({
    uuid: row.uuid,
    team_id: '',
    sender: row.sender,
    status: row.status,
    created_at: formatTimestamp(row.createdAt, deps.config.appTimezone),
    updated_at: formatTimestamp(row.updatedAt, deps.config.appTimezone),
    links: selfLinks(deps.config.publicUrl, 'senders', row.uuid),
  });

  // A sender is unique within its team (the unique index decides, so two racing requests cannot both win).
  const refuseDuplicate = (error: unknown): never => {
    if (isUniqueViolation(error, 'senders_team_sender_key')) throw ValidationError.field('sender', TAKEN);
    throw error;
  };

  return {
    async list(auth: AuthContext, window: PageWindow, search?: string) {
      const { rows, total } = await deps.senders.list(auth.teamId, window, search);
      return { items: rows.map(present), total };
    },

    async show(auth: AuthContext, uuid: string): Promise<Sender> {
      const row = await deps.senders.find(auth.teamId, uuid);
      if (!row) throw new NotFoundError();
      return present(row);
    },

    async create(auth: AuthContext, input: SenderInput): Promise<Sender> {
      return present(await deps.senders.insert(auth.teamId, input.sender).catch(refuseDuplicate));
    },

    async update(auth: AuthContext, uuid: string, input: SenderInput): Promise<Sender> {
      const row = await deps.senders.update(auth.teamId, uuid, input.sender).catch(refuseDuplicate);
      if (!row) throw new NotFoundError();
      return present(row);
    },

    async delete(auth: AuthContext, uuid: string): Promise<void> {
      if (!(await deps.senders.delete(auth.teamId, uuid))) throw new NotFoundError();
    },
  };
}
export type SendersService = ReturnType<typeof createSendersService>;

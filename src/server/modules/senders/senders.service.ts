import type { Sender, SenderInput } from '../../../shared/contract';
import { isUniqueViolation, type Db } from '../../db/client';
import type { PageWindow } from '../../db/pages';
import type { AuthContext } from '../../http/auth';
import { NotFoundError, ValidationError } from '../../lib/errors';
import { selfLinks } from '../../lib/presenters';
import { SHORT_CODE_SENDER } from '../../lib/short-code';
import { formatTimestamp } from '../../lib/time';
import type { AuditTrail } from '../audit/audit-trail';
import type { SenderRow, SendersRepository } from './senders.repository';

const TAKEN = 'The sender has already been taken.';
export const UNKNOWN_SENDER = `The sender must be one of the team's senders or ${SHORT_CODE_SENDER}. Ask an admin to add it under Senders.`;

/**
 * Who may send as what (templates, campaigns and test sends): an editor only as one of the team's
 * senders or the installation's short code; an admin as any valid sender, which their use adds
 * to the team's list (so every sender in use is on it, and editors may then use it too).
 */
export function createSenderRule(senders: Pick<SendersRepository, 'has' | 'register'>) {
  const known = async (auth: AuthContext, sender: string) => sender === SHORT_CODE_SENDER || (await senders.has(auth.teamId, sender));
  /** The refusal (for the `sender` field) of a sender this caller may not use; undefined when allowed. */
  const refusal = async (auth: AuthContext, sender: string): Promise<string | undefined> =>
    auth.role === 'admin' || (await known(auth, sender)) ? undefined : UNKNOWN_SENDER;
  return {
    refusal,
    /** Throws 422 naming `sender` when the caller may not use it. */
    async check(auth: AuthContext, sender: string): Promise<void> {
      const refused = await refusal(auth, sender);
      if (refused) throw ValidationError.field('sender', refused);
    },
    /** After an allowed use is written: an admin's new sender joins the team's list. */
    async adopt(auth: AuthContext, sender: string): Promise<void> {
      if (auth.role === 'admin' && !(await known(auth, sender))) await senders.register(auth.teamId, sender);
    },
  };
}
export type SenderRule = ReturnType<typeof createSenderRule>;

export function createSendersService(deps: { db: Db; senders: SendersRepository; audit: AuditTrail; config: { publicUrl: string; appTimezone: string } }) {
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
      return deps.db.transaction(async (tx) => {
        const sender = present(await deps.senders.insert(tx, auth.teamId, input.sender).catch(refuseDuplicate));
        await deps.audit.record(tx, auth, { resourceType: 'sender', resourceUuid: sender.uuid, after: sender });
        return sender;
      });
    },

    async update(auth: AuthContext, uuid: string, input: SenderInput): Promise<Sender> {
      return deps.db.transaction(async (tx) => {
        const before = await deps.senders.find(auth.teamId, uuid, tx);
        if (!before) throw new NotFoundError();
        const row = await deps.senders.update(tx, auth.teamId, uuid, input.sender).catch(refuseDuplicate);
        if (!row) throw new NotFoundError();
        const sender = present(row);
        await deps.audit.record(tx, auth, { resourceType: 'sender', resourceUuid: uuid, before: present(before), after: sender });
        return sender;
      });
    },

    async delete(auth: AuthContext, uuid: string): Promise<void> {
      await deps.db.transaction(async (tx) => {
        const before = await deps.senders.find(auth.teamId, uuid, tx);
        if (!before || !(await deps.senders.delete(tx, auth.teamId, uuid))) throw new NotFoundError();
        await deps.audit.record(tx, auth, { resourceType: 'sender', resourceUuid: uuid, before: present(before) });
      });
    },
  };
}
export type SendersService = ReturnType<typeof createSendersService>;

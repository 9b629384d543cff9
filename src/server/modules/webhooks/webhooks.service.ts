import { randomBytes } from 'node:crypto';
import type { Webhook, WebhookInput, WebhookPatch } from '../../../shared/contract';
import type { PageWindow } from '../../db/pages';
import type { AuthContext } from '../../http/auth';
import { ConflictError, NotFoundError } from '../../lib/errors';
import { selfLinks } from '../../lib/presenters';
import type { SecretBox } from '../../lib/secret-box';
import { formatTimestamp } from '../../lib/time';
import type { WebhookRow, WebhooksRepository } from './webhooks.repository';

/** A Standard Webhooks signing secret: `whsec_` + base64 of 32 random bytes. */
const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

export function createWebhooksService(deps: { webhooks: WebhooksRepository; secrets: SecretBox; config: { publicUrl: string; appTimezone: string } }) {
  const present = (row: WebhookRow): Webhook => ({
    uuid: row.uuid,
    name: row.name,
    url: row.url,
    headers: row.headers,
    links: selfLinks(deps.config.publicUrl, 'webhooks', row.uuid),
    created_at: formatTimestamp(row.createdAt, deps.config.appTimezone),
    updated_at: formatTimestamp(row.updatedAt, deps.config.appTimezone),
  });

  const find = async (auth: AuthContext, uuid: string) => {
    const row = await deps.webhooks.find(auth.teamId, uuid);
    if (!row) throw new NotFoundError();
    return row;
  };

  return {
    async list(auth: AuthContext, window: PageWindow) {
      const { rows, total } = await deps.webhooks.list(auth.teamId, window);
      return { items: rows.map(present), total };
    },

    show: async (auth: AuthContext, uuid: string) => present(await find(auth, uuid)),

    /** The signing secret is returned this once; it is stored encrypted. */
    async create(auth: AuthContext, input: WebhookInput) {
      const secret = newSecret();
      const row = await deps.webhooks.insert({ teamId: auth.teamId, name: input.name, url: input.url, headers: input.headers, secretEncrypted: deps.secrets.seal(secret) });
      return { ...present(row), secret };
    },

    /** A partial edit: fields left out keep their values. */
    async update(auth: AuthContext, uuid: string, patch: WebhookPatch) {
      const changes = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));
      const row = await deps.webhooks.update(auth.teamId, uuid, changes);
      if (!row) throw new NotFoundError();
      return present(row);
    },

    async rotateSecret(auth: AuthContext, uuid: string) {
      const secret = newSecret();
      const row = await deps.webhooks.update(auth.teamId, uuid, { secretEncrypted: deps.secrets.seal(secret) });
      if (!row) throw new NotFoundError();
      return { ...present(row), secret };
    },

    /** The plain secret, for signing calls. */
    signingSecret: (row: WebhookRow) => deps.secrets.open(row.secretEncrypted),

    async delete(auth: AuthContext, uuid: string) {
      const row = await find(auth, uuid);
      const callers = await deps.webhooks.keywordsCalling(row.id);
      if (callers.length > 0) throw new ConflictError(`The webhook is called by the keyword${callers.length === 1 ? '' : 's'} ${callers.join(', ')}; detach it first.`);
      await deps.webhooks.delete(row.id);
    },
  };
}
export type WebhooksService = ReturnType<typeof createWebhooksService>;

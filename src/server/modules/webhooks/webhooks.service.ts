import type { Webhook, WebhookAttempt, WebhookInput, WebhookPatch } from '../../../shared/contract';
import { newSigningSecret, type WebhookCaller } from '../../gateways/webhooks/webhook-caller';
import type { Db } from '../../db/client';
import type { PageWindow } from '../../db/pages';
import type { Conn } from '../../db/rows';
import type { AuthContext } from '../../http/auth';
import { ConflictError, NotFoundError } from '../../lib/errors';
import { selfLinks } from '../../lib/presenters';
import { headerReaderOf, maskHeaders, openHeaders, sealHeaders, type HeaderReader } from '../../lib/header-secrets';
import type { SecretBox } from '../../lib/secret-box';
import { formatTimestamp } from '../../lib/time';
import type { AuditTrail } from '../audit/audit-trail';
import type { AttemptRecord, WebhookRow, WebhooksRepository } from './webhooks.repository';

export function createWebhooksService(deps: {
  db: Db;
  /** Each change is recorded in its own transaction. */
  audit: Pick<AuditTrail, 'record'>;
  webhooks: WebhooksRepository;
  secrets: SecretBox;
  caller: WebhookCaller;
  clock: { now(): Date };
  config: { publicUrl: string; appTimezone: string };
}) {
  /** Header values in full only in the answer that creates them (`plain`); after that masked, by role. */
  const present = (row: WebhookRow, shownTo: HeaderReader | 'plain'): Webhook => ({
    uuid: row.uuid,
    name: row.name,
    url: row.url,
    headers: shownTo === 'plain' ? openHeaders(deps.secrets, row.headers) : maskHeaders(deps.secrets, row.headers, shownTo),
    links: selfLinks(deps.config.publicUrl, 'webhooks', row.uuid),
    created_at: formatTimestamp(row.createdAt, deps.config.appTimezone),
    updated_at: formatTimestamp(row.updatedAt, deps.config.appTimezone),
  });

  const presentAttempt = (record: AttemptRecord): WebhookAttempt => ({
    uuid: record.uuid,
    event: record.event,
    url: record.url,
    status_code: record.statusCode,
    latency_ms: record.latencyMs,
    error: record.error,
    inbound_message_uuid: record.inboundMessageUuid,
    created_at: formatTimestamp(record.createdAt, deps.config.appTimezone),
  });

  /**
   * One signed call, logged whatever its outcome (never retried: docs/interface.md §6). `writing`,
   * when given, writes the attempt (in a transaction it opens after the call, so no transaction
   * waits on the receiver).
   */
  const call = async (
    row: WebhookRow,
    event: string,
    payload: unknown,
    inboundMessageId: number | null,
    writing?: (write: (conn: Conn) => Promise<AttemptRecord>) => Promise<AttemptRecord>,
  ) => {
    const outcome = await deps.caller({
      url: row.url,
      headers: openHeaders(deps.secrets, row.headers),
      secret: deps.secrets.open(row.secretEncrypted),
      payload,
    });
    const write = (conn?: Conn) => deps.webhooks.insertAttempt(row.id, { ...outcome, event, url: row.url, inboundMessageId }, conn);
    return writing ? writing(write) : write();
  };

  /** In a transaction (`conn`), the webhook is locked until it ends. */
  const find = async (auth: AuthContext, uuid: string, conn?: Conn) => {
    const row = await deps.webhooks.find(auth.teamId, uuid, conn);
    if (!row) throw new NotFoundError();
    return row;
  };

  return {
    async list(auth: AuthContext, window: PageWindow, search?: string) {
      const { rows, total } = await deps.webhooks.list(auth.teamId, window, search);
      return { items: rows.map((row) => present(row, headerReaderOf(auth))), total };
    },

    show: async (auth: AuthContext, uuid: string) => present(await find(auth, uuid), headerReaderOf(auth)),

    /** The signing secret is returned this once; it is stored encrypted. */
    async create(auth: AuthContext, input: WebhookInput) {
      const secret = newSigningSecret();
      return deps.db.transaction(async (tx) => {
        const row = await deps.webhooks.insert(tx, {
          teamId: auth.teamId,
          name: input.name,
          url: input.url,
          headers: sealHeaders(deps.secrets, input.headers),
          secretEncrypted: deps.secrets.seal(secret),
        });
        const after = { ...present(row, 'plain'), secret };
        await deps.audit.record(tx, auth, { resourceType: 'webhook', resourceUuid: row.uuid, after });
        return after;
      });
    },

    /** A partial edit: fields left out keep their values. */
    async update(auth: AuthContext, uuid: string, patch: WebhookPatch) {
      const { headers, ...rest } = patch;
      const changes: Parameters<WebhooksRepository['update']>[3] = Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined));
      return deps.db.transaction(async (tx) => {
        const current = await find(auth, uuid, tx);
        // A masked value sent back as it was read keeps the stored value.
        if (headers !== undefined) changes.headers = sealHeaders(deps.secrets, headers, current.headers);
        const row = await deps.webhooks.update(tx, auth.teamId, uuid, changes);
        if (!row) throw new NotFoundError();
        const after = present(row, headerReaderOf(auth));
        await deps.audit.record(tx, auth, { resourceType: 'webhook', resourceUuid: uuid, before: present(current, headerReaderOf(auth)), after });
        return after;
      });
    },

    async rotateSecret(auth: AuthContext, uuid: string) {
      const secret = newSigningSecret();
      return deps.db.transaction(async (tx) => {
        const row = await deps.webhooks.update(tx, auth.teamId, uuid, { secretEncrypted: deps.secrets.seal(secret) });
        if (!row) throw new NotFoundError();
        const after = { ...present(row, headerReaderOf(auth)), secret };
        // An action by POST: recorded as what it answers (the secret is never written to the log).
        await deps.audit.record(tx, auth, { resourceType: 'webhook', resourceUuid: uuid, after });
        return after;
      });
    },

    /** Calls the webhooks (by id) at once, each independently; returns each attempt. */
    async callAll(webhookIds: number[], event: string, payload: unknown, inboundMessageId: number | null) {
      const rows = await deps.webhooks.findByIds(webhookIds);
      return Promise.all(rows.map(async (row) => ({ webhook: row, attempt: await call(row, event, payload, inboundMessageId) })));
    },

    /** A `webhook.test` event, so a receiver can be checked before a keyword relies on it. */
    async sendTest(auth: AuthContext, uuid: string) {
      const row = await find(auth, uuid);
      const payload = { event: 'webhook.test', webhook: { uuid: row.uuid, name: row.name }, sent_at: deps.clock.now().toISOString() };
      // The attempt is written with its audit event (on the webhook; what it shows is the attempt).
      const attempt = await call(row, 'webhook.test', payload, null, (write) =>
        deps.db.transaction(async (tx) => {
          const written = await write(tx);
          await deps.audit.record(tx, auth, { resourceType: 'webhook', resourceUuid: uuid, after: presentAttempt(written) });
          return written;
        }),
      );
      return presentAttempt(attempt);
    },

    async attempts(auth: AuthContext, uuid: string, window: PageWindow) {
      const row = await find(auth, uuid);
      const { rows, total } = await deps.webhooks.listAttempts(row.id, window);
      return { items: rows.map(presentAttempt), total };
    },

    async delete(auth: AuthContext, uuid: string) {
      const row = await find(auth, uuid);
      const callers = await deps.webhooks.keywordsCalling(row.id);
      if (callers.length > 0)
        throw new ConflictError(`The webhook is called by the keyword${callers.length === 1 ? '' : 's'} ${callers.join(', ')}; detach it first.`);
      await deps.db.transaction(async (tx) => {
        const current = await find(auth, uuid, tx);
        await deps.webhooks.delete(tx, row.id);
        await deps.audit.record(tx, auth, { resourceType: 'webhook', resourceUuid: uuid, before: present(current, headerReaderOf(auth)) });
      });
    },
  };
}
export type WebhooksService = ReturnType<typeof createWebhooksService>;

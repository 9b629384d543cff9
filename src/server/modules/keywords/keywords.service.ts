import { KeywordInputSchema, type Keyword, type KeywordInput, type KeywordPatch } from '../../../shared/contract';
import type { Db } from '../../db/client';
import type { Conn } from '../../db/rows';
import { isUniqueViolation } from '../../db/client';
import type { PageWindow } from '../../db/pages';
import type { AuthContext } from '../../http/auth';
import { NotFoundError, ValidationError } from '../../lib/errors';
import { selfLinks } from '../../lib/presenters';
import { formatTimestamp } from '../../lib/time';
import type { AuditTrail } from '../audit/audit-trail';
import type { ContactGroupsRepository } from '../contact-groups/contact-groups.repository';
import type { WebhooksRepository } from '../webhooks/webhooks.repository';
import type { KeywordRow, KeywordTargets, KeywordsRepository } from './keywords.repository';

export function createKeywordsService(deps: {
  db: Db;
  /** Each change is recorded in its own transaction. */
  audit: Pick<AuditTrail, 'record'>;
  keywords: KeywordsRepository;
  contactGroups: Pick<ContactGroupsRepository, 'idsByUuid'>;
  webhooks: Pick<WebhooksRepository, 'idsByUuid'>;
  config: { publicUrl: string; appTimezone: string };
}) {
  const present = (row: KeywordRow, targets: KeywordTargets): Keyword => ({
    uuid: row.uuid,
    keyword: row.keyword,
    message: row.message,
    help: row.help,
    status: row.status,
    add_contact_to_group: row.addContactToGroup,
    contact_groups_uuid: targets.groups,
    call_webhook: row.callWebhook,
    webhooks_uuid: targets.webhooks,
    links: selfLinks(deps.config.publicUrl, 'keywords', row.uuid),
    created_at: formatTimestamp(row.createdAt, deps.config.appTimezone),
    updated_at: formatTimestamp(row.updatedAt, deps.config.appTimezone),
  });

  /** In a transaction (`conn`), as it sees the keyword's targets. */
  const presentOne = async (row: KeywordRow, conn?: Conn) => present(row, (await deps.keywords.targetsOf([row.id], conn)).get(row.id)!);

  /** Every uuid must name one of the team's groups / webhooks: 422 on the field otherwise (no existence leak). */
  const resolveTargets = async (auth: AuthContext, input: KeywordInput) => {
    const uniqueGroups = [...new Set(input.contact_groups_uuid.map((u) => u.toLowerCase()))];
    const uniqueHooks = [...new Set(input.webhooks_uuid.map((u) => u.toLowerCase()))];
    const [groups, hooks] = await Promise.all([deps.contactGroups.idsByUuid(auth.teamId, uniqueGroups), deps.webhooks.idsByUuid(auth.teamId, uniqueHooks)]);
    const errors: Record<string, string[]> = {};
    if (groups.size !== uniqueGroups.length) errors.contact_groups_uuid = ['The selected contact groups uuid is invalid.'];
    if (hooks.size !== uniqueHooks.length) errors.webhooks_uuid = ['The selected webhooks uuid is invalid.'];
    if (Object.keys(errors).length > 0) throw new ValidationError(errors);
    return { groupIds: uniqueGroups.map((u) => groups.get(u)!), webhookIds: uniqueHooks.map((u) => hooks.get(u)!) };
  };

  const fieldsOf = (input: KeywordInput) => ({
    keyword: input.keyword,
    message: input.message,
    help: input.help,
    addContactToGroup: input.add_contact_to_group,
    callWebhook: input.call_webhook,
  });

  const refuseTaken = (error: unknown): never => {
    if (isUniqueViolation(error, 'keywords_keyword_key')) throw ValidationError.field('keyword', 'The keyword has already been taken.');
    throw error;
  };

  const find = async (auth: AuthContext, uuid: string) => {
    const row = await deps.keywords.find(auth.teamId, uuid);
    if (!row) throw new NotFoundError();
    return row;
  };

  return {
    async list(auth: AuthContext, window: PageWindow, search?: string) {
      const { rows, total } = await deps.keywords.list(auth.teamId, window, search);
      const targets = await deps.keywords.targetsOf(rows.map((row) => row.id));
      return { items: rows.map((row) => present(row, targets.get(row.id)!)), total };
    },

    show: async (auth: AuthContext, uuid: string) => presentOne(await find(auth, uuid)),

    async create(auth: AuthContext, input: KeywordInput) {
      const { groupIds, webhookIds } = await resolveTargets(auth, input);
      return deps.db
        .transaction(async (tx) => {
          const created = await deps.keywords.insert(tx, auth.teamId, fieldsOf(input));
          await deps.keywords.setTargets(tx, created.id, groupIds, webhookIds);
          const after = await presentOne(created, tx);
          await deps.audit.record(tx, auth, { resourceType: 'keyword', resourceUuid: after.uuid, after });
          return after;
        })
        .catch(refuseTaken);
    },

    /** Any field may change; the others keep their values, and the result obeys the create rules. */
    async update(auth: AuthContext, uuid: string, patch: KeywordPatch) {
      const row = await find(auth, uuid);
      const current = await deps.keywords.targetsOf([row.id]);
      const merged = KeywordInputSchema.safeParse({
        keyword: patch.keyword ?? row.keyword,
        message: patch.message ?? row.message,
        help: patch.help ?? row.help,
        add_contact_to_group: patch.add_contact_to_group ?? row.addContactToGroup,
        call_webhook: patch.call_webhook ?? row.callWebhook,
        contact_groups_uuid: patch.contact_groups_uuid ?? current.get(row.id)!.groups,
        webhooks_uuid: patch.webhooks_uuid ?? current.get(row.id)!.webhooks,
      });
      if (!merged.success) throw ValidationError.fromIssues(merged.error.issues);
      const { groupIds, webhookIds } = await resolveTargets(auth, merged.data);
      return deps.db
        .transaction(async (tx) => {
          const current = await deps.keywords.find(auth.teamId, uuid, tx);
          if (!current) throw new NotFoundError();
          const before = await presentOne(current, tx);
          const saved = await deps.keywords.update(tx, row.id, fieldsOf(merged.data));
          await deps.keywords.setTargets(tx, row.id, groupIds, webhookIds);
          const after = await presentOne(saved, tx);
          await deps.audit.record(tx, auth, { resourceType: 'keyword', resourceUuid: uuid, before, after });
          return after;
        })
        .catch(refuseTaken);
    },

    async delete(auth: AuthContext, uuid: string) {
      await deps.db.transaction(async (tx) => {
        const current = await deps.keywords.find(auth.teamId, uuid, tx);
        if (!current) throw new NotFoundError();
        const before = await presentOne(current, tx);
        if (!(await deps.keywords.delete(tx, auth.teamId, uuid))) throw new NotFoundError();
        await deps.audit.record(tx, auth, { resourceType: 'keyword', resourceUuid: uuid, before });
      });
    },
  };
}
export type KeywordsService = ReturnType<typeof createKeywordsService>;

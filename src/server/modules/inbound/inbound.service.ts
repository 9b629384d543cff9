import { OPT_OUT_WORDS, type InboundAction, type InboundMessage } from '../../../shared/contract';
import type { Db } from '../../db/client';
import type { PageWindow } from '../../db/pages';
import type { AuthContext } from '../../http/auth';
import { ValidationError } from '../../lib/errors';
import { normalizePhoneNumber } from '../../lib/phone-numbers';
import { formatTimestamp, type Clock } from '../../lib/time';
import type { ContactGroupsRepository } from '../contact-groups/contact-groups.repository';
import type { ContactsRepository } from '../contacts/contacts.repository';
import type { KeywordsRepository } from '../keywords/keywords.repository';
import { SHORT_CODE_SENDER } from '../teams/teams.service';
import type { WebhooksService } from '../webhooks/webhooks.service';
import type { InboundRecord, InboundRepository } from './inbound.repository';

const WORD = /[\p{L}\p{N}]+/gu;

export type ReceivedMessage = { from: string; body: string; source: 'gateway' | 'api'; teamId: number | null };

/**
 * The one pipeline for every inbound message, typed in the keyword tester or delivered by the
 * gateway: opt-out words, then the first keyword in the message (case-insensitive whole word) and
 * its actions — add the number to groups, call webhooks (signed, never retried), queue the reply.
 */
export function createInboundService(deps: {
  db: Db;
  inbound: InboundRepository;
  keywords: Pick<KeywordsRepository, 'matching' | 'targetIds'>;
  contacts: Pick<ContactsRepository, 'lockGroup' | 'insertMissing' | 'adjustGroup' | 'teamsHolding'>;
  contactGroups: Pick<ContactGroupsRepository, 'optoutsId' | 'namesOf'>;
  webhooks: Pick<WebhooksService, 'callAll'>;
  clock: Clock;
  config: { appTimezone: string; defaultCountry: string };
}) {
  const present = (record: InboundRecord): InboundMessage => ({
    uuid: record.uuid,
    from: record.fromNumber,
    body: record.body,
    source: record.source,
    keyword: record.keyword === null ? null : { uuid: record.keywordUuid, keyword: record.keyword },
    opted_out: record.optedOut,
    actions: record.actions,
    received_at: formatTimestamp(record.receivedAt, deps.config.appTimezone),
  });

  const addToGroups = async (groupIds: number[], phoneNumber: string): Promise<void> => {
    for (const groupId of groupIds) {
      await deps.db.transaction(async (tx) => {
        await deps.contacts.lockGroup(tx, groupId);
        const added = await deps.contacts.insertMissing(tx, groupId, [phoneNumber]);
        await deps.contacts.adjustGroup(tx, groupId, added);
      });
    }
  };

  async function receive(message: ReceivedMessage): Promise<InboundRecord> {
    const normalized = normalizePhoneNumber(message.from, deps.config.defaultCountry);
    const words = message.body.match(WORD) ?? [];
    const optedOut = words.length > 0 && OPT_OUT_WORDS.includes(words[0]!.toUpperCase());
    // An opt-out word to the shared short code names no team: it reaches every team that holds the
    // number (each sees it and stops texting it), as STOP to a shared short code does.
    if (optedOut && message.teamId === null && normalized.ok) {
      const teams = await deps.contacts.teamsHolding(normalized.number);
      if (teams.length > 0) {
        const records = [];
        for (const teamId of teams) records.push(await receiveFor({ ...message, teamId }, normalized, words, optedOut));
        return records[0]!;
      }
    }
    return receiveFor(message, normalized, words, optedOut);
  }

  async function receiveFor(message: ReceivedMessage, normalized: ReturnType<typeof normalizePhoneNumber>, words: string[], optedOut: boolean): Promise<InboundRecord> {
    const from = normalized.ok ? normalized.number : message.from.trim();
    const candidates = optedOut ? [] : await deps.keywords.matching(words, message.teamId);
    // The keyword that comes first in the message wins.
    const keyword = words.map((word) => candidates.find((k) => k.keyword.toLowerCase() === word.toLowerCase())).find((k) => k !== undefined);
    const teamId = keyword?.teamId ?? message.teamId;

    const id = await deps.inbound.insert({ teamId, fromNumber: from, body: message.body, source: message.source, keywordId: keyword?.id ?? null, keyword: keyword?.keyword ?? null, optedOut });
    const actions: InboundAction[] = [];

    if (optedOut && teamId !== null && normalized.ok) {
      await addToGroups([await deps.contactGroups.optoutsId(teamId)], from);
      actions.push({ type: 'opted_out', ok: true, description: `${from} was added to default_optouts and will receive no more campaigns.` });
    }
    if (keyword) {
      const targets = await deps.keywords.targetIds(keyword.id);
      if (keyword.addContactToGroup && targets.groupIds.length > 0) {
        if (normalized.ok) {
          await addToGroups(targets.groupIds, from);
          for (const group of await deps.contactGroups.namesOf(targets.groupIds))
            actions.push({ type: 'added_to_group', ok: true, group_uuid: group.uuid, description: `${from} was added to the group ${group.name}.` });
        } else {
          actions.push({ type: 'added_to_group', ok: false, description: `${message.from} is not a phone number, so it was added to no group.` });
        }
      }
      if (keyword.callWebhook && targets.webhookIds.length > 0) {
        const payload = {
          event: 'keyword.received',
          keyword: { uuid: keyword.uuid, keyword: keyword.keyword },
          message: { from, body: message.body, received_at: deps.clock.now().toISOString() },
        };
        for (const { webhook, attempt } of await deps.webhooks.callAll(targets.webhookIds, 'keyword.received', payload, id)) {
          actions.push({
            type: 'webhook_called',
            ok: attempt.error === null,
            webhook_uuid: webhook.uuid,
            status_code: attempt.statusCode,
            error: attempt.error,
            description: attempt.error === null ? `The webhook ${webhook.name} answered ${attempt.statusCode}.` : `The webhook ${webhook.name} failed: ${attempt.error}`,
          });
        }
      }
      if (keyword.message.trim() !== '') {
        await deps.inbound.queueReply({ teamId: keyword.teamId, inboundMessageId: id, toNumber: from, sender: SHORT_CODE_SENDER, body: keyword.message });
        actions.push({ type: 'reply_queued', ok: true, description: `The reply "${keyword.message}" is queued to ${from}.` });
      }
    }
    await deps.inbound.recordActions(id, actions);
    return deps.inbound.find(id);
  }

  return {
    receive,

    /** The keyword tester: the message runs against the caller's team only. */
    async inject(auth: AuthContext, input: { from: string; body: string }) {
      if (!normalizePhoneNumber(input.from, deps.config.defaultCountry).ok) throw ValidationError.field('from', `The from ${JSON.stringify(input.from)} is not a phone number.`);
      return present(await receive({ ...input, source: 'api', teamId: auth.teamId }));
    },

    async list(auth: AuthContext, window: PageWindow) {
      const { rows, total } = await deps.inbound.list(auth.teamId, window);
      return { items: rows.map(present), total };
    },
  };
}
export type InboundService = ReturnType<typeof createInboundService>;

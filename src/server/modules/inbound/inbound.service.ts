import { OPT_OUT_WORDS, type InboundAction, type InboundMessage } from '../../../shared/contract';
import type { Db, Tx } from '../../db/client';
import type { PageWindow } from '../../db/pages';
import type { AuthContext } from '../../http/auth';
import { ValidationError } from '../../lib/errors';
import { normalizePhoneNumber } from '../../lib/phone-numbers';
import { formatTimestamp, type Clock } from '../../lib/time';
import type { ContactGroupsRepository } from '../contact-groups/contact-groups.repository';
import type { ContactsRepository } from '../contacts/contacts.repository';
import type { KeywordsRepository } from '../keywords/keywords.repository';
import { SHORT_CODE_SENDER } from '../../lib/short-code';
import type { WebhooksService } from '../webhooks/webhooks.service';
import type { InboundRecord, InboundRepository } from './inbound.repository';

const WORD = /[\p{L}\p{N}]+/gu;

/** `key` names a gateway delivery: the same message delivered again carries the same key and is stored once. */
export type ReceivedMessage = { from: string; body: string; source: 'gateway' | 'api'; teamId: number | null; key?: string };

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

  type Normalized = ReturnType<typeof normalizePhoneNumber>;
  type Keyword = Awaited<ReturnType<KeywordsRepository['matching']>>[number];
  /** What one team's copy of a message does, decided before anything is written. */
  type Plan = { teamId: number | null; keyword: Keyword | undefined; optoutsId: number | null; targets: { groupIds: number[]; webhookIds: number[] } };
  /** A message stored for one team, with the actions taken in its transaction. */
  type Written = { id: number; plan: Plan; actions: InboundAction[]; webhooksAt: number };

  const plan = async (teamId: number | null, normalized: Normalized, words: string[], optedOut: boolean): Promise<Plan> => {
    const candidates = optedOut ? [] : await deps.keywords.matching(words, teamId);
    // The keyword that comes first in the message wins.
    const keyword = words.map((word) => candidates.find((k) => k.keyword.toLowerCase() === word.toLowerCase())).find((k) => k !== undefined);
    const owner = keyword?.teamId ?? teamId;
    return {
      teamId: owner,
      keyword,
      optoutsId: optedOut && owner !== null && normalized.ok ? await deps.contactGroups.optoutsId(owner) : null,
      targets: keyword ? await deps.keywords.targetIds(keyword.id) : { groupIds: [], webhookIds: [] },
    };
  };

  /** Adds the number to every group at once, locking the groups in id order (two messages never wait on each other in a circle). */
  const addToGroups = async (tx: Tx, groupIds: number[], phoneNumber: string): Promise<void> => {
    for (const groupId of [...new Set(groupIds)].sort((a, b) => a - b)) {
      await deps.contacts.lockGroup(tx, groupId);
      const added = await deps.contacts.insertMissing(tx, groupId, [phoneNumber]);
      await deps.contacts.adjustGroup(tx, groupId, added);
    }
  };

  let forgotDeliveriesAt = 0;

  /**
   * Stores a message and everything it does in one transaction — the message (one per team it
   * reaches), the opt-out, the numbers added to groups, the reply queued — so a crash or a database
   * failure leaves all of it or none (and the gateway, told so, delivers it again). A gateway
   * delivery seen before (same `key`) stores nothing and returns what it stored then. Webhooks are
   * called after the commit (by the caller, through `webhooks`): never for a message that was not
   * kept, and never twice for one.
   */
  async function store(message: ReceivedMessage): Promise<{ duplicateOf: number | null } | { firstId: number; webhooks: () => Promise<void> }> {
    const normalized = normalizePhoneNumber(message.from, deps.config.defaultCountry);
    const words = message.body.match(WORD) ?? [];
    const optedOut = words.length > 0 && OPT_OUT_WORDS.includes(words[0]!.toUpperCase());
    const from = normalized.ok ? normalized.number : message.from.trim();
    // An opt-out word to the shared short code names no team: it reaches every team that holds the
    // number (each sees it and stops texting it), as STOP to a shared short code does.
    const teams = optedOut && message.teamId === null && normalized.ok ? await deps.contacts.teamsHolding(normalized.number) : [];
    const plans = await Promise.all((teams.length > 0 ? teams : [message.teamId]).map((teamId) => plan(teamId, normalized, words, optedOut)));
    const groupNames = await deps.contactGroups.namesOf([...new Set(plans.flatMap((p) => (p.keyword?.addContactToGroup ? p.targets.groupIds : [])))]);
    const now = deps.clock.now();

    const stored = await deps.db.transaction(async (tx) => {
      if (message.key) {
        const earlier = await deps.inbound.claimDelivery(tx, message.key, now);
        if (earlier) return { written: [], duplicateOf: earlier.storedAs };
      }
      const written: Written[] = [];
      const groupIds: number[] = [];
      for (const p of plans) {
        const { keyword } = p;
        const id = await deps.inbound.insert(tx, {
          teamId: p.teamId,
          fromNumber: from,
          body: message.body,
          source: message.source,
          keywordId: keyword?.id ?? null,
          keyword: keyword?.keyword ?? null,
          optedOut,
          receivedAt: now,
        });
        const actions: InboundAction[] = [];
        if (p.optoutsId !== null) {
          groupIds.push(p.optoutsId);
          actions.push({ type: 'opted_out', ok: true, description: `${from} was added to default_optouts and will receive no more campaigns.` });
        }
        if (keyword?.addContactToGroup && p.targets.groupIds.length > 0) {
          if (normalized.ok) {
            groupIds.push(...p.targets.groupIds);
            for (const group of groupNames.filter((named) => p.targets.groupIds.includes(named.id)))
              actions.push({ type: 'added_to_group', ok: true, group_uuid: group.uuid, description: `${from} was added to the group ${group.name}.` });
          } else {
            actions.push({ type: 'added_to_group', ok: false, description: `${message.from} is not a phone number, so it was added to no group.` });
          }
        }
        // Webhook calls, made after the commit, are listed here: after the groups, before the reply.
        const webhooksAt = actions.length;
        if (keyword && keyword.message.trim() !== '') {
          await deps.inbound.queueReply(tx, { teamId: keyword.teamId, inboundMessageId: id, toNumber: from, sender: SHORT_CODE_SENDER, body: keyword.message });
          actions.push({ type: 'reply_queued', ok: true, description: `The reply "${keyword.message}" is queued to ${from}.` });
        }
        await deps.inbound.recordActions(id, actions, tx);
        written.push({ id, plan: p, actions, webhooksAt });
      }
      if (normalized.ok) await addToGroups(tx, groupIds, from);
      if (message.key) await deps.inbound.recordDelivery(tx, message.key, written[0]!.id);
      return { written, duplicateOf: undefined };
    });

    if (stored.duplicateOf !== undefined) return { duplicateOf: stored.duplicateOf };
    if (message.key && now.getTime() - forgotDeliveriesAt > 3_600_000) {
      forgotDeliveriesAt = now.getTime();
      await deps.inbound.forgetDeliveries(now);
    }
    const written = stored.written;
    return { firstId: written[0]!.id, webhooks: () => callWebhooks(written, from, message.body, now) };
  }

  /** Calls the keywords' webhooks for messages already stored, and records what they answered. */
  async function callWebhooks(written: Written[], from: string, body: string, now: Date): Promise<void> {
    for (const { id, plan: p, actions, webhooksAt } of written) {
      if (!p.keyword?.callWebhook || p.targets.webhookIds.length === 0) continue;
      const calls: InboundAction[] = [];
      const payload = {
        event: 'keyword.received',
        keyword: { uuid: p.keyword.uuid, keyword: p.keyword.keyword },
        message: { from, body, received_at: now.toISOString() },
      };
      for (const { webhook, attempt } of await deps.webhooks.callAll(p.targets.webhookIds, 'keyword.received', payload, id)) {
        calls.push({
          type: 'webhook_called',
          ok: attempt.error === null,
          webhook_uuid: webhook.uuid,
          status_code: attempt.statusCode,
          error: attempt.error,
          description:
            attempt.error === null ? `The webhook ${webhook.name} answered ${attempt.statusCode}.` : `The webhook ${webhook.name} failed: ${attempt.error}`,
        });
      }
      await deps.inbound.recordActions(id, [...actions.slice(0, webhooksAt), ...calls, ...actions.slice(webhooksAt)]);
    }
  }

  /** Typed in the keyword tester: stored, webhooks called, and the record with every action returned. */
  async function receive(message: ReceivedMessage): Promise<InboundRecord> {
    const stored = await store(message);
    if ('duplicateOf' in stored) throw new Error('a message without a delivery key cannot be a redelivery');
    await stored.webhooks();
    return deps.inbound.find(stored.firstId);
  }

  /**
   * Delivered by the gateway: resolves once the message and what it does are committed, so the
   * gateway can acknowledge it (a redelivery resolves at once and stores nothing). Webhooks are
   * called afterwards, in the background: a slow one must not hold the acknowledgement past the
   * SMSC's response timeout.
   */
  async function receiveDelivery(message: ReceivedMessage, onWebhookError: (error: Error) => void): Promise<void> {
    const stored = await store(message);
    if ('duplicateOf' in stored) return;
    stored.webhooks().catch(onWebhookError);
  }

  return {
    receive,
    receiveDelivery,

    /** The keyword tester: the message runs against the caller's team only. */
    async inject(auth: AuthContext, input: { from: string; body: string }) {
      if (!normalizePhoneNumber(input.from, deps.config.defaultCountry).ok)
        throw ValidationError.field('from', `The from ${JSON.stringify(input.from)} is not a phone number.`);
      return present(await receive({ ...input, source: 'api', teamId: auth.teamId }));
    },

    async list(auth: AuthContext, window: PageWindow) {
      const { rows, total } = await deps.inbound.list(auth.teamId, window);
      return { items: rows.map(present), total };
    },
  };
}
export type InboundService = ReturnType<typeof createInboundService>;

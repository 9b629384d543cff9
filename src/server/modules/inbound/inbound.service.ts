import { builtInWordOf, type InboundAction, type InboundMessage } from '../../../shared/contract';
import type { Db, Tx } from '../../db/client';
import type { PageWindow } from '../../db/pages';
import type { AuthContext } from '../../http/auth';
import { ValidationError } from '../../lib/errors';
import { normalizePhoneNumber } from '../../lib/phone-numbers';
import { formatTimestamp, type Clock } from '../../lib/time';
import type { AuditTrail } from '../audit/audit-trail';
import type { ContactGroupsRepository } from '../contact-groups/contact-groups.repository';
import type { ConsentRepository } from '../consent/consent.repository';
import type { OptInRepository } from '../consent/opt-in.repository';
import type { ContactsRepository } from '../contacts/contacts.repository';
import type { ConversationsRepository } from '../conversations/conversations.repository';
import type { FlowsService } from '../flows/flows.service';
import type { KeywordsRepository } from '../keywords/keywords.repository';
import type { Suppressions } from '../suppressions/suppressions.service';
import type { TeamsRepository } from '../teams/teams.repository';
import { SHORT_CODE_SENDER } from '../../lib/short-code';
import type { WebhooksService } from '../webhooks/webhooks.service';
import { createBuiltInWords, type BuiltIn, type GroupOutcome, type Plan } from './built-in-words';
import type { InboundRecord, InboundRepository } from './inbound.repository';

const WORD = /[\p{L}\p{N}]+/gu;
const REPLY_NAMES = { opt_out: 'opt-out reply', opt_in: 'opt-in reply', help: 'help reply' } as const;

/** `key` names a gateway delivery: the same message delivered again carries the same key and is stored once. */
export type ReceivedMessage = { from: string; body: string; source: 'gateway' | 'api'; teamId: number | null; key?: string };

/**
 * The one pipeline for every inbound message, typed in the keyword tester or delivered by the
 * gateway: the built-in words first (a message that starts with STOP or a synonym opts out, START or
 * UNSTOP opts back in, HELP is answered with the team's help reply; see built-in-words.ts), else the
 * first keyword in the message (case-insensitive whole word) and its actions — add the number to
 * groups (never an opted-out number), call webhooks (signed, never retried), queue the reply
 * (never to an opted-out number). A keyword that adds a number to a group records its consent; under
 * the team's double opt-in, one from a number without consent is a sign-up that asks for YES first,
 * and a YES (first word, any case) from a number with a pending request confirms it and does what
 * the sign-up asked (docs/consent.md). A YES with no pending request is an ordinary message.
 */
export function createInboundService(deps: {
  db: Db;
  /** A message typed in the keyword tester is recorded in the transaction that stores it. */
  audit: Pick<AuditTrail, 'record'>;
  inbound: InboundRepository;
  /** The inbox: a message from a number makes (or reopens) the team's conversation with it. */
  conversations: Pick<ConversationsRepository, 'received'>;
  keywords: Pick<KeywordsRepository, 'matching' | 'targetIds' | 'byId'>;
  /** A keyword's flows start in the message's transaction (docs/flows.md); a keyword with flows is a sign-up under double opt-in. */
  flows: Pick<FlowsService, 'startForKeyword' | 'keywordStartsFlows' | 'optedOut'>;
  contacts: Pick<ContactsRepository, 'lockGroup' | 'insertMissing' | 'adjustGroup' | 'teamsHolding' | 'mergeFields'>;
  /** Consent records and double opt-in requests, and the request's text (consent.repository.ts's `confirmationText`). */
  consent: Pick<ConsentRepository, 'record' | 'requestOptIn'> & { confirmationText: (teamName: string) => string };
  optIns: Pick<OptInRepository, 'hasConsent' | 'teamsPending' | 'expireOf' | 'confirm' | 'pendingFor'>;
  contactGroups: Pick<ContactGroupsRepository, 'namesOf'>;
  suppressions: Pick<Suppressions, 'listOf' | 'add' | 'remove' | 'check' | 'teamsSuppressing' | 'lastSenderOf'>;
  teams: Pick<TeamsRepository, 'settingsOf'>;
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

  const builtIns = createBuiltInWords(deps);
  /** A message stored for one team, with the actions taken in its transaction. */
  type Written = { id: number; plan: Plan; actions: InboundAction[]; webhooksAt: number };

  /** What the number's entry to (or exit from) default_optouts, or its refusal by a keyword's groups, looks like in the action list. */
  const groupActions = (
    p: Plan,
    builtIn: BuiltIn,
    outcome: { changed: boolean; heldOut: boolean },
    from: string,
    rawFrom: string,
    isNumber: boolean,
    groupNames: Array<{ id: number; uuid: string; name: string }>,
  ): InboundAction[] => {
    const actions: InboundAction[] = [];
    if (builtIn === 'opt_out' && p.optoutsId !== null)
      actions.push({
        type: 'opted_out',
        ok: true,
        description: outcome.changed
          ? `${from} was added to default_optouts and will receive no more campaigns.`
          : `${from} was already in default_optouts: nothing changed, and no confirmation was sent again.`,
      });
    if (builtIn === 'opt_in' && p.optoutsId !== null)
      actions.push(
        outcome.changed
          ? { type: 'opted_in', ok: true, description: `${from} was removed from default_optouts and will receive campaigns again.` }
          : { type: 'opted_in', ok: false, description: `${from} was not opted out: nothing changed, and no reply was sent.` },
      );
    if (p.keyword?.addContactToGroup && p.targets.groupIds.length > 0 && !p.signUp) {
      if (!isNumber) return [...actions, { type: 'added_to_group', ok: false, description: `${rawFrom} is not a phone number, so it was added to no group.` }];
      for (const group of groupNames.filter((named) => p.targets.groupIds.includes(named.id)))
        actions.push(
          outcome.heldOut
            ? {
                type: 'added_to_group',
                ok: false,
                group_uuid: group.uuid,
                description: `${from} is opted out (in default_optouts), so it was not added to the group ${group.name}; it stays out until it texts START.`,
              }
            : { type: 'added_to_group', ok: true, group_uuid: group.uuid, description: `${from} was added to the group ${group.name}.` },
        );
    }
    return actions;
  };

  let forgotDeliveriesAt = 0;

  /**
   * The consent side of one team's copy of a message, once it is stored (its uuid is the evidence):
   * a keyword that joined the number to a group records its consent; a sign-up under double opt-in
   * opens (or renews) the request and queues "reply YES"; a YES that confirmed a request records the
   * consent the request asked for, with both messages as evidence, and answers with the keyword's
   * reply. Answers the actions to list and the reply to queue ('' : none).
   */
  async function consentOf(
    tx: Tx,
    p: Plan,
    outcome: GroupOutcome,
    id: number,
    from: string,
    now: Date,
    groupNames: Array<{ id: number; uuid: string; name: string }>,
  ): Promise<{ actions: InboundAction[]; reply: string }> {
    if (p.teamId === null) return { actions: [], reply: '' };
    const uuid = async () => (await deps.inbound.find(id, tx)).uuid;
    const named = groupNames.filter((group) => p.targets.groupIds.includes(group.id) && group.id !== p.optoutsId);
    if (p.signUp && p.keyword && !outcome.heldOut) {
      const text = deps.consent.confirmationText(p.signUp.teamName);
      const { queued } = await deps.consent.requestOptIn(tx, {
        teamId: p.teamId,
        phoneNumber: from,
        source: 'keyword',
        textShown: text,
        evidence: { inbound_message_uuid: await uuid(), keyword_uuid: p.keyword.uuid },
        keywordId: p.keyword.id,
        now,
        sender: SHORT_CODE_SENDER,
        confirmation: text,
        inboundMessageId: id,
      });
      const groups = named.length > 0 ? named.map((group) => group.name).join(', ') : "the keyword's flows";
      return {
        actions: [
          {
            type: 'opt_in_requested',
            ok: true,
            description: queued
              ? `${from} has not agreed to the team's messages yet (double opt-in), so it was not added to ${groups}: "${text}" is queued, and it joins when it replies YES within 48 hours.`
              : `${from} signed up again within 10 minutes (double opt-in): its request to confirm was renewed without texting it again; it joins ${groups} when it replies YES within 48 hours.`,
          },
        ],
        reply: '',
      };
    }
    if (p.confirming) {
      const { request, keyword } = p.confirming;
      if (!outcome.confirmed)
        return { actions: [{ type: 'opt_in_confirmed', ok: false, description: `${from}'s request to confirm had expired: nothing changed.` }], reply: '' };
      await deps.consent.record(tx, {
        teamId: p.teamId,
        phoneNumber: from,
        source: request.source,
        at: now,
        textShown: request.textShown,
        evidence: { ...request.evidence, opt_in_request_uuid: request.uuid, confirmation_message_uuid: await uuid() },
      });
      const actions: InboundAction[] = [
        { type: 'opt_in_confirmed', ok: true, description: `${from} replied YES: its sign-up is confirmed and its consent recorded.` },
      ];
      if (outcome.changed)
        actions.push({ type: 'opted_in', ok: true, description: `${from} was removed from default_optouts and will receive campaigns again.` });
      for (const group of named)
        actions.push({ type: 'added_to_group', ok: true, group_uuid: group.uuid, description: `${from} was added to the group ${group.name}.` });
      return { actions, reply: keyword && keyword.message.trim() !== '' ? keyword.message : '' };
    }
    if (p.keyword && outcome.joined)
      await deps.consent.record(tx, {
        teamId: p.teamId,
        phoneNumber: from,
        source: 'keyword',
        at: now,
        textShown: p.keyword.message,
        evidence: { inbound_message_uuid: await uuid(), keyword_uuid: p.keyword.uuid },
      });
    return { actions: [], reply: '' };
  }

  /**
   * Stores a message and everything it does in one transaction — the message (one per team it
   * reaches), the opt-out or opt-in and its event, the numbers added to groups, the reply queued —
   * so a crash or a database failure leaves all of it or none (and the gateway, told so, delivers it
   * again). A gateway delivery seen before (same `key`) stores nothing and returns what it stored
   * then. Webhooks are called after the commit (by the caller, through `webhooks`): never for a
   * message that was not kept, and never twice for one. A message a member typed (`by`) is
   * recorded in the audit trail in the same transaction, as it stands at the commit: the webhook
   * calls made after it are not part of the change.
   */
  async function store(
    message: ReceivedMessage,
    by?: AuthContext,
  ): Promise<{ duplicateOf: number | null } | { firstId: number; webhooks: () => Promise<void> }> {
    const normalized = normalizePhoneNumber(message.from, deps.config.defaultCountry);
    const words = message.body.match(WORD) ?? [];
    const builtIn = builtInWordOf(words[0]);
    const from = normalized.ok ? normalized.number : message.from.trim();
    const now = deps.clock.now();
    // YES from a number with a pending double opt-in request confirms it; any other YES is an ordinary message.
    const pending =
      builtIn === null && normalized.ok && words[0]?.toUpperCase() === 'YES' ? await deps.optIns.pendingFor(normalized.number, message.teamId, now) : undefined;
    const teams = pending ? [] : await builtIns.teamsOf(message.teamId, normalized, builtIn);
    const plans = pending
      ? [await builtIns.planConfirmation(pending)]
      : await Promise.all(teams.map((teamId) => builtIns.plan(teamId, normalized, words, builtIn)));
    const groupNames = await deps.contactGroups.namesOf([
      ...new Set(plans.flatMap((p) => (p.keyword?.addContactToGroup || p.confirming ? p.targets.groupIds : []))),
    ]);
    // One handset message gets one reply however many teams it reaches: the team whose campaign last went to the number, else the first.
    const preferredTeam = plans.length > 1 && normalized.ok ? await deps.suppressions.lastSenderOf(normalized.number) : undefined;

    const stored = await deps.db.transaction(async (tx) => {
      if (message.key) {
        const earlier = await deps.inbound.claimDelivery(tx, message.key, now);
        if (earlier) return { written: [], duplicateOf: earlier.storedAs };
      }
      const outcomes = await builtIns.applyAll(tx, plans, builtIn, from, normalized.ok, now);
      // A built-in word is answered only when it changed something (HELP always): STOP from a number
      // already opted out is not answered again, so an auto-responder and Herald cannot loop.
      const replying = plans
        .map((p, index) => ({ p, index }))
        .filter(({ p, index }) => p.teamId !== null && normalized.ok && (builtIn === 'help' || outcomes[index]!.changed));
      const replier = (replying.find(({ p }) => p.teamId === preferredTeam) ?? replying[0])?.index;

      const written: Written[] = [];
      for (const [index, p] of plans.entries()) {
        const { keyword } = p;
        const id = await deps.inbound.insert(tx, {
          teamId: p.teamId,
          fromNumber: from,
          body: message.body,
          source: message.source,
          keywordId: keyword?.id ?? null,
          keyword: keyword?.keyword ?? null,
          optedOut: builtIn === 'opt_out',
          receivedAt: now,
        });
        if (p.teamId !== null && normalized.ok) await deps.conversations.received(tx, p.teamId, from, now);
        // STOP ends the number's flows: its runs are advanced (and exited) at once.
        if (builtIn === 'opt_out' && p.teamId !== null && normalized.ok && outcomes[index]!.changed) await deps.flows.optedOut(tx, p.teamId, from, now);
        const outcome = outcomes[index]!;
        const actions = groupActions(p, builtIn, outcome, from, message.from, normalized.ok, groupNames);
        const consented = await consentOf(tx, p, outcome, id, from, now, groupNames);
        actions.push(...consented.actions);
        // The keyword's flows start with its other actions: at once, or, for a sign-up under double
        // opt-in, when its YES confirms it (an opted-out number's runs end at their first step).
        const flowKeyword = p.confirming ? (outcome.confirmed ? p.confirming.keyword : undefined) : p.signUp ? undefined : keyword;
        if (flowKeyword && normalized.ok && !outcome.heldOut) {
          const started = await deps.flows.startForKeyword(tx, flowKeyword.id, from, now);
          // A keyword that only starts flows is consent too (one that joined a group recorded it above).
          if (started.length > 0 && !outcome.joined && !p.confirming && p.teamId !== null)
            await deps.consent.record(tx, {
              teamId: p.teamId,
              phoneNumber: from,
              source: 'keyword',
              at: now,
              textShown: flowKeyword.message,
              evidence: { inbound_message_uuid: (await deps.inbound.find(id, tx)).uuid, keyword_uuid: flowKeyword.uuid },
            });
        }
        // Webhook calls, made after the commit, are listed here: after the groups, before the reply.
        const webhooksAt = actions.length;
        if (consented.reply !== '') {
          await deps.inbound.queueReply(tx, {
            teamId: p.teamId!,
            inboundMessageId: id,
            toNumber: from,
            sender: SHORT_CODE_SENDER,
            body: consented.reply,
            at: now,
          });
          actions.push({ type: 'reply_queued', ok: true, description: `The reply "${consented.reply}" is queued to ${from}.` });
        } else if (keyword && keyword.message.trim() !== '' && outcome.heldOut)
          actions.push({
            type: 'reply_queued',
            ok: false,
            description: `${from} is opted out (in default_optouts), so the reply "${keyword.message}" was not sent; it receives nothing until it texts START.`,
          });
        // A sign-up's answer is the request to confirm: the keyword's reply waits for its YES.
        else if (keyword && keyword.message.trim() !== '' && !p.signUp) {
          await deps.inbound.queueReply(tx, {
            teamId: keyword.teamId,
            inboundMessageId: id,
            toNumber: from,
            sender: SHORT_CODE_SENDER,
            body: keyword.message,
            at: now,
          });
          actions.push({ type: 'reply_queued', ok: true, description: `The reply "${keyword.message}" is queued to ${from}.` });
        }
        if (builtIn !== null && replier === index && p.reply !== '' && p.teamId !== null) {
          await deps.inbound.queueReply(tx, { teamId: p.teamId, inboundMessageId: id, toNumber: from, sender: SHORT_CODE_SENDER, body: p.reply, at: now });
          actions.push({ type: 'reply_queued', ok: true, description: `The team's ${REPLY_NAMES[builtIn]} "${p.reply}" is queued to ${from}.` });
        }
        await deps.inbound.recordActions(id, actions, tx);
        written.push({ id, plan: p, actions, webhooksAt });
      }
      if (message.key) await deps.inbound.recordDelivery(tx, message.key, written[0]!.id);
      if (by) {
        const after = present(await deps.inbound.find(written[0]!.id, tx));
        await deps.audit.record(tx, by, { resourceType: 'inbound_message', resourceUuid: after.uuid, after });
      }
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

  /** Typed in the keyword tester (by `by`, when a member): stored, webhooks called, and the record with every action returned. */
  async function receive(message: ReceivedMessage, by?: AuthContext): Promise<InboundRecord> {
    const stored = await store(message, by);
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
      return present(await receive({ ...input, source: 'api', teamId: auth.teamId }, auth));
    },

    async list(auth: AuthContext, window: PageWindow) {
      const { rows, total } = await deps.inbound.list(auth.teamId, window);
      return { items: rows.map(present), total };
    },
  };
}
export type InboundService = ReturnType<typeof createInboundService>;

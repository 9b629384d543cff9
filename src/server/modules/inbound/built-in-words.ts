import type { builtInWordOf } from '../../../shared/contract';
import type { Tx } from '../../db/client';
import type { normalizePhoneNumber } from '../../lib/phone-numbers';
import type { OptInRepository, OptInRequestRow } from '../consent/opt-in.repository';
import type { ContactsRepository } from '../contacts/contacts.repository';
import type { FlowsService } from '../flows/flows.service';
import type { KeywordsRepository } from '../keywords/keywords.repository';
import type { Suppressions } from '../suppressions/suppressions.service';
import type { TeamsRepository } from '../teams/teams.repository';

export type BuiltIn = ReturnType<typeof builtInWordOf>;
type Normalized = ReturnType<typeof normalizePhoneNumber>;
type Keyword = Awaited<ReturnType<KeywordsRepository['matching']>>[number];

/** What one team's copy of a message does, decided before anything is written. */
export type Plan = {
  teamId: number | null;
  keyword: Keyword | undefined;
  /** The team's default_optouts, when the message may enter, leave or be checked against it. */
  optoutsId: number | null;
  targets: { groupIds: number[]; webhookIds: number[] };
  /** The team's reply to the built-in word; '' : none. */
  reply: string;
  /**
   * Under the team's double opt-in, a keyword that would add a number without consent to a group:
   * a sign-up, which joins nothing until the number replies YES (the team's name signs the request).
   */
  signUp?: { teamName: string };
  /** A YES answering a pending double opt-in request: the request, and the keyword it was made for. */
  confirming?: { request: OptInRequestRow; keyword: Keyword | undefined };
};

/**
 * What a message changed for one team: default_optouts entered or left, or a keyword met an
 * opted-out number (no groups, no reply); `joined`: the keyword's actions added the number to a
 * group; `confirmed`: a YES confirmed its request (false: the request expired meanwhile).
 */
export type GroupOutcome = { changed: boolean; heldOut: boolean; joined?: boolean; confirmed?: boolean };

/**
 * The built-in words of the inbound pipeline: which teams a message reaches, what each team's copy
 * does, and its changes to the groups — default_optouts entered (STOP and its synonyms) or left
 * (START, UNSTOP), each recorded in the opt-out history, and a keyword's groups never given an
 * opted-out number.
 */
export function createBuiltInWords(deps: {
  contacts: Pick<ContactsRepository, 'lockGroup' | 'insertMissing' | 'adjustGroup' | 'teamsHolding' | 'mergeFields'>;
  suppressions: Pick<Suppressions, 'listOf' | 'add' | 'remove' | 'check' | 'teamsSuppressing' | 'lastSenderOf'>;
  teams: Pick<TeamsRepository, 'settingsOf'>;
  keywords: Pick<KeywordsRepository, 'matching' | 'targetIds' | 'byId'>;
  optIns: Pick<OptInRepository, 'hasConsent' | 'teamsPending' | 'expireOf' | 'confirm'>;
  flows: Pick<FlowsService, 'keywordStartsFlows'>;
}) {
  /**
   * The teams a message reaches. To the shared short code (no team): STOP reaches every team
   * holding the number (each stops texting it); START every team that holds it opted out; HELP, and
   * START from a number no team holds opted out, the team whose campaign last went to the number,
   * else the one team holding it. Anything else is its own team's (none for the shared short code:
   * a keyword then decides).
   */
  async function teamsOf(teamId: number | null, normalized: Normalized, builtIn: BuiltIn): Promise<Array<number | null>> {
    if (teamId !== null || !normalized.ok || builtIn === null) return [teamId];
    const number = normalized.number;
    if (builtIn === 'opt_out') {
      // A team waiting for the number's YES hears its STOP too: the request expires and the number is opted out.
      const holding = [...new Set([...(await deps.contacts.teamsHolding(number)), ...(await deps.optIns.teamsPending(number))])];
      return holding.length > 0 ? holding : [null];
    }
    if (builtIn === 'opt_in') {
      const optedOut = await deps.suppressions.teamsSuppressing(number);
      if (optedOut.length > 0) return optedOut;
    }
    const last = await deps.suppressions.lastSenderOf(number);
    if (last !== undefined) return [last];
    const holding = await deps.contacts.teamsHolding(number);
    return holding.length === 1 ? holding : [null];
  }

  async function plan(teamId: number | null, normalized: Normalized, words: string[], builtIn: BuiltIn): Promise<Plan> {
    // A message that starts with a built-in word matches no keyword: the words are the service's.
    const candidates = builtIn !== null ? [] : await deps.keywords.matching(words, teamId);
    // The keyword that comes first in the message wins.
    const keyword = words.map((word) => candidates.find((k) => k.keyword.toLowerCase() === word.toLowerCase())).find((k) => k !== undefined);
    const owner = keyword?.teamId ?? teamId;
    // A keyword reads default_optouts too: an opted-out number is neither added to groups nor replied to.
    const readsOptouts = builtIn !== null || keyword !== undefined;
    const settings = owner !== null && builtIn !== null ? await deps.teams.settingsOf(owner) : null;
    const reply = !settings ? '' : builtIn === 'opt_out' ? settings.optOutReply : builtIn === 'opt_in' ? settings.optInReply : settings.helpReply;
    const optoutsId = readsOptouts && owner !== null && normalized.ok ? await deps.suppressions.listOf(owner) : null;
    const targets = keyword ? await deps.keywords.targetIds(keyword.id) : { groupIds: [], webhookIds: [] };
    return {
      teamId: owner,
      keyword,
      optoutsId,
      targets,
      reply: reply.trim() === '' ? '' : reply,
      signUp: await signUpOf(keyword, targets.groupIds, optoutsId, normalized),
    };
  }

  /**
   * A keyword that adds a number without consent to a group (default_optouts aside), or starts a
   * flow, is a sign-up; under the team's double opt-in it waits for the number's YES. Without double
   * opt-in nothing changes: the keyword joins the number (and starts its flows) at once, and its
   * consent is recorded.
   */
  async function signUpOf(keyword: Keyword | undefined, groupIds: number[], optoutsId: number | null, normalized: Normalized) {
    if (!keyword || optoutsId === null || !normalized.ok) return undefined;
    const joins = keyword.addContactToGroup && groupIds.some((id) => id !== optoutsId);
    if (!joins && !(await deps.flows.keywordStartsFlows(keyword.id))) return undefined;
    const settings = await deps.teams.settingsOf(keyword.teamId);
    if (!settings.doubleOptIn || (await deps.optIns.hasConsent(keyword.teamId, normalized.number))) return undefined;
    return { teamName: settings.name };
  }

  /** A YES that answers a pending request: what the request's sign-up asked (its keyword's groups, or the sign-up page's group). */
  async function planConfirmation(request: OptInRequestRow): Promise<Plan> {
    const keyword = request.keywordId === null ? undefined : await deps.keywords.byId(request.keywordId);
    const groupIds = keyword
      ? keyword.addContactToGroup
        ? (await deps.keywords.targetIds(keyword.id)).groupIds
        : []
      : request.groupId === null
        ? []
        : [request.groupId];
    return {
      teamId: request.teamId,
      keyword: undefined,
      optoutsId: await deps.suppressions.listOf(request.teamId),
      targets: { groupIds, webhookIds: [] },
      reply: '',
      confirming: { request, keyword },
    };
  }

  /**
   * The keyword's actions for a number that may have them: it joins the keyword's groups (or, for a
   * sign-up page's request, its group with the form's fields). The double opt-in's YES runs this
   * same function for the keyword the sign-up texted, so whatever a keyword starts (its groups;
   * the flows it starts, when it has any) starts here, on the normal path and after YES alike.
   */
  async function keywordActions(tx: Tx, p: Plan, phoneNumber: string, at: Date, fields: Record<string, string> = {}): Promise<GroupOutcome> {
    const optouts = p.optoutsId!;
    const actor = { teamId: p.teamId!, source: 'keyword' as const, userId: null };
    let changed = false;
    let joined = false;
    for (const groupId of [...new Set(p.targets.groupIds)].sort((a, b) => a - b)) {
      // A keyword that adds numbers to default_optouts opts them out: recorded like STOP.
      if (groupId === optouts) changed = (await deps.suppressions.add(tx, optouts, actor, [phoneNumber], at)) > 0;
      else {
        joined = true;
        const { headers } = await deps.contacts.lockGroup(tx, groupId);
        const known = new Set(headers.map((header) => header.toLowerCase()));
        const added = Object.keys(fields).filter((name) => !known.has(name.toLowerCase()));
        await deps.contacts.adjustGroup(
          tx,
          groupId,
          await deps.contacts.insertMissing(tx, groupId, [phoneNumber]),
          added.length > 0 ? [...headers, ...added] : undefined,
        );
        if (Object.keys(fields).length > 0) await deps.contacts.mergeFields(tx, groupId, phoneNumber, fields);
      }
    }
    return { changed, heldOut: false, joined };
  }

  /**
   * One team's changes, its groups already locked. Entering or leaving default_optouts is recorded
   * first (an event only for a real change: STOP from a number already opted out, or START from one
   * that is not, records nothing); an opt-out names the campaign it followed.
   */
  async function apply(tx: Tx, p: Plan, builtIn: BuiltIn, phoneNumber: string, at: Date): Promise<GroupOutcome> {
    const optouts = p.optoutsId;
    if (optouts === null || p.teamId === null) return { changed: false, heldOut: false };
    const actor = { teamId: p.teamId, source: 'keyword' as const, userId: null };
    if (builtIn === 'opt_out' || builtIn === 'opt_in') {
      const change = builtIn === 'opt_out' ? deps.suppressions.add : deps.suppressions.remove;
      const changed = (await change(tx, optouts, actor, [phoneNumber], at)) > 0;
      // STOP while a double opt-in request waits: the request expires (the number said no).
      if (builtIn === 'opt_out') await deps.optIns.expireOf(tx, p.teamId, phoneNumber, at);
      return { changed, heldOut: false };
    }
    if (p.confirming) {
      // A concurrent YES, or the expiry job, may have taken the request since it was read: then nothing happens.
      if (!(await deps.optIns.confirm(tx, p.confirming.request.id, at))) return { changed: false, heldOut: false, confirmed: false };
      // The YES is the number's own word: one opted out since it signed up (a sign-up page does not check) opts back in.
      const optedBackIn = (await deps.suppressions.remove(tx, optouts, actor, [phoneNumber], at)) > 0;
      const outcome = await keywordActions(tx, p, phoneNumber, at, p.confirming.request.fields);
      return { ...outcome, changed: optedBackIn || outcome.changed, confirmed: true };
    }
    if (!p.keyword) return { changed: false, heldOut: false };
    // An opted-out number stays out: a keyword does not subscribe it again (only START does), and
    // its reply is not sent to it (nothing is, but the opt-out confirmation).
    if (await deps.suppressions.check(tx, optouts, phoneNumber)) return { changed: false, heldOut: true };
    // A sign-up under double opt-in joins nothing yet: the pipeline asks for YES (inbound.service.ts).
    if (!p.keyword.addContactToGroup || p.signUp) return { changed: false, heldOut: false };
    return keywordActions(tx, p, phoneNumber, at);
  }

  /**
   * Every team's changes, in the message's transaction. Each group any of them may change or read
   * is locked first, in id order, so two messages never wait on each other in a circle, and a STOP
   * and a keyword for the same number cannot pass each other.
   */
  async function applyAll(tx: Tx, plans: Plan[], builtIn: BuiltIn, phoneNumber: string, isNumber: boolean, at: Date): Promise<GroupOutcome[]> {
    if (!isNumber) return plans.map(() => ({ changed: false, heldOut: false }));
    const locked = new Set<number>();
    for (const p of plans) {
      if (p.optoutsId !== null) locked.add(p.optoutsId);
      if (p.keyword?.addContactToGroup || p.confirming) for (const id of p.targets.groupIds) locked.add(id);
    }
    for (const groupId of [...locked].sort((a, b) => a - b)) await deps.contacts.lockGroup(tx, groupId);
    const outcomes: GroupOutcome[] = [];
    for (const p of plans) outcomes.push(await apply(tx, p, builtIn, phoneNumber, at));
    return outcomes;
  }

  return { teamsOf, plan, planConfirmation, applyAll };
}

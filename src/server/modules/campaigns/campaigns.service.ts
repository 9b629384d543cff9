import type { ApprovalDecision, Campaign, CampaignInput, SendTestInput, TestSendInput } from '../../../shared/contract';
import type { Db } from '../../db/client';
import type { PageWindow } from '../../db/pages';
import type { AuthContext } from '../../http/auth';
import { ConflictError, ForbiddenError, LockedError, NotFoundError, ValidationError } from '../../lib/errors';
import { normalizePhoneNumber } from '../../lib/phone-numbers';
import { formatTimestamp, type Clock } from '../../lib/time';
import type { CampaignEventLog } from '../../observability/campaign-events';
import type { ContactGroupsRepository } from '../contact-groups/contact-groups.repository';
import type { RecipientsRepository } from '../contacts/contacts.repository';
import type { TemplatesRepository } from '../templates/templates.repository';
import type { AccountMailRepository } from '../account-mail/account-mail.repository';
import type { MembersRepository } from '../members/members.repository';
import type { TeamsRepository } from '../teams/teams.repository';
import { checkCampaignTimes } from '../../../shared/schedule/campaign-times';
import type { CampaignListFilters, CampaignRecord, CampaignWrite, CampaignsRepository } from './campaigns.repository';
import type { ReviewRepository } from './review.repository';
import type { UsersRepository } from '../users/users.repository';
import type { Suppressions } from '../suppressions/suppressions.service';
import { approvalDecisionMail, approvalRequestMail } from '../../lib/approval-mails';
import type { SenderRule } from '../senders/senders.service';
import { blockingMessage, createCampaignReview, fieldsAgainstGroups, measureOverAudience, type ReviewSubject } from './review';
import { campaignLifecycle } from './lifecycle';

const SENDING = 1;
const LOCKED = 'The campaign is locked: its send time has passed or it is sending, so it can no longer be edited.';

/**
 * When a sending campaign inside one of its planned pauses resumes: the end of that pause, or of
 * the pauses that follow it without a gap. Null outside a pause (or when it is not sending).
 */
function pausedUntil(record: Pick<CampaignRecord, 'status' | 'stoppedAt' | 'pauses'>, now: Date): Date | null {
  if (record.status !== SENDING || record.stoppedAt) return null;
  let until: Date | null = null;
  const pauses = [...record.pauses].sort((a, b) => a.startAt.getTime() - b.startAt.getTime());
  for (const pause of pauses) {
    const from = until ?? now;
    if (pause.startAt <= from && pause.endAt > from) until = pause.endAt;
  }
  return until;
}

export function createCampaignsService(deps: {
  db: Db;
  campaigns: CampaignsRepository;
  templates: Pick<TemplatesRepository, 'find'>;
  contactGroups: Pick<ContactGroupsRepository, 'idsByUuid'>;
  recipients: Pick<RecipientsRepository, 'count'>;
  teams: Pick<TeamsRepository, 'settingsOf' | 'testNumbersOf'>;
  members: Pick<MembersRepository, 'admins'>;
  outbox: Pick<AccountMailRepository, 'enqueue'>;
  review: ReviewRepository;
  users: Pick<UsersRepository, 'findById'>;
  suppressions: Pick<Suppressions, 'listOf' | 'countByCampaign'>;
  /** Sample short links of a template's links (the templates service's). */
  linkSamples: (teamId: number, templateUuid: string) => Promise<Record<string, string>>;
  /** Which senders the caller may use (the senders module's). */
  senderRule: Pick<SenderRule, 'refusal' | 'adopt'>;
  clock: Clock;
  config: { appTimezone: string; defaultCountry: string; publicUrl: string; smsRateLimit: number };
  /** The log lines of a campaign paused, resumed or stopped by someone (never throws). */
  events?: CampaignEventLog;
}) {
  const zone = deps.config.appTimezone;
  const reviewer = createCampaignReview({ review: deps.review, linkSamples: deps.linkSamples, now: () => deps.clock.now(), config: deps.config });
  /** Locked once it sends or its send time has passed; a draft, and one waiting for approval or rejected, stays editable until it starts. */
  const isLocked = (record: CampaignRecord) =>
    record.status !== 0 ||
    (record.scheduledSendDate <= deps.clock.now() && !record.isDraft && record.approvalStatus !== 'pending' && record.approvalStatus !== 'rejected');

  const present = (record: CampaignRecord): Campaign => ({
    uuid: record.uuid,
    team_uuid: record.teamUuid,
    name: record.name,
    sender: record.sender,
    scheduled_send_date: formatTimestamp(record.scheduledSendDate, zone),
    expiry_date: formatTimestamp(record.expiryDate, zone),
    status: record.status,
    throttled: record.throttled,
    included_contact_groups: record.included,
    excluded_contact_groups: record.excluded,
    template_uuid: record.templateUuid,
    started_sending_at: formatTimestamp(record.startedSendingAt, zone),
    finished_sending_at: formatTimestamp(record.finishedSendingAt, zone),
    created_at: formatTimestamp(record.createdAt, zone),
    updated_at: formatTimestamp(record.updatedAt, zone),
    scheduled_finish_date: formatTimestamp(record.scheduledFinishDate, zone),
    manually_paused: record.manuallyPaused,
    pauses: record.pauses.map((pause) => ({
      uuid: pause.uuid,
      campaign_uuid: record.uuid,
      start_at: formatTimestamp(pause.startAt, zone),
      end_at: formatTimestamp(pause.endAt, zone),
      created_at: formatTimestamp(pause.createdAt, zone),
      updated_at: formatTimestamp(pause.updatedAt, zone),
    })),
    is_test: record.isTest,
    is_locked: isLocked(record),
    approval: {
      status: record.approvalStatus,
      requested_by: record.approvalRequestedBy,
      requested_at: formatTimestamp(record.approvalRequestedAt, zone),
      decided_by: record.approvalDecidedBy,
      decided_at: formatTimestamp(record.approvalDecidedAt, zone),
      comment: record.approvalComment ?? '',
      recipients: record.approvalStatus === 'approved' ? record.approvalRecipients : null,
      notice: record.approvalNotice ?? '',
    },
    is_draft: record.isDraft,
    ignore_quiet_hours: record.ignoreQuietHours,
    stopped_at: formatTimestamp(record.stoppedAt, zone),
    stopped_by: record.stoppedBy,
    expired_at: formatTimestamp(record.expiredAt, zone),
    paused_until: formatTimestamp(pausedUntil(record, deps.clock.now()), zone),
  });

  /** Whether the team's approval threshold asks for approval of a campaign reaching these groups. */
  const approvalFor = async (auth: AuthContext, included: number[], excluded: number[]): Promise<CampaignWrite['approval']> => {
    const { approvalThreshold } = await deps.teams.settingsOf(auth.teamId);
    if (approvalThreshold === null) return { status: 'not_required', requestedBy: null };
    const needed =
      approvalThreshold === 0 || (await deps.recipients.count(included, [...excluded, await deps.suppressions.listOf(auth.teamId)])) >= approvalThreshold;
    if (!needed) return { status: 'not_required', requestedBy: null };
    // An approval nobody could give would hold the campaign for ever: say so now.
    const approvers = (await deps.members.admins(deps.db, auth.teamId)).filter((admin) => admin.userId !== auth.userId);
    if (approvers.length === 0)
      throw ValidationError.field(
        'included_contact_groups',
        `The team requires an admin's approval for campaigns of ${approvalThreshold === 0 ? 'any size' : `${approvalThreshold} recipients or more`}, and no admin other than you can give it. Make another member an admin, or change the approval threshold in the team settings.`,
      );
    return { status: 'pending', requestedBy: auth.userId };
  };

  /** The team's other admins hear of a campaign waiting for them, from the transaction that made it wait. */
  const askApprovers = async (tx: Parameters<AccountMailRepository['enqueue']>[0], auth: AuthContext, record: CampaignRecord) => {
    if (record.approvalStatus !== 'pending') return;
    const admins = (await deps.members.admins(tx, auth.teamId)).filter((admin) => admin.userId !== auth.userId);
    const mail = approvalRequestMail(record, record.approvalRequestedBy?.name ?? 'A member', { publicUrl: deps.config.publicUrl, zone });
    await deps.outbox.enqueue(
      tx,
      admins.map((admin) => ({ to: admin.email, ...mail })),
    );
  };

  /** Who made the campaign, and who last asked for its approval, hear of the decision (not the admin who made it). */
  const tellDecision = async (tx: Parameters<AccountMailRepository['enqueue']>[0], auth: AuthContext, record: CampaignRecord) => {
    const ids = new Set([record.createdById, record.approvalRequestedById].filter((id): id is number => id !== null && id !== auth.userId));
    const users = await Promise.all([...ids].map((id) => deps.users.findById(id)));
    const mail = approvalDecisionMail(
      record,
      {
        status: record.approvalStatus === 'approved' ? 'approved' : 'rejected',
        by: record.approvalDecidedBy?.name ?? 'An admin',
        comment: record.approvalComment,
        recipients: record.approvalRecipients,
      },
      { publicUrl: deps.config.publicUrl, zone },
    );
    await deps.outbox.enqueue(
      tx,
      users.filter((user) => user !== undefined).map((user) => ({ to: user.email, ...mail })),
    );
  };

  /** Where a member who is not an admin may send tests (422 naming each other number); an admin sends them anywhere. */
  const checkTestNumbers = async (auth: AuthContext, numbers: Array<{ number: string; field: string }>, errors: Record<string, string[]>) => {
    if (auth.role === 'admin' || numbers.length === 0) return;
    const allowed = await deps.teams.testNumbersOf(auth.teamId);
    for (const { number, field } of numbers)
      if (!allowed.has(number))
        (errors[field] ??= []).push(
          `Tests go only to the members' own numbers and the team's test numbers: +${number} is neither. An admin can add it to the test numbers in the team settings.`,
        );
  };

  const reviewOf = async (auth: AuthContext, subject: ReviewSubject) => {
    const settings = await deps.teams.settingsOf(auth.teamId);
    return reviewer(subject, { ...settings, timeZone: settings.timeZone ?? zone });
  };

  const find = async (auth: AuthContext, uuid: string) => {
    const record = await deps.campaigns.find(auth.teamId, uuid);
    if (!record) throw new NotFoundError();
    return record;
  };

  const groupIds = async (auth: AuthContext, uuids: string[], field: string, errors: Record<string, string[]>) => {
    const unique = [...new Set(uuids.map((uuid) => uuid.toLowerCase()))];
    const ids = await deps.contactGroups.idsByUuid(auth.teamId, unique);
    if (ids.size !== unique.length) errors[field] = [`The selected ${field.replace(/_/g, ' ')} is invalid.`];
    return unique.map((uuid) => ids.get(uuid)!);
  };

  /**
   * Every rule at once, so a form can show all its mistakes together (422 naming each field). A
   * draft (`is_draft`, else the campaign's current value, else false) asks for no approval yet.
   */
  const resolve = async (auth: AuthContext, input: CampaignInput, current?: CampaignRecord): Promise<CampaignWrite> => {
    const isDraft = input.is_draft ?? current?.isDraft ?? false;
    const ignoreQuietHours = input.ignore_quiet_hours ?? current?.ignoreQuietHours ?? false;
    // Sending through quiet hours is an admin's decision (recorded in the audit log with the change).
    if (ignoreQuietHours !== (current?.ignoreQuietHours ?? false) && auth.role !== 'admin')
      throw new ForbiddenError("Only an admin may let a campaign send through the team's quiet hours.");
    const { times, errors } = checkCampaignTimes(input, zone);
    if (times && times.expiry <= deps.clock.now()) (errors.expiry_date ??= []).push('The expiry date must be in the future.');
    const senderRefused = await deps.senderRule.refusal(auth, input.sender);
    if (senderRefused) errors.sender = [senderRefused];
    const template = await deps.templates.find(auth.teamId, input.template_uuid);
    if (!template) errors.template_uuid = ['The selected template uuid is invalid.'];
    const includedGroupIds = await groupIds(auth, input.included_contact_groups, 'included_contact_groups', errors);
    const excludedGroupIds = await groupIds(auth, input.excluded_contact_groups, 'excluded_contact_groups', errors);
    // Scheduling (not a draft) with a field no group has, and no fallback, would send gaps to everyone.
    if (template && !isDraft && !errors.included_contact_groups) {
      const groups = await deps.review.groups(includedGroupIds);
      const blocking = fieldsAgainstGroups(template.body, groups).filter((field) => field.blocking);
      if (blocking.length > 0) (errors.template_uuid ??= []).push(blockingMessage(blocking, groups));
    }
    if (Object.keys(errors).length > 0 || !times || !template) throw new ValidationError(errors);
    return {
      templateId: template.id,
      name: input.name,
      sender: input.sender,
      scheduledSendDate: times.send,
      expiryDate: times.expiry,
      throttled: input.throttled === true,
      scheduledFinishDate: times.finish,
      includedGroupIds,
      excludedGroupIds,
      pauses: times.pauses,
      approval: isDraft ? { status: 'not_required', requestedBy: null } : await approvalFor(auth, includedGroupIds, excludedGroupIds),
      isDraft,
      ignoreQuietHours,
    };
  };

  return {
    present,

    async list(auth: AuthContext, window: PageWindow, filters: CampaignListFilters = {}) {
      const { rows, total } = await deps.campaigns.list(auth.teamId, window, filters);
      return { items: rows.map(present), total };
    },

    show: async (auth: AuthContext, uuid: string) => present(await find(auth, uuid)),

    async create(auth: AuthContext, input: CampaignInput) {
      const write = await resolve(auth, { ...input, manually_paused: undefined });
      const created = await deps.db.transaction(async (tx) => {
        const record = await deps.campaigns.insert(tx, auth.teamId, write, deps.clock.now(), auth.userId);
        await askApprovers(tx, auth, record);
        return record;
      });
      await deps.senderRule.adopt(auth, write.sender);
      return present(created);
    },

    /** The same body for normal and throttled campaigns; refused with 423 once locked. */
    async update(auth: AuthContext, uuid: string, input: CampaignInput) {
      const record = await find(auth, uuid);
      if (isLocked(record)) throw new LockedError(LOCKED);
      const write = await resolve(auth, input, record);
      const updated = await deps.db.transaction(async (tx) => {
        const written = await deps.campaigns.update(tx, record.id, write, input.manually_paused, deps.clock.now());
        if (written) await askApprovers(tx, auth, written);
        return written;
      });
      if (!updated) throw new LockedError(LOCKED);
      await deps.senderRule.adopt(auth, write.sender);
      return present(updated);
    },

    /**
     * An admin approves or rejects a campaign waiting for approval; the admin who asked cannot decide
     * (403). Only a pending campaign that has not started is decided (409 otherwise); an approval
     * after the campaign's expiry would send nothing, so it is refused too.
     */
    async decide(auth: AuthContext, uuid: string, status: 'approved' | 'rejected', input: ApprovalDecision) {
      const record = await find(auth, uuid);
      if (record.approvalStatus !== 'pending' || record.status !== 0)
        throw new ConflictError(record.status !== 0 ? 'The campaign has already started.' : 'The campaign is not waiting for approval.');
      if (record.approvalRequestedById === auth.userId)
        throw new ForbiddenError('You asked for this approval: another admin of the team must approve or reject the campaign.');
      if (status === 'approved' && record.expiryDate <= deps.clock.now())
        throw new ConflictError('The campaign has expired: it would send nothing. Reject it, or make a new campaign.');
      // An approval covers the audience as it is now: a campaign that has grown past it when sending starts is asked about again.
      let recipients: number | null = null;
      if (status === 'approved') {
        const groups = await deps.campaigns.groupIds(record.id);
        recipients = await deps.recipients.count(groups.included, [...groups.excluded, await deps.suppressions.listOf(auth.teamId)]);
      }
      const decided = await deps.db.transaction(async (tx) => {
        const moved = await campaignLifecycle.decide(
          tx,
          record.id,
          { status, decidedBy: auth.userId, comment: input.comment || null, recipients },
          deps.clock.now(),
        );
        const written = moved ? await deps.campaigns.byId(tx, record.id) : undefined;
        if (written) await tellDecision(tx, auth, written);
        return written;
      });
      if (!decided) throw new ConflictError('The campaign is not waiting for approval.');
      return present(decided);
    },

    async delete(auth: AuthContext, uuid: string) {
      const record = await find(auth, uuid);
      if (record.status === SENDING || !(await deps.campaigns.deleteUnlessSending(record.id)))
        throw new LockedError('The campaign is sending; pause it, or wait until it has finished, to delete it.');
    },

    /**
     * Stops a pending or sending campaign (409 for a draft, a finished or an already stopped one):
     * nothing more is claimed; what is queued becomes unsent (`stopped`) at the engine's next step;
     * what was submitted keeps its receipts.
     */
    async stop(auth: AuthContext, uuid: string) {
      const record = await find(auth, uuid);
      const stopped = await campaignLifecycle.stop(deps.db, record.id, auth.userId, deps.clock.now());
      if ('refused' in stopped) {
        throw new ConflictError(
          {
            stopped: 'The campaign has already been stopped.',
            draft: 'The campaign is a draft: it sends nothing until it is scheduled, so there is nothing to stop.',
            finished: 'The campaign has finished sending; there is nothing left to stop.',
          }[stopped.refused],
        );
      }
      const written = (await deps.campaigns.byId(deps.db, record.id))!;
      await deps.events?.('stopped', [record.id], auth.userEmail);
      return present(written);
    },

    /** null → true → false → true …; only throttled campaigns that have not finished sending (409 otherwise). */
    async togglePaused(auth: AuthContext, uuid: string) {
      const record = await find(auth, uuid);
      const toggled = await campaignLifecycle.togglePaused(deps.db, record.id, deps.clock.now());
      if ('refused' in toggled) {
        throw new ConflictError(
          toggled.refused === 'not_throttled'
            ? 'The campaign is not throttled; only throttled campaigns can be paused.'
            : 'The campaign has finished sending; there is nothing left to pause or resume.',
        );
      }
      // The flag this toggle wrote (a toggle right after it may already have flipped it again).
      const written = { ...(await deps.campaigns.byId(deps.db, record.id))!, manuallyPaused: toggled.paused, updatedAt: toggled.updatedAt };
      await deps.events?.(toggled.paused ? 'paused' : 'resumed', [record.id], auth.userEmail);
      return present(written);
    },

    /** A one-recipient campaign through the same path as any other (docs/interface.md §4.6 send-test). */
    async sendTest(auth: AuthContext, input: SendTestInput) {
      const number = normalizePhoneNumber(input.contact_number, deps.config.defaultCountry);
      const errors: Record<string, string[]> = {};
      if (!number.ok) errors.contact_number = [`The contact number ${JSON.stringify(input.contact_number)} ${number.reason}.`];
      const base = { ...input, included_contact_groups: [], excluded_contact_groups: [], throttled: false };
      const { times, errors: timeErrors } = checkCampaignTimes(base, zone);
      Object.assign(errors, timeErrors);
      const template = await deps.templates.find(auth.teamId, input.template_uuid);
      if (!template) errors.template_uuid = ['The selected template uuid is invalid.'];
      if (number.ok) await checkTestNumbers(auth, [{ number: number.number, field: 'contact_number' }], errors);
      const senderRefused = await deps.senderRule.refusal(auth, input.sender);
      if (senderRefused) errors.sender = [senderRefused];
      if (Object.keys(errors).length > 0 || !times || !template || !number.ok) throw new ValidationError(errors);
      const write: CampaignWrite = {
        templateId: template.id,
        name: input.name,
        sender: input.sender,
        scheduledSendDate: times.send,
        expiryDate: times.expiry,
        throttled: false,
        scheduledFinishDate: null,
        includedGroupIds: [],
        excludedGroupIds: [],
        pauses: [],
        // A test goes to one number the caller chose, to see the message: never held for approval.
        approval: { status: 'not_required', requestedBy: null },
        isDraft: false,
        ignoreQuietHours: false,
      };
      const test = { phoneNumber: number.number, customFields: input.custom_fields ?? {} };
      const created = await deps.db.transaction((tx) => deps.campaigns.insert(tx, auth.teamId, write, deps.clock.now(), auth.userId, test));
      await deps.senderRule.adopt(auth, write.sender);
      return present(created);
    },

    /**
     * Tests of a campaign, sent now: one test campaign per number (the caller's own when none is
     * given), with the campaign's template and sender and, when a recipient is named, that
     * recipient's fields. Whatever the campaign's status; through quiet hours (they go to the team).
     */
    async testSends(auth: AuthContext, uuid: string, input: TestSendInput) {
      const record = await find(auth, uuid);
      const errors: Record<string, string[]> = {};
      const numbers: string[] = [];
      const given = (input.phone_numbers ?? []).map((text) => text.trim()).filter((text) => text !== '');
      if (given.length === 0) {
        const own = (await deps.users.findById(auth.userId))?.phoneNumber;
        if (own) numbers.push(own);
        else errors.phone_numbers = ['Give the numbers to send the test to, or save your own number in your profile.'];
      }
      const checked: Array<{ number: string; field: string }> = [];
      given.forEach((text, index) => {
        const number = normalizePhoneNumber(text, deps.config.defaultCountry);
        if (number.ok) checked.push({ number: number.number, field: `phone_numbers.${index}` });
        else errors[`phone_numbers.${index}`] = [`The phone number ${JSON.stringify(text)} ${number.reason}.`];
      });
      await checkTestNumbers(auth, checked, errors);
      numbers.push(...checked.map(({ number }) => number));
      let fields: Record<string, string> = {};
      const contact = input.contact_phone_number?.trim();
      if (contact) {
        const number = normalizePhoneNumber(contact, deps.config.defaultCountry);
        const groups = await deps.campaigns.groupIds(record.id);
        const found = number.ok
          ? await deps.review.recipientFields(groups.included, [...groups.excluded, await deps.suppressions.listOf(auth.teamId)], number.number)
          : undefined;
        if (found) fields = found;
        else errors.contact_phone_number = [number.ok ? `${contact} is not a recipient of this campaign.` : `The contact phone number ${number.reason}.`];
      }
      if (Object.keys(errors).length > 0) throw new ValidationError(errors);
      const now = deps.clock.now();
      const write: CampaignWrite = {
        templateId: record.templateId,
        name: `Test: ${record.name}`.slice(0, 255),
        sender: record.sender,
        scheduledSendDate: now,
        expiryDate: new Date(now.getTime() + 86_400_000),
        throttled: false,
        scheduledFinishDate: null,
        includedGroupIds: [],
        excludedGroupIds: [],
        pauses: [],
        approval: { status: 'not_required', requestedBy: null },
        isDraft: false,
        ignoreQuietHours: true,
      };
      const created = await deps.db.transaction(async (tx) => {
        const tests: CampaignRecord[] = [];
        for (const phoneNumber of new Set(numbers))
          tests.push(await deps.campaigns.insert(tx, auth.teamId, write, now, auth.userId, { phoneNumber, customFields: fields, testOf: record.id }));
        return tests;
      });
      return created.map(present);
    },

    /** The SMS parts `body` (its links as `links`) makes over the recipients of the groups `groupUuids` (each the team's: 422 otherwise). */
    async audienceSegments(auth: AuthContext, body: string, links: Record<string, string>, groupUuids: string[]) {
      const errors: Record<string, string[]> = {};
      const included = await groupIds(auth, groupUuids, 'contact_groups', errors);
      if (Object.keys(errors).length > 0) throw new ValidationError(errors);
      return measureOverAudience(deps.review, { body, includedGroupIds: included, excludedGroupIds: [await deps.suppressions.listOf(auth.teamId)], links });
    },

    /** What a saved campaign will do, from its audience now (the dashboard's review step). */
    async review(auth: AuthContext, uuid: string) {
      const record = await find(auth, uuid);
      const groups = await deps.campaigns.groupIds(record.id);
      const template = (await deps.templates.find(auth.teamId, record.templateUuid))!;
      return reviewOf(auth, {
        teamId: auth.teamId,
        templateUuid: record.templateUuid,
        body: template.body,
        includedGroupIds: groups.included,
        excludedGroupIds: groups.excluded,
        optoutsId: await deps.suppressions.listOf(auth.teamId),
        send: record.scheduledSendDate,
        finish: record.scheduledFinishDate,
        throttled: record.throttled,
        ignoreQuietHours: record.ignoreQuietHours,
        campaignId: record.id,
      });
    },

    /** The review of a campaign input, nothing written: every rule of create applies but the scheduling ones (it is read as a draft). */
    async preview(auth: AuthContext, input: CampaignInput) {
      const write = await resolve(auth, { ...input, is_draft: true, manually_paused: undefined, ignore_quiet_hours: undefined });
      const template = (await deps.templates.find(auth.teamId, input.template_uuid))!;
      return reviewOf(auth, {
        teamId: auth.teamId,
        templateUuid: input.template_uuid,
        body: template.body,
        includedGroupIds: write.includedGroupIds,
        excludedGroupIds: write.excludedGroupIds,
        optoutsId: await deps.suppressions.listOf(auth.teamId),
        send: write.scheduledSendDate,
        finish: write.scheduledFinishDate,
        throttled: write.throttled,
        ignoreQuietHours: input.ignore_quiet_hours ?? false,
      });
    },

    /** Before sending: who the groups reach now; once sending: the engine's messages by status. */
    async summary(auth: AuthContext, uuid: string) {
      const record = await find(auth, uuid);
      if (record.status !== 0) {
        const [{ total, inDoubt, humanClicks, heldForQuietHours, ...counts }, optOuts] = await Promise.all([
          deps.campaigns.messageCounts(record.id, deps.clock.now()),
          deps.suppressions.countByCampaign([record.id]),
        ]);
        // People and link-preview bots apart, as the overview and the clicks report count them.
        const clicks = { human_clicks: humanClicks, bot_clicks: Math.max(0, counts.clicks - humanClicks) };
        return {
          recipients: total,
          ...counts,
          ...clicks,
          in_doubt: inDoubt,
          opt_outs: optOuts.get(record.id) ?? 0,
          held_for_quiet_hours: record.status === SENDING ? heldForQuietHours : 0,
        };
      }
      let recipients = 1;
      if (!record.isTest) {
        const groups = await deps.campaigns.groupIds(record.id);
        recipients = await deps.recipients.count(groups.included, [...groups.excluded, await deps.suppressions.listOf(auth.teamId)]);
      }
      return {
        recipients,
        queued: 0,
        submitted: 0,
        delivered: 0,
        failed: 0,
        unsent: 0,
        clicks: 0,
        human_clicks: 0,
        bot_clicks: 0,
        in_doubt: 0,
        opt_outs: 0,
        held_for_quiet_hours: 0,
      };
    },
  };
}
export type CampaignsService = ReturnType<typeof createCampaignsService>;

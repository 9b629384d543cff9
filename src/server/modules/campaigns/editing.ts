import type { Campaign, CampaignInput } from '../../../shared/contract';
import { checkCampaignTimes } from '../../../shared/schedule/campaign-times';
import type { PageWindow } from '../../db/pages';
import type { AuthContext } from '../../http/auth';
import { ConflictError, ForbiddenError, LockedError, ValidationError } from '../../lib/errors';
import { approvalFor, askApprovers } from './approvals';
import {
  findCampaign,
  groupIdsOf,
  segmentIdsOf,
  isLocked,
  LOCKED,
  presentCampaign,
  recordCampaignChange,
  SENDING,
  type CampaignsDeps,
} from './campaign-records';
import type { CampaignListFilters, CampaignRecord, CampaignWrite } from './campaigns.repository';
import { campaignLifecycle } from './lifecycle';
import { blockingMessage, fieldsAgainstGroups } from './review';

/** Editing campaigns: list and show, create, edit and delete, stop, pause and resume. */

/**
 * Every rule at once, so a form can show all its mistakes together (422 naming each field). A
 * draft (`is_draft`, else the campaign's current value, else false) asks for no approval yet.
 */
export async function resolveCampaign(
  deps: Pick<
    CampaignsDeps,
    'db' | 'templates' | 'contactGroups' | 'segments' | 'review' | 'teams' | 'recipients' | 'suppressions' | 'members' | 'senderRule' | 'clock' | 'config'
  >,
  auth: AuthContext,
  input: CampaignInput,
  current?: CampaignRecord,
): Promise<CampaignWrite> {
  const isDraft = input.is_draft ?? current?.isDraft ?? false;
  const ignoreQuietHours = input.ignore_quiet_hours ?? current?.ignoreQuietHours ?? false;
  // Sending through quiet hours is an admin's decision (recorded in the audit log with the change).
  if (ignoreQuietHours !== (current?.ignoreQuietHours ?? false) && auth.role !== 'admin')
    throw new ForbiddenError("Only an admin may let a campaign send through the team's quiet hours.");
  const { times, errors } = checkCampaignTimes(input, deps.config.appTimezone);
  if (times && times.expiry <= deps.clock.now()) (errors.expiry_date ??= []).push('The expiry date must be in the future.');
  const senderRefused = await deps.senderRule.refusal(auth, input.sender);
  if (senderRefused) errors.sender = [senderRefused];
  const template = await deps.templates.find(auth.teamId, input.template_uuid);
  if (!template) errors.template_uuid = ['The selected template uuid is invalid.'];
  const includedGroupIds = await groupIdsOf(deps, auth, input.included_contact_groups, 'included_contact_groups', errors);
  const excludedGroupIds = await groupIdsOf(deps, auth, input.excluded_contact_groups, 'excluded_contact_groups', errors);
  const includedSegmentIds = await segmentIdsOf(deps, auth, input.included_segments ?? [], 'included_segments', errors);
  const excludedSegmentIds = await segmentIdsOf(deps, auth, input.excluded_segments ?? [], 'excluded_segments', errors);
  // Scheduling (not a draft) with a field no group has, and no fallback, would send gaps to everyone.
  // With segments, the recipients' fields come from any of the team's groups: the review shows the gaps.
  if (template && !isDraft && !errors.included_contact_groups && includedSegmentIds.length === 0) {
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
    includedSegmentIds,
    excludedSegmentIds,
    pauses: times.pauses,
    approval: isDraft
      ? { status: 'not_required', requestedBy: null }
      : await approvalFor(deps, auth, includedGroupIds, excludedGroupIds, { included: includedSegmentIds, excluded: excludedSegmentIds }),
    isDraft,
    ignoreQuietHours,
  };
}

export async function listCampaigns(
  deps: Pick<CampaignsDeps, 'campaigns' | 'clock' | 'config'>,
  auth: AuthContext,
  window: PageWindow,
  filters: CampaignListFilters = {},
): Promise<{ items: Campaign[]; total: number }> {
  const { rows, total } = await deps.campaigns.list(auth.teamId, window, filters);
  return { items: rows.map((record) => presentCampaign(deps, record)), total };
}

export async function showCampaign(deps: Pick<CampaignsDeps, 'campaigns' | 'clock' | 'config'>, auth: AuthContext, uuid: string): Promise<Campaign> {
  return presentCampaign(deps, await findCampaign(deps, auth, uuid));
}

type WriteDeps = Parameters<typeof resolveCampaign>[0] & Pick<CampaignsDeps, 'campaigns' | 'outbox' | 'audit'>;

export async function createCampaign(deps: WriteDeps, auth: AuthContext, input: CampaignInput): Promise<Campaign> {
  const write = await resolveCampaign(deps, auth, { ...input, manually_paused: undefined });
  const created = await deps.db.transaction(async (tx) => {
    const record = await deps.campaigns.insert(tx, auth.teamId, write, deps.clock.now(), auth.userId);
    await askApprovers(deps, tx, auth, record);
    await recordCampaignChange(deps, tx, auth, { uuid: record.uuid, after: presentCampaign(deps, record) });
    return record;
  });
  await deps.senderRule.adopt(auth, write.sender);
  return presentCampaign(deps, created);
}

/** The same body for normal and throttled campaigns; refused with 423 once locked. */
export async function updateCampaign(deps: WriteDeps, auth: AuthContext, uuid: string, input: CampaignInput): Promise<Campaign> {
  const record = await findCampaign(deps, auth, uuid);
  if (isLocked(record, deps.clock.now())) throw new LockedError(LOCKED);
  const write = await resolveCampaign(deps, auth, input, record);
  const updated = await deps.db.transaction(async (tx) => {
    const written = await deps.campaigns.update(tx, record.id, write, input.manually_paused, deps.clock.now());
    if (!written) return undefined;
    await askApprovers(deps, tx, auth, written);
    // Before: the campaign as read for this edit (the statement above changes it only if it was still editable).
    await recordCampaignChange(deps, tx, auth, { uuid, before: presentCampaign(deps, record), after: presentCampaign(deps, written) });
    return written;
  });
  if (!updated) throw new LockedError(LOCKED);
  await deps.senderRule.adopt(auth, write.sender);
  return presentCampaign(deps, updated);
}

export async function deleteCampaign(
  deps: Pick<CampaignsDeps, 'db' | 'campaigns' | 'audit' | 'clock' | 'config'>,
  auth: AuthContext,
  uuid: string,
): Promise<void> {
  const record = await findCampaign(deps, auth, uuid);
  const deleted =
    record.status !== SENDING &&
    (await deps.db.transaction(async (tx) => {
      if (!(await deps.campaigns.deleteUnlessSending(tx, record.id))) return false;
      await recordCampaignChange(deps, tx, auth, { uuid, before: presentCampaign(deps, record) });
      return true;
    }));
  if (!deleted) throw new LockedError('The campaign is sending; pause it, or wait until it has finished, to delete it.');
}

/**
 * Stops a pending or sending campaign (409 for a draft, a finished or an already stopped one):
 * nothing more is claimed; what is queued becomes unsent (`stopped`) at the engine's next step;
 * what was submitted keeps its receipts.
 */
export async function stopCampaign(
  deps: Pick<CampaignsDeps, 'db' | 'campaigns' | 'audit' | 'events' | 'clock' | 'config'>,
  auth: AuthContext,
  uuid: string,
): Promise<Campaign> {
  const record = await findCampaign(deps, auth, uuid);
  const stopped = await deps.db.transaction(async (tx) => {
    const outcome = await campaignLifecycle.stop(tx, record.id, auth.userId, deps.clock.now());
    if ('refused' in outcome) return outcome;
    const written = presentCampaign(deps, (await deps.campaigns.byId(tx, record.id))!);
    await recordCampaignChange(deps, tx, auth, { uuid, before: presentCampaign(deps, record), after: written });
    return { written };
  });
  if ('refused' in stopped) {
    throw new ConflictError(
      {
        stopped: 'The campaign has already been stopped.',
        draft: 'The campaign is a draft: it sends nothing until it is scheduled, so there is nothing to stop.',
        finished: 'The campaign has finished sending; there is nothing left to stop.',
      }[stopped.refused],
    );
  }
  await deps.events?.('stopped', [record.id], auth.userEmail);
  return stopped.written;
}

/** null → true → false → true …; only throttled campaigns that have not finished sending (409 otherwise). */
export async function toggleCampaignPaused(
  deps: Pick<CampaignsDeps, 'db' | 'campaigns' | 'audit' | 'events' | 'clock' | 'config'>,
  auth: AuthContext,
  uuid: string,
): Promise<Campaign> {
  const record = await findCampaign(deps, auth, uuid);
  const toggled = await deps.db.transaction(async (tx) => {
    const outcome = await campaignLifecycle.togglePaused(tx, record.id, deps.clock.now());
    if ('refused' in outcome) return outcome;
    // The flag this toggle wrote (a toggle right after it may already have flipped it again).
    const written = presentCampaign(deps, { ...(await deps.campaigns.byId(tx, record.id))!, manuallyPaused: outcome.paused, updatedAt: outcome.updatedAt });
    await recordCampaignChange(deps, tx, auth, { uuid, before: presentCampaign(deps, record), after: written });
    return { ...outcome, written };
  });
  if ('refused' in toggled) {
    throw new ConflictError(
      toggled.refused === 'not_throttled'
        ? 'The campaign is not throttled; only throttled campaigns can be paused.'
        : 'The campaign has finished sending; there is nothing left to pause or resume.',
    );
  }
  await deps.events?.(toggled.paused ? 'paused' : 'resumed', [record.id], auth.userEmail);
  return toggled.written;
}

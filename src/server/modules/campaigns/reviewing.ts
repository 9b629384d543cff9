import type { CampaignInput } from '../../../shared/contract';
import type { AuthContext } from '../../http/auth';
import { ValidationError } from '../../lib/errors';
import { findCampaign, groupIdsOf, SENDING, type CampaignsDeps } from './campaign-records';
import { resolveCampaign } from './editing';
import { measureOverAudience, type ReviewSubject } from './review';

/** Reviewing campaigns, nothing written: the review of a saved campaign or of an input, its summary, and the SMS parts a body makes over an audience. */

async function reviewOf(deps: Pick<CampaignsDeps, 'teams' | 'reviewer' | 'config'>, auth: AuthContext, subject: ReviewSubject) {
  const settings = await deps.teams.settingsOf(auth.teamId);
  return deps.reviewer(subject, { ...settings, timeZone: settings.timeZone ?? deps.config.appTimezone });
}

/** The SMS parts `body` (its links as `links`) makes over the recipients of the groups `groupUuids` (each the team's: 422 otherwise). */
export async function audienceSegments(
  deps: Pick<CampaignsDeps, 'contactGroups' | 'review' | 'suppressions'>,
  auth: AuthContext,
  body: string,
  links: Record<string, string>,
  groupUuids: string[],
) {
  const errors: Record<string, string[]> = {};
  const included = await groupIdsOf(deps, auth, groupUuids, 'contact_groups', errors);
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  return measureOverAudience(deps.review, { body, includedGroupIds: included, excludedGroupIds: [await deps.suppressions.listOf(auth.teamId)], links });
}

/** What a saved campaign will do, from its audience now (the dashboard's review step). */
export async function reviewCampaign(
  deps: Pick<CampaignsDeps, 'campaigns' | 'templates' | 'suppressions' | 'teams' | 'reviewer' | 'config' | 'segments'>,
  auth: AuthContext,
  uuid: string,
) {
  const record = await findCampaign(deps, auth, uuid);
  const groups = await deps.campaigns.groupIds(record.id);
  const template = (await deps.templates.find(auth.teamId, record.templateUuid))!;
  const segments = {
    included: await deps.segments.idsByUuid(auth.teamId, record.includedSegments),
    excluded: await deps.segments.idsByUuid(auth.teamId, record.excludedSegments),
  };
  const review = await reviewOf(deps, auth, {
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
  if (segments.included.size + segments.excluded.size === 0) return review;
  // With segments (issue 35): before the start, the audience evaluated live; once started, the list fixed then.
  const total =
    record.status === 0
      ? await deps.segments.countAudience(auth.teamId, {
          includedGroupIds: groups.included,
          excludedGroupIds: [...groups.excluded, await deps.suppressions.listOf(auth.teamId)],
          includedSegmentIds: [...segments.included.values()],
          excludedSegmentIds: [...segments.excluded.values()],
        })
      : await deps.segments.fixedCount(record.id);
  return { ...review, recipients: { ...review.recipients, total } };
}

/** The review of a campaign input, nothing written: every rule of create applies but the scheduling ones (it is read as a draft). */
export async function previewCampaign(deps: Parameters<typeof resolveCampaign>[0] & Pick<CampaignsDeps, 'reviewer'>, auth: AuthContext, input: CampaignInput) {
  const write = await resolveCampaign(deps, auth, { ...input, is_draft: true, manually_paused: undefined, ignore_quiet_hours: undefined });
  const template = (await deps.templates.find(auth.teamId, input.template_uuid))!;
  return reviewOf(deps, auth, {
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
}

/** Before sending: who the groups reach now; once sending: the engine's messages by status. */
export async function campaignSummary(deps: Pick<CampaignsDeps, 'campaigns' | 'recipients' | 'suppressions' | 'clock'>, auth: AuthContext, uuid: string) {
  const record = await findCampaign(deps, auth, uuid);
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
}

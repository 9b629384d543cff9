import type { CampaignInput } from '../../../shared/contract';
import type { AuthContext } from '../../http/auth';
import { campaignRevenue, campaignSegmentRevenue, hasConversions, revenueFigures } from '../../db/revenue';
import { ValidationError } from '../../lib/errors';
import { findCampaign, presentAbTest, groupIdsOf, SENDING, type CampaignsDeps } from './campaign-records';
import { resolveCampaign } from './editing';
import type { AbSettings } from './ab-results';
import { abTestSize, abVariantSizes } from '../../../shared/ab-test/split';
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
  const optoutsId = await deps.suppressions.listOf(auth.teamId);
  // With segments (issue 35): the review reads the audience evaluated live before the start, and the list fixed then once started.
  const audience =
    segments.included.size + segments.excluded.size === 0
      ? undefined
      : await deps.segments.audienceOf(
          auth.teamId,
          {
            includedGroupIds: groups.included,
            excludedGroupIds: [...groups.excluded, optoutsId],
            includedSegmentIds: [...segments.included.values()],
            excludedSegmentIds: [...segments.excluded.values()],
          },
          record.status === 0 ? undefined : record.id,
        );
  const review = await reviewOf(deps, auth, {
    teamId: auth.teamId,
    templateUuid: record.templateUuid,
    body: template.body,
    includedGroupIds: groups.included,
    excludedGroupIds: groups.excluded,
    optoutsId,
    send: record.scheduledSendDate,
    finish: record.scheduledFinishDate,
    throttled: record.throttled,
    ignoreQuietHours: record.ignoreQuietHours,
    localSendTime: record.localSendTime,
    expiry: record.expiryDate,
    campaignId: record.id,
    ...(audience && { audience }),
  });
  return { ...review, ...abSplitOf(record.variants, record.abTest, review.recipients.total) };
}

/** The review's A/B split of `total` recipients (docs/ab-tests.md); nothing without a test. */
function abSplitOf(variants: Array<{ name: string }>, settings: AbSettings | null, total: number) {
  if (!settings || variants.length < 2) return {};
  const tested = abTestSize(total, variants.length, settings);
  const sizes = abVariantSizes(tested, variants.length);
  return {
    ab_test: {
      variants: variants.map((variant, i) => ({ name: variant.name, test_recipients: sizes[i]! })),
      rest: total - tested,
      metric: settings.metric,
      decide_after_minutes: settings.decide_after_minutes,
    },
  };
}

/** The review of a campaign input, nothing written: every rule of create applies but the scheduling ones (it is read as a draft). */
export async function previewCampaign(deps: Parameters<typeof resolveCampaign>[0] & Pick<CampaignsDeps, 'reviewer'>, auth: AuthContext, input: CampaignInput) {
  const write = await resolveCampaign(deps, auth, { ...input, is_draft: true, manually_paused: undefined, ignore_quiet_hours: undefined });
  const template = (await deps.templates.find(auth.teamId, input.template_uuid))!;
  const optoutsId = await deps.suppressions.listOf(auth.teamId);
  // With segments (issue 35): the audience evaluated now, as the review of the saved campaign reads it.
  const audience =
    write.includedSegmentIds.length + write.excludedSegmentIds.length === 0
      ? undefined
      : await deps.segments.audienceOf(auth.teamId, {
          includedGroupIds: write.includedGroupIds,
          excludedGroupIds: [...write.excludedGroupIds, optoutsId],
          includedSegmentIds: write.includedSegmentIds,
          excludedSegmentIds: write.excludedSegmentIds,
        });
  const review = await reviewOf(deps, auth, {
    teamId: auth.teamId,
    templateUuid: input.template_uuid,
    body: template.body,
    includedGroupIds: write.includedGroupIds,
    excludedGroupIds: write.excludedGroupIds,
    optoutsId,
    send: write.scheduledSendDate,
    finish: write.scheduledFinishDate,
    throttled: write.throttled,
    ignoreQuietHours: input.ignore_quiet_hours ?? false,
    localSendTime: write.localSendTime,
    expiry: write.expiryDate,
    ...(audience && { audience }),
  });
  return { ...review, ...abSplitOf(write.variants, write.abTest, review.recipients.total) };
}

/**
 * The revenue credited to a campaign (docs/conversions.md), in the team's currency and the others
 * apart; nothing while the team has recorded no conversion. Once a campaign with included segments
 * has started, the same per segment, over the recipients each brought when its list was fixed.
 */
async function revenueOf(
  deps: Pick<CampaignsDeps, 'db' | 'teams'>,
  teamId: number,
  record: { id: number; status: number; includedSegments: string[] },
  recipients: number,
) {
  if (!(await hasConversions(deps.db, teamId))) return {};
  const [{ currency }, rows] = await Promise.all([deps.teams.settingsOf(teamId), campaignRevenue(deps.db, teamId, record.id)]);
  const figures = revenueFigures(rows, currency);
  const segments = record.status !== 0 && record.includedSegments.length > 0 ? await campaignSegmentRevenue(deps.db, teamId, record.id, currency) : [];
  return {
    currency,
    ...figures,
    revenue_per_recipient: recipients > 0 ? Math.round((figures.revenue / recipients) * 10_000) / 10_000 : null,
    ...(segments.length > 0 && { segments }),
  };
}

/** Before sending: who the groups reach now; once sending: the engine's messages by status (and the revenue credited to it). */
export async function campaignSummary(
  deps: Pick<CampaignsDeps, 'campaigns' | 'recipients' | 'suppressions' | 'clock' | 'db' | 'teams'>,
  auth: AuthContext,
  uuid: string,
) {
  const record = await findCampaign(deps, auth, uuid);
  const summary = await countsSummary(deps, auth, record);
  return { ...summary, ...(await revenueOf(deps, auth.teamId, record, summary.recipients)) };
}

async function countsSummary(
  deps: Pick<CampaignsDeps, 'campaigns' | 'recipients' | 'suppressions' | 'clock'>,
  auth: AuthContext,
  record: Awaited<ReturnType<typeof findCampaign>>,
) {
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
      // With an A/B test, every figure by variant as well (the campaign's `ab_test.results`).
      ...(record.abTest && record.variants.length > 0 ? { variants: presentAbTest(record, 'UTC')!.results } : {}),
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

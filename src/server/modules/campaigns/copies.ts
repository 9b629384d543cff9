import type { Campaign } from '../../../shared/contract';
import type { AuthContext } from '../../http/auth';
import { ConflictError } from '../../lib/errors';
import { findCampaign, presentCampaign, recordCampaignChange, type CampaignsDeps } from './campaign-records';
import type { CampaignRecord, CampaignWrite } from './campaigns.repository';
import { campaignCopies } from './copies.repository';

/**
 * Campaigns made from others (issue 35, point 5): a duplicate, and "send to those not reached".
 * Each is a draft (never sent until scheduled, asks for no approval until then) with the source's
 * template, sender, dates, throttling, pauses, local time and segments; nothing of its state
 * (status, approval, stop, expiry, counters) comes along.
 */

type CopyDeps = Pick<CampaignsDeps, 'db' | 'campaigns' | 'suppressions' | 'audit' | 'clock' | 'config'> & {
  contactGroups: Pick<CampaignsDeps['contactGroups'], 'idsByUuid'>;
};

const NAME_MAX = 255;
const named = (name: string, suffix: string) => `${name.slice(0, NAME_MAX - suffix.length)}${suffix}`;

/** The source's settings as a draft's. Sending through quiet hours is an admin's decision: kept only when an admin copies. */
function draftOf(
  auth: AuthContext,
  record: CampaignRecord,
  name: string,
  groups: { included: number[]; excluded: number[] },
  abTest: 'kept' | 'dropped',
): CampaignWrite {
  return {
    templateId: record.templateId,
    name,
    sender: record.sender,
    scheduledSendDate: record.scheduledSendDate,
    expiryDate: record.expiryDate,
    throttled: record.throttled,
    scheduledFinishDate: record.scheduledFinishDate,
    includedGroupIds: groups.included,
    excludedGroupIds: groups.excluded,
    // The segments are copied as rows after the insert (copies.repository.ts): none written with it.
    includedSegmentIds: [],
    excludedSegmentIds: [],
    // A duplicate tests the same variants again; those not reached get the campaign's own template.
    variants: abTest === 'kept' ? record.variants.map(({ name: variant, templateId, sender }) => ({ name: variant, templateId, sender })) : [],
    abTest: abTest === 'kept' ? record.abTest : null,
    pauses: record.pauses.map((pause) => ({ startAt: pause.startAt, endAt: pause.endAt })),
    approval: { status: 'not_required', requestedBy: null },
    isDraft: true,
    ignoreQuietHours: record.ignoreQuietHours && auth.role === 'admin',
    localSendTime: record.localSendTime,
  };
}

function refuseTests(record: CampaignRecord): void {
  if (record.isTest) throw new ConflictError('A test send is not copied: send a new test from its campaign.');
}

/** `POST /campaigns/{uuid}/duplicate`: a draft copy named "… (copy)", with the same groups and segments. */
export async function duplicateCampaign(deps: CopyDeps, auth: AuthContext, uuid: string): Promise<Campaign> {
  const record = await findCampaign(deps, auth, uuid);
  refuseTests(record);
  const groups = await deps.campaigns.groupIds(record.id);
  const created = await deps.db.transaction(async (tx) => {
    const copy = await deps.campaigns.insert(
      tx,
      auth.teamId,
      draftOf(auth, record, named(record.name, ' (copy)'), groups, 'kept'),
      deps.clock.now(),
      auth.userId,
    );
    await campaignCopies.copySegments(tx, record.id, copy.id);
    const written = (await deps.campaigns.byId(tx, copy.id))!;
    await recordCampaignChange(deps, tx, auth, { uuid: written.uuid, after: presentCampaign(deps, written) });
    return written;
  });
  return presentCampaign(deps, created);
}

/**
 * `POST /campaigns/{uuid}/resend-unreached`: from a stopped or expired campaign (409 otherwise), a
 * draft to the recipients it did not reach, with their fields. They are written into a new contact
 * group of their own ("… (not reached)", recorded in the audit log as made by the caller), which the
 * draft includes (with the source's excluded groups), so the audience, the review, the summary and
 * the form need nothing new, and the marketer can see, export or edit who is in it.
 */
export async function resendUnreached(deps: CopyDeps, auth: AuthContext, uuid: string): Promise<Campaign> {
  const record = await findCampaign(deps, auth, uuid);
  refuseTests(record);
  if (record.stoppedAt === null && record.expiredAt === null)
    throw new ConflictError('Only a stopped or expired campaign has recipients it did not reach: stop it, or wait for its expiry.');
  const groups = await deps.campaigns.groupIds(record.id);
  const optouts = await deps.suppressions.listOf(auth.teamId);
  const now = deps.clock.now();
  const created = await deps.db.transaction(async (tx) => {
    const group = await campaignCopies.unreachedGroup(
      tx,
      { id: record.id, teamId: auth.teamId, includedGroupIds: groups.included, excludedGroupIds: [...groups.excluded, optouts] },
      { name: named(record.name, ' (not reached)'), description: `The recipients campaign "${record.name}" did not reach.` },
      now,
    );
    await deps.audit.record(tx, auth, {
      resourceType: 'contact_group',
      resourceUuid: group.uuid,
      after: { uuid: group.uuid, name: named(record.name, ' (not reached)'), number_of_contacts: group.contacts, from_campaign: record.uuid },
    });
    const write = draftOf(auth, record, named(record.name, ' (not reached)'), { included: [group.id], excluded: groups.excluded }, 'dropped');
    const copy = await deps.campaigns.insert(tx, auth.teamId, write, now, auth.userId);
    const written = (await deps.campaigns.byId(tx, copy.id))!;
    await recordCampaignChange(deps, tx, auth, { uuid: written.uuid, after: presentCampaign(deps, written) });
    return written;
  });
  return presentCampaign(deps, created);
}

import type { ApprovalDecision, Campaign } from '../../../shared/contract';
import type { Conn } from '../../db/rows';
import type { AuthContext } from '../../http/auth';
import { approvalDecisionMail, approvalRequestMail } from '../../lib/approval-mails';
import { ConflictError, ForbiddenError, ValidationError } from '../../lib/errors';
import { findCampaign, presentCampaign, recordCampaignChange, type CampaignsDeps } from './campaign-records';
import type { CampaignRecord, CampaignWrite } from './campaigns.repository';
import { campaignLifecycle } from './lifecycle';

/**
 * A campaign's approval: whether the team's threshold asks for one, the admins asked, and an
 * admin's decision with the mail that tells of it. The state it moves is lifecycle.ts's.
 */

/** Whether the team's approval threshold asks for approval of a campaign reaching these groups. */
export async function approvalFor(
  deps: Pick<CampaignsDeps, 'db' | 'teams' | 'recipients' | 'suppressions' | 'members' | 'segments'>,
  auth: AuthContext,
  included: number[],
  excluded: number[],
  segments: { included: number[]; excluded: number[] } = { included: [], excluded: [] },
): Promise<CampaignWrite['approval']> {
  const { approvalThreshold } = await deps.teams.settingsOf(auth.teamId);
  if (approvalThreshold === null) return { status: 'not_required', requestedBy: null };
  const without = [...excluded, await deps.suppressions.listOf(auth.teamId)];
  // With segments, the audience is evaluated as the start will (db/segment-sql.ts), live.
  const count = () =>
    segments.included.length + segments.excluded.length === 0
      ? deps.recipients.count(included, without)
      : deps.segments.countAudience(auth.teamId, {
          includedGroupIds: included,
          excludedGroupIds: without,
          includedSegmentIds: segments.included,
          excludedSegmentIds: segments.excluded,
        });
  const needed = approvalThreshold === 0 || (await count()) >= approvalThreshold;
  if (!needed) return { status: 'not_required', requestedBy: null };
  // An approval nobody could give would hold the campaign for ever: say so now.
  const approvers = (await deps.members.admins(deps.db, auth.teamId)).filter((admin) => admin.userId !== auth.userId);
  if (approvers.length === 0)
    throw ValidationError.field(
      'included_contact_groups',
      `The team requires an admin's approval for campaigns of ${approvalThreshold === 0 ? 'any size' : `${approvalThreshold} recipients or more`}, and no admin other than you can give it. Make another member an admin, or change the approval threshold in the team settings.`,
    );
  return { status: 'pending', requestedBy: auth.userId };
}

/** The team's other admins hear of a campaign waiting for them, from the transaction that made it wait. */
export async function askApprovers(deps: Pick<CampaignsDeps, 'members' | 'outbox' | 'config'>, tx: Conn, auth: AuthContext, record: CampaignRecord) {
  if (record.approvalStatus !== 'pending') return;
  const admins = (await deps.members.admins(tx, auth.teamId)).filter((admin) => admin.userId !== auth.userId);
  const mail = approvalRequestMail(record, record.approvalRequestedBy?.name ?? 'A member', { publicUrl: deps.config.publicUrl, zone: deps.config.appTimezone });
  await deps.outbox.enqueue(
    tx,
    admins.map((admin) => ({ to: admin.email, ...mail })),
  );
}

/** Who made the campaign, and who last asked for its approval, hear of the decision (not the admin who made it). */
async function tellDecision(deps: Pick<CampaignsDeps, 'users' | 'outbox' | 'config'>, tx: Conn, auth: AuthContext, record: CampaignRecord) {
  const ids = new Set([record.createdById, record.approvalRequestedById].filter((id): id is number => id !== null && id !== auth.userId));
  const users = await Promise.all([...ids].map((id) => deps.users.findById(id, tx)));
  const mail = approvalDecisionMail(
    record,
    {
      status: record.approvalStatus === 'approved' ? 'approved' : 'rejected',
      by: record.approvalDecidedBy?.name ?? 'An admin',
      comment: record.approvalComment,
      recipients: record.approvalRecipients,
    },
    { publicUrl: deps.config.publicUrl, zone: deps.config.appTimezone },
  );
  await deps.outbox.enqueue(
    tx,
    users.filter((user) => user !== undefined).map((user) => ({ to: user.email, ...mail })),
  );
}

/**
 * An admin approves or rejects a campaign waiting for approval; the admin who asked cannot decide
 * (403). Only a pending campaign that has not started is decided (409 otherwise); an approval
 * after the campaign's expiry would send nothing, so it is refused too.
 */
export async function decideCampaign(
  deps: Pick<CampaignsDeps, 'db' | 'campaigns' | 'recipients' | 'suppressions' | 'users' | 'outbox' | 'audit' | 'clock' | 'config'>,
  auth: AuthContext,
  uuid: string,
  status: 'approved' | 'rejected',
  input: ApprovalDecision,
): Promise<Campaign> {
  const record = await findCampaign(deps, auth, uuid);
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
    if (!written) return undefined;
    await tellDecision(deps, tx, auth, written);
    await recordCampaignChange(deps, tx, auth, { uuid, before: presentCampaign(deps, record), after: presentCampaign(deps, written) });
    return written;
  });
  if (!decided) throw new ConflictError('The campaign is not waiting for approval.');
  return presentCampaign(deps, decided);
}

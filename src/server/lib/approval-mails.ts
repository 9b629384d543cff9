import { formatTimestamp } from './time';

/** What an approval e-mail says of its campaign (the campaigns service and the engine's start both write them). */
export type ApprovalMailCampaign = { uuid: string; name: string; scheduledSendDate: Date };
export type ApprovalMailText = { subject: string; body: string };
type Where = { publicUrl: string; zone: string };

const link = (campaign: ApprovalMailCampaign, where: Where) => `${where.publicUrl}/campaigns/${campaign.uuid}`;

/** To the team's other admins: a member asked them to approve a campaign (at its creation or edit). */
export function approvalRequestMail(campaign: ApprovalMailCampaign, requester: string, where: Where): ApprovalMailText {
  return {
    subject: `Approval needed: ${campaign.name}`,
    body: [
      `${requester} asks you to approve the campaign "${campaign.name}" before it goes out.`,
      `It is scheduled for ${formatTimestamp(campaign.scheduledSendDate, where.zone)} (${where.zone}) and will not start until an admin other than ${requester} approves it.`,
      '',
      `Review it: ${link(campaign, where)}`,
    ].join('\n'),
  };
}

/** To the team's admins: the engine held a campaign at its start, its audience having grown past what was approved. */
export function approvalHeldMail(campaign: ApprovalMailCampaign, notice: string, where: Where): ApprovalMailText {
  return {
    subject: `Approval needed again: ${campaign.name}`,
    body: [`The campaign "${campaign.name}" was due to start, but nothing was sent.`, notice, '', `Review it: ${link(campaign, where)}`].join('\n'),
  };
}

/**
 * Why the engine held a campaign at its start: `recipients` now, the team's `threshold`, and what
 * the approval it had covered (`approved`: undefined when it had none, null when it recorded no count).
 */
export function heldNotice(recipients: number, threshold: number, approved: number | null | undefined): string {
  const count = `${recipients} recipient${recipients === 1 ? '' : 's'}`;
  const rule = threshold === 0 ? 'the team asks for an approval of every campaign' : `the team's approval threshold is ${threshold}`;
  const covered =
    approved === undefined
      ? 'no approval covers that many'
      : approved === null
        ? 'the approval it had did not record how many recipients it covered'
        : `the approval it had covered ${approved}`;
  return `Held when sending was to start: its audience now has ${count}, ${rule}, and ${covered}. An admin must approve it before it starts.`;
}

/** To the member who made or asked for the campaign: an admin approved or rejected it. */
export function approvalDecisionMail(
  campaign: ApprovalMailCampaign,
  decision: { status: 'approved' | 'rejected'; by: string; comment: string | null; recipients: number | null },
  where: Where,
): ApprovalMailText {
  const approved = decision.status === 'approved';
  return {
    subject: `${approved ? 'Approved' : 'Rejected'}: ${campaign.name}`,
    body: [
      approved
        ? `${decision.by} approved the campaign "${campaign.name}"${decision.recipients === null ? '' : ` for ${decision.recipients} recipients`}. It starts at ${formatTimestamp(campaign.scheduledSendDate, where.zone)} (${where.zone}), or at once if that has passed; if its audience has grown past that by then, it waits for an approval again.`
        : `${decision.by} rejected the campaign "${campaign.name}". It will not start; change it and save it to ask for approval again.`,
      ...(decision.comment ? ['', `Comment: ${decision.comment}`] : []),
      '',
      `See it: ${link(campaign, where)}`,
    ].join('\n'),
  };
}

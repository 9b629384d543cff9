import { Badge, Group } from '@mantine/core';
import { IconFlask, IconPencil, IconPlayerPauseFilled, IconPlayerStopFilled } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import type { Campaign } from '../../api/gen/types.gen';
import { ApprovalBadge } from './campaign-approval';

const STATUS: Record<number, { label: string; color: string }> = {
  0: { label: 'Pending', color: 'blue' },
  1: { label: 'Sending', color: 'orange' },
  2: { label: 'Sent', color: 'teal' },
};

export type StatusCampaign = Pick<Campaign, 'status' | 'is_draft' | 'stopped_at' | 'expired_at' | 'started_sending_at'> &
  Partial<Pick<Campaign, 'paused_until'>>;

/**
 * What a person should read for the campaign's state: a draft is never sent, a stopped campaign was
 * stopped by someone, and one that expired before anything left did not send (status 2 alone would
 * read "Sent"). `sent` (from the summary) refines "nothing sent" where it is known; without it a
 * campaign that never started sent nothing.
 */
export function campaignStatus(campaign: StatusCampaign, sent?: number): { label: string; color: string } {
  if (campaign.is_draft) return { label: 'Draft', color: 'gray' };
  if (campaign.stopped_at) return { label: 'Stopped', color: 'red' };
  const nothingSent = sent !== undefined ? sent === 0 : campaign.started_sending_at === '';
  if (campaign.expired_at && nothingSent) return { label: 'Expired — nothing sent', color: 'gray' };
  // Inside a planned pause a sending campaign sends nothing: say until when (HH:MM in the service's zone).
  if (campaign.status === 1 && campaign.paused_until) return { label: `Paused until ${campaign.paused_until.slice(11, 16)}`, color: 'yellow' };
  return STATUS[campaign.status] ?? { label: `Status ${campaign.status}`, color: 'gray' };
}

/** Whether the campaign can be stopped: pending or sending, scheduled (not a draft) and not stopped already (else the service answers 409). */
export function isStoppable(campaign: Pick<Campaign, 'status' | 'is_draft' | 'stopped_at'>): boolean {
  return (campaign.status === 0 || campaign.status === 1) && !campaign.is_draft && !campaign.stopped_at;
}

/** A throttled campaign stopped by hand (docs/interface.md §3: manual pause). */
export function isManuallyPaused(campaign: Pick<Campaign, 'throttled' | 'manually_paused'>): boolean {
  return campaign.throttled && campaign.manually_paused === true;
}

// A badge keeps its whole word: in a narrow table column it must not shrink to "PENDI…".
const WHOLE = { root: { flexShrink: 0 }, label: { overflow: 'visible' } } as const;

const ICONS: Record<string, ReactNode> = {
  Draft: <IconPencil size={10} aria-hidden />,
  Stopped: <IconPlayerStopFilled size={10} aria-hidden />,
};
const PAUSE_ICON = <IconPlayerPauseFilled size={10} aria-hidden />;

/**
 * Status (docs/interface.md §3, read as {@link campaignStatus}), plus Paused for a throttled campaign
 * stopped by hand, Expired for one that expired after sending some, Test for a send-test campaign,
 * and the approval state of one that needs an admin's approval.
 */
export function CampaignBadges({
  campaign,
  sent,
}: {
  campaign: StatusCampaign & Pick<Campaign, 'throttled' | 'manually_paused' | 'is_test' | 'approval'>;
  sent?: number;
}) {
  const status = campaignStatus(campaign, sent);
  const expiredAfterSending = campaign.expired_at !== '' && !campaign.stopped_at && !campaign.is_draft && status.label !== 'Expired — nothing sent';
  return (
    <Group gap={6} wrap="nowrap">
      <Badge
        color={status.color}
        variant="light"
        styles={WHOLE}
        leftSection={status.label.startsWith('Paused until') ? PAUSE_ICON : ICONS[status.label]}
        title={status.label.startsWith('Paused until') ? `A planned pause: sending resumes at ${campaign.paused_until}` : undefined}
      >
        {status.label}
      </Badge>
      {isManuallyPaused(campaign) && !campaign.stopped_at && (
        <Badge color="yellow" variant="filled" styles={WHOLE} leftSection={<IconPlayerPauseFilled size={10} />}>
          Paused
        </Badge>
      )}
      {expiredAfterSending && (
        <Badge color="orange" variant="outline" styles={WHOLE}>
          Expired
        </Badge>
      )}
      {!campaign.is_draft && <ApprovalBadge status={campaign.approval.status} />}
      {campaign.is_test && (
        <Badge color="grape" variant="outline" styles={WHOLE} leftSection={<IconFlask size={10} />}>
          Test
        </Badge>
      )}
    </Group>
  );
}

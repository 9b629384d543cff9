import { Alert, Text } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import type { Campaign } from '../../api/gen/types.gen';
import { formatTimestamp } from '../../lib/format';

/** Why a locked campaign cannot be edited (docs/interface.md §3 rule 2), in the campaign's own terms. */
export function lockReason(campaign: Pick<Campaign, 'status' | 'scheduled_send_date' | 'approval' | 'stopped_at' | 'stopped_by' | 'expired_at'>): string {
  if (campaign.stopped_at) return `${stoppedLine(campaign)}: nothing more is sent.`;
  if (campaign.status === 1) return 'It is sending: a campaign cannot be changed while its messages go out.';
  if (campaign.status === 2 && campaign.expired_at) return `It expired on ${formatTimestamp(campaign.expired_at)}.`;
  if (campaign.status === 2) return 'It has been sent.';
  // The engine never starts a campaign an admin has not approved: nothing is being prepared.
  if (campaign.approval.status === 'pending') return `Its send time (${formatTimestamp(campaign.scheduled_send_date)}) has passed while it waits for approval.`;
  if (campaign.approval.status === 'rejected')
    return `Its send time (${formatTimestamp(campaign.scheduled_send_date)}) has passed, and it was rejected: it will not be sent.`;
  return `Its send time (${formatTimestamp(campaign.scheduled_send_date)}) has passed, so its messages are being prepared.`;
}

/** "Stopped at 2 Mar 2026, 09:12 by Ada Lovelace". */
export function stoppedLine(campaign: Pick<Campaign, 'stopped_at' | 'stopped_by'>): string {
  return `Stopped at ${formatTimestamp(campaign.stopped_at)}${campaign.stopped_by ? ` by ${campaign.stopped_by.name}` : ''}`;
}

interface CampaignLockAlertProps {
  reason: string;
  /** The service's own sentence when it refused a save with 423. */
  serviceMessage?: string;
}

export function CampaignLockAlert({ reason, serviceMessage }: CampaignLockAlertProps) {
  return (
    <Alert color="gray" variant="light" icon={<IconLock />} title="This campaign can no longer be edited" role="status">
      <Text size="sm">{reason}</Text>
      {serviceMessage && (
        <Text size="sm" mt={4} c="dimmed">
          Herald said: {serviceMessage}
        </Text>
      )}
    </Alert>
  );
}

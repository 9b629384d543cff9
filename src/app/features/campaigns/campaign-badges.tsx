import { Badge, Group } from '@mantine/core';
import { IconFlask, IconPlayerPauseFilled } from '@tabler/icons-react';
import type { Campaign } from '../../api/gen/types.gen';
import { ApprovalBadge } from './campaign-approval';

const STATUS: Record<number, { label: string; color: string }> = {
  0: { label: 'Pending', color: 'blue' },
  1: { label: 'Sending', color: 'orange' },
  2: { label: 'Sent', color: 'teal' },
};

/** A throttled campaign stopped by hand (docs/interface.md §3: manual pause). */
export function isManuallyPaused(campaign: Pick<Campaign, 'throttled' | 'manually_paused'>): boolean {
  return campaign.throttled && campaign.manually_paused === true;
}

// A badge keeps its whole word: in a narrow table column it must not shrink to "PENDI…".
const WHOLE = { root: { flexShrink: 0 }, label: { overflow: 'visible' } } as const;

/**
 * Status (docs/interface.md §3), plus Paused for a throttled campaign stopped by hand, Test for a
 * send-test campaign, and the approval state of one that needs an admin's approval.
 */
export function CampaignBadges({ campaign }: { campaign: Pick<Campaign, 'status' | 'throttled' | 'manually_paused' | 'is_test' | 'approval'> }) {
  const status = STATUS[campaign.status] ?? { label: `Status ${campaign.status}`, color: 'gray' };
  return (
    <Group gap={6} wrap="nowrap">
      <Badge color={status.color} variant="light" styles={WHOLE}>
        {status.label}
      </Badge>
      {isManuallyPaused(campaign) && (
        <Badge color="yellow" variant="filled" styles={WHOLE} leftSection={<IconPlayerPauseFilled size={10} />}>
          Paused
        </Badge>
      )}
      <ApprovalBadge status={campaign.approval.status} />
      {campaign.is_test && (
        <Badge color="grape" variant="outline" styles={WHOLE} leftSection={<IconFlask size={10} />}>
          Test
        </Badge>
      )}
    </Group>
  );
}

import { Alert, Anchor, Badge, List, Text } from '@mantine/core';
import { IconCalendarEvent } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { Campaign } from '../../api/gen/types.gen';
import { formatTimestamp } from '../../lib/format';
import { paths } from '../../paths';
import { templateUsageQueries } from './template-usage-queries';

/** Scheduled campaigns in the order they send, then drafts (which send only once scheduled). */
function bySendTime(a: Campaign, b: Campaign): number {
  return Number(a.is_draft) - Number(b.is_draft) || a.scheduled_send_date.localeCompare(b.scheduled_send_date);
}

/**
 * Above the save button: the scheduled campaigns (not yet sending) that send this template, which
 * a save changes too. Nothing while there are none, or while they load.
 */
export function ScheduledCampaignsNotice({ templateUuid }: { templateUuid: string }) {
  const pending = useQuery(templateUsageQueries.pendingCampaigns(templateUuid));
  const campaigns = [...(pending.data?.data ?? [])].sort(bySendTime);
  if (campaigns.length === 0) return null;
  const total = Math.max(pending.data?.meta.total ?? 0, campaigns.length);

  return (
    <Alert
      color="blue"
      variant="light"
      p="sm"
      role="status"
      icon={<IconCalendarEvent size={18} />}
      title={`Saving changes the message of ${total} scheduled ${total === 1 ? 'campaign' : 'campaigns'}:`}
    >
      <List size="sm" spacing={4}>
        {campaigns.map((campaign) => (
          <List.Item key={campaign.uuid}>
            <Anchor component={Link} to={paths.campaigns.detail.getHref(campaign.uuid)} size="sm" fw={500}>
              {campaign.name}
            </Anchor>{' '}
            {campaign.is_draft && (
              <>
                <Badge size="sm" variant="outline" color="gray" style={{ verticalAlign: 'text-bottom' }}>
                  Draft
                </Badge>{' '}
              </>
            )}
            <Text span size="sm" c="dimmed">
              {campaign.is_draft
                ? `not scheduled yet${campaign.scheduled_send_date ? `, set for ${formatTimestamp(campaign.scheduled_send_date)}` : ''}`
                : `sends ${formatTimestamp(campaign.scheduled_send_date)}`}
            </Text>
          </List.Item>
        ))}
      </List>
      {total > campaigns.length && (
        <Text size="sm" mt={4}>
          and {total - campaigns.length} more:{' '}
          <Anchor component={Link} to={paths.campaigns.list.getHref({ status: 0 })} size="sm">
            see the pending campaigns
          </Anchor>
          .
        </Text>
      )}
    </Alert>
  );
}

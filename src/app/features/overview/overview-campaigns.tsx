import { Anchor, Badge, Group, Progress, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { OverviewApprovalRequest, OverviewScheduledCampaign, OverviewSendingCampaign } from '../../api/gen/types.gen';
import { formatTimestamp } from '../../lib/format';
import { paths } from '../../paths';
import { formatCount, plural } from './overview-format';
import { LIVE_REFRESH_MS } from './overview-queries';
import { EmptyNote, Item, ItemList, OverviewSection, SectionLink } from './overview-section';

function CampaignLink({ uuid, name }: { uuid: string; name: string }) {
  return (
    <Anchor component={Link} to={paths.campaigns.detail.getHref(uuid)} fw={600} size="sm" truncate="end" miw={0}>
      {name}
    </Anchor>
  );
}

/** A `YYYY-MM-DD HH:MM:SS` of the service's zone, readable, with the zone on hover. */
function When({ timestamp, timeZone }: { timestamp: string; timeZone: string }) {
  return (
    <time dateTime={timestamp.replace(' ', 'T')} title={`${timestamp} (${timeZone})`}>
      {formatTimestamp(timestamp)}
    </time>
  );
}

/** The campaigns sending now, each with a bar of the messages that left its queue; refreshed live. */
export function SendingNow({ campaigns, timeZone }: { campaigns: OverviewSendingCampaign[]; timeZone: string }) {
  return (
    <OverviewSection
      id="sending-now"
      title="Sending now"
      aside={
        campaigns.length > 0 && (
          <Badge variant="dot" color="orange">
            Live · refreshes every {LIVE_REFRESH_MS / 1000} s
          </Badge>
        )
      }
    >
      {campaigns.length === 0 ? (
        <EmptyNote>Nothing is sending now. A campaign shows here from its send time, with its progress, until its last message has gone.</EmptyNote>
      ) : (
        <ItemList label="Campaigns sending now">
          {campaigns.map((campaign) => (
            <Item key={campaign.uuid}>
              <Group justify="space-between" gap="xs" wrap="nowrap">
                <CampaignLink uuid={campaign.uuid} name={campaign.name} />
                <Group gap="xs" wrap="nowrap">
                  {campaign.paused && (
                    <Badge color="orange" variant="light">
                      Paused
                    </Badge>
                  )}
                  <Text size="sm" fw={700}>
                    {campaign.percent}%
                  </Text>
                </Group>
              </Group>
              <Progress
                value={campaign.percent}
                color={campaign.paused ? 'orange' : 'indigo'}
                size="md"
                radius="sm"
                my={6}
                aria-label={`Progress of ${campaign.name}`}
              />
              <Text size="xs" c="dimmed">
                {formatCount(campaign.processed)} of {plural(campaign.recipients, 'message', 'messages')} sent or settled · {formatCount(campaign.delivered)}{' '}
                delivered · started <When timestamp={campaign.started_at} timeZone={timeZone} />
              </Text>
            </Item>
          ))}
        </ItemList>
      )}
    </OverviewSection>
  );
}

/** The next campaigns due to send, soonest first. */
export function NextScheduled({ campaigns, timeZone }: { campaigns: OverviewScheduledCampaign[]; timeZone: string }) {
  return (
    <OverviewSection
      id="next-scheduled"
      title="Next scheduled"
      aside={<SectionLink to={paths.campaigns.list.getHref({ status: 0 })}>All scheduled</SectionLink>}
    >
      {campaigns.length === 0 ? (
        <EmptyNote>Nothing is scheduled. Campaigns due to send show here, soonest first; drafts and campaigns awaiting approval are left out.</EmptyNote>
      ) : (
        <ItemList label="Next scheduled campaigns">
          {campaigns.map((campaign) => (
            <Item key={campaign.uuid}>
              <CampaignLink uuid={campaign.uuid} name={campaign.name} />
              <Text size="xs" c="dimmed">
                Sends <When timestamp={campaign.send_at} timeZone={timeZone} /> ·{' '}
                {campaign.recipients === null ? 'no contact group yet' : plural(campaign.recipients, 'recipient', 'recipients')}
              </Text>
            </Item>
          ))}
        </ItemList>
      )}
    </OverviewSection>
  );
}

/** Campaigns waiting for an admin's approval, oldest request first; each page has the approval panel. */
export function AwaitingApproval({ campaigns, timeZone }: { campaigns: OverviewApprovalRequest[]; timeZone: string }) {
  return (
    <OverviewSection
      id="awaiting-approval"
      title="Awaiting approval"
      aside={
        campaigns.length > 0 && (
          <Badge color="yellow" variant="light">
            {formatCount(campaigns.length)} waiting
          </Badge>
        )
      }
    >
      {campaigns.length === 0 ? (
        <EmptyNote>
          No campaign is waiting for approval. Campaigns at or above the team’s approval threshold wait here until another admin approves them.
        </EmptyNote>
      ) : (
        <ItemList label="Campaigns awaiting approval">
          {campaigns.map((campaign) => (
            <Item key={campaign.uuid}>
              <CampaignLink uuid={campaign.uuid} name={campaign.name} />
              <Text size="xs" c="dimmed">
                {campaign.requested_by ? `Asked by ${campaign.requested_by}` : 'Asked'} on <When timestamp={campaign.requested_at} timeZone={timeZone} /> · due{' '}
                <When timestamp={campaign.send_at} timeZone={timeZone} />
              </Text>
            </Item>
          ))}
        </ItemList>
      )}
    </OverviewSection>
  );
}

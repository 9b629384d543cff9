import { Anchor, Badge, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { ContactDetail } from '../../api/gen/types.gen';
import { formatCount, formatTimestamp } from '../../lib/format';
import { paths } from '../../paths';
import { OptedOutBadge } from './opt-out-badge';
import { describeOptOutEvent, latestOptOutEvent } from './opt-out-words';

function Fact({ label, wide = false, children }: { label: string; wide?: boolean; children: ReactNode }) {
  return (
    <Stack gap={4} role="group" aria-label={label} style={wide ? { gridColumn: 'span 2' } : undefined}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      {children}
    </Stack>
  );
}

const count = (value: number) => (
  <Text size="xl" fw={700}>
    {formatCount(value)}
  </Text>
);

/** Whether campaigns reach the number, and how it came to be so (the opt-out history's latest entry). */
function OptOutState({ contact }: { contact: ContactDetail }) {
  const events = contact.opt_out_events.items;
  const event = latestOptOutEvent(events, contact.opted_out ? 'opt_out' : 'opt_in');
  return (
    <Stack gap={6} align="flex-start">
      {contact.opted_out ? (
        <OptedOutBadge />
      ) : (
        <Badge color="teal" variant="light" leftSection={<IconCircleCheck size={12} aria-hidden />}>
          Receives campaigns
        </Badge>
      )}
      {event ? (
        <Text size="sm">
          {describeOptOutEvent(event)}, {formatTimestamp(event.created_at)}
          {event.campaign && (
            <>
              , after{' '}
              <Anchor component={Link} to={paths.campaigns.detail.getHref(event.campaign.uuid)} size="sm">
                {event.campaign.name}
              </Anchor>
            </>
          )}
          .{event.reason && ` Reason: ${event.reason}`}
        </Text>
      ) : (
        contact.opted_out && (
          <Text size="sm" c="dimmed">
            In default_optouts; the history does not say how it got there.
          </Text>
        )
      )}
    </Stack>
  );
}

/** The number's state and how much the team holds about it, above the details. */
export function ContactSummary({ contact }: { contact: ContactDetail }) {
  return (
    <Paper withBorder radius="md" p="md" mb="lg" component="section" aria-label="Contact summary">
      <SimpleGrid cols={{ base: 2, md: 6 }} spacing="lg" verticalSpacing="md">
        <Fact label="Opt-out" wide>
          <OptOutState contact={contact} />
        </Fact>
        <Fact label="Groups">{count(contact.groups.length)}</Fact>
        <Fact label="Messages received">{count(contact.messages.total)}</Fact>
        <Fact label="Clicks">{count(contact.clicks.total)}</Fact>
        <Fact label="Messages sent to the team">{count(contact.inbound_messages.total)}</Fact>
      </SimpleGrid>
    </Paper>
  );
}

import { Anchor, Badge, Paper, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { ContactDetail } from '../../api/gen/types.gen';
import { formatTimestamp } from '../../lib/format';
import { paths } from '../../paths';
import { MessageStatusBadge } from './message-status-badge';
import { WHOLE_BADGE } from './opt-out-badge';
import { TableScroll } from '../../components/table-scroll';

function CampaignLink({ campaign }: { campaign: { uuid: string; name: string } }) {
  return (
    <Anchor component={Link} to={paths.campaigns.detail.getHref(campaign.uuid)} size="sm" fw={500}>
      {campaign.name}
    </Anchor>
  );
}

function Columns({ names }: { names: readonly string[] }) {
  return (
    <Table.Thead>
      <Table.Tr>
        {names.map((name) => (
          <Table.Th key={name}>{name}</Table.Th>
        ))}
      </Table.Tr>
    </Table.Thead>
  );
}

const nowrap = { whiteSpace: 'nowrap' } as const;

/** The messages of the team's campaigns that went to the number, newest first. */
export function ContactMessagesTable({ messages }: { messages: ContactDetail['messages']['items'] }) {
  return (
    <Paper withBorder radius="md">
      <TableScroll minWidth={600}>
        <Table aria-label="Messages received">
          <Columns names={['Campaign', 'Status', 'Sent', 'Delivered']} />
          <Table.Tbody>
            {messages.map((message, index) => (
              <Table.Tr key={`${message.campaign.uuid}-${index}`} style={{ verticalAlign: 'top' }}>
                <Table.Td>
                  <CampaignLink campaign={message.campaign} />
                </Table.Td>
                <Table.Td>
                  <MessageStatusBadge status={message.status} reason={message.reason} />
                </Table.Td>
                <Table.Td style={nowrap}>{formatTimestamp(message.sent_at, 'Not sent')}</Table.Td>
                <Table.Td style={nowrap}>{formatTimestamp(message.delivered_at)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </TableScroll>
    </Paper>
  );
}

/** Taps on the tracked links of those messages (and link-preview bots, marked as such), newest first. */
export function ContactClicksTable({ clicks }: { clicks: ContactDetail['clicks']['items'] }) {
  return (
    <Paper withBorder radius="md">
      <TableScroll minWidth={520}>
        <Table aria-label="Clicks">
          <Columns names={['Campaign', 'Link', 'Clicked']} />
          <Table.Tbody>
            {clicks.map((click, index) => (
              <Table.Tr key={`${click.campaign.uuid}-${index}`}>
                <Table.Td>
                  <CampaignLink campaign={click.campaign} />
                </Table.Td>
                <Table.Td>
                  <Text span size="sm" ff="monospace">
                    {click.link_name}
                  </Text>
                  {click.is_bot && (
                    <Badge ml="xs" size="xs" variant="outline" color="gray" tt="none">
                      Link preview bot
                    </Badge>
                  )}
                </Table.Td>
                <Table.Td style={nowrap}>{formatTimestamp(click.clicked_at)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </TableScroll>
    </Paper>
  );
}

/** What the number texted the team, newest first. */
export function ContactInboundTable({ messages }: { messages: ContactDetail['inbound_messages']['items'] }) {
  return (
    <Paper withBorder radius="md">
      <TableScroll minWidth={520}>
        <Table aria-label="Inbound messages">
          <Columns names={['Received', 'Message', 'Keyword']} />
          <Table.Tbody>
            {messages.map((message) => (
              <Table.Tr key={message.uuid} style={{ verticalAlign: 'top' }}>
                <Table.Td style={nowrap}>{formatTimestamp(message.received_at)}</Table.Td>
                <Table.Td maw={360}>
                  <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                    {message.body}
                  </Text>
                </Table.Td>
                <Table.Td>
                  {message.keyword ? (
                    <Text size="sm" fw={600} ff="monospace">
                      {message.keyword}
                    </Text>
                  ) : (
                    !message.opted_out && (
                      <Text size="sm" c="dimmed">
                        None
                      </Text>
                    )
                  )}
                  {message.opted_out && (
                    <Badge color="red" variant="light" styles={WHOLE_BADGE}>
                      Opt-out word
                    </Badge>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </TableScroll>
    </Paper>
  );
}

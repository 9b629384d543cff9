import { Anchor, Badge, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { ContactDetail } from '../../api/gen/types.gen';
import { DataTable, type DataColumn } from '../../components/data-table';
import { anyCarried, MessageConnection, ProviderError, providerErrorOf } from '../../components/message-connection';
import { formatTimestamp } from '../../lib/format';
import { paths } from '../../paths';
import { MessageStatusBadge } from './message-status-badge';
import { WHOLE_BADGE } from './opt-out-badge';

type Message = ContactDetail['messages']['items'][number];
type Click = ContactDetail['clicks']['items'][number];
type Inbound = ContactDetail['inbound_messages']['items'][number];

function CampaignLink({ campaign }: { campaign: { uuid: string; name: string } }) {
  return (
    <Anchor component={Link} to={paths.campaigns.detail.getHref(campaign.uuid)} size="sm" fw={500}>
      {campaign.name}
    </Anchor>
  );
}

const nowrap = { style: { whiteSpace: 'nowrap' } } as const;
const alignTop = () => ({ style: { verticalAlign: 'top' } }) as const;

const MESSAGE_COLUMNS: DataColumn<Message>[] = [
  { key: 'campaign', header: 'Campaign', cell: (message) => <CampaignLink campaign={message.campaign} /> },
  { key: 'status', header: 'Status', cell: (message) => <MessageStatusBadge status={message.status} reason={message.reason} /> },
  { key: 'sent', header: 'Sent', cellProps: nowrap, cell: (message) => formatTimestamp(message.sent_at, 'Not sent') },
  { key: 'delivered', header: 'Delivered', cellProps: nowrap, cell: (message) => formatTimestamp(message.delivered_at) },
];

/** The connection that carried a message and the provider's error: shown when one of the team's SMS connections carried any. */
const CONNECTION_COLUMNS: DataColumn<Message>[] = [
  { key: 'connection', header: 'Connection', cell: (message) => <MessageConnection message={message} /> },
  {
    key: 'provider-error',
    header: 'Provider error',
    cellProps: nowrap,
    cell: (message) => <ProviderError error={message.status === 'failed' ? providerErrorOf(message, message.reason) : null} />,
  },
];

/** The messages of the team's campaigns that went to the number, newest first. */
export function ContactMessagesTable({ messages }: { messages: ContactDetail['messages']['items'] }) {
  return (
    <DataTable
      label="Messages received"
      columns={anyCarried(messages) ? [...MESSAGE_COLUMNS, ...CONNECTION_COLUMNS] : MESSAGE_COLUMNS}
      rows={messages}
      // The list gives a message no id of its own: its campaign and its place name it.
      rowKey={(message, index) => `${message.campaign.uuid}-${index}`}
      rowProps={alignTop}
      minWidth={600}
    />
  );
}

const CLICK_COLUMNS: DataColumn<Click>[] = [
  { key: 'campaign', header: 'Campaign', cell: (click) => <CampaignLink campaign={click.campaign} /> },
  {
    key: 'link',
    header: 'Link',
    cell: (click) => (
      <>
        <Text span size="sm" ff="monospace">
          {click.link_name}
        </Text>
        {click.is_bot && (
          <Badge ml="xs" size="xs" variant="outline" color="gray" tt="none">
            Link preview bot
          </Badge>
        )}
      </>
    ),
  },
  { key: 'clicked', header: 'Clicked', cellProps: nowrap, cell: (click) => formatTimestamp(click.clicked_at) },
];

/** Taps on the tracked links of those messages (and link-preview bots, marked as such), newest first. */
export function ContactClicksTable({ clicks }: { clicks: ContactDetail['clicks']['items'] }) {
  return <DataTable label="Clicks" columns={CLICK_COLUMNS} rows={clicks} rowKey={(click, index) => `${click.campaign.uuid}-${index}`} minWidth={520} />;
}

const INBOUND_COLUMNS: DataColumn<Inbound>[] = [
  { key: 'received', header: 'Received', cellProps: nowrap, cell: (message) => formatTimestamp(message.received_at) },
  {
    key: 'message',
    header: 'Message',
    cellProps: { maw: 360 },
    cell: (message) => (
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {message.body}
      </Text>
    ),
  },
  {
    key: 'keyword',
    header: 'Keyword',
    cell: (message) => (
      <>
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
      </>
    ),
  },
];

/** What the number texted the team, newest first. */
export function ContactInboundTable({ messages }: { messages: ContactDetail['inbound_messages']['items'] }) {
  return <DataTable label="Inbound messages" columns={INBOUND_COLUMNS} rows={messages} rowKey={(message) => message.uuid} rowProps={alignTop} minWidth={520} />;
}

import { Badge, Group, Text } from '@mantine/core';
import type { InboundMessage } from '../../api/gen/types.gen';
import { DataTable, type DataColumn } from '../../components/data-table';
import { formatTimestamp } from '../../lib/format';
import { formatPhoneNumber } from '../../lib/phone-number';
import { InboundActionsList } from './inbound-actions-list';

export const INBOUND_COLUMNS = ['Received', 'From', 'Message', 'Keyword', 'Opted out', 'Actions taken'] as const;

const COLUMNS: DataColumn<InboundMessage>[] = [
  {
    key: 'received',
    header: 'Received',
    cellProps: { style: { whiteSpace: 'nowrap' } },
    cell: (message) => (
      <>
        <Text size="sm">{formatTimestamp(message.received_at)}</Text>
        {message.source === 'api' && (
          <Badge size="xs" variant="light" color="grape" tt="none">
            Test
          </Badge>
        )}
      </>
    ),
  },
  {
    key: 'from',
    header: 'From',
    cell: (message) => (
      <Text size="sm" ff="monospace">
        {formatPhoneNumber(message.from)}
      </Text>
    ),
  },
  {
    key: 'message',
    header: 'Message',
    cellProps: { maw: 280 },
    cell: (message) => (
      <Text size="sm" lineClamp={3}>
        {message.body}
      </Text>
    ),
  },
  {
    key: 'keyword',
    header: 'Keyword',
    cell: (message) =>
      message.keyword ? (
        <Text size="sm" fw={600} ff="monospace">
          {message.keyword.keyword}
        </Text>
      ) : (
        <Text size="sm" c="dimmed">
          None
        </Text>
      ),
  },
  {
    key: 'opted_out',
    header: 'Opted out',
    cell: (message) =>
      message.opted_out ? (
        <Badge color="red" variant="light">
          Opted out
        </Badge>
      ) : (
        <Text size="sm" c="dimmed">
          No
        </Text>
      ),
  },
  {
    key: 'actions',
    header: 'Actions taken',
    cellProps: { maw: 360 },
    cell: (message) => (
      <Group>
        <InboundActionsList actions={message.actions} />
      </Group>
    ),
  },
];

export function InboundMessagesTable({ messages }: { messages: readonly InboundMessage[] }) {
  return (
    <DataTable
      label="Inbound messages"
      columns={COLUMNS}
      rows={messages}
      rowKey={(message) => message.uuid}
      rowProps={() => ({ style: { verticalAlign: 'top' } })}
      tableProps={{ verticalSpacing: 'sm' }}
      minWidth={900}
    />
  );
}

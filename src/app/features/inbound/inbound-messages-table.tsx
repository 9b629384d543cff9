import { Badge, Group, Paper, Table, Text } from '@mantine/core';
import type { InboundMessage } from '../../api/gen/types.gen';
import { formatTimestamp } from '../../lib/format';
import { formatPhoneNumber } from '../../lib/phone-number';
import { InboundActionsList } from './inbound-actions-list';
import { TableScroll } from '../../components/table-scroll';

export const INBOUND_COLUMNS = ['Received', 'From', 'Message', 'Keyword', 'Opted out', 'Actions taken'] as const;

export function InboundMessagesTable({ messages }: { messages: readonly InboundMessage[] }) {
  return (
    <Paper withBorder radius="md">
      <TableScroll minWidth={900}>
        <Table aria-label="Inbound messages" verticalSpacing="sm">
          <Table.Thead>
            <Table.Tr>
              {INBOUND_COLUMNS.map((column) => (
                <Table.Th key={column}>{column}</Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {messages.map((message) => (
              <Table.Tr key={message.uuid} style={{ verticalAlign: 'top' }}>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  <Text size="sm">{formatTimestamp(message.received_at)}</Text>
                  {message.source === 'api' && (
                    <Badge size="xs" variant="light" color="grape" tt="none">
                      Test
                    </Badge>
                  )}
                </Table.Td>
                <Table.Td>
                  <Text size="sm" ff="monospace">
                    {formatPhoneNumber(message.from)}
                  </Text>
                </Table.Td>
                <Table.Td maw={280}>
                  <Text size="sm" lineClamp={3}>
                    {message.body}
                  </Text>
                </Table.Td>
                <Table.Td>
                  {message.keyword ? (
                    <Text size="sm" fw={600} ff="monospace">
                      {message.keyword.keyword}
                    </Text>
                  ) : (
                    <Text size="sm" c="dimmed">
                      None
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  {message.opted_out ? (
                    <Badge color="red" variant="light">
                      Opted out
                    </Badge>
                  ) : (
                    <Text size="sm" c="dimmed">
                      No
                    </Text>
                  )}
                </Table.Td>
                <Table.Td maw={360}>
                  <Group>
                    <InboundActionsList actions={message.actions} />
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </TableScroll>
    </Paper>
  );
}

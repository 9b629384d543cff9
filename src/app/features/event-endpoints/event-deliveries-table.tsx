import { Anchor, Paper, Stack, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { EventDelivery } from '../../api/gen/types.gen';
import { HttpStatusBadge } from '../../components/call-attempts-table';
import { TableScroll } from '../../components/table-scroll';
import { formatCount, formatTimestamp } from '../../lib/format';
import { EventDeliveryStatusBadge } from './event-delivery-status-badge';

export const EVENT_DELIVERY_COLUMNS = ['Event', 'Status', 'Attempts', 'Last answer', 'Created', 'Finished'] as const;

interface EventDeliveriesTableProps {
  deliveries: readonly EventDelivery[];
  /** Where a delivery opens (its body and attempts): the same page with the delivery named in the URL. */
  hrefOf: (delivery: EventDelivery) => string;
}

export function EventDeliveriesTable({ deliveries, hrefOf }: EventDeliveriesTableProps) {
  return (
    <Paper withBorder radius="md">
      <TableScroll minWidth={820}>
        <Table aria-label="Deliveries">
          <Table.Thead>
            <Table.Tr>
              {EVENT_DELIVERY_COLUMNS.map((column) => (
                <Table.Th key={column} ta={column === 'Attempts' ? 'right' : undefined}>
                  {column}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {deliveries.map((delivery) => (
              <Table.Tr key={delivery.uuid}>
                <Table.Td>
                  <Stack gap={2}>
                    <Anchor
                      component={Link}
                      to={hrefOf(delivery)}
                      size="sm"
                      ff="monospace"
                      aria-label={`${delivery.type}, ${formatTimestamp(delivery.created_at)}`}
                    >
                      {delivery.type}
                    </Anchor>
                    {delivery.type.startsWith('message.') && (
                      <Text size="xs" c="dimmed">
                        {formatCount(delivery.item_count)} {delivery.item_count === 1 ? 'message' : 'messages'}
                      </Text>
                    )}
                  </Stack>
                </Table.Td>
                <Table.Td>
                  <EventDeliveryStatusBadge status={delivery.status} />
                </Table.Td>
                <Table.Td ta="right">{delivery.attempts}</Table.Td>
                <Table.Td maw={320}>
                  {delivery.attempts === 0 ? (
                    <Text size="sm" c="dimmed">
                      Not tried yet
                    </Text>
                  ) : (
                    <Stack gap={2} align="flex-start">
                      <HttpStatusBadge statusCode={delivery.last_status_code} />
                      {delivery.last_error && (
                        <Text size="xs" c="red" lineClamp={2} title={delivery.last_error}>
                          {delivery.last_error}
                        </Text>
                      )}
                    </Stack>
                  )}
                </Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatTimestamp(delivery.created_at)}</Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  {delivery.status === 'pending' ? (
                    <Text size="sm" c="dimmed">
                      Next try {formatTimestamp(delivery.next_attempt_at, 'soon')}
                    </Text>
                  ) : (
                    formatTimestamp(delivery.finished_at)
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

import { Anchor, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { EventDelivery } from '../../api/gen/types.gen';
import { DataTable, type DataColumn } from '../../components/data-table';
import { HttpStatusBadge } from '../../components/call-attempts-table';
import { formatTimestamp, plural } from '../../lib/format';
import { EventDeliveryStatusBadge } from './event-delivery-status-badge';

export const EVENT_DELIVERY_COLUMNS = ['Event', 'Status', 'Attempts', 'Last answer', 'Created', 'Finished'] as const;

interface EventDeliveriesTableProps {
  deliveries: readonly EventDelivery[];
  /** Where a delivery opens (its body and attempts): the same page with the delivery named in the URL. */
  hrefOf: (delivery: EventDelivery) => string;
}

export function EventDeliveriesTable({ deliveries, hrefOf }: EventDeliveriesTableProps) {
  const columns: DataColumn<EventDelivery>[] = [
    {
      key: 'event',
      header: 'Event',
      cell: (delivery) => (
        <Stack gap={2}>
          <Anchor component={Link} to={hrefOf(delivery)} size="sm" ff="monospace" aria-label={`${delivery.type}, ${formatTimestamp(delivery.created_at)}`}>
            {delivery.type}
          </Anchor>
          {delivery.type.startsWith('message.') && (
            <Text size="xs" c="dimmed">
              {plural(delivery.item_count, 'message', 'messages')}
            </Text>
          )}
        </Stack>
      ),
    },
    { key: 'status', header: 'Status', cell: (delivery) => <EventDeliveryStatusBadge status={delivery.status} /> },
    { key: 'attempts', header: 'Attempts', align: 'right', cell: (delivery) => delivery.attempts },
    {
      key: 'last_answer',
      header: 'Last answer',
      cellProps: { maw: 320 },
      cell: (delivery) =>
        delivery.attempts === 0 ? (
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
        ),
    },
    { key: 'created', header: 'Created', cellProps: { style: { whiteSpace: 'nowrap' } }, cell: (delivery) => formatTimestamp(delivery.created_at) },
    {
      key: 'finished',
      header: 'Finished',
      cellProps: { style: { whiteSpace: 'nowrap' } },
      cell: (delivery) =>
        delivery.status === 'pending' ? (
          <Text size="sm" c="dimmed">
            Next try {formatTimestamp(delivery.next_attempt_at, 'soon')}
          </Text>
        ) : (
          formatTimestamp(delivery.finished_at)
        ),
    },
  ];
  return <DataTable label="Deliveries" columns={columns} rows={deliveries} rowKey={(delivery) => delivery.uuid} minWidth={820} />;
}

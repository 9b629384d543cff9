import { Anchor, Badge, Group, Stack, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { Link } from 'react-router';
import type { EventEndpoint } from '../../api/gen/types.gen';
import { DataTable, type DataColumn } from '../../components/data-table';
import { formatTimestamp } from '../../lib/format';
import { paths } from '../../paths';
import { EventEndpointStatusBadge } from './event-endpoint-status';

export const EVENT_ENDPOINT_COLUMNS = ['Endpoint', 'Events', 'Status', 'Updated'] as const;

/** How many event types a row names before it sums the rest up. */
const SHOWN_TYPES = 3;

function EventTypes({ events }: { events: readonly string[] }) {
  const rest = events.slice(SHOWN_TYPES);
  return (
    <Group gap={4}>
      {events.slice(0, SHOWN_TYPES).map((type) => (
        <Badge key={type} variant="default" size="sm" tt="none" ff="monospace">
          {type}
        </Badge>
      ))}
      {rest.length > 0 && (
        <Tooltip label={rest.join(', ')} multiline maw={320} withArrow>
          <Badge variant="default" size="sm" tt="none">
            +{rest.length} more<VisuallyHidden>: {rest.join(', ')}</VisuallyHidden>
          </Badge>
        </Tooltip>
      )}
    </Group>
  );
}

const COLUMNS: DataColumn<EventEndpoint>[] = [
  {
    key: 'endpoint',
    header: 'Endpoint',
    cellProps: { maw: 380 },
    cell: (endpoint) => (
      <Stack gap={2}>
        <Anchor component={Link} to={paths.eventEndpoints.detail.getHref(endpoint.uuid)} size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
          {endpoint.url}
        </Anchor>
        {endpoint.description && (
          <Text size="xs" c="dimmed">
            {endpoint.description}
          </Text>
        )}
      </Stack>
    ),
  },
  { key: 'events', header: 'Events', cell: (endpoint) => <EventTypes events={endpoint.events} /> },
  { key: 'status', header: 'Status', cell: (endpoint) => <EventEndpointStatusBadge endpoint={endpoint} /> },
  { key: 'updated', header: 'Updated', cellProps: { style: { whiteSpace: 'nowrap' } }, cell: (endpoint) => formatTimestamp(endpoint.updated_at) },
];

export function EventEndpointsTable({ endpoints }: { endpoints: readonly EventEndpoint[] }) {
  return <DataTable label="Event endpoints" columns={COLUMNS} rows={endpoints} rowKey={(endpoint) => endpoint.uuid} minWidth={760} />;
}

import { Anchor, Badge, Group, Paper, Stack, Table, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { Link } from 'react-router';
import type { EventEndpoint } from '../../api/gen/types.gen';
import { TableScroll } from '../../components/table-scroll';
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

export function EventEndpointsTable({ endpoints }: { endpoints: readonly EventEndpoint[] }) {
  return (
    <Paper withBorder radius="md">
      <TableScroll minWidth={760}>
        <Table aria-label="Event endpoints">
          <Table.Thead>
            <Table.Tr>
              {EVENT_ENDPOINT_COLUMNS.map((column) => (
                <Table.Th key={column}>{column}</Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {endpoints.map((endpoint) => (
              <Table.Tr key={endpoint.uuid}>
                <Table.Td maw={380}>
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
                </Table.Td>
                <Table.Td>
                  <EventTypes events={endpoint.events} />
                </Table.Td>
                <Table.Td>
                  <EventEndpointStatusBadge endpoint={endpoint} />
                </Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatTimestamp(endpoint.updated_at)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </TableScroll>
    </Paper>
  );
}

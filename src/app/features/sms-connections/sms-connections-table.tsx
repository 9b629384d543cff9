import { Anchor, Badge, Group, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { SmsConnection } from '../../api/gen/types.gen';
import { DataTable, type DataColumn } from '../../components/data-table';
import { paths } from '../../paths';
import { PROVIDER_LABELS } from './sms-connection-providers';
import { StateSummary } from './sms-connection-state';

export const SMS_CONNECTION_COLUMNS = ['Connection', 'Provider', 'Enabled', 'Senders', 'State today'] as const;

/** How many senders a row names before it counts the rest. */
const SHOWN_SENDERS = 3;

const COLUMNS: DataColumn<SmsConnection>[] = [
  {
    key: 'name',
    header: 'Connection',
    cellProps: { maw: 260 },
    cell: (connection) => (
      <Anchor component={Link} to={paths.sending.connection.getHref(connection.uuid)} size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
        {connection.name}
      </Anchor>
    ),
  },
  { key: 'provider', header: 'Provider', cell: (connection) => PROVIDER_LABELS[connection.provider] },
  {
    key: 'enabled',
    header: 'Enabled',
    cell: (connection) => (
      <Badge color={connection.enabled ? 'teal' : 'gray'} variant="light">
        {connection.enabled ? 'Enabled' : 'Disabled'}
      </Badge>
    ),
  },
  {
    key: 'senders',
    header: 'Senders',
    cell: (connection) =>
      connection.senders.length === 0 ? (
        <Text size="sm" c="dimmed">
          None
        </Text>
      ) : (
        <Group gap={4}>
          {connection.senders.slice(0, SHOWN_SENDERS).map((sender) => (
            <Badge key={sender} variant="default" tt="none" ff="monospace">
              {sender}
            </Badge>
          ))}
          {connection.senders.length > SHOWN_SENDERS && <Text size="xs">+{connection.senders.length - SHOWN_SENDERS} more</Text>}
        </Group>
      ),
  },
  { key: 'state', header: 'State today', cellProps: { miw: 220 }, cell: (connection) => <StateSummary state={connection.state} /> },
];

export function SmsConnectionsTable({ connections }: { connections: readonly SmsConnection[] }) {
  return <DataTable label="Connections" columns={COLUMNS} rows={connections} rowKey={(connection) => connection.uuid} minWidth={860} />;
}

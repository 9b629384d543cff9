import { Anchor, Badge, Group, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { Flow } from '../../api/gen/types.gen';
import { DataTable, type DataColumn } from '../../components/data-table';
import { formatCount } from '../../lib/format';
import { paths } from '../../paths';
import { triggerSentence, type FlowNames } from './flow-labels';

export const FLOW_COLUMNS = ['Flow', 'Trigger', 'Status', 'Runs'] as const;

const columns = (names: FlowNames): DataColumn<Flow>[] => [
  {
    key: 'name',
    header: 'Flow',
    cellProps: { maw: 320 },
    cell: (flow) => (
      <Anchor component={Link} to={paths.flows.detail.getHref(flow.uuid)} size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
        {flow.name}
      </Anchor>
    ),
  },
  { key: 'trigger', header: 'Trigger', cell: (flow) => <Text size="sm">{triggerSentence(flow.trigger, names)}</Text> },
  {
    key: 'status',
    header: 'Status',
    cell: (flow) => (
      <Badge variant="light" color={flow.enabled ? 'green' : 'gray'}>
        {flow.enabled ? 'Enabled' : 'Disabled'}
      </Badge>
    ),
  },
  {
    key: 'runs',
    header: 'Runs',
    cellProps: { style: { whiteSpace: 'nowrap' } },
    cell: (flow) => (
      <Group gap={6} wrap="nowrap">
        <Text size="sm">{formatCount(flow.runs.active)} active</Text>
        <Text size="sm" c="dimmed">
          · {formatCount(flow.runs.completed)} completed · {formatCount(flow.runs.exited)} exited
        </Text>
      </Group>
    ),
  },
];

export function FlowsTable({ flows, names, busy }: { flows: readonly Flow[]; names: FlowNames; busy?: boolean }) {
  return <DataTable label="Flows" columns={columns(names)} rows={flows} rowKey={(flow) => flow.uuid} minWidth={760} busy={busy} />;
}

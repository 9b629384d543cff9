import { Anchor, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { Segment } from '../../api/gen/types.gen';
import { DataTable, type DataColumn } from '../../components/data-table';
import { formatTimestamp, plural } from '../../lib/format';
import { paths } from '../../paths';

export const SEGMENT_COLUMNS = ['Segment', 'Conditions', 'Updated'] as const;

/** "Any of 3 conditions", a group of conditions counted as one. */
function conditionsSummary(segment: Segment): string {
  const count = segment.conditions.length;
  if (count === 1) return segment.conditions[0]?.type === 'group_of_conditions' ? '1 group of conditions' : '1 condition';
  return `${segment.match === 'all' ? 'All' : 'Any'} of ${plural(count, 'condition', 'conditions')}`;
}

const COLUMNS: DataColumn<Segment>[] = [
  {
    key: 'name',
    header: 'Segment',
    rowHeader: true,
    cellProps: { maw: 420 },
    cell: (segment) => (
      <Stack gap={2}>
        <Anchor component={Link} to={paths.segments.detail.getHref(segment.uuid)} size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
          {segment.name}
        </Anchor>
        {segment.description && (
          <Text size="xs" c="dimmed">
            {segment.description}
          </Text>
        )}
      </Stack>
    ),
  },
  { key: 'conditions', header: 'Conditions', cell: conditionsSummary },
  { key: 'updated', header: 'Updated', cellProps: { style: { whiteSpace: 'nowrap' } }, cell: (segment) => formatTimestamp(segment.updated_at) },
];

export function SegmentsTable({ segments, busy }: { segments: readonly Segment[]; busy?: boolean }) {
  return <DataTable label="Segments" columns={COLUMNS} rows={segments} rowKey={(segment) => segment.uuid} busy={busy} minWidth={560} />;
}

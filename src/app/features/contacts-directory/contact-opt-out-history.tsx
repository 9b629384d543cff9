import { Anchor, Badge, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { OptOutEvent } from '../../api/gen/types.gen';
import { DataTable, type DataColumn } from '../../components/data-table';
import { formatTimestamp } from '../../lib/format';
import { paths } from '../../paths';
import { WHOLE_BADGE } from './opt-out-badge';
import { describeOptOutEvent } from './opt-out-words';

const COLUMNS: DataColumn<OptOutEvent>[] = [
  { key: 'when', header: 'When', cellProps: { style: { whiteSpace: 'nowrap' } }, cell: (event) => formatTimestamp(event.created_at) },
  {
    key: 'change',
    header: 'Change',
    cell: (event) =>
      event.kind === 'opt_out' ? (
        <Badge color="red" variant="light" styles={WHOLE_BADGE}>
          Opted out
        </Badge>
      ) : (
        <Badge color="teal" variant="light" styles={WHOLE_BADGE}>
          Opted in
        </Badge>
      ),
  },
  { key: 'how', header: 'How', cell: (event) => <Text size="sm">{describeOptOutEvent(event)}</Text> },
  {
    key: 'campaign',
    header: 'After the campaign',
    cell: (event) =>
      event.campaign ? (
        <Anchor component={Link} to={paths.campaigns.detail.getHref(event.campaign.uuid)} size="sm">
          {event.campaign.name}
        </Anchor>
      ) : (
        <Text size="sm" c="dimmed">
          —
        </Text>
      ),
  },
  {
    key: 'reason',
    header: 'Reason',
    cellProps: { maw: 280 },
    cell: (event) => (
      <Text size="sm" c={event.reason ? undefined : 'dimmed'}>
        {event.reason ?? '—'}
      </Text>
    ),
  },
];

/** Every entry to and exit from default_optouts, newest first: how, by whom, after which campaign, and why. */
export function ContactOptOutHistory({ events }: { events: readonly OptOutEvent[] }) {
  return (
    <DataTable
      label="Opt-out history"
      columns={COLUMNS}
      rows={events}
      // An event has no id of its own: two may share a second.
      rowKey={(event, index) => `${event.created_at}-${index}`}
      rowProps={() => ({ style: { verticalAlign: 'top' } })}
      minWidth={640}
    />
  );
}

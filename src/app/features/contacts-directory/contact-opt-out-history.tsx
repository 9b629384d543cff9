import { Anchor, Badge, Paper, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { OptOutEvent } from '../../api/gen/types.gen';
import { formatTimestamp } from '../../lib/format';
import { paths } from '../../paths';
import { WHOLE_BADGE } from './opt-out-badge';
import { describeOptOutEvent } from './opt-out-words';
import { TableScroll } from '../../components/table-scroll';

/** Every entry to and exit from default_optouts, newest first: how, by whom, after which campaign, and why. */
export function ContactOptOutHistory({ events }: { events: readonly OptOutEvent[] }) {
  return (
    <Paper withBorder radius="md">
      <TableScroll minWidth={640}>
        <Table aria-label="Opt-out history">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>When</Table.Th>
              <Table.Th>Change</Table.Th>
              <Table.Th>How</Table.Th>
              <Table.Th>After the campaign</Table.Th>
              <Table.Th>Reason</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {events.map((event, index) => (
              <Table.Tr key={`${event.created_at}-${index}`} style={{ verticalAlign: 'top' }}>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatTimestamp(event.created_at)}</Table.Td>
                <Table.Td>
                  {event.kind === 'opt_out' ? (
                    <Badge color="red" variant="light" styles={WHOLE_BADGE}>
                      Opted out
                    </Badge>
                  ) : (
                    <Badge color="teal" variant="light" styles={WHOLE_BADGE}>
                      Opted in
                    </Badge>
                  )}
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{describeOptOutEvent(event)}</Text>
                </Table.Td>
                <Table.Td>
                  {event.campaign ? (
                    <Anchor component={Link} to={paths.campaigns.detail.getHref(event.campaign.uuid)} size="sm">
                      {event.campaign.name}
                    </Anchor>
                  ) : (
                    <Text size="sm" c="dimmed">
                      —
                    </Text>
                  )}
                </Table.Td>
                <Table.Td maw={280}>
                  <Text size="sm" c={event.reason ? undefined : 'dimmed'}>
                    {event.reason ?? '—'}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </TableScroll>
    </Paper>
  );
}

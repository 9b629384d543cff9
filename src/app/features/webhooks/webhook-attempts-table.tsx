import { Badge, Paper, Table, Text } from '@mantine/core';
import type { WebhookAttempt } from '../../api/gen/types.gen';
import { formatTimestamp } from '../../lib/dates';
import { TableScroll } from '../../components/table-scroll';

export const WEBHOOK_ATTEMPT_COLUMNS = ['Time', 'Event', 'Status', 'Latency', 'Error'] as const;

function StatusBadge({ statusCode }: { statusCode: number | null }) {
  if (statusCode === null) {
    return (
      <Badge color="red" variant="light" tt="none">
        No answer
      </Badge>
    );
  }
  const ok = statusCode >= 200 && statusCode < 300;
  return (
    <Badge color={ok ? 'teal' : 'red'} variant="light">
      {statusCode}
    </Badge>
  );
}

export function WebhookAttemptsTable({ attempts }: { attempts: readonly WebhookAttempt[] }) {
  return (
    <Paper withBorder radius="md">
      <TableScroll minWidth={720}>
        <Table aria-label="Deliveries">
          <Table.Thead>
            <Table.Tr>
              {WEBHOOK_ATTEMPT_COLUMNS.map((column) => (
                <Table.Th key={column} ta={column === 'Latency' ? 'right' : undefined}>
                  {column}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {attempts.map((attempt) => (
              <Table.Tr key={attempt.uuid}>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatTimestamp(attempt.created_at)}</Table.Td>
                <Table.Td>
                  <Text size="sm" ff="monospace">
                    {attempt.event}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <StatusBadge statusCode={attempt.status_code} />
                </Table.Td>
                <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                  {attempt.latency_ms.toLocaleString('en-GB')} ms
                </Table.Td>
                <Table.Td maw={380}>
                  {attempt.error ? (
                    <Text size="sm" c="red">
                      {attempt.error}
                    </Text>
                  ) : (
                    <Text size="sm" c="dimmed">
                      None
                    </Text>
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

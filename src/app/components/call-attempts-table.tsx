import { Badge, Paper, Table, Text } from '@mantine/core';
import { formatCount, formatTimestamp } from '../lib/format';
import { TableScroll } from './table-scroll';

/** One signed call to a receiver (a webhook's, an event endpoint's) and its answer. */
export interface CallAttempt {
  created_at: string;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
  /** The event the call carried, when the table lists calls of several. */
  event?: string;
}

/** The table's columns; `withEvent` adds the event each call carried. */
export function callAttemptColumns(withEvent: boolean): string[] {
  return ['Time', ...(withEvent ? ['Event'] : []), 'Status', 'Latency', 'Error'];
}

/** The receiver's HTTP answer: green for 2xx, red otherwise, and "No answer" when there was none. */
export function HttpStatusBadge({ statusCode }: { statusCode: number | null }) {
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

interface CallAttemptsTableProps {
  /** The table's accessible name, e.g. "Deliveries". */
  label: string;
  attempts: readonly CallAttempt[];
  /** Shows the Event column (each attempt's `event`). */
  withEvent?: boolean;
}

export function CallAttemptsTable({ label, attempts, withEvent = false }: CallAttemptsTableProps) {
  return (
    <Paper withBorder radius="md">
      <TableScroll minWidth={withEvent ? 720 : 560}>
        <Table aria-label={label}>
          <Table.Thead>
            <Table.Tr>
              {callAttemptColumns(withEvent).map((column) => (
                <Table.Th key={column} ta={column === 'Latency' ? 'right' : undefined}>
                  {column}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {attempts.map((attempt, index) => (
              <Table.Tr key={`${attempt.created_at}-${index}`}>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatTimestamp(attempt.created_at)}</Table.Td>
                {withEvent && (
                  <Table.Td>
                    <Text size="sm" ff="monospace">
                      {attempt.event}
                    </Text>
                  </Table.Td>
                )}
                <Table.Td>
                  <HttpStatusBadge statusCode={attempt.status_code} />
                </Table.Td>
                <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                  {formatCount(attempt.latency_ms)} ms
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

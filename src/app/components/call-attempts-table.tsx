import { Badge, Text } from '@mantine/core';
import { formatCount, formatTimestamp } from '../lib/format';
import { DataTable, type DataColumn } from './data-table';

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
  const columns: DataColumn<CallAttempt & { index: number }>[] = [
    { key: 'Time', header: 'Time', cellProps: { style: { whiteSpace: 'nowrap' } }, cell: (attempt) => formatTimestamp(attempt.created_at) },
    ...(withEvent
      ? [
          {
            key: 'Event',
            header: 'Event',
            cell: (attempt: CallAttempt) => (
              <Text size="sm" ff="monospace">
                {attempt.event}
              </Text>
            ),
          },
        ]
      : []),
    { key: 'Status', header: 'Status', cell: (attempt) => <HttpStatusBadge statusCode={attempt.status_code} /> },
    {
      key: 'Latency',
      header: 'Latency',
      align: 'right',
      cellProps: { style: { whiteSpace: 'nowrap' } },
      cell: (attempt) => `${formatCount(attempt.latency_ms)} ms`,
    },
    {
      key: 'Error',
      header: 'Error',
      cellProps: { maw: 380 },
      cell: (attempt) =>
        attempt.error ? (
          <Text size="sm" c="red">
            {attempt.error}
          </Text>
        ) : (
          <Text size="sm" c="dimmed">
            None
          </Text>
        ),
    },
  ];
  return (
    <DataTable
      label={label}
      columns={columns}
      rows={attempts.map((attempt, index) => ({ ...attempt, index }))}
      rowKey={(attempt) => `${attempt.created_at}-${attempt.index}`}
      minWidth={withEvent ? 720 : 560}
    />
  );
}

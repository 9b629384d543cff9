import { Badge, Text } from '@mantine/core';
import type { ReportType } from '../../../shared/contract';
import { DataTable, type DataColumn } from '../../components/data-table';
import { anyCarried, MessageConnection, ProviderError, providerErrorOf } from '../../components/message-connection';
import { REPORT_DEFINITIONS, type CellKind, type ReportColumn } from './report-columns';
import { describeFailureReason, fieldPairs, formatCount, formatOffsetTime, formatReportTime } from './report-format';

type Row = Record<string, string | number | null>;

const STATUS_COLORS: Record<string, string> = { Success: 'teal', Pending: 'blue', Failed: 'red', Expired: 'orange' };

interface ReportTableProps {
  type: ReportType;
  rows: readonly object[];
  /** The service's zone, named in the exact time a date cell shows on hover. */
  timeZone?: string;
  /** The next page is loading: the rows on screen are the previous page's. */
  busy?: boolean;
}

function Empty({ text = '—' }: { text?: string }) {
  return (
    <Text size="sm" c="dimmed" span>
      {text}
    </Text>
  );
}

function Cell({ kind, value, timeZone }: { kind: CellKind; value: string | number | null; timeZone?: string }) {
  if (value === null || value === '') return <Empty />;
  const text = String(value);
  switch (kind) {
    case 'count':
      return <>{formatCount(Number(value))}</>;
    case 'time':
      return (
        <time dateTime={text} title={timeZone ? `${text} (${timeZone})` : text}>
          {formatReportTime(text)}
        </time>
      );
    case 'offset-time':
      return (
        <time dateTime={text} title={text}>
          {formatOffsetTime(text)}
        </time>
      );
    case 'status':
      return (
        // Never shortened by a narrow column: the status is the point of the row.
        <Badge color={STATUS_COLORS[text] ?? 'gray'} variant="light" tt="none" style={{ minWidth: 'max-content' }}>
          {text}
        </Badge>
      );
    case 'id':
      return (
        <Text size="xs" ff="monospace" title={text} truncate="end" maw={120}>
          {text}
        </Text>
      );
    case 'message':
      return (
        <Text size="sm" lineClamp={2} title={text} miw={200} maw={360}>
          {text}
        </Text>
      );
    case 'detail':
      return (
        <Text size="sm" truncate="end" title={text} maw={260}>
          {text}
        </Text>
      );
    case 'reason': {
      // The engine's own reasons in words, with the code the CSV and the filter use beneath; a carrier's status as it came.
      const words = describeFailureReason(text);
      return words === text ? (
        <Text size="sm" ff="monospace" maw={220} style={{ overflowWrap: 'anywhere' }}>
          {text}
        </Text>
      ) : (
        <Text size="sm" maw={220}>
          {words}{' '}
          <Text span size="xs" c="dimmed" ff="monospace">
            ({text})
          </Text>
        </Text>
      );
    }
    default:
      return <>{text}</>;
  }
}

function FieldPairs({ names, values }: { names: string; values: string }) {
  const pairs = fieldPairs(names, values);
  if (pairs.length === 0) return <Empty text="None" />;
  return (
    <Text size="sm" component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
      {pairs.map(({ name, value }, index) => (
        <li key={`${index}:${name}`}>
          <Text span size="sm" c="dimmed">
            {name}:
          </Text>{' '}
          {value || <Empty />}
        </li>
      ))}
    </Text>
  );
}

function alignOf(column: ReportColumn<Row>): 'right' | undefined {
  return column.kind === 'count' ? 'right' : undefined;
}

/** The connection that carried a message and the provider's error, for the delivery reports' rows that have them. */
const CONNECTION_COLUMNS: DataColumn<{ row: Row; index: number }>[] = [
  { key: 'Connection', header: 'Connection', headerProps: { style: { whiteSpace: 'nowrap' } }, cell: ({ row }) => <MessageConnection message={row} /> },
  {
    key: 'Provider error',
    header: 'Provider error',
    headerProps: { style: { whiteSpace: 'nowrap' } },
    cell: ({ row }) => (
      <ProviderError error={row.Status === 'Failed' ? providerErrorOf(row, row.failure_reason === null ? null : String(row.failure_reason)) : null} />
    ),
  },
];

/** One page of a report: its CSV columns under readable headers, numbers and dates made readable. */
export function ReportTable({ type, rows, timeZone, busy = false }: ReportTableProps) {
  const { label, columns } = REPORT_DEFINITIONS[type] as { label: string; columns: ReportColumn<Row>[] };
  const tableColumns = columns.map((column): DataColumn<{ row: Row; index: number }> => ({
    key: column.header,
    header: column.header,
    align: alignOf(column),
    headerProps: { style: { whiteSpace: 'nowrap' } },
    cellProps: { style: column.kind === 'phone' || column.kind === 'time' || column.kind === 'offset-time' ? { whiteSpace: 'nowrap' } : undefined },
    cell: ({ row }) =>
      column.kind === 'fields' ? (
        <FieldPairs names={String(row[column.names] ?? '')} values={String(row[column.values] ?? '')} />
      ) : (
        <Cell kind={column.kind} value={row[column.key] ?? null} timeZone={timeZone} />
      ),
  }));
  // A page with messages one of the team's SMS connections carried also names the connection and the
  // provider's error, before the identifiers; a team sending through the installation's gateway sees
  // the table as before.
  if ((type === 'delivery' || type === 'alt_delivery') && anyCarried(rows)) {
    const at = tableColumns.findIndex((column) => columns.find((c) => c.header === column.key)?.kind === 'id');
    tableColumns.splice(at === -1 ? tableColumns.length : at, 0, ...CONNECTION_COLUMNS);
  }
  return (
    <DataTable
      label={`${label} report`}
      columns={tableColumns}
      rows={(rows as readonly Row[]).map((row, index) => ({ row, index }))}
      rowKey={({ index }) => String(index)}
      busy={busy}
      minWidth={760}
    />
  );
}

import { TIMESTAMP_PATTERN } from '../../../shared/time/local-timestamps';
import { formatCount, formatTimestamp } from '../../lib/format';

export { formatCount };

/** "Rows 16–30 of 1,234": the rows on screen, out of the whole report. */
export function rowRange(meta: { from: number | null; to: number | null; total: number }): string {
  if (meta.from === null || meta.to === null) return `No rows on this page, of ${formatCount(meta.total)}`;
  return `Rows ${formatCount(meta.from)}–${formatCount(meta.to)} of ${formatCount(meta.total)}`;
}

/**
 * A report's `YYYY-MM-DD HH:MM:SS`, already in the service's zone, shown readably to the second
 * (a report is read for the order of events); anything else is shown as it came.
 */
export function formatReportTime(timestamp: string): string {
  return TIMESTAMP_PATTERN.test(timestamp) ? formatTimestamp(timestamp, timestamp, { seconds: true }) : timestamp;
}

const ISO_WITH_OFFSET = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})([+-]\d{2})(\d{2})$/;

/**
 * `Expiry_Date` is ISO 8601 with the service zone's offset (`2026-03-03T09:00:00+0000`): its wall
 * time is shown as written, with the offset, not converted into the browser's zone.
 */
export function formatOffsetTime(iso: string): string {
  const match = ISO_WITH_OFFSET.exec(iso);
  if (!match) return iso;
  const [, date, time, hours, minutes] = match;
  const wall = formatTimestamp(`${date} ${time}`, iso);
  return wall === `${date} ${time}` ? iso : `${wall} (UTC${hours}:${minutes})`;
}

export interface FieldPair {
  name: string;
  value: string;
}

/**
 * `FieldNames` and `FieldValues` are comma-joined and aligned by position. A value that itself held
 * commas leaves more values than names: the surplus belongs to the last name.
 */
export function fieldPairs(names: string, values: string): FieldPair[] {
  if (!names) return [];
  const nameList = names.split(',');
  const valueList = values.split(',');
  return nameList.map((name, index) => ({
    name,
    value: index === nameList.length - 1 ? valueList.slice(index).join(',') : (valueList[index] ?? ''),
  }));
}

/** Rates are written by the dashboard's one formatter (lib/format.ts): "66.7%", "<0.1%", "—". */
export { formatPercent as formatRate } from '../../lib/format';

/** Why a message was not delivered, in words, for the reasons the engine itself writes; a carrier's status stays as it came. */
const FAILURE_REASONS: Record<string, string> = {
  pending: 'Expired before it was sent',
  opted_out: 'Opted out',
  stopped: 'Campaign stopped',
  quiet_hours: 'Quiet hours lasted past the expiry',
  local_time: 'Local send time missed or after the expiry',
  frequency_cap: 'Frequency cap reached',
  invalid_number: 'Invalid number',
  Expired: 'No receipt before the expiry',
  in_doubt: 'Hand-over interrupted',
};

export function describeFailureReason(reason: string): string {
  return FAILURE_REASONS[reason] ?? reason;
}

import dayjs from 'dayjs';

/**
 * The API's `YYYY-MM-DD HH:MM:SS` timestamps are already in the service time zone (APP_TIMEZONE),
 * so they are shown as they are, only more readable; an empty string means "not set".
 */
export function formatTimestamp(timestamp: string | null | undefined, empty = '—'): string {
  if (!timestamp) return empty;
  const parsed = dayjs(timestamp);
  return parsed.isValid() ? parsed.format('D MMM YYYY, HH:mm') : timestamp;
}

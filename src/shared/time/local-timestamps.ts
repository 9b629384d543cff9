/**
 * `YYYY-MM-DD HH:MM:SS` in a named time zone (APP_TIMEZONE), the only timestamp form of the API.
 * Pure Intl: no Node-only API, so the dashboard and the service convert the same way.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** `YYYY-MM-DD HH:MM:SS` in the zone; `""` for a moment not yet set (docs/api-conventions.md). */
export function formatTimestamp(moment: Date | null | undefined, timeZone: string): string {
  if (!moment) return '';
  const time = moment.getTime();
  if (Number.isNaN(time)) return formatWithIntl(moment, timeZone);
  let fast = zoneFormatters.get(timeZone);
  if (!fast) zoneFormatters.set(timeZone, (fast = localTimestampFormatter(timeZone)));
  return fast(time);
}

/** One fast formatter per zone (API answers format many moments: each minute's offset is read once). */
const zoneFormatters = new Map<string, (epochMs: number) => string>();

function formatWithIntl(moment: Date, timeZone: string): string {
  const parts: Record<string, string> = {};
  for (const part of formatterFor(timeZone).formatToParts(moment)) parts[part.type] = part.value;
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
}

export const TIMESTAMP_PATTERN = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;
/** RFC 3339 with its offset (`2026-11-24T09:00:00Z`, `…T10:00:00.5+01:00`): requests may name a moment so too. */
export const RFC3339_PATTERN = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;

/** The moment an RFC 3339 timestamp names (to the second), or null when it is not one or names an impossible date. */
function parseRfc3339(text: string): Date | null {
  const match = RFC3339_PATTERN.exec(text);
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const check = new Date(Date.UTC(year, month - 1, day));
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59)
    return null;
  const [sign, offsetHours, offsetMinutes] = [match[7], Number(match[8]), Number(match[9])];
  if (sign !== undefined && (offsetHours > 23 || offsetMinutes > 59)) return null;
  const offsetMs = sign === undefined ? 0 : (sign === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes) * 60_000;
  return new Date(Date.UTC(year, month - 1, day, hour, minute, second) - offsetMs);
}

/**
 * The moment a local timestamp names in the zone, or null when the text is not of the form, names
 * an impossible date (2026-02-30), or a time the clocks skip (the spring-forward hour). A time the
 * clocks pass twice (autumn) is its first occurrence. An RFC 3339 timestamp with its offset (what a
 * request may send instead) names its moment whatever the zone.
 */
export function parseTimestamp(text: string, timeZone: string): Date | null {
  const match = TIMESTAMP_PATTERN.exec(text);
  if (!match) return parseRfc3339(text);
  const [year, month, day, hour, minute, second] = match.slice(1).map(Number) as [number, number, number, number, number, number];
  const asUtc = Date.UTC(year, month - 1, day, hour, minute, second);
  const check = new Date(asUtc);
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59)
    return null;
  // Try the zone's offsets around that wall time (before and after any change), earliest first.
  const candidates = [-36, -12, 0, 12, 36]
    .map((hours) => offsetAt(new Date(asUtc + hours * 3_600_000), timeZone))
    // Near the ends of the four-digit years a neighbour falls outside them: it has no offset to offer.
    .flatMap((offset) => (offset === undefined ? [] : [asUtc - offset]))
    .filter((value, index, all) => all.indexOf(value) === index)
    .sort((a, b) => a - b);
  const found = candidates.find((candidate) => formatTimestamp(new Date(candidate), timeZone) === text);
  return found === undefined ? null : new Date(found);
}

/** Milliseconds the zone's wall clock is ahead of UTC at that moment (undefined outside the years 0000–9999). */
function offsetAt(moment: Date, timeZone: string): number | undefined {
  const wall = TIMESTAMP_PATTERN.exec(formatTimestamp(moment, timeZone));
  if (!wall) return undefined;
  const [, y, mo, d, h, mi, s] = wall.map(Number) as number[];
  return Date.UTC(y!, mo! - 1, d!, h!, mi!, s!) - Math.floor(moment.getTime() / 1000) * 1000;
}

/**
 * ISO 8601 in the zone with a numeric offset without colon, `YYYY-MM-DDTHH:MM:SS+hhmm` (the delivery
 * report's `Expiry_Date`, docs/interface.md §2.7).
 */
export function formatIsoWithOffset(moment: Date, timeZone: string): string {
  const local = formatTimestamp(moment, timeZone);
  // The zone's offset at that moment: the local wall time read as UTC, minus the moment.
  const [date, time] = local.split(' ') as [string, string];
  const minutes = Math.round((Date.parse(`${date}T${time}Z`) - Math.floor(moment.getTime() / 1000) * 1000) / 60_000);
  const sign = minutes < 0 ? '-' : '+';
  const hours = String(Math.floor(Math.abs(minutes) / 60)).padStart(2, '0');
  return `${date}T${time}${sign}${hours}${String(Math.abs(minutes) % 60).padStart(2, '0')}`;
}

/**
 * A fast `formatTimestamp` for many moments in one zone (report exports: millions of rows). The
 * zone's offset is read through Intl once per minute of time met (offsets change on whole minutes),
 * the rest is arithmetic.
 */
export function localTimestampFormatter(timeZone: string): (epochMs: number) => string {
  const offsets = new Map<number, number>();
  const pad = (n: number) => (n < 10 ? `0${n}` : String(n));
  return (epochMs) => {
    const minute = Math.floor(epochMs / 60_000);
    let offset = offsets.get(minute);
    if (offset === undefined) {
      if (offsets.size > 20_000) offsets.clear();
      const [date, time] = formatWithIntl(new Date(minute * 60_000), timeZone).split(' ') as [string, string];
      offset = Date.parse(`${date}T${time}Z`) - minute * 60_000;
      offsets.set(minute, offset);
    }
    const local = new Date(Math.floor(epochMs / 1000) * 1000 + offset);
    return `${local.getUTCFullYear()}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())} ${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}`;
  };
}

import { formatTimestamp, parseTimestamp } from '../../shared/time/local-timestamps';
import { zoneName } from './format';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
export const DURATIONS = { minute: MINUTE, hour: HOUR, day: DAY } as const;

/** `YYYY-MM-DD HH:MM:SS` in the service's zone, `offset` ms from now (never the browser's zone). */
export function serviceTimestamp(timeZone: string, offset = 0, now: Date = new Date()): string {
  return formatTimestamp(new Date(now.getTime() + offset), timeZone);
}

/** The same local timestamp moved by `offset` ms, in the zone; '' when it does not name a moment. */
export function shiftTimestamp(timestamp: string, offset: number, timeZone: string): string {
  const moment = parseTimestamp(timestamp, timeZone);
  return moment ? formatTimestamp(new Date(moment.getTime() + offset), timeZone) : '';
}

/** The zone's short name at that moment, e.g. `BST` in summer and `GMT` in winter for Europe/London. */
export function zoneAbbreviation(timeZone: string, moment: Date = new Date()): string {
  return zoneName(timeZone, moment, 'short') ?? timeZone;
}

/** "Europe/London, BST": the zone a field's time is read in, named for the time in it (or now). */
export function zoneLabel(timeZone: string, timestamp?: string): string {
  const moment = (timestamp && parseTimestamp(timestamp, timeZone)) || new Date();
  const abbreviation = zoneAbbreviation(timeZone, moment);
  return abbreviation === timeZone ? timeZone : `${timeZone}, ${abbreviation}`;
}

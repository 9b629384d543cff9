/**
 * Sending at each recipient's local time (`local_time`): the scheduled wall-clock time, read in the
 * recipient's own zone (the zone quiet hours use, from the number). Pure Intl, so the engine, the
 * review and the dashboard agree.
 */
import { formatTimestamp, parseTimestamp } from '../time/local-timestamps';

/** The first zone on Earth to reach a wall-clock time (UTC+14, Kiribati's Line Islands): a local-time campaign starts then. */
export const EARLIEST_ZONE = 'Etc/GMT-14';
/** The last (UTC−12): no recipient's moment comes later than the time read here. */
export const LATEST_ZONE = 'Etc/GMT+12';

/**
 * A zone whose moment had passed more than this long before the campaign started (it was scheduled,
 * approved or made too late for it) is not sent late: its recipients are unsent (`local_time`), as
 * SMS tools that send by local time drop the zones whose time has passed. A start a little late (the
 * engine's tick, a restart) still sends them.
 */
export const MISSED_AFTER_MS = 60 * 60_000;

/** The moment `wall` (`YYYY-MM-DD HH:MM:SS`) names in the zone; a time the clocks skip (spring forward) is read an hour later. */
export function localMoment(wall: string, zone: string): number {
  const exact = parseTimestamp(wall, zone);
  if (exact) return exact.getTime();
  const later = new Date(Date.parse(`${wall.replace(' ', 'T')}Z`) + 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
  return (parseTimestamp(later, zone) ?? new Date(Date.parse(`${wall.replace(' ', 'T')}Z`))).getTime();
}

/** When a local-time campaign starts: its wall-clock time in the earliest zone. */
export const localStart = (wall: string): number => localMoment(wall, EARLIEST_ZONE);

/** The wall-clock time a moment shows in a zone: what a local-time campaign keeps of its send date. */
export const wallClockOf = (moment: Date, zone: string): string => formatTimestamp(moment, zone);

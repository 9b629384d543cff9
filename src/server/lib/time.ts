/** Clock port: the engine and services read time through it so tests can move it. */
export type Clock = { now(): Date };
export const systemClock: Clock = { now: () => new Date() };

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

/** `YYYY-MM-DD HH:MM:SS` in the given zone; `""` for a moment not yet set (spec conventions). */
export function formatTimestamp(moment: Date | null | undefined, timeZone: string): string {
  if (!moment) return '';
  const parts: Record<string, string> = {};
  for (const part of formatterFor(timeZone).formatToParts(moment)) parts[part.type] = part.value;
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
}

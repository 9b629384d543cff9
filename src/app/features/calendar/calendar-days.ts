/** Days of the calendar page as `YYYY-MM-DD` (the service zone's dates, as the API writes its timestamps). */
const DAY_MS = 86_400_000;

const toDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const msOf = (day: string) => Date.parse(`${day}T00:00:00Z`);

export const addDays = (day: string, days: number): string => toDay(msOf(day) + days * DAY_MS);

/** The Monday on or before the day. */
export function weekStart(day: string): string {
  const weekday = (new Date(msOf(day)).getUTCDay() + 6) % 7;
  return addDays(day, -weekday);
}

/** The same day of the month `months` away (the 31st becomes the month's last day). */
export function addMonths(day: string, months: number): string {
  const [year, month] = day.split('-').map(Number) as [number, number];
  const first = new Date(Date.UTC(year, month - 1 + months, 1));
  return toDay(first.getTime());
}

/** The days shown: whole weeks (Monday first) covering the month of `anchor`, or its week. */
export function visibleDays(anchor: string, view: 'month' | 'week'): string[] {
  if (view === 'week') return Array.from({ length: 7 }, (_, i) => addDays(weekStart(anchor), i));
  const first = `${anchor.slice(0, 7)}-01`;
  const next = addMonths(first, 1);
  const days: string[] = [];
  for (let day = weekStart(first); day < next || days.length % 7 !== 0; day = addDays(day, 1)) days.push(day);
  return days;
}

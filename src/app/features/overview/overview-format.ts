import dayjs from 'dayjs';

/** What a figure shows when there is nothing to show (a rate with nothing to divide by, a cost without a price). */
export const NO_VALUE = '—';

/** 12,345 — the dashboard writes en-GB throughout. */
export function formatCount(value: number): string {
  return value.toLocaleString('en-GB');
}

/** Rates are written by the dashboard's one formatter (lib/rates.ts). */
export { formatRate } from '../../lib/rates';

/** An amount in its currency (ISO 4217), "€1,234.56"; null "—". */
export function formatCost(amount: number | null, currency: string): string {
  if (amount === null) return NO_VALUE;
  try {
    return new Intl.NumberFormat('en-GB', { style: 'currency', currency }).format(amount);
  } catch {
    // A code Intl does not know is still the team's currency: write it beside the number.
    return `${amount.toLocaleString('en-GB', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} ${currency}`;
  }
}

/** `YYYY-MM-DD` as "3 Mar" (or "3 Mar 2026" with the year). */
export function formatDay(day: string, withYear = false): string {
  const parsed = dayjs(day);
  return parsed.isValid() ? parsed.format(withYear ? 'D MMM YYYY' : 'D MMM') : day;
}

/** "1 Mar – 30 Mar 2026", "28 Dec 2025 – 3 Jan 2026", or one day "3 Mar 2026". */
export function formatPeriod(from: string, to: string): string {
  if (from === to) return formatDay(to, true);
  const sameYear = from.slice(0, 4) === to.slice(0, 4);
  return `${formatDay(from, !sameYear)} – ${formatDay(to, true)}`;
}

/** "1 message", "2 messages". */
export function plural(count: number, one: string, other: string): string {
  return `${formatCount(count)} ${count === 1 ? one : other}`;
}

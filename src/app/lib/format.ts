/**
 * How the dashboard writes numbers, money, rates and times: in the reader's language, the browser's
 * (`navigator.language`), never a hard-coded one. Every figure on a page goes through here, so a
 * German reader sees "12.345" and "3. März 2026, 09:00" where a British one sees "12,345" and
 * "3 Mar 2026, 09:00". The tests (vitest's setup, Playwright's config) read as en-GB.
 *
 * The API's timestamps are `YYYY-MM-DD HH:MM:SS` wall times, already in the service's zone: they are
 * written as they are, never moved into the browser's zone.
 */
/** What a figure shows when there is nothing to show (a rate with nothing to divide by, a cost without a price, no time). */
export const NO_VALUE = '—';

/** The reader's language: the browser's, or Intl's default where there is no browser. */
export function readerLocale(): string | undefined {
  return typeof navigator === 'undefined' ? undefined : navigator.language || undefined;
}

const numberFormats = new Map<string, Intl.NumberFormat>();
const dateFormats = new Map<string, Intl.DateTimeFormat>();

function numberFormat(options: Intl.NumberFormatOptions = {}): Intl.NumberFormat {
  const locale = readerLocale();
  const key = `${locale}|${JSON.stringify(options)}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, options);
    numberFormats.set(key, format);
  }
  return format;
}

function dateFormat(options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const locale = readerLocale();
  const key = `${locale}|${JSON.stringify(options)}`;
  let format = dateFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, options);
    dateFormats.set(key, format);
  }
  return format;
}

/** 12,345: a count of things (recipients, messages, rows). */
export function formatCount(value: number): string {
  return numberFormat().format(value);
}

/** 1.5: a number, to at most `maximumFractionDigits` decimals (3 by default). */
export function formatNumber(value: number, maximumFractionDigits = 3): string {
  return numberFormat({ maximumFractionDigits }).format(value);
}

/** "1 message", "2 messages", "1,234 messages". */
export function plural(count: number, one: string, other: string): string {
  return `${formatCount(count)} ${count === 1 ? one : other}`;
}

/** "a, b and c": the items joined as the reader's language joins them. */
export function formatList(items: readonly string[]): string {
  return new Intl.ListFormat(readerLocale(), { type: 'conjunction' }).format(items);
}

interface MoneyOptions {
  minimumFractionDigits?: number;
  maximumFractionDigits?: number;
}

/**
 * An amount in its currency (ISO 4217): "€1,234.56". A code Intl does not know is still the
 * team's currency: it is written beside the number ("1,234.56 XBT"). Null is "—".
 */
export function formatMoney(amount: number | null, currency: string, options: MoneyOptions = {}): string {
  if (amount === null) return NO_VALUE;
  try {
    return numberFormat({ style: 'currency', currency, ...options }).format(amount);
  } catch {
    const digits = { minimumFractionDigits: options.minimumFractionDigits ?? 2, maximumFractionDigits: options.maximumFractionDigits ?? 2 };
    return `${numberFormat({ ...digits, maximumFractionDigits: Math.max(digits.minimumFractionDigits, digits.maximumFractionDigits) }).format(amount)} ${currency}`;
  }
}

/**
 * Revenue per recipient: cents as usual (4.15), but a small amount with the digits that tell
 * campaigns apart (0.0125), as the service gives it to four decimals.
 */
export function formatPerRecipient(amount: number | null, currency: string): string {
  return formatMoney(amount, currency, { minimumFractionDigits: 2, maximumFractionDigits: amount !== null && Math.abs(amount) < 1 ? 4 : 2 });
}

/** "Euro" for EUR, in the reader's language; the code itself when the browser does not know it. */
export function currencyName(code: string): string {
  try {
    return new Intl.DisplayNames(readerLocale(), { type: 'currency' }).of(code) ?? code;
  } catch {
    return code;
  }
}

/**
 * A rate from 0 to 1 as a percentage to one decimal, the one way the dashboard writes a rate
 * (delivery, click and opt-out rates, a share of the recipients): 0.9652 → "96.5%". What happened,
 * however rarely, never reads "0%": a rate above 0 that one decimal would round to 0 is "<0.1%" (1
 * opt-out of 5,000 delivered), and one below 1 that would round to 100 is ">99.9%". Null (nothing to
 * divide by) is "—".
 */
export function formatPercent(rate: number | null): string {
  if (rate === null || !Number.isFinite(rate)) return NO_VALUE;
  const percent = numberFormat({ style: 'percent', maximumFractionDigits: 1 });
  if (rate > 0 && rate < 0.0005) return `<${percent.format(0.001)}`;
  if (rate < 1 && rate >= 0.9995) return `>${percent.format(0.999)}`;
  return percent.format(rate);
}

/** `YYYY-MM-DD`, or with a time `YYYY-MM-DD HH:MM(:SS)`. */
const WALL_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/;

/** A wall time as a Date whose UTC fields are that wall time (formatted in UTC, so no zone moves it). */
function wallTime(timestamp: string): Date | null {
  const match = WALL_TIME.exec(timestamp);
  if (!match) return null;
  const [year, month, day, hour = 0, minute = 0, second = 0] = match.slice(1).map((part) => (part === undefined ? undefined : Number(part)));
  const date = new Date(Date.UTC(year!, month! - 1, day!, hour, minute, second));
  // 2026-02-31 is no day: Date would roll it over into March.
  return date.getUTCMonth() === month! - 1 && date.getUTCDate() === day && date.getUTCHours() === hour ? date : null;
}

const MINUTES = { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', timeZone: 'UTC' } as const;
const SECONDS = { ...MINUTES, second: '2-digit' } as const;

/**
 * A `YYYY-MM-DD HH:MM:SS` timestamp of the API, more readably: "3 Mar 2026, 09:00" (with `seconds`,
 * "3 Mar 2026, 09:00:05", for what is read for the order of events). An empty one means "not set"
 * (`empty`, "—" by default); anything else is shown as it came.
 */
export function formatTimestamp(timestamp: string | null | undefined, empty = NO_VALUE, { seconds = false } = {}): string {
  if (!timestamp) return empty;
  const date = wallTime(timestamp);
  return date && timestamp.length > 10 ? dateFormat(seconds ? SECONDS : MINUTES).format(date) : timestamp;
}

/** `YYYY-MM-DD` as "3 Mar" (or "3 Mar 2026" with the year). */
export function formatDay(day: string, withYear = false): string {
  const date = wallTime(day);
  if (!date || day.length !== 10) return day;
  return dateFormat(
    withYear ? { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' } : { day: 'numeric', month: 'short', timeZone: 'UTC' },
  ).format(date);
}

/** "1 Mar – 30 Mar 2026", "28 Dec 2025 – 3 Jan 2026", or one day "3 Mar 2026". */
export function formatPeriod(from: string, to: string): string {
  if (from === to) return formatDay(to, true);
  const sameYear = from.slice(0, 4) === to.slice(0, 4);
  return `${formatDay(from, !sameYear)} – ${formatDay(to, true)}`;
}

/** A moment as its wall time in `timeZone`, without the year: "3 Jun, 14:30". */
export function formatMomentIn(moment: number | Date, timeZone: string): string {
  return dateFormat({ timeZone, day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(moment);
}

/** A zone's name at a moment, e.g. `BST` in summer and `GMT` in winter for Europe/London (`short`), or "GMT+1" (`shortOffset`). */
export function zoneName(timeZone: string, moment: Date, style: 'short' | 'shortOffset'): string | undefined {
  return dateFormat({ timeZone, timeZoneName: style })
    .formatToParts(moment)
    .find((part) => part.type === 'timeZoneName')?.value;
}

/** Whether `locale` writes a date's month before its day (en-US: 11/28/2026): how typed dates are read. */
export function writesMonthFirst(locale: string): boolean {
  const parts = new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'numeric', year: 'numeric' }).formatToParts(new Date(2026, 10, 28));
  return parts.findIndex((part) => part.type === 'month') < parts.findIndex((part) => part.type === 'day');
}

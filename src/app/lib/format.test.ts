/**
 * lib/format.ts writes in the browser's language: the same figures under en-GB (the tests' setup) and
 * de-DE. Hard-coding 'en-GB' again in format.ts turns the de-DE cases red (checked once).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  formatCount,
  formatDay,
  formatList,
  formatMoney,
  formatPerRecipient,
  formatMomentIn,
  formatNumber,
  formatPercent,
  formatPeriod,
  formatTimestamp,
  plural,
  readerLocale,
} from './format';

/** Intl spaces with no-break spaces where a language wants them ("1.234,50 €"). */
const plain = (text: string) => text.replace(/\s/g, ' ');
const inLocale = (locale: string) => vi.spyOn(window.navigator, 'language', 'get').mockReturnValue(locale);

afterEach(() => {
  vi.restoreAllMocks();
});

describe('format in en-GB (the tests’ browser)', () => {
  it('reads the browser’s language', () => {
    expect(readerLocale()).toBe('en-GB');
  });

  it('writes counts, numbers, money and rates', () => {
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(formatNumber(1.25, 1)).toBe('1.3');
    expect(plural(1, 'message', 'messages')).toBe('1 message');
    expect(plural(2500, 'message', 'messages')).toBe('2,500 messages');
    expect(formatList(['a', 'b', 'c'])).toBe('a, b and c');
    expect(formatMoney(1234.5, 'EUR')).toBe('€1,234.50');
    expect(formatMoney(0.045, 'GBP', { minimumFractionDigits: 2, maximumFractionDigits: 5 })).toBe('£0.045');
    expect(formatMoney(12, 'EURO')).toBe('12.00 EURO');
    expect(formatMoney(null, 'EUR')).toBe('—');
    // Revenue per recipient: cents, but small amounts keep the digits that tell campaigns apart.
    expect(formatPerRecipient(4.1475, 'EUR')).toBe('€4.15');
    expect(formatPerRecipient(0.0125, 'EUR')).toBe('€0.0125');
    expect(formatPerRecipient(0.5, 'GBP')).toBe('£0.50');
    expect(formatPercent(0.9652)).toBe('96.5%');
    expect(formatPercent(0.0002)).toBe('<0.1%');
    expect(formatPercent(0.9998)).toBe('>99.9%');
    expect(formatPercent(null)).toBe('—');
  });

  it('writes the API’s wall times as they are, in no other zone', () => {
    expect(formatTimestamp('2026-03-02 09:00:05')).toBe('2 Mar 2026, 09:00');
    expect(formatTimestamp('2026-03-02 21:00:05', '—', { seconds: true })).toBe('2 Mar 2026, 21:00:05');
    expect(formatTimestamp('')).toBe('—');
    expect(formatTimestamp(null, 'never')).toBe('never');
    expect(formatTimestamp('2026-02-31 10:00:00')).toBe('2026-02-31 10:00:00');
    expect(formatTimestamp('soon')).toBe('soon');
    expect(formatDay('2026-03-03')).toBe('3 Mar');
    expect(formatDay('2026-03-03', true)).toBe('3 Mar 2026');
    expect(formatPeriod('2025-12-28', '2026-01-03')).toBe('28 Dec 2025 – 3 Jan 2026');
    expect(formatMomentIn(Date.UTC(2026, 5, 3, 13, 30), 'Europe/London')).toBe('3 Jun, 14:30');
  });
});

describe('format in de-DE', () => {
  it('writes counts, numbers, money and rates as a German reader does', () => {
    inLocale('de-DE');
    expect(readerLocale()).toBe('de-DE');
    expect(formatCount(1234567)).toBe('1.234.567');
    expect(formatNumber(1.25, 1)).toBe('1,3');
    expect(plural(2500, 'Nachricht', 'Nachrichten')).toBe('2.500 Nachrichten');
    expect(formatList(['a', 'b', 'c'])).toBe('a, b und c');
    expect(plain(formatMoney(1234.5, 'EUR'))).toBe('1.234,50 €');
    expect(formatMoney(12, 'EURO')).toBe('12,00 EURO');
    expect(plain(formatPercent(0.9652))).toBe('96,5 %');
    expect(plain(formatPercent(0.0002))).toBe('<0,1 %');
  });

  it('writes the wall times in German, still in no other zone', () => {
    inLocale('de-DE');
    expect(formatTimestamp('2026-03-02 09:00:05')).toBe('2. März 2026, 09:00');
    expect(formatTimestamp('2026-03-02 21:00:05', '—', { seconds: true })).toBe('2. März 2026, 21:00:05');
    expect(formatDay('2026-03-03', true)).toBe('3. März 2026');
    expect(formatMomentIn(Date.UTC(2026, 5, 3, 13, 30), 'Europe/London')).toBe('3. Juni, 14:30');
  });
});

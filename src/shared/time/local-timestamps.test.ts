import { describe, expect, it } from 'vitest';
import { formatIsoWithOffset, formatTimestamp, localTimestampFormatter, parseTimestamp } from './local-timestamps';

describe('local timestamps', () => {
  it('read a wall time in the zone, winter and summer', () => {
    expect(parseTimestamp('2026-01-15 09:00:00', 'Europe/London')?.toISOString()).toBe('2026-01-15T09:00:00.000Z');
    expect(parseTimestamp('2026-07-15 09:00:00', 'Europe/London')?.toISOString()).toBe('2026-07-15T08:00:00.000Z');
    expect(parseTimestamp('2026-07-15 09:00:00', 'Asia/Kolkata')?.toISOString()).toBe('2026-07-15T03:30:00.000Z');
  });

  it('refuse other shapes and impossible dates', () => {
    for (const text of [
      '2026-01-15T09:00:00',
      '2026-01-15 9:00:00',
      '2026-02-30 10:00:00',
      '2026-13-01 00:00:00',
      '2026-01-01 24:00:00',
      '2026-01-01 10:60:00',
      '',
    ]) {
      expect(parseTimestamp(text, 'Europe/London')).toBeNull();
    }
    expect(parseTimestamp('2028-02-29 10:00:00', 'Europe/London')).not.toBeNull();
  });

  it('read RFC 3339 with its offset as the moment it names, whatever the zone', () => {
    for (const zone of ['Europe/London', 'Asia/Kolkata']) {
      expect(parseTimestamp('2026-11-24T09:00:00Z', zone)?.toISOString()).toBe('2026-11-24T09:00:00.000Z');
      expect(parseTimestamp('2026-11-24t10:30:00+01:30', zone)?.toISOString()).toBe('2026-11-24T09:00:00.000Z');
      expect(parseTimestamp('2026-11-24T04:00:00.999-05:00', zone)?.toISOString()).toBe('2026-11-24T09:00:00.000Z');
    }
    // No offset (a local time whose zone is unsaid), an impossible date or offset: refused.
    for (const text of [
      '2026-11-24T09:00:00',
      '2026-02-30T09:00:00Z',
      '2026-11-24T24:00:00Z',
      '2026-11-24T09:00:00+24:00',
      '2026-11-24T09:00Z',
      '2026-11-24 09:00:00Z',
    ])
      expect(parseTimestamp(text, 'Europe/London'), text).toBeNull();
  });

  it('refuse the hour the clocks skip and take the first of the hour they repeat', () => {
    expect(parseTimestamp('2026-03-29 01:30:00', 'Europe/London')).toBeNull();
    expect(parseTimestamp('2026-10-25 01:30:00', 'Europe/London')?.toISOString()).toBe('2026-10-25T00:30:00.000Z');
  });

  it('read the first and last moments of the four-digit years without breaking', () => {
    // Seen red: a neighbour of 9999-12-31 lies in year 10000, whose wall time the pattern cannot read (a TypeError, a 500 at the API).
    expect(parseTimestamp('9999-12-31 23:59:59', 'Europe/London')).toEqual(new Date('9999-12-31T23:59:59Z'));
    expect(parseTimestamp('9999-12-31 23:59:59', 'Pacific/Kiritimati')).toEqual(new Date('9999-12-31T09:59:59Z'));
    // At the start, local mean time's odd seconds (New York: −4:56:02) make the wall time unreadable: refused, not broken.
    expect(() => parseTimestamp('0000-01-01 00:00:00', 'America/New_York')).not.toThrow();
  });

  it('round-trip with formatTimestamp', () => {
    for (let hour = 0; hour < 24 * 400; hour += 7) {
      const moment = new Date(Date.UTC(2026, 0, 1) + hour * 3_600_000);
      const text = formatTimestamp(moment, 'America/New_York');
      const back = parseTimestamp(text, 'America/New_York')!;
      expect(formatTimestamp(back, 'America/New_York')).toBe(text);
    }
  });
});

describe('ISO 8601 with a numeric offset (delivery report Expiry_Date)', () => {
  it('writes the zone’s offset at that moment, without a colon', () => {
    expect(formatIsoWithOffset(new Date('2026-07-01T08:30:15Z'), 'Europe/London')).toBe('2026-07-01T09:30:15+0100');
    expect(formatIsoWithOffset(new Date('2026-12-01T08:30:15Z'), 'Europe/London')).toBe('2026-12-01T08:30:15+0000');
    expect(formatIsoWithOffset(new Date('2026-12-01T08:30:15Z'), 'America/New_York')).toBe('2026-12-01T03:30:15-0500');
    expect(formatIsoWithOffset(new Date('2026-12-01T08:30:15Z'), 'Asia/Kolkata')).toBe('2026-12-01T14:00:15+0530');
  });
});

describe('the fast formatter for many moments', () => {
  it('agrees with formatTimestamp across a year, daylight saving changes included', () => {
    for (const zone of ['Europe/London', 'America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe']) {
      const fast = localTimestampFormatter(zone);
      for (let ms = Date.UTC(2026, 0, 1); ms < Date.UTC(2027, 0, 1); ms += 3_600_000 + 61_001) {
        expect(fast(ms)).toBe(formatTimestamp(new Date(ms), zone));
      }
    }
  });
});

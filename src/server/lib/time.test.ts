import { describe, expect, it } from 'vitest';
import { formatTimestamp } from './time';

describe('formatTimestamp', () => {
  it('writes YYYY-MM-DD HH:MM:SS in the zone, across daylight saving', () => {
    expect(formatTimestamp(new Date('2026-01-15T09:05:07Z'), 'Europe/London')).toBe('2026-01-15 09:05:07');
    expect(formatTimestamp(new Date('2026-07-15T09:05:07Z'), 'Europe/London')).toBe('2026-07-15 10:05:07');
    expect(formatTimestamp(new Date('2026-03-29T01:00:00Z'), 'Europe/London')).toBe('2026-03-29 02:00:00');
    expect(formatTimestamp(new Date('2026-12-31T23:30:00Z'), 'Asia/Tokyo')).toBe('2027-01-01 08:30:00');
  });

  it('writes midnight as 00, not 24', () => {
    expect(formatTimestamp(new Date('2026-05-01T23:00:00Z'), 'Europe/London')).toBe('2026-05-02 00:00:00');
  });

  it('writes an unset moment as an empty string', () => {
    expect(formatTimestamp(null, 'Europe/London')).toBe('');
    expect(formatTimestamp(undefined, 'Europe/London')).toBe('');
  });
});

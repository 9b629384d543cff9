import { describe, expect, it } from 'vitest';
import { quietPeriods, quietUntil, type QuietHours } from './quiet-hours';

const nights: QuietHours = { start: '21:00', end: '08:00', days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] };
const at = (iso: string) => Date.parse(iso);

describe('quiet hours', () => {
  it('holds a night in the zone, and lets the day go', () => {
    // 02:30 in Paris (UTC+1 in January) is 01:30 UTC: quiet until 08:00 Paris, 07:00 UTC.
    expect(quietUntil(nights, 'Europe/Paris', at('2026-01-14T01:30:00Z'))).toBe(at('2026-01-14T07:00:00Z'));
    expect(quietUntil(nights, 'Europe/Paris', at('2026-01-14T12:00:00Z'))).toBeNull();
    // The same moment is mid-afternoon in Sydney, the evening in New York (quiet from 21:00).
    expect(quietUntil(nights, 'Australia/Sydney', at('2026-01-14T01:30:00Z'))).toBeNull();
    expect(quietUntil(nights, 'America/New_York', at('2026-01-14T02:30:00Z'))).toBe(at('2026-01-14T13:00:00Z'));
  });

  it('starts at the start (inclusive) and ends at the end (exclusive)', () => {
    expect(quietUntil(nights, 'UTC', at('2026-01-14T21:00:00Z'))).toBe(at('2026-01-15T08:00:00Z'));
    expect(quietUntil(nights, 'UTC', at('2026-01-14T20:59:59Z'))).toBeNull();
    expect(quietUntil(nights, 'UTC', at('2026-01-15T08:00:00Z'))).toBeNull();
  });

  it('applies on the days a period starts: a Friday night runs into Saturday', () => {
    const weeknights: QuietHours = { ...nights, days: ['fri'] };
    // 2026-01-16 is a Friday.
    expect(quietUntil(weeknights, 'UTC', at('2026-01-17T03:00:00Z'))).toBe(at('2026-01-17T08:00:00Z'));
    expect(quietUntil(weeknights, 'UTC', at('2026-01-18T03:00:00Z'))).toBeNull();
  });

  it('has daytime periods too, and merges touching ones', () => {
    const lunch: QuietHours = { start: '12:00', end: '14:00', days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] };
    expect(quietPeriods(lunch, 'UTC', at('2026-01-14T00:00:00Z'), at('2026-01-15T00:00:00Z'))).toEqual([
      { start: at('2026-01-14T12:00:00Z'), end: at('2026-01-14T14:00:00Z') },
    ]);
    const allDay: QuietHours = { start: '00:00', end: '00:00', days: ['sat'] };
    expect(quietPeriods(allDay, 'UTC', at('2026-01-14T00:00:00Z'), at('2026-01-20T00:00:00Z'))).toEqual([]);
  });

  it('keeps the wall clock across a change of offset', () => {
    // 29 March 2026: Paris moves from UTC+1 to UTC+2 at 02:00. The night of the 28th ends at 08:00 CEST.
    expect(quietUntil(nights, 'Europe/Paris', at('2026-03-29T01:30:00Z'))).toBe(at('2026-03-29T06:00:00Z'));
  });
});

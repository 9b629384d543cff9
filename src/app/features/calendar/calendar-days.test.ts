/**
 * The calendar page's days: whole weeks from Monday around a month, a week, and moving by months.
 * Seen red: with `weekStart` counting from Sunday, November 2026's grid began on 1 November (and its week on the 29th).
 */
import { describe, expect, it } from 'vitest';
import { addMonths, visibleDays, weekStart } from './calendar-days';

describe('calendar days', () => {
  it('covers a month with whole weeks, Monday first', () => {
    const days = visibleDays('2026-11-29', 'month');
    expect(days[0]).toBe('2026-10-26');
    expect(days[days.length - 1]).toBe('2026-12-06');
    expect(days.length % 7).toBe(0);
  });

  it('gives a week from its Monday, and moves by whole months', () => {
    expect(weekStart('2026-11-29')).toBe('2026-11-23');
    expect(visibleDays('2026-11-29', 'week')).toEqual(['2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27', '2026-11-28', '2026-11-29']);
    expect(addMonths('2026-01-31', 1)).toBe('2026-02-01');
    expect(addMonths('2026-01-15', -1)).toBe('2025-12-01');
  });
});

/**
 * The overview's period: what the URL may say, and the days each period covers in APP_TIMEZONE.
 *
 * Seen red: with rangeProblem comparing `daysIn(range) >= OVERVIEW_MAX_DAYS` (a whole leap year,
 * 366 days, was refused), and with parseOverviewPeriod taking any number of days (`days=14` was
 * asked of the service, and the chooser showed no length).
 */
import { describe, expect, it } from 'vitest';
import { OVERVIEW_MAX_DAYS } from '../../../shared/contract';
import { addDays, daysIn, parseOverviewPeriod, periodRange, rangeProblem, todayIn } from './overview-period';

const parse = (query: string) => parseOverviewPeriod(new URLSearchParams(query));

describe('the overview period', () => {
  it('reads a length the chooser offers, or picked days, and anything else as the last 30 days', () => {
    expect(parse('')).toEqual({ days: 30 });
    expect(parse('days=7')).toEqual({ days: 7 });
    expect(parse('days=90')).toEqual({ days: 90 });
    expect(parse('days=14')).toEqual({ days: 30 });
    expect(parse('days=seven')).toEqual({ days: 30 });
    expect(parse('from=2026-03-01&to=2026-03-01')).toEqual({ from: '2026-03-01', to: '2026-03-01' });
    // Picked days win over a length.
    expect(parse('days=7&from=2026-03-01&to=2026-03-10')).toEqual({ from: '2026-03-01', to: '2026-03-10' });
    expect(parse('from=2026-03-10&to=2026-03-01&days=7')).toEqual({ days: 7 });
    expect(parse('from=2026-02-29&to=2026-03-01')).toEqual({ days: 30 });
    expect(parse('from=2026-03-01')).toEqual({ days: 30 });
  });

  it('takes at most as many days as the service reads at once', () => {
    expect(rangeProblem({ from: '2024-01-01', to: '2024-12-31' })).toBeNull();
    expect(daysIn({ from: '2024-01-01', to: '2024-12-31' })).toBe(OVERVIEW_MAX_DAYS);
    expect(rangeProblem({ from: '2024-01-01', to: '2025-01-01' })).toBe(`Choose at most ${OVERVIEW_MAX_DAYS} days.`);
    expect(rangeProblem({ from: '2026-03-02', to: '2026-03-01' })).toBe('The first day comes after the last.');
  });

  it('counts a length back from today in the service’s zone, today included', () => {
    // 23:30 UTC on 28 March is already the 29th in Tokyo, still the 28th in London.
    const moment = new Date('2026-03-28T23:30:00Z');
    expect(todayIn('Asia/Tokyo', moment)).toBe('2026-03-29');
    expect(todayIn('Europe/London', moment)).toBe('2026-03-28');
    expect(periodRange({ days: 7 }, '2026-03-29')).toEqual({ from: '2026-03-23', to: '2026-03-29' });
    expect(periodRange({ from: '2026-01-01', to: '2026-01-31' }, '2026-03-29')).toEqual({ from: '2026-01-01', to: '2026-01-31' });
    // The night the clocks go forward is a day like any other.
    expect(addDays('2026-03-30', -2)).toBe('2026-03-28');
    expect(daysIn({ from: '2026-03-28', to: '2026-03-30' })).toBe(3);
  });
});

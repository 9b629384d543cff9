/**
 * The sends chart's bars: a bar a day up to MAX_DAILY_BARS days, a bar a week beyond (a bar a day
 * of a year would be thinner than a pixel on a phone), on a round scale.
 *
 * Seen red: with the weekly bars summing only their first day (the totals of the bars fell short
 * of the period's), and with niceCeiling rounding down (the tallest bar overflowed the chart).
 */
import { describe, expect, it } from 'vitest';
import { overviewDays } from './overview-fixtures';
import { describeSendsChart, MAX_DAILY_BARS, niceCeiling, sendsChart } from './sends-chart-data';

describe('the sends chart', () => {
  it('draws a bar a day on a round scale, and says what it shows', () => {
    const chart = sendsChart(
      overviewDays(
        { from: '2026-03-01', to: '2026-03-07' },
        { '2026-03-03': { sent: 430, delivered: 410, failed: 5 }, '2026-03-04': { sent: 12, delivered: 440, failed: 0 } },
      ),
    );
    expect(chart.unit).toBe('day');
    expect(chart.bars).toHaveLength(7);
    expect(chart.bars[2]).toEqual({ start: '2026-03-03', label: '3 Mar', sent: 430, delivered: 410, failed: 5 });
    // Receipts can land the day after the sends: the scale covers the taller of both.
    expect(chart.scale).toBe(500);
    expect(describeSendsChart(chart)).toBe('442 sent and 850 delivered by day from 1 Mar to 7 Mar; the most sent, 430, on 3 Mar');
  });

  it('draws a bar a week over long periods, every day counted', () => {
    const days = overviewDays({ from: '2025-01-01', to: '2025-12-31' });
    for (const day of days) Object.assign(day, { sent: 2, delivered: 1, failed: 1 });
    expect(days.length).toBeGreaterThan(MAX_DAILY_BARS);

    const chart = sendsChart(days);
    expect(chart.unit).toBe('week');
    expect(chart.bars).toHaveLength(53);
    expect(chart.bars[0]).toMatchObject({ start: '2025-01-01', label: 'Week of 1 Jan', sent: 14 });
    expect(chart.bars.at(-1)).toMatchObject({ start: '2025-12-31', sent: 2 });
    expect(chart.bars.reduce((sum, bar) => sum + bar.sent, 0)).toBe(730);
    expect(describeSendsChart(chart)).toBe(
      '730 sent and 365 delivered by week from the week of 1 Jan to the week of 31 Dec; the most sent, 14, in the week of 1 Jan',
    );
  });

  it('rounds the scale up to 1, 2 or 5 of a power of ten', () => {
    expect([0, 1, 2, 3, 7, 10, 11, 99, 101, 4200].map(niceCeiling)).toEqual([1, 1, 2, 5, 10, 10, 20, 100, 200, 5000]);
  });
});

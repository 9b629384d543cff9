import type { OverviewDay } from '../../api/gen/types.gen';
import { formatCount, formatDay } from './overview-format';

/** Longer periods are drawn by week: a bar a day would be thinner than a pixel on a phone. */
export const MAX_DAILY_BARS = 92;

export type ChartUnit = 'day' | 'week';

export interface ChartBar {
  /** The bar's first day, `YYYY-MM-DD`. */
  start: string;
  /** "3 Mar", or "Week of 3 Mar". */
  label: string;
  sent: number;
  delivered: number;
  failed: number;
}

export interface SendsChart {
  unit: ChartUnit;
  bars: ChartBar[];
  /** The top of the scale: a round number at or above the tallest bar. */
  scale: number;
}

/** 1, 2, 5, 10, 20, 50…: the smallest at or above `value`, so the scale's middle is a round number too. */
export function niceCeiling(value: number): number {
  if (value <= 1) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  const step = [1, 2, 5, 10].find((factor) => factor * power >= value) ?? 10;
  return step * power;
}

/** The days as bars: one a day, or one a week (from the period's first day) when there are more than MAX_DAILY_BARS. */
export function sendsChart(days: readonly OverviewDay[]): SendsChart {
  const unit: ChartUnit = days.length > MAX_DAILY_BARS ? 'week' : 'day';
  const size = unit === 'week' ? 7 : 1;
  const bars: ChartBar[] = [];
  for (let index = 0; index < days.length; index += size) {
    const group = days.slice(index, index + size);
    const start = group[0]!.date;
    bars.push({
      start,
      label: unit === 'week' ? `Week of ${formatDay(start)}` : formatDay(start),
      sent: group.reduce((sum, day) => sum + day.sent, 0),
      delivered: group.reduce((sum, day) => sum + day.delivered, 0),
      failed: group.reduce((sum, day) => sum + day.failed, 0),
    });
  }
  const tallest = Math.max(0, ...bars.flatMap((bar) => [bar.sent, bar.delivered]));
  return { unit, bars, scale: niceCeiling(tallest) };
}

/** The chart in one sentence: the totals, the span, and the busiest bar. */
export function describeSendsChart({ unit, bars }: SendsChart): string {
  const first = bars[0];
  const last = bars.at(-1);
  if (!first || !last) return 'No days in this period';
  const sent = bars.reduce((sum, bar) => sum + bar.sent, 0);
  const delivered = bars.reduce((sum, bar) => sum + bar.delivered, 0);
  const busiest = bars.reduce((best, bar) => (bar.sent > best.sent ? bar : best), first);
  const name = (bar: ChartBar) => (unit === 'week' ? `the week of ${formatDay(bar.start)}` : bar.label);
  const span = first === last ? `on ${first.label}` : `by ${unit} from ${name(first)} to ${name(last)}`;
  const when = unit === 'week' ? `in ${name(busiest)}` : `on ${busiest.label}`;
  return `${formatCount(sent)} sent and ${formatCount(delivered)} delivered ${span}; the most sent, ${formatCount(busiest.sent)}, ${when}`;
}

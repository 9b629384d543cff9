import { describe, expect, it } from 'vitest';
import { bucketClicks } from './clicks-timeline';

describe('bucketClicks', () => {
  it('counts clicks by hour over a short span, with the empty hours between', () => {
    const timeline = bucketClicks(['2026-03-02 09:05:00', '2026-03-02 09:59:59', '2026-03-02 11:00:00']);
    expect(timeline.unit).toBe('hour');
    expect(timeline.buckets).toEqual([
      { start: '2026-03-02 09:00:00', label: '2 Mar, 09:00', count: 2 },
      { start: '2026-03-02 10:00:00', label: '2 Mar, 10:00', count: 0 },
      { start: '2026-03-02 11:00:00', label: '2 Mar, 11:00', count: 1 },
    ]);
  });

  it('counts by day once the clicks span more than two days', () => {
    const timeline = bucketClicks(['2026-03-01 23:59:00', '2026-03-04 00:00:01', '2026-03-04 18:00:00']);
    expect(timeline.unit).toBe('day');
    expect(timeline.buckets.map(({ label, count }) => [label, count])).toEqual([
      ['1 Mar', 1],
      ['2 Mar', 0],
      ['3 Mar', 0],
      ['4 Mar', 2],
    ]);
  });

  it('counts by week beyond three months, and keeps every hour of a daylight-saving night', () => {
    const weekly = bucketClicks(['2026-01-01 10:00:00', '2026-06-01 10:00:00']);
    expect(weekly.unit).toBe('week');
    expect(weekly.buckets[0]).toMatchObject({ label: 'Week of 1 Jan', count: 1 });
    expect(weekly.buckets.at(-1)?.count).toBe(1);
    expect(weekly.buckets.reduce((sum, bucket) => sum + bucket.count, 0)).toBe(2);

    // The London clocks go forward at 01:00 on 29 March 2026: the wall-clock hours are still counted one by one.
    const night = bucketClicks(['2026-03-29 00:30:00', '2026-03-29 02:30:00']);
    expect(night.buckets.map((bucket) => bucket.label)).toEqual(['29 Mar, 00:00', '29 Mar, 01:00', '29 Mar, 02:00']);
  });

  it('has no buckets without clicks, and ignores what is not a timestamp', () => {
    expect(bucketClicks([])).toEqual({ unit: 'hour', buckets: [] });
    expect(bucketClicks(['', 'soon']).buckets).toEqual([]);
  });
});

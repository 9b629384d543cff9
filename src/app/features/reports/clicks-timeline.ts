/** Buckets of the clicks chart: by hour over up to two days, by day up to three months, by week beyond. */
export type BucketUnit = 'hour' | 'day' | 'week';

export interface ClickBucket {
  /** The bucket's first moment, `YYYY-MM-DD HH:MM:SS` in the service's zone. */
  start: string;
  /** "2 Mar, 09:00", "2 Mar" or "Week of 2 Mar". */
  label: string;
  count: number;
}

export interface ClicksTimeline {
  unit: BucketUnit;
  buckets: ClickBucket[];
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const STEP: Record<BucketUnit, number> = { hour: HOUR, day: DAY, week: 7 * DAY };
const HOURLY_UP_TO = 48 * HOUR;
const DAILY_UP_TO = 92 * DAY;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

/**
 * The report's wall-clock times are counted as if they were UTC: every hour and day then has the
 * same length, so a daylight-saving change in the browser's zone neither drops nor doubles a bucket.
 */
function wallClock(timestamp: string): number | null {
  const match = TIMESTAMP.exec(timestamp);
  if (!match) return null;
  const [, year = '', month = '', day = '', hour = '', minute = '', second = ''] = match;
  return Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second));
}

const pad = (value: number) => String(value).padStart(2, '0');

function timestampOf(moment: number): string {
  const date = new Date(moment);
  return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ${pad(date.getUTCHours())}:00:00`;
}

function labelOf(moment: number, unit: BucketUnit): string {
  const date = new Date(moment);
  const day = `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]}`;
  if (unit === 'hour') return `${day}, ${pad(date.getUTCHours())}:00`;
  return unit === 'day' ? day : `Week of ${day}`;
}

/** Counts clicks per bucket from the first click's bucket to the last one's, empty buckets included. */
export function bucketClicks(times: readonly string[]): ClicksTimeline {
  const moments = times.map(wallClock).filter((moment): moment is number => moment !== null);
  if (moments.length === 0) return { unit: 'hour', buckets: [] };
  const first = Math.min(...moments);
  const last = Math.max(...moments);
  const span = last - first;
  const unit: BucketUnit = span <= HOURLY_UP_TO ? 'hour' : span <= DAILY_UP_TO ? 'day' : 'week';
  const origin = unit === 'hour' ? first - (first % HOUR) : first - (first % DAY);
  const step = STEP[unit];

  const counts = new Array<number>(Math.floor((last - origin) / step) + 1).fill(0);
  for (const moment of moments) {
    const index = Math.floor((moment - origin) / step);
    counts[index] = (counts[index] ?? 0) + 1;
  }
  return {
    unit,
    buckets: counts.map((count, index) => {
      const start = origin + index * step;
      return { start: timestampOf(start), label: labelOf(start, unit), count };
    }),
  };
}

import { parseTimestamp } from '../../../shared/time/local-timestamps';

export interface TimelineSpan {
  kind: 'sending' | 'paused';
  start: string;
  end: string;
  /** Share of the whole plan, 0..1, for drawing. */
  from: number;
  to: number;
}

export interface SendingPlan {
  spans: TimelineSpan[];
  /** Milliseconds in which messages may go (the plan less its pauses). */
  openMs: number;
  totalMs: number;
}

interface PlanInput {
  send: string;
  finish: string;
  pauses: readonly { start_at: string; end_at: string }[];
}

/**
 * The throttled plan from send to finish, cut where it pauses: only pauses that name real moments
 * and end after they start are drawn, clipped to the plan and merged where they overlap (the form
 * names the broken ones). null until send and finish make a plan.
 */
export function sendingPlan({ send, finish, pauses }: PlanInput, timeZone: string): SendingPlan | null {
  const start = parseTimestamp(send, timeZone)?.getTime();
  const end = parseTimestamp(finish, timeZone)?.getTime();
  if (start === undefined || end === undefined || end <= start) return null;

  const gaps = pauses
    .map((pause) => ({ from: parseTimestamp(pause.start_at, timeZone)?.getTime(), to: parseTimestamp(pause.end_at, timeZone)?.getTime() }))
    .flatMap(({ from, to }) => (from !== undefined && to !== undefined && to > from ? [{ from: Math.max(from, start), to: Math.min(to, end) }] : []))
    .filter(({ from, to }) => to > from)
    .sort((a, b) => a.from - b.from)
    .reduce<{ from: number; to: number }[]>((merged, gap) => {
      const last = merged.at(-1);
      if (last && gap.from <= last.to) last.to = Math.max(last.to, gap.to);
      else merged.push({ ...gap });
      return merged;
    }, []);

  const totalMs = end - start;
  const label = (moment: number) => formatIn(moment, timeZone);
  const spans: TimelineSpan[] = [];
  let cursor = start;
  const push = (kind: TimelineSpan['kind'], from: number, to: number) => {
    if (to > from) spans.push({ kind, start: label(from), end: label(to), from: (from - start) / totalMs, to: (to - start) / totalMs });
  };
  for (const gap of gaps) {
    push('sending', cursor, gap.from);
    push('paused', gap.from, gap.to);
    cursor = gap.to;
  }
  push('sending', cursor, end);
  const pausedMs = gaps.reduce((sum, gap) => sum + gap.to - gap.from, 0);
  return { spans, openMs: totalMs - pausedMs, totalMs };
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** "3 Jun, 14:30" in the zone. */
function formatIn(moment: number, timeZone: string): string {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-GB', { timeZone, day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    formatters.set(timeZone, formatter);
  }
  return formatter.format(new Date(moment));
}

/** "6 h 30 min" */
export function formatDuration(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const rest = minutes % 60;
  return [days && `${days} d`, hours && `${hours} h`, rest && `${rest} min`].filter(Boolean).join(' ') || '0 min';
}

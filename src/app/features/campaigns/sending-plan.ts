import { parseTimestamp } from '../../../shared/time/local-timestamps';
import { formatMomentIn } from '../../lib/format';

export interface TimelineSpan {
  /** A pause of the campaign wins over quiet hours where both hold. */
  kind: 'sending' | 'paused' | 'quiet';
  start: string;
  end: string;
  /** Share of the whole plan, 0..1, for drawing. */
  from: number;
  to: number;
}

export interface SendingPlan {
  spans: TimelineSpan[];
  /** Milliseconds in which messages may go (the plan less its pauses and quiet hours). */
  openMs: number;
  totalMs: number;
}

interface PlanInput {
  send: string;
  finish: string;
  pauses: readonly { start_at: string; end_at: string }[];
  /** The team's quiet periods (epoch ms) over the plan, when its quiet hours apply to the campaign. */
  quiet?: readonly { start: number; end: number }[];
}

/**
 * The throttled plan from send to finish, cut where it pauses and where the team's quiet hours
 * hold: only pauses that name real moments and end after they start are drawn, clipped to the plan
 * and merged where they overlap (the form names the broken ones). null until send and finish make
 * a plan.
 */
export function sendingPlan({ send, finish, pauses, quiet = [] }: PlanInput, timeZone: string): SendingPlan | null {
  const start = parseTimestamp(send, timeZone)?.getTime();
  const end = parseTimestamp(finish, timeZone)?.getTime();
  if (start === undefined || end === undefined || end <= start) return null;

  const clip = (from: number, to: number) => (to > from ? [{ from: Math.max(from, start), to: Math.min(to, end) }] : []);
  const paused = merge(
    pauses.flatMap((pause) => {
      const from = parseTimestamp(pause.start_at, timeZone)?.getTime();
      const to = parseTimestamp(pause.end_at, timeZone)?.getTime();
      return from !== undefined && to !== undefined ? clip(from, to) : [];
    }),
  );
  const quietGaps = merge(quiet.flatMap((period) => clip(period.start, period.end)));

  // Every moment a gap starts or ends cuts the plan; each piece is paused, quiet or sending.
  const cuts = [...new Set([start, end, ...[...paused, ...quietGaps].flatMap((gap) => [gap.from, gap.to])])].sort((a, b) => a - b);
  const within = (gaps: readonly Gap[], at: number) => gaps.some((gap) => at >= gap.from && at < gap.to);
  const totalMs = end - start;
  const label = (moment: number) => formatIn(moment, timeZone);
  const spans: TimelineSpan[] = [];
  let openMs = 0;
  for (let index = 0; index + 1 < cuts.length; index++) {
    const from = cuts[index]!;
    const to = cuts[index + 1]!;
    const kind: TimelineSpan['kind'] = within(paused, from) ? 'paused' : within(quietGaps, from) ? 'quiet' : 'sending';
    if (kind === 'sending') openMs += to - from;
    const last = spans.at(-1);
    if (last?.kind === kind) {
      last.end = label(to);
      last.to = (to - start) / totalMs;
    } else spans.push({ kind, start: label(from), end: label(to), from: (from - start) / totalMs, to: (to - start) / totalMs });
  }
  return { spans, openMs, totalMs };
}

interface Gap {
  from: number;
  to: number;
}

/** Gaps that name real moments inside the plan, in order, overlapping ones merged. */
function merge(gaps: Gap[]): Gap[] {
  return gaps
    .filter(({ from, to }) => to > from)
    .sort((a, b) => a.from - b.from)
    .reduce<Gap[]>((merged, gap) => {
      const last = merged.at(-1);
      if (last && gap.from <= last.to) last.to = Math.max(last.to, gap.to);
      else merged.push({ ...gap });
      return merged;
    }, []);
}

/** "3 Jun, 14:30" in the zone. */
function formatIn(moment: number, timeZone: string): string {
  return formatMomentIn(moment, timeZone);
}

/** "6 h 30 min" */
export function formatDuration(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const rest = minutes % 60;
  return [days && `${days} d`, hours && `${hours} h`, rest && `${rest} min`].filter(Boolean).join(' ') || '0 min';
}

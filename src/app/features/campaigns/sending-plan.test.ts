/**
 * The throttled timeline with pauses and the team's quiet hours (issue 19, point 3: the timeline
 * shows them). Seen red: with the quiet periods left out of sendingPlan, the night showed as sending
 * and the open time was the whole plan.
 */
import { describe, expect, it } from 'vitest';
import { quietPeriods } from '../../../shared/schedule/quiet-hours';
import { parseTimestamp } from '../../../shared/time/local-timestamps';
import { sendingPlan } from './sending-plan';

const ZONE = 'Europe/London';
const at = (timestamp: string) => parseTimestamp(timestamp, ZONE)!.getTime();
const NIGHTS = { start: '21:00', end: '08:00', days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const };

describe('the sending plan of a throttled campaign', () => {
  const plan = { send: '2026-06-01 18:00:00', finish: '2026-06-02 12:00:00' };
  const quiet = quietPeriods({ ...NIGHTS, days: [...NIGHTS.days] }, ZONE, at(plan.send), at(plan.finish));

  it('cuts the quiet night out of the sending, and a pause wins where both hold', () => {
    const result = sendingPlan({ ...plan, pauses: [{ start_at: '2026-06-01 20:00:00', end_at: '2026-06-01 22:00:00' }], quiet }, ZONE);
    expect(result?.spans.map(({ kind, start, end }) => [kind, start, end])).toEqual([
      ['sending', '1 Jun, 18:00', '1 Jun, 20:00'],
      ['paused', '1 Jun, 20:00', '1 Jun, 22:00'],
      ['quiet', '1 Jun, 22:00', '2 Jun, 08:00'],
      ['sending', '2 Jun, 08:00', '2 Jun, 12:00'],
    ]);
    expect(result?.openMs).toBe(6 * 3_600_000);
    expect(result?.totalMs).toBe(18 * 3_600_000);
  });

  it('draws no quiet hours when the campaign sends through them', () => {
    const result = sendingPlan({ ...plan, pauses: [] }, ZONE);
    expect(result?.spans.map((span) => span.kind)).toEqual(['sending']);
    expect(result?.openMs).toBe(18 * 3_600_000);
  });
});

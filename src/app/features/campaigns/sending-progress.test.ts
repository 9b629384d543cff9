/**
 * When the campaign page reads a campaign and its counts again. An A/B campaign's figures per variant
 * come with the campaign, so after its last message leaves the campaign is read with the counts while
 * receipts come in. Seen red: without that, the A/B card stopped at the moment the campaign finished
 * (9 sent, 3 delivered) while the summary went on to every receipt (the e2e journey caught it).
 */
import { describe, expect, it } from 'vitest';
import { parseTimestamp } from '../../../shared/time/local-timestamps';
import { campaign, ZONE } from './campaign-fixtures';
import { LIVE_REFRESH_MS, refreshIntervals, sendRate } from './sending-progress';
import { summaryOf } from '../../testing/campaign-summary';

const at = (timestamp: string) => parseTimestamp(timestamp, ZONE)!.getTime();
const PENDING = summaryOf({ recipients: 3 });
const SENDING = { ...PENDING, queued: 1, submitted: 1, delivered: 1 };
const AWAITING = { ...PENDING, submitted: 3 };
const DONE = { ...PENDING, delivered: 2, failed: 1 };
const SEND = '2026-03-02 09:00:00';

function intervals(overrides: Parameters<typeof campaign>[0], summary: typeof PENDING | undefined, now: string) {
  return refreshIntervals({ campaign: campaign({ scheduled_send_date: SEND, ...overrides }), summary, timeZone: ZONE, now: at(now) });
}

describe('when the campaign page asks again', () => {
  it('refreshes both while sending, and the campaign alone from a few minutes before the send time', () => {
    const live = { campaign: LIVE_REFRESH_MS, summary: LIVE_REFRESH_MS };
    expect(intervals({ status: 1 }, SENDING, '2026-03-02 09:00:10')).toEqual(live);
    // Before the start the summary would count the whole audience at every ask: only the status is watched.
    const watching = { campaign: LIVE_REFRESH_MS, summary: false };
    expect(intervals({ status: 0 }, PENDING, '2026-03-02 08:58:00')).toEqual(watching);
    // Due, not started yet: the engine starts it on its next tick.
    expect(intervals({ status: 0 }, PENDING, '2026-03-02 09:00:01')).toEqual(watching);
  });

  it('waits a pending campaign out until its start is near, and gives up on one long overdue', () => {
    expect(intervals({ status: 0 }, PENDING, '2026-03-02 08:30:00')).toEqual({ campaign: 25 * 60_000, summary: false });
    expect(intervals({ status: 0 }, PENDING, '2026-03-01 09:00:00')).toEqual({ campaign: 60 * 60_000, summary: false });
    expect(intervals({ status: 0 }, PENDING, '2026-03-02 10:00:00')).toEqual({ campaign: false, summary: false });
  });

  it('once sent, reads the counts until every receipt is in, then stops', () => {
    const finished = { status: 2, finished_sending_at: '2026-03-02 09:00:05' };
    expect(intervals(finished, AWAITING, '2026-03-02 09:00:06')).toEqual({ campaign: false, summary: LIVE_REFRESH_MS });
    // Counts read before the status turned: one more reading.
    expect(intervals(finished, PENDING, '2026-03-02 09:00:06')).toEqual({ campaign: false, summary: LIVE_REFRESH_MS });
    expect(intervals(finished, DONE, '2026-03-02 09:00:06')).toEqual({ campaign: false, summary: false });
    // Receipts still missing long after: they show on the next visit.
    expect(intervals(finished, AWAITING, '2026-03-02 09:30:00')).toEqual({ campaign: false, summary: false });
  });

  it('once an A/B campaign is sent, reads the campaign too while receipts come in (its variants’ figures)', () => {
    const finished = {
      status: 2,
      finished_sending_at: '2026-03-02 09:00:05',
      ab_test: {
        test_share: 20,
        metric: 'human_click_rate' as const,
        decide_after_minutes: 120,
        min_recipients_per_variant: 3,
        status: 'decided' as const,
        winner: 'B',
        decided_by: 'manual' as const,
        probability: null,
        decided_at: '2026-03-02 09:00:02',
        sending_minutes: 0.1,
        results: [],
      },
    };
    expect(intervals(finished, AWAITING, '2026-03-02 09:00:06')).toEqual({ campaign: LIVE_REFRESH_MS, summary: LIVE_REFRESH_MS });
    expect(intervals(finished, DONE, '2026-03-02 09:00:06')).toEqual({ campaign: false, summary: false });
  });

  it('measures the send rate between two readings', () => {
    expect(sendRate({ sent: 100, at: 0 }, { sent: 300, at: 2_000 })).toBe(100);
    expect(sendRate({ sent: 100, at: 2_000 }, { sent: 100, at: 2_000 })).toBeNull();
  });
});

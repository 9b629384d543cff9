import { describe, expect, it } from 'vitest';
import { duration, sentenceOf as sentence } from './campaign-events';
import { localLogTime } from './logger';

// The words of the lifecycle lines; the lines themselves, written by real processes, are checked in logs.test.ts.
const summary = {
  id: 1,
  uuid: 'c0ffee00-0000-4000-8000-000000000001',
  name: 'Spring sale',
  team: 'Herald',
  recipients: 12_000,
  sent: 11_950,
  delivered: 11_800,
  failed: 150,
  unsent: 50,
  queued: 0,
  throttled: true,
  elapsed: 288,
};

describe('campaign lifecycle lines', () => {
  it('say what happened, to which campaign of which team, with counts and rate', () => {
    expect(sentence('started', { ...summary, sent: 0, elapsed: 0 })).toBe(
      'campaign started: "Spring sale" (team Herald), 12,000 recipients, spread over its sending window',
    );
    expect(sentence('paused', { ...summary, sent: 3_000, elapsed: 100 }, 'ann@herald.test')).toBe(
      'campaign paused by ann@herald.test: "Spring sale" (team Herald), 3,000 of 12,000 sent, 30 messages/s',
    );
    expect(sentence('resumed', { ...summary, sent: 3_000, queued: 9_000 }, 'ann@herald.test')).toBe(
      'campaign resumed by ann@herald.test: "Spring sale" (team Herald), 3,000 of 12,000 sent, 9,000 to go',
    );
    expect(sentence('stopped', { ...summary, sent: 3_000 }, 'bo@herald.test')).toBe(
      'campaign stopped by bo@herald.test: "Spring sale" (team Herald), 3,000 of 12,000 sent; the rest will not be sent',
    );
    expect(sentence('finished', summary)).toBe(
      'campaign finished: "Spring sale" (team Herald), 11,950 sent (11,800 delivered, 150 failed), 50 unsent in 4m 48s, 41.5 messages/s',
    );
    expect(sentence('finished', { ...summary, elapsed: null })).toBe(
      'campaign finished: "Spring sale" (team Herald), 11,950 sent (11,800 delivered, 150 failed), 50 unsent',
    );
  });

  it('write durations as a person reads them', () => {
    expect([0, 12, 60, 288, 3_599, 3_600, 7_500, 90_061].map(duration)).toEqual(['0s', '12s', '1m 00s', '4m 48s', '59m 59s', '1h 00m', '2h 05m', '25h 01m']);
  });
});

describe('terminal times', () => {
  it('are on APP_TIMEZONE’s clock, to the millisecond', () => {
    const at = Date.UTC(2026, 10, 26, 21, 14, 3, 7);
    expect(localLogTime('Europe/London')(at)).toBe('2026-11-26 21:14:03.007');
    expect(localLogTime('Asia/Kolkata')(at)).toBe('2026-11-27 02:44:03.007');
    expect(localLogTime('America/New_York')(at)).toBe('2026-11-26 16:14:03.007');
  });
});

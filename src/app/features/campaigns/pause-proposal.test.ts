import { describe, expect, it } from 'vitest';
import { proposePause } from './pause-proposal';

// "Add pause" proposes a pause inside the sending window (issue 32). Seen red with the old proposal
// (an hour after the last pause, whatever the finish): the short window's pause ended after it.
const ZONE = 'Europe/London';

describe('the pause "Add pause" proposes', () => {
  it('is an hour, an hour after the send time or the last pause, when that fits the window', () => {
    expect(proposePause('2030-07-01 09:00:00', '2030-07-01 17:00:00', [], ZONE)).toEqual({ start_at: '2030-07-01 10:00:00', end_at: '2030-07-01 11:00:00' });
    expect(proposePause('2030-07-01 09:00:00', '2030-07-01 17:00:00', [{ start_at: '2030-07-01 10:00:00', end_at: '2030-07-01 11:00:00' }], ZONE)).toEqual({
      start_at: '2030-07-01 12:00:00',
      end_at: '2030-07-01 13:00:00',
    });
  });

  it('lies inside a window too short for that: the middle third of it', () => {
    expect(proposePause('2030-07-01 09:00:00', '2030-07-01 10:30:00', [], ZONE)).toEqual({ start_at: '2030-07-01 09:30:00', end_at: '2030-07-01 10:00:00' });
  });

  it('lies in the longest free stretch when the next hour would pass the finish or overlap a pause', () => {
    const pauses = [
      { start_at: '2030-07-01 09:30:00', end_at: '2030-07-01 10:00:00' },
      { start_at: '2030-07-01 15:00:00', end_at: '2030-07-01 16:30:00' },
    ];
    const proposed = proposePause('2030-07-01 09:00:00', '2030-07-01 17:00:00', pauses, ZONE);
    expect(proposed).toEqual({ start_at: '2030-07-01 12:00:00', end_at: '2030-07-01 13:00:00' });
  });
});

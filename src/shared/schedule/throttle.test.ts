import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allowance, openTime, plannedCount, type Window, mergeWindows } from './throttle';

const HOUR = 3_600_000;

/** Runs a throttled send tick by tick, as the dispatcher does: each tick sends at most its allowance, in batches. */
function simulate(total: number, start: number, finish: number, pauses: Window[], tick: number, batch: number) {
  const sends: Array<{ at: number; count: number }> = [];
  let remaining = total;
  for (let now = start; remaining > 0 && now < finish + 10 * tick; now += tick) {
    const allowed = allowance({ anchor: start, now, until: now + tick, finish, pauses, remaining, sentSinceAnchor: total - remaining });
    const count = Math.min(allowed, batch * 1000);
    if (count > 0) sends.push({ at: now, count });
    remaining -= count;
  }
  return { sends, remaining };
}

const plans = fc
  .record({
    total: fc.integer({ min: 1, max: 5000 }),
    hours: fc.integer({ min: 1, max: 4 }),
    pauseSeeds: fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 0.2, noNaN: true })), { maxLength: 5 }),
  })
  .map(({ total, hours, pauseSeeds }) => {
    const start = Date.UTC(2026, 5, 2, 8);
    const finish = start + hours * HOUR;
    // Non-overlapping pauses inside [start, finish].
    const pauses: Window[] = [];
    for (const [at, length] of pauseSeeds.sort((a, b) => a[0] - b[0])) {
      const pauseStart = Math.round(start + at * (finish - start));
      const pauseEnd = Math.min(finish, Math.round(pauseStart + length * (finish - start)));
      if (pauseEnd > pauseStart && (pauses.length === 0 || pauseStart >= pauses[pauses.length - 1]!.end)) pauses.push({ start: pauseStart, end: pauseEnd });
    }
    return { total, start, finish, pauses };
  })
  .filter(({ start, finish, pauses }) => openTime(start, finish, pauses) > 60_000);

describe('throttle plan', () => {
  it('counts open time around pauses', () => {
    const pauses = [{ start: 2, end: 4 }];
    expect(openTime(0, 10, pauses)).toBe(8);
    expect(openTime(3, 10, pauses)).toBe(6);
    expect(openTime(2, 4, pauses)).toBe(0);
  });

  it('sends nothing inside a pause', () => {
    fc.assert(
      fc.property(plans, ({ total, start, finish, pauses }) => {
        const { sends } = simulate(total, start, finish, pauses, 10_000, 50);
        for (const send of sends) expect(pauses.some((p) => send.at >= p.start && send.at < p.end)).toBe(false);
      }),
      { numRuns: 100 },
    );
  });

  it('sends every message by the scheduled finish', () => {
    fc.assert(
      fc.property(plans, ({ total, start, finish, pauses }) => {
        const { sends, remaining } = simulate(total, start, finish, pauses, 10_000, 50);
        expect(remaining).toBe(0);
        expect(sends.reduce((sum, send) => sum + send.count, 0)).toBe(total);
        expect(Math.max(...sends.map((send) => send.at))).toBeLessThan(finish);
      }),
      { numRuns: 100 },
    );
  });

  it('is never ahead of the even plan by more than one tick’s share', () => {
    fc.assert(
      fc.property(plans, ({ total, start, finish, pauses }) => {
        const tick = 10_000;
        const { sends } = simulate(total, start, finish, pauses, tick, 50);
        let sent = 0;
        for (const send of sends) {
          sent += send.count;
          const due = plannedCount(total, start, finish, pauses, send.at + tick);
          expect(sent).toBeLessThanOrEqual(due + 1);
        }
      }),
      { numRuns: 100 },
    );
  });

  it('spreads what is left over what is left after a manual pause, instead of bursting', () => {
    const start = Date.UTC(2026, 5, 2, 8);
    const finish = start + 4 * HOUR;
    // Paused by hand for the first two hours, resumed at `now`: the 4,000 messages share the last two.
    const now = start + 2 * HOUR;
    expect(allowance({ anchor: now, now, until: now + 60_000, finish, pauses: [], remaining: 4000, sentSinceAnchor: 0 })).toBe(34);
  });

  it('sends a small campaign evenly, not at the end', () => {
    const start = Date.UTC(2026, 5, 2, 8);
    const finish = start + HOUR;
    const { sends } = simulate(2, start, finish, [], 10_000, 50);
    expect(sends.map((send) => (send.at - start) / 60_000)).toEqual([0, 30]);
  });

  it('lets everything left go once the finish has passed', () => {
    const start = Date.UTC(2026, 5, 2, 8);
    expect(
      allowance({
        anchor: start,
        now: start + 5 * HOUR,
        until: start + 5 * HOUR + 1000,
        finish: start + 4 * HOUR,
        pauses: [],
        remaining: 37,
        sentSinceAnchor: 3,
      }),
    ).toBe(37);
  });
});

describe('mergeWindows', () => {
  it('makes overlapping and touching windows one, in order, so no time is counted twice', () => {
    expect(
      mergeWindows([
        { start: 50, end: 60 },
        { start: 0, end: 10 },
        { start: 5, end: 20 },
        { start: 20, end: 30 },
      ]),
    ).toEqual([
      { start: 0, end: 30 },
      { start: 50, end: 60 },
    ]);
    expect(
      openTime(
        0,
        100,
        mergeWindows([
          { start: 10, end: 30 },
          { start: 20, end: 40 },
        ]),
      ),
    ).toBe(70);
  });
});

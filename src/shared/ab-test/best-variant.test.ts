/**
 * The probability that each variant is best (docs/ab-tests.md, the statistical method).
 * Shown able to fail: with the Beta posterior's failures taken as the trials (successes counted
 * twice), "four variants" went red (0.986 for the clear best); with ties given wholly to the first
 * arm, "no data at all" gave [1, 0].
 */
import { describe, expect, it } from 'vitest';
import { metricOf, probabilityBest } from './best-variant';

describe('probabilityBest', () => {
  it('identical rates: about one half each', () => {
    const [a, b] = probabilityBest([
      { kind: 'rate', successes: 50, trials: 500 },
      { kind: 'rate', successes: 50, trials: 500 },
    ]);
    expect(a).toBeGreaterThan(0.47);
    expect(a).toBeLessThan(0.53);
    expect(a! + b!).toBeCloseTo(1, 10);
  });

  it('10% against 20% at 500 recipients each: the second is best with more than 0.99', () => {
    const [a, b] = probabilityBest([
      { kind: 'rate', successes: 50, trials: 500 },
      { kind: 'rate', successes: 100, trials: 500 },
    ]);
    expect(b).toBeGreaterThan(0.99);
    expect(a).toBeLessThan(0.01);
  });

  it('four variants add up to one, and the same seed gives the same answer', () => {
    const arms = [10, 12, 14, 30].map((successes) => ({ kind: 'rate' as const, successes, trials: 200 }));
    const once = probabilityBest(arms, { seed: 7 });
    expect(probabilityBest(arms, { seed: 7 })).toEqual(once);
    expect(once.reduce((sum, p) => sum + p, 0)).toBeCloseTo(1, 10);
    expect(once[3]).toBeGreaterThan(0.99);
  });

  it('no data at all: the variants share it evenly', () => {
    expect(
      probabilityBest([
        { kind: 'mean', n: 0, sum: 0, sumSquares: 0 },
        { kind: 'mean', n: 0, sum: 0, sumSquares: 0 },
      ]),
    ).toEqual([0.5, 0.5]);
  });

  it('revenue per recipient by the normal approximation of the mean', () => {
    // 500 recipients each; 25 orders of 40 against 60 orders of 40.
    const arm = (orders: number) => ({ kind: 'mean' as const, n: 500, sum: orders * 40, sumSquares: orders * 1600 });
    const [a, b] = probabilityBest([arm(25), arm(60)]);
    expect(b).toBeGreaterThan(0.99);
    expect(a).toBeLessThan(0.01);
    expect(metricOf(arm(25))).toBe(2);
    const [c, d] = probabilityBest([arm(30), arm(31)]);
    expect(c).toBeGreaterThan(0.3);
    expect(d).toBeLessThan(0.9);
  });
});

/**
 * Which variant of an A/B test is best, and how sure we are (docs/ab-tests.md). A rate (clicks or
 * conversions per recipient) gets a Beta(1 + successes, 1 + failures) posterior, the uniform prior
 * updated by what was seen; revenue per recipient gets a normal approximation of its mean (the
 * sample mean, with the variance of the mean s²/n). The probability that each variant is best is the
 * share of Monte Carlo draws (20,000 by default) in which its draw is the greatest, ties shared.
 * The draws come from a seeded generator, so the same figures always give the same answer.
 */

export type Arm = { kind: 'rate'; successes: number; trials: number } | { kind: 'mean'; n: number; sum: number; sumSquares: number };

/** The share a variant must reach to win on its own. */
export const WIN_PROBABILITY = 0.9;
export const DRAWS = 20_000;

/** mulberry32: a small seeded generator of floats in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function normal(random: () => number): number {
  // Box–Muller; 1 - u keeps the logarithm finite.
  const u = 1 - random();
  const v = random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/** Gamma(shape, 1) for shape ≥ 1 (Marsaglia and Tsang). */
function gamma(shape: number, random: () => number): number {
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    let x: number;
    let v: number;
    do {
      x = normal(random);
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const u = random();
    if (u < 1 - 0.0331 * x ** 4 || Math.log(u) < 0.5 * x * x + d * (1 - v + Math.log(v))) return d * v;
  }
}

/** One draw of an arm's posterior. */
function draw(arm: Arm, random: () => number): number {
  if (arm.kind === 'rate') {
    const failures = Math.max(0, arm.trials - arm.successes);
    const a = gamma(1 + arm.successes, random);
    const b = gamma(1 + failures, random);
    return a / (a + b);
  }
  if (arm.n === 0) return 0;
  const mean = arm.sum / arm.n;
  const variance = arm.n > 1 ? Math.max(0, (arm.sumSquares - arm.n * mean * mean) / (arm.n - 1)) : 0;
  return mean + Math.sqrt(variance / arm.n) * normal(random);
}

/** The observed metric of an arm: successes / trials, or the mean (0 without data). */
export function metricOf(arm: Arm): number {
  if (arm.kind === 'rate') return arm.trials > 0 ? arm.successes / arm.trials : 0;
  return arm.n > 0 ? arm.sum / arm.n : 0;
}

/** For each arm, the probability that it is the best (the greatest metric); they add up to 1. */
export function probabilityBest(arms: Arm[], options: { draws?: number; seed?: number } = {}): number[] {
  const draws = options.draws ?? DRAWS;
  const random = seededRandom(options.seed ?? 35);
  const wins = arms.map(() => 0);
  if (arms.length === 0) return [];
  const values = new Array<number>(arms.length);
  for (let i = 0; i < draws; i++) {
    let best = -Infinity;
    for (let a = 0; a < arms.length; a++) {
      values[a] = draw(arms[a]!, random);
      if (values[a]! > best) best = values[a]!;
    }
    const tied = values.filter((value) => value === best).length;
    for (let a = 0; a < arms.length; a++) if (values[a] === best) wins[a]! += 1 / tied;
  }
  return wins.map((won) => won / draws);
}

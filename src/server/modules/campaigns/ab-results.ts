import type { AbTestInput, AbTestMetric, VariantResult } from '../../../shared/contract';
import { metricOf, probabilityBest, WIN_PROBABILITY, type Arm } from '../../../shared/ab-test/best-variant';
import type { VariantFigures } from './ab-figures';

/** An A/B test's settings as stored (`campaigns.ab_test`), every default filled. */
export type AbSettings = Required<AbTestInput>;

const empty = (variant: number): VariantFigures => ({ variant, recipients: 0, sent: 0, delivered: 0, humanClicks: 0, conversions: 0, revenue: 0, squares: 0 });

/** The figures of variants 0 … count-1, zeros for a variant with no message yet. */
export const figuresByVariant = (figures: VariantFigures[], count: number): VariantFigures[] =>
  Array.from({ length: count }, (_, variant) => figures.find((f) => f.variant === variant) ?? empty(variant));

/** What the metric is made of: human clickers of those sent, orders of the recipients, or revenue per recipient. */
export function armOf(metric: AbTestMetric, figures: VariantFigures): Arm {
  if (metric === 'human_click_rate') return { kind: 'rate', successes: figures.humanClicks, trials: figures.sent };
  if (metric === 'conversion_rate') return { kind: 'rate', successes: Math.min(figures.conversions, figures.recipients), trials: figures.recipients };
  return { kind: 'mean', n: figures.recipients, sum: figures.revenue, sumSquares: figures.squares };
}

/** The Monte Carlo's seed: the campaign's split seed, so a decision can be computed again to the same figures. */
const drawSeed = (seed: number) => Number(BigInt.asUintN(32, BigInt(seed)));

/** Each variant's probability of being best, from its figures. */
export const probabilitiesOf = (metric: AbTestMetric, figures: VariantFigures[], seed: number) =>
  probabilityBest(
    figures.map((f) => armOf(metric, f)),
    { seed: drawSeed(seed) },
  );

/**
 * The decision at the end of the window: the variant most probably best wins when that probability
 * reaches 0.90 (`auto`); otherwise the first variant wins (`not_significant`), with the best's
 * probability recorded all the same.
 */
export function decisionOf(metric: AbTestMetric, figures: VariantFigures[], seed: number) {
  const probabilities = probabilitiesOf(metric, figures, seed);
  const best = probabilities.indexOf(Math.max(...probabilities));
  const probability = probabilities[best]!;
  return probability >= WIN_PROBABILITY
    ? { winner: best, decidedBy: 'auto' as const, probability, probabilities }
    : { winner: 0, decidedBy: 'not_significant' as const, probability, probabilities };
}

/** The results as the API shows them; `probabilities` those frozen at the decision, else computed now (null before anything was written). */
export function resultsOf(names: string[], figures: VariantFigures[], settings: AbSettings, seed: number | null, frozen: number[] | null): VariantResult[] {
  const all = figuresByVariant(figures, names.length);
  const started = seed !== null && all.some((f) => f.recipients > 0);
  const probabilities = frozen ?? (started ? probabilitiesOf(settings.metric, all, seed) : null);
  return all.map((f, i) => ({
    name: names[i]!,
    recipients: f.recipients,
    sent: f.sent,
    delivered: f.delivered,
    human_clicks: f.humanClicks,
    conversions: f.conversions,
    revenue: Math.round(f.revenue * 100) / 100,
    metric_value: metricOf(armOf(settings.metric, f)),
    probability_best: probabilities ? (probabilities[i] ?? null) : null,
  }));
}

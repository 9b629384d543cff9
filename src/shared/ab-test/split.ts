/**
 * How an A/B test splits an audience (docs/ab-tests.md): `test_share` percent of it, but at least
 * `min_recipients_per_variant` a variant; when that would leave nobody (or less than nothing) for the
 * winner, everyone is in the test, split evenly, and the decision only names the winner.
 */
export function abTestSize(audience: number, variants: number, settings: { test_share: number; min_recipients_per_variant: number }): number {
  const perVariant = Math.max(Math.ceil((audience * settings.test_share) / 100 / variants), settings.min_recipients_per_variant);
  return perVariant * variants >= audience ? audience : perVariant * variants;
}

/** Each variant's share of a test of `tested` recipients: dealt in turn, so the first variants get one more when it does not divide evenly. */
export const abVariantSizes = (tested: number, variants: number): number[] =>
  Array.from({ length: variants }, (_, i) => Math.floor(tested / variants) + (i < tested % variants ? 1 : 0));

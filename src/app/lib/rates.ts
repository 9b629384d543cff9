const percent = new Intl.NumberFormat('en-GB', { style: 'percent', maximumFractionDigits: 1 });

/**
 * A rate from 0 to 1 as a percentage to one decimal, the one way the dashboard writes a rate
 * (delivery, click and opt-out rates, a share of the recipients): 0.9652 → "96.5%". What happened,
 * however rarely, never reads "0%": a rate above 0 that one decimal would round to 0 is "<0.1%" (1
 * opt-out of 5,000 delivered), and one below 1 that would round to 100 is ">99.9%". Null (nothing to
 * divide by) is "—".
 */
export function formatRate(rate: number | null): string {
  if (rate === null || !Number.isFinite(rate)) return '—';
  if (rate > 0 && rate < 0.0005) return '<0.1%';
  if (rate < 1 && rate >= 0.9995) return '>99.9%';
  return percent.format(rate);
}

import { formatMoney } from '../../lib/format';

/** Figures are written by the dashboard's one formatter (lib/format.ts), in the reader's language. */
export { NO_VALUE, formatCount, formatDay, formatPeriod, formatPercent as formatRate, plural } from '../../lib/format';

/** An amount in its currency (ISO 4217), "€1,234.56"; null "—". */
export function formatCost(amount: number | null, currency: string): string {
  return formatMoney(amount, currency);
}

import { z } from 'zod';
import type { TeamSettings, TeamSettingsInput } from '../../../shared/contract';
import { currencyName, formatCount, formatMoney } from '../../lib/format';

/** The codes offered first; a team's saved code outside them is offered too. */
const COMMON_CURRENCIES = [
  'EUR',
  'GBP',
  'USD',
  'CHF',
  'SEK',
  'NOK',
  'DKK',
  'ISK',
  'PLN',
  'CZK',
  'HUF',
  'RON',
  'BGN',
  'TRY',
  'CAD',
  'AUD',
  'NZD',
  'JPY',
  'CNY',
  'HKD',
  'SGD',
  'INR',
  'AED',
  'ILS',
  'ZAR',
  'BRL',
  'MXN',
];

export const MAX_PRICE = 1000;

export function currencyOptions(current: string): { value: string; label: string }[] {
  const codes = COMMON_CURRENCIES.includes(current) || !current ? COMMON_CURRENCIES : [current, ...COMMON_CURRENCIES];
  return codes.map((code) => ({ value: code, label: `${code} · ${currencyName(code)}` }));
}

export interface CostEstimateValues {
  /** '' for no estimate (Mantine's NumberInput gives '' when empty). */
  price_per_segment: number | string;
  currency: string;
}

export function costEstimateOf(settings: Pick<TeamSettings, 'price_per_segment' | 'currency'>): CostEstimateValues {
  return { price_per_segment: settings.price_per_segment ?? '', currency: settings.currency };
}

export function costEstimateInput(values: CostEstimateValues): Pick<TeamSettingsInput, 'price_per_segment' | 'currency'> {
  return { price_per_segment: values.price_per_segment === '' ? null : Number(values.price_per_segment), currency: values.currency };
}

/** "€0.045 per SMS part", or that there is no estimate. */
export function describeCostEstimate({ price_per_segment: price, currency }: Pick<TeamSettings, 'price_per_segment' | 'currency'>): string {
  if (price === null) return 'No cost estimate: campaigns are reviewed without one.';
  return `${formatPrice(price, currency)} per SMS part.`;
}

export function formatPrice(price: number, currency: string): string {
  return formatMoney(price, currency, { minimumFractionDigits: 2, maximumFractionDigits: 5 });
}

const PRICE_MESSAGE = `Enter a price from 0 to ${formatCount(MAX_PRICE)}, with at most 5 decimals, or leave it empty.`;

export const costEstimateSchema = z
  .object({
    price_per_segment: z.union([z.number(), z.string()]),
    currency: z.string().regex(/^[A-Z]{3}$/, 'Choose a currency.'),
  })
  .superRefine(({ price_per_segment: price }, context) => {
    if (price === '') return;
    const valid = typeof price === 'number' && price >= 0 && price <= MAX_PRICE && Math.abs(Math.round(price * 100_000) - price * 100_000) < 1e-6;
    if (!valid) context.addIssue({ code: 'custom', path: ['price_per_segment'], message: PRICE_MESSAGE });
  });

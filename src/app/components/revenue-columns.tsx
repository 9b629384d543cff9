import { Text } from '@mantine/core';
import { formatCount, formatMoney, formatPerRecipient, plural } from '../lib/format';
import type { DataColumn } from './data-table';

/** A line of revenue figures: the recipients, the orders credited and their value. */
export interface RevenueLine {
  recipients: number;
  orders: number;
  revenue: number;
  revenue_per_recipient: number | null;
  /** Orders in other currencies than the team's: shown apart, never converted. */
  revenue_other: ReadonlyArray<{ currency: string; value: number; orders: number }>;
}

/** Orders in other currencies, written apart: "£15.50 (1 order), $9.00 (2 orders)". */
export const otherCurrencyOrders = (rows: RevenueLine['revenue_other']) =>
  rows.map((row) => `${formatMoney(row.value, row.currency)} (${plural(row.orders, 'order', 'orders')})`).join(', ');

const figure = { align: 'right', cellProps: { style: { fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' } } } as const;

/** The figure columns of a revenue table (per segment of a campaign, per campaign of a segment), in the team's currency. */
export function revenueColumns<T extends RevenueLine>(currency: string): DataColumn<T>[] {
  return [
    { key: 'recipients', header: 'Recipients', ...figure, cell: (line) => formatCount(line.recipients) },
    { key: 'orders', header: 'Orders', ...figure, cell: (line) => formatCount(line.orders) },
    {
      key: 'revenue',
      header: 'Revenue',
      ...figure,
      cell: (line) => (
        <>
          {formatMoney(line.revenue, currency)}
          {line.revenue_other.length > 0 && (
            <Text span display="block" size="xs" c="dimmed">
              and {otherCurrencyOrders(line.revenue_other)}
            </Text>
          )}
        </>
      ),
    },
    { key: 'per-recipient', header: 'Per recipient', ...figure, cell: (line) => formatPerRecipient(line.revenue_per_recipient, currency) },
  ];
}

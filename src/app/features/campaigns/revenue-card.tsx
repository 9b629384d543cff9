import { Paper, SimpleGrid, Text, Title } from '@mantine/core';
import type { CampaignSummary } from '../../api/gen/types.gen';
import { formatCount, formatMoney, plural } from '../../lib/format';

/**
 * The revenue credited to a campaign (docs/conversions.md): orders, revenue and revenue per recipient
 * in the team's currency, and orders in other currencies apart, never converted. Only once the team
 * reports orders: the summary has no revenue before.
 */
export function RevenueCard({ summary }: { summary: CampaignSummary }) {
  if (summary.revenue === undefined || summary.currency === undefined) return null;
  const currency = summary.currency;
  const figures = [
    { label: 'Orders', value: formatCount(summary.orders ?? 0) },
    { label: 'Revenue', value: formatMoney(summary.revenue, currency) },
    {
      label: 'Per recipient',
      value: formatMoney(summary.revenue_per_recipient ?? null, currency, { minimumFractionDigits: 2, maximumFractionDigits: 4 }),
    },
  ];
  const other = summary.revenue_other ?? [];
  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="campaign-revenue-title">
      <Title order={2} size="h4" id="campaign-revenue-title">
        Revenue
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        Orders credited to this campaign: a recipient’s click on its links, else its delivered message, within the team’s attribution windows.
      </Text>
      <SimpleGrid component="dl" cols={{ base: 1, xs: 3 }} spacing="md" m={0}>
        {figures.map(({ label, value }) => (
          <div key={label}>
            <Text component="dt" size="xs" c="dimmed" tt="uppercase" fw={600}>
              {label}
            </Text>
            <Text component="dd" m={0} fz={24} fw={700} style={{ fontVariantNumeric: 'tabular-nums' }}>
              {value}
            </Text>
          </div>
        ))}
      </SimpleGrid>
      {other.length > 0 && (
        <Text size="sm" mt="md">
          In other currencies, not converted:{' '}
          {other.map((row) => `${formatMoney(row.value, row.currency)} (${plural(row.orders, 'order', 'orders')})`).join(', ')}.
        </Text>
      )}
    </Paper>
  );
}

import { Anchor, Paper, SimpleGrid, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import type { CampaignSegmentRevenue, CampaignSummary } from '../../api/gen/types.gen';
import { DataTable, type DataColumn } from '../../components/data-table';
import { otherCurrencyOrders, revenueColumns } from '../../components/revenue-columns';
import { formatCount, formatMoney, formatPerRecipient } from '../../lib/format';
import { paths } from '../../paths';

/**
 * The revenue credited to a campaign (docs/conversions.md): orders, revenue and revenue per recipient
 * in the team's currency, and orders in other currencies apart, never converted. Only once the team
 * reports orders: the summary has no revenue before. A started campaign to segments shows the same
 * per included segment, over the recipients each brought when its list was fixed.
 */
export function RevenueCard({ summary }: { summary: CampaignSummary }) {
  if (summary.revenue === undefined || summary.currency === undefined) return null;
  const currency = summary.currency;
  const figures = [
    { label: 'Orders', value: formatCount(summary.orders ?? 0) },
    { label: 'Revenue', value: formatMoney(summary.revenue, currency) },
    {
      label: 'Per recipient',
      value: formatPerRecipient(summary.revenue_per_recipient ?? null, currency),
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
          In other currencies, not converted: {otherCurrencyOrders(other)}.
        </Text>
      )}
      {summary.segments && summary.segments.length > 0 && <SegmentLines currency={currency} segments={summary.segments} />}
    </Paper>
  );
}

/** The figures per included segment: a recipient in two segments counts in both, one its groups alone brought in none. */
function SegmentLines({ currency, segments }: { currency: string; segments: CampaignSegmentRevenue[] }) {
  const columns: DataColumn<CampaignSegmentRevenue>[] = [
    {
      key: 'segment',
      header: 'Segment',
      rowHeader: true,
      cellProps: { style: { overflowWrap: 'anywhere' } },
      cell: (line) => (
        <Anchor component={Link} to={paths.segments.detail.getHref(line.segment_uuid)} size="sm" fw={500}>
          {line.name}
        </Anchor>
      ),
    },
    ...revenueColumns<CampaignSegmentRevenue>(currency),
  ];
  return (
    <section aria-labelledby="campaign-revenue-segments-title">
      <Title order={3} size="h5" mt="lg" id="campaign-revenue-segments-title">
        By segment
      </Title>
      <Text size="sm" c="dimmed" mb="xs">
        The recipients each segment brought when sending started. Someone in two segments counts in both; someone only a group brought, in neither.
      </Text>
      <DataTable label="Revenue by segment" columns={columns} rows={segments} rowKey={(line) => line.segment_uuid} minWidth={560} />
    </section>
  );
}

import { Anchor, Paper, Skeleton, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { SegmentCampaignRevenue } from '../../api/gen/types.gen';
import { DataTable, type DataColumn } from '../../components/data-table';
import { revenueColumns } from '../../components/revenue-columns';
import { ErrorState } from '../../components/error-state';
import { formatTimestamp } from '../../lib/format';
import { paths } from '../../paths';
import { segmentQueries } from './segment-queries';

/**
 * A segment's revenue (docs/conversions.md, revenue per segment): the latest campaigns that sent to
 * it, each with the recipients the segment brought when the campaign started and the orders and
 * revenue credited to the messages to them, in the team's currency (other currencies apart).
 */
export function SegmentRevenueCard({ uuid }: { uuid: string }) {
  const revenue = useQuery(segmentQueries.revenue(uuid));
  const currency = revenue.data?.currency ?? '';
  const columns: DataColumn<SegmentCampaignRevenue>[] = [
    {
      key: 'campaign',
      header: 'Campaign',
      rowHeader: true,
      cellProps: { style: { overflowWrap: 'anywhere' } },
      cell: (line) => (
        <>
          <Anchor component={Link} to={paths.campaigns.detail.getHref(line.campaign_uuid)} size="sm" fw={500}>
            {line.name}
          </Anchor>
          <Text span display="block" size="xs" c="dimmed">
            Started {formatTimestamp(line.started_at)}
          </Text>
        </>
      ),
    },
    ...revenueColumns<SegmentCampaignRevenue>(currency),
  ];
  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="segment-revenue-title">
      <Title order={2} size="h4" id="segment-revenue-title">
        Revenue
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        Campaigns that sent to this segment, with the people it brought when each started and the orders credited to their messages. Other currencies are shown
        apart, never converted.
      </Text>
      {revenue.isPending ? (
        <Skeleton height={96} aria-label="Loading the revenue" />
      ) : revenue.isError ? (
        <ErrorState title="The segment’s revenue could not be loaded." error={revenue.error} onRetry={() => void revenue.refetch()} />
      ) : revenue.data.campaigns.length === 0 ? (
        <Text size="sm">No campaign has sent to this segment yet.</Text>
      ) : (
        <>
          <DataTable label="Revenue by campaign" columns={columns} rows={revenue.data.campaigns} rowKey={(line) => line.campaign_uuid} minWidth={600} />
          {revenue.data.more && (
            <Text size="sm" c="dimmed" mt="xs">
              The latest 20 campaigns are shown; older ones are left out.
            </Text>
          )}
        </>
      )}
    </Paper>
  );
}

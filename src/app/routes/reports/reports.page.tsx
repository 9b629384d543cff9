import { Anchor, Paper, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { IconChartBar } from '@tabler/icons-react';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { EmptyPanel } from '../../components/empty-panel';
import { ErrorState } from '../../components/error-state';
import { PageHeader } from '../../components/page-header';
import { currentUserQueries } from '../../features/auth/current-user-queries';
import { campaignQueries } from '../../features/campaigns/campaign-queries';
import { ReportJobsList, JOBS_PER_PAGE } from '../../features/reports/report-jobs-list';
import { formatReportTime } from '../../features/reports/report-format';
import { reportJobQueries } from '../../features/reports/report-queries';
import { paths } from '../../paths';

const RECENT = 10;

export function prefetch(queryClient: QueryClient) {
  void queryClient.prefetchQuery(campaignQueries.list({ page: 1, per_page: RECENT, status: 2 }));
  void queryClient.prefetchQuery(reportJobQueries.list({ page: 1, per_page: JOBS_PER_PAGE }));
  void queryClient.prefetchQuery(currentUserQueries.me());
}

/** Where reports start: the campaigns that have been sent (each opens on its reports), and the report e-mails asked for. */
export default function ReportsPage() {
  const me = useQuery(currentUserQueries.me());
  const sent = useQuery(campaignQueries.list({ page: 1, per_page: RECENT, status: 2 }));
  const timeZone = me.data?.app_timezone ?? 'Europe/London';

  return (
    <>
      <PageHeader
        title="Reports"
        description="Each campaign has six reports: open a sent campaign to read them page by page, or have any of them e-mailed as a CSV file."
      />
      <Stack gap="lg">
        <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="sent-campaigns-title">
          <Title order={2} size="h4" id="sent-campaigns-title" mb="xs">
            Recently sent campaigns
          </Title>
          {sent.isPending ? (
            <Skeleton height={120} radius="md" />
          ) : sent.isError ? (
            <ErrorState title="The sent campaigns could not be loaded" error={sent.error} onRetry={() => void sent.refetch()} />
          ) : sent.data.data.length === 0 ? (
            <EmptyPanel icon={<IconChartBar />} title="No campaign has been sent yet." description="Reports fill in as soon as a campaign starts sending." />
          ) : (
            <Table highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Campaign</Table.Th>
                  <Table.Th>Sender</Table.Th>
                  <Table.Th>Finished</Table.Th>
                  <Table.Th>Reports</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {sent.data.data.map((campaign) => (
                  <Table.Tr key={campaign.uuid}>
                    <Table.Td>{campaign.name}</Table.Td>
                    <Table.Td>{campaign.sender}</Table.Td>
                    <Table.Td title={`${campaign.finished_sending_at} (${timeZone})`}>{formatReportTime(campaign.finished_sending_at)}</Table.Td>
                    <Table.Td>
                      <Anchor size="sm" component={Link} to={paths.campaigns.detail.getHref(campaign.uuid, { report: 'delivery' })}>
                        Open reports
                      </Anchor>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
          {sent.data && sent.data.meta.total > RECENT && (
            <Text size="sm" c="dimmed" mt="xs">
              The {RECENT} most recent of {sent.data.meta.total.toLocaleString('en-GB')};{' '}
              <Anchor component={Link} to={paths.campaigns.list.getHref()}>
                all campaigns
              </Anchor>
              .
            </Text>
          )}
        </Paper>
        <Paper withBorder p="lg" radius="md">
          <ReportJobsList email={me.data?.email} timeZone={timeZone} />
        </Paper>
      </Stack>
    </>
  );
}

import { Paper, Stack, Text, Title } from '@mantine/core';
import { IconChartBar } from '@tabler/icons-react';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useSearchParams, type LoaderFunctionArgs } from 'react-router';
import { EmptyPanel } from '../../components/empty-panel';
import { ErrorState } from '../../components/error-state';
import { PageHeader } from '../../components/page-header';
import { PaginationBar } from '../../components/pagination-bar';
import { TableSkeleton } from '../../components/table-skeleton';
import { currentUserQueries } from '../../features/auth/current-user-queries';
import { CampaignComparison } from '../../features/reports/campaign-comparison';
import { CAMPAIGN_FIGURES_COLUMNS, CampaignFiguresTable, COMPARED } from '../../features/reports/campaign-figures-table';
import { ReportJobsList, JOBS_PER_PAGE } from '../../features/reports/report-jobs-list';
import { reportJobQueries, reportQueries } from '../../features/reports/report-queries';
import { parsePageParams, usePageParams } from '../../lib/use-page-params';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `?compare=uuid,uuid`: the campaigns chosen for the comparison, at most two, each once. */
function parseCompared(search: URLSearchParams): string[] {
  const uuids = (search.get('compare') ?? '').split(',').filter((uuid) => UUID.test(uuid));
  return [...new Set(uuids)].slice(0, COMPARED);
}

export function prefetch(queryClient: QueryClient, { request }: LoaderFunctionArgs) {
  const search = new URL(request.url).searchParams;
  const { page, perPage } = parsePageParams(search);
  void queryClient.prefetchQuery(reportQueries.summaries({ page, per_page: perPage }));
  for (const uuid of parseCompared(search)) void queryClient.prefetchQuery(reportQueries.summary(uuid));
  void queryClient.prefetchQuery(reportJobQueries.list({ page: 1, per_page: JOBS_PER_PAGE }));
  void queryClient.prefetchQuery(currentUserQueries.me());
}

/**
 * Where reports start: the campaigns that have been sent with their key figures side by side (each
 * opens on its reports), two of them compared, and the report e-mails asked for.
 */
export default function ReportsPage() {
  const me = useQuery(currentUserQueries.me());
  const { page, perPage, setPage, setPerPage } = usePageParams();
  const [searchParams, setSearchParams] = useSearchParams();
  const compared = parseCompared(searchParams);
  const campaigns = useQuery(reportQueries.summaries({ page, per_page: perPage }));
  const timeZone = me.data?.app_timezone ?? 'Europe/London';

  // The choice lives in the URL, so a reload or a shared link shows the same comparison; it is kept
  // across pages. Each change starts from the URL as it is then: two quick ticks both count.
  const updateCompared = useCallback(
    (change: (chosen: string[]) => string[]) =>
      setSearchParams(
        (current) => {
          const updated = new URLSearchParams(current);
          const uuids = change(parseCompared(current));
          if (uuids.length === 0) updated.delete('compare');
          else updated.set('compare', uuids.join(','));
          return updated;
        },
        { preventScrollReset: true },
      ),
    [setSearchParams],
  );
  const toggle = (uuid: string) =>
    updateCompared((chosen) => (chosen.includes(uuid) ? chosen.filter((other) => other !== uuid) : [...chosen, uuid].slice(0, COMPARED)));

  return (
    <>
      <PageHeader
        title="Reports"
        description="Your campaigns’ delivery, clicks and opt-outs side by side: choose two to compare them, open one to read its reports page by page, or have any report e-mailed as a CSV file."
      />
      <Stack gap="lg">
        {compared.length === COMPARED && <CampaignComparison uuids={[compared[0]!, compared[1]!]} onClear={() => updateCompared(() => [])} />}
        <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="sent-campaigns-title">
          <Title order={2} size="h4" id="sent-campaigns-title">
            Recently sent campaigns
          </Title>
          <Text size="sm" c="dimmed" mb="sm" aria-live="polite">
            {compared.length === 0
              ? 'Last started first. Tick two campaigns to compare them.'
              : compared.length === 1
                ? 'Tick one more campaign to compare it with the first.'
                : 'The two ticked campaigns are compared above; untick one to choose another.'}
          </Text>
          {campaigns.isPending ? (
            <TableSkeleton columns={CAMPAIGN_FIGURES_COLUMNS} />
          ) : campaigns.isError ? (
            <ErrorState title="The sent campaigns could not be loaded" error={campaigns.error} onRetry={() => void campaigns.refetch()} />
          ) : campaigns.data.meta.total === 0 ? (
            <EmptyPanel icon={<IconChartBar />} title="No campaign has been sent yet." description="Reports fill in as soon as a campaign starts sending." />
          ) : (
            <>
              <CampaignFiguresTable campaigns={campaigns.data.data} chosen={compared} onToggle={toggle} busy={campaigns.isPlaceholderData} />
              <PaginationBar
                meta={campaigns.data.meta}
                perPage={perPage}
                onPageChange={setPage}
                onPerPageChange={setPerPage}
                noun={{ one: 'campaign', other: 'campaigns' }}
              />
            </>
          )}
        </Paper>
        <Paper withBorder p="lg" radius="md">
          <ReportJobsList email={me.data?.email} timeZone={timeZone} />
        </Paper>
      </Stack>
    </>
  );
}

import { Box, SimpleGrid, Skeleton, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import type { LoaderFunctionArgs } from 'react-router';
import { ErrorState } from '../../components/error-state';
import { PageHeader } from '../../components/page-header';
import { currentUserQueries } from '../../features/auth/current-user-queries';
import { AwaitingApproval, NextScheduled, SendingNow } from '../../features/overview/overview-campaigns';
import { OverviewFigures } from '../../features/overview/overview-figures';
import { formatPeriod } from '../../features/overview/overview-format';
import { parseOverviewPeriod, periodRange, todayIn, useOverviewPeriod } from '../../features/overview/overview-period';
import { overviewQueries } from '../../features/overview/overview-queries';
import { RecentImports, RecentReportJobs } from '../../features/overview/overview-recent';
import { OverviewSection } from '../../features/overview/overview-section';
import { PeriodChooser } from '../../features/overview/period-chooser';
import { SendsChart } from '../../features/overview/sends-chart';
import { MAX_DAILY_BARS } from '../../features/overview/sends-chart-data';
import { paths } from '../../paths';

export function prefetch(queryClient: QueryClient, { request }: LoaderFunctionArgs) {
  const period = parseOverviewPeriod(new URL(request.url).searchParams);
  // The days are counted in the service's zone, which the signed-in user's answer names.
  void queryClient
    .ensureQueryData(currentUserQueries.me())
    .then((me) => queryClient.prefetchQuery(overviewQueries.period(periodRange(period, todayIn(me.app_timezone)))))
    .catch(() => undefined);
}

/** The dashboard's home: how the team's messaging is doing over a period, and what is under way now. */
export default function OverviewPage() {
  const me = useQuery(currentUserQueries.me());
  return (
    <>
      <PageHeader
        title="Overview"
        description={`How ${me.data?.current_team.name ?? 'the team'}’s messages are doing over a period, and what is under way now.`}
      />
      {me.data ? <OverviewBody timeZone={me.data.app_timezone} /> : <Skeleton height={320} radius="md" />}
    </>
  );
}

function OverviewBody({ timeZone }: { timeZone: string }) {
  const { period, setPeriod } = useOverviewPeriod();
  const today = todayIn(timeZone);
  const range = periodRange(period, today);
  const overview = useQuery(overviewQueries.period(range));

  return (
    <Stack gap="lg">
      <Stack gap={6}>
        <PeriodChooser period={period} range={range} today={today} onChange={setPeriod} />
        <Text size="xs" c="dimmed">
          Days in {timeZone}
          {'days' in period ? ', today included' : ''}.
        </Text>
      </Stack>
      {overview.isPending ? (
        <Stack gap="lg" aria-busy="true">
          <SimpleGrid cols={{ base: 2, md: 4 }} spacing={{ base: 'xs', sm: 'md' }}>
            {Array.from({ length: 8 }, (_, index) => (
              <Skeleton key={index} height={96} radius="md" />
            ))}
          </SimpleGrid>
          <Skeleton height={260} radius="md" />
        </Stack>
      ) : overview.isError ? (
        <ErrorState title="The overview could not be loaded." error={overview.error} onRetry={() => void overview.refetch()} />
      ) : (
        <Stack gap="lg" aria-busy={overview.isPlaceholderData} style={{ opacity: overview.isPlaceholderData ? 0.6 : 1, transition: 'opacity 150ms' }}>
          <Box component="section" aria-labelledby="figures-title">
            <VisuallyHidden>
              <Title order={2} id="figures-title">
                Figures for {formatPeriod(overview.data.from, overview.data.to)}
              </Title>
            </VisuallyHidden>
            <OverviewFigures totals={overview.data.totals} teamSettingsHref={paths.team.getHref()} />
          </Box>
          <OverviewSection id="sends-chart" title={`Sent and delivered per ${overview.data.days.length > MAX_DAILY_BARS ? 'week' : 'day'}`}>
            <SendsChart days={overview.data.days} />
          </OverviewSection>
          <SendingNow campaigns={overview.data.sending_now} timeZone={overview.data.time_zone} />
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
            <NextScheduled campaigns={overview.data.scheduled} timeZone={overview.data.time_zone} />
            <AwaitingApproval campaigns={overview.data.awaiting_approval} timeZone={overview.data.time_zone} />
            <RecentImports imports={overview.data.recent_imports} />
            <RecentReportJobs jobs={overview.data.recent_report_jobs} />
          </SimpleGrid>
        </Stack>
      )}
    </Stack>
  );
}

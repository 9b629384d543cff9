import { Divider, Paper, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { Campaign, CampaignReportSummary, CampaignSummary } from '../../api/gen/types.gen';
import { currentUserQueries } from '../../features/auth/current-user-queries';
import { formatCount, isSettled } from '../../features/campaigns/sending-progress';
import { ClicksOverTimeChart } from '../../features/reports/clicks-over-time-chart';
import { DeliveryOutcomesChart } from '../../features/reports/delivery-outcomes-chart';
import { formatRate } from '../../features/reports/report-format';
import { ReportJobsList } from '../../features/reports/report-jobs-list';
import { reportQueries } from '../../features/reports/report-queries';
import { ReportTabs } from '../../features/reports/report-tabs';

interface CampaignReportsProps {
  campaign: Campaign;
  /** The campaign page's live counts; undefined until read. */
  summary: CampaignSummary | undefined;
  timeZone: string;
}

function ChartCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-label={title}>
      <Title order={3} size="h5" mb="sm">
        {title}
      </Title>
      {children}
    </Paper>
  );
}

/** While the campaign's counts move, its report summary (which may read its messages) is read again this often. */
const LIVE_SUMMARY_REFRESH_MS = 30_000;

/**
 * Opt-outs are not a delivery outcome (the message was delivered), so they get a line of their own
 * under the bars, with their rate over the messages delivered once the report summary is read.
 */
function OptOutsLine({ count, report }: { count: number; report: CampaignReportSummary | undefined }) {
  return (
    <Text size="sm">
      <Text span size="sm" fw={500}>
        Opt-outs:
      </Text>{' '}
      {formatCount(count)}
      {report?.opt_out_rate != null && ` (${formatRate(report.opt_out_rate)} of delivered)`}{' '}
      <Text span size="sm" c="dimmed">
        ({count === 1 ? 'a number' : 'numbers'} that opted out while this was the last campaign {count === 1 ? 'it' : 'they'} received)
      </Text>
    </Text>
  );
}

/** The campaign's reports: two charts, the six reports as tabs, and the user's report e-mails. Its own chunk (lazy). */
export default function CampaignReports({ campaign, summary, timeZone }: CampaignReportsProps) {
  const me = useQuery(currentUserQueries.me());
  const email = me.data?.email;
  // Rows change while the campaign sends and until its last receipt is in.
  const live = campaign.status === 1 || (campaign.status === 2 && summary !== undefined && !isSettled(summary));
  const report = useQuery({ ...reportQueries.summary(campaign.uuid), enabled: campaign.status !== 0, refetchInterval: live ? LIVE_SUMMARY_REFRESH_MS : false });

  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="campaign-reports-title">
      <Stack gap="lg">
        <div>
          <Title order={2} size="h4" id="campaign-reports-title">
            Reports
          </Title>
          <Text size="sm" c="dimmed">
            Read each report here page by page, or have the whole of it e-mailed to you as a CSV file.
          </Text>
        </div>
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
          <ChartCard title="Delivery outcomes">
            {summary ? (
              <Stack gap="sm">
                <DeliveryOutcomesChart summary={summary} />
                <OptOutsLine count={summary.opt_outs} report={report.data} />
              </Stack>
            ) : (
              <Skeleton height={150} radius="md" />
            )}
          </ChartCard>
          <ChartCard title="Clicks over time">
            <ClicksOverTimeChart campaignUuid={campaign.uuid} counted={summary?.clicks} />
          </ChartCard>
        </SimpleGrid>
        <ReportTabs campaignUuid={campaign.uuid} campaign={campaign} summary={report.data} live={live} timeZone={timeZone} email={email} />
        <Divider />
        <ReportJobsList email={email} timeZone={timeZone} />
      </Stack>
    </Paper>
  );
}

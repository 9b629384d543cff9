import { Button, Group, Stack, Text } from '@mantine/core';
import { IconTableOff } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { ReportType } from '../../../shared/contract';
import { EmptyPanel } from '../../components/empty-panel';
import { ErrorState } from '../../components/error-state';
import { TableSkeleton } from '../../components/table-skeleton';
import { EmailReportButton } from './email-report-button';
import { REPORT_DEFINITIONS, reportHeaders } from './report-columns';
import { emptyReason, type ReportCampaign } from './report-empty-state';
import { ReportPager } from './report-pager';
import { reportQueries } from './report-queries';
import { ReportTable } from './report-table';

/** While messages move, the report on screen is read again this often. */
export const LIVE_REPORT_REFRESH_MS = 5_000;

export interface ReportViewProps {
  campaignUuid: string;
  campaign: ReportCampaign;
  type: ReportType;
  page: number;
  perPage: number;
  onPageChange: (page: number) => void;
  onPerPageChange: (perPage: number) => void;
  /** The campaign is sending or receipts are still coming: the rows change. */
  live?: boolean;
  timeZone?: string;
  email: string | undefined;
}

/** One report: what a row is, the button to have it e-mailed, and its rows page by page. */
export function ReportView({ campaignUuid, campaign, type, page, perPage, onPageChange, onPerPageChange, live = false, timeZone, email }: ReportViewProps) {
  const queryClient = useQueryClient();
  const report = useQuery({ ...reportQueries.page(campaignUuid, type, { page, per_page: perPage }), refetchInterval: live ? LIVE_REPORT_REFRESH_MS : false });
  const lastPage = report.isPlaceholderData ? undefined : report.data?.meta.last_page;

  // The next page is read ahead, so moving on shows it at once.
  useEffect(() => {
    if (lastPage !== undefined && page < lastPage)
      void queryClient.prefetchQuery(reportQueries.page(campaignUuid, type, { page: page + 1, per_page: perPage }));
  }, [queryClient, campaignUuid, type, page, perPage, lastPage]);

  const definition = REPORT_DEFINITIONS[type];
  const reason = emptyReason(type, campaign);

  return (
    <Stack gap="sm">
      <Group justify="space-between" align="center" wrap="wrap">
        <Text size="sm" c="dimmed" maw={620}>
          {definition.description}
        </Text>
        <EmailReportButton campaignUuid={campaignUuid} type={type} email={email} />
      </Group>
      {report.isPending ? (
        <TableSkeleton columns={reportHeaders(type)} />
      ) : report.isError ? (
        <ErrorState title={`The ${definition.label} report could not be loaded.`} error={report.error} onRetry={() => void report.refetch()} />
      ) : report.data.meta.total === 0 ? (
        <EmptyPanel icon={<IconTableOff />} title={reason.title} description={reason.description} />
      ) : report.data.data.length === 0 ? (
        <EmptyPanel
          icon={<IconTableOff />}
          title={`No rows on page ${page}.`}
          description={`The report has ${report.data.meta.last_page} ${report.data.meta.last_page === 1 ? 'page' : 'pages'} of ${perPage} rows.`}
          action={<Button onClick={() => onPageChange(1)}>Go to the first page</Button>}
        />
      ) : (
        <div>
          <ReportTable type={type} rows={report.data.data} timeZone={timeZone} busy={report.isPlaceholderData} />
          <ReportPager meta={report.data.meta} page={page} perPage={perPage} onPageChange={onPageChange} onPerPageChange={onPerPageChange} />
        </div>
      )}
    </Stack>
  );
}

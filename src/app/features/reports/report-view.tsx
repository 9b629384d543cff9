import { Button, Group, Stack, Text } from '@mantine/core';
import { IconFilterOff, IconTableOff } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import type { DeliveryStatus, ReportType, UnsentReason } from '../../../shared/contract';
import { EmptyPanel } from '../../components/empty-panel';
import { ErrorState } from '../../components/error-state';
import { TableSkeleton } from '../../components/table-skeleton';
import { EmailReportButton } from './email-report-button';
import { REPORT_DEFINITIONS, reportHeaders } from './report-columns';
import { emptyReason, type ReportCampaign } from './report-empty-state';
import { ReportFilters } from './report-filters';
import { ReportPager } from './report-pager';
import { reportQueries } from './report-queries';
import { ReportTable } from './report-table';
import type { ReportFilterParams } from './use-report-params';

/** While messages move, the report on screen is read again this often. */
export const LIVE_REPORT_REFRESH_MS = 5_000;
/** A filtered page reads the whole campaign (docs/api-conventions.md#reports): read again less often. */
export const LIVE_FILTERED_REFRESH_MS = 15_000;

export interface ReportViewProps {
  campaignUuid: string;
  campaign: ReportCampaign;
  type: ReportType;
  page: number;
  perPage: number;
  onPageChange: (page: number) => void;
  onPerPageChange: (perPage: number) => void;
  /** The filters of the URL this report takes, and what changes them. */
  filters?: ReportFilterParams;
  searchText?: string;
  onSearchTextChange?: (text: string) => void;
  onStatusChange?: (status: DeliveryStatus | undefined) => void;
  onReasonChange?: (reason: UnsentReason | undefined) => void;
  onClearFilters?: () => void;
  /** Figures shown above the report (the clicks report's headline). */
  headline?: ReactNode;
  /** The campaign is sending or receipts are still coming: the rows change. */
  live?: boolean;
  timeZone?: string;
  email: string | undefined;
}

const NONE: ReportFilterParams = {};
const nothing = () => {};

/** One report: what a row is, the button to have it e-mailed, its filters, and its rows page by page. */
export function ReportView({
  campaignUuid,
  campaign,
  type,
  page,
  perPage,
  onPageChange,
  onPerPageChange,
  filters = NONE,
  searchText = '',
  onSearchTextChange = nothing,
  onStatusChange = nothing,
  onReasonChange = nothing,
  onClearFilters = nothing,
  headline,
  live = false,
  timeZone,
  email,
}: ReportViewProps) {
  const queryClient = useQueryClient();
  const filtered = Object.keys(filters).length > 0;
  const query = { page, per_page: perPage, ...filters };
  const report = useQuery({
    ...reportQueries.page(campaignUuid, type, query),
    refetchInterval: live ? (filtered ? LIVE_FILTERED_REFRESH_MS : LIVE_REPORT_REFRESH_MS) : false,
  });
  const lastPage = report.isPlaceholderData ? undefined : report.data?.meta.last_page;

  // The next page is read ahead, so moving on shows it at once (not for a filtered report: each of
  // its pages reads the whole campaign).
  useEffect(() => {
    if (!filtered && lastPage !== undefined && page < lastPage)
      void queryClient.prefetchQuery(reportQueries.page(campaignUuid, type, { page: page + 1, per_page: perPage }));
  }, [queryClient, campaignUuid, type, page, perPage, lastPage, filtered]);

  const definition = REPORT_DEFINITIONS[type];
  const reason = emptyReason(type, campaign);

  return (
    <Stack gap="sm">
      <Group justify="space-between" align="center" wrap="wrap">
        <Text size="sm" c="dimmed" maw={620}>
          {definition.description}
        </Text>
        <EmailReportButton campaignUuid={campaignUuid} type={type} filters={filters} email={email} />
      </Group>
      {headline}
      <ReportFilters
        type={type}
        filters={filters}
        searchText={searchText}
        onSearchTextChange={onSearchTextChange}
        onStatusChange={onStatusChange}
        onReasonChange={onReasonChange}
        onClear={onClearFilters}
      />
      {report.isPending ? (
        <TableSkeleton columns={reportHeaders(type)} />
      ) : report.isError ? (
        <ErrorState title={`The ${definition.label} report could not be loaded.`} error={report.error} onRetry={() => void report.refetch()} />
      ) : report.data.meta.total === 0 && filtered && campaign.status !== 0 ? (
        <EmptyPanel
          icon={<IconFilterOff />}
          title="No rows match these filters."
          description="Another status, reason or number may find some; the report without filters has every row."
          action={
            <Button variant="default" onClick={onClearFilters}>
              Show every row
            </Button>
          }
        />
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

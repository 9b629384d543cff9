import { Tabs } from '@mantine/core';
import { REPORT_TYPES, type ReportType } from '../../../shared/contract';
import type { CampaignReportSummary } from '../../api/gen/types.gen';
import { ClicksSummary } from './clicks-summary';
import { REPORT_DEFINITIONS } from './report-columns';
import type { ReportCampaign } from './report-empty-state';
import { ReportView } from './report-view';
import { useReportParams } from './use-report-params';

interface ReportTabsProps {
  campaignUuid: string;
  campaign: ReportCampaign;
  /** The campaign's report summary (the clicks report's headline); undefined while it loads. */
  summary?: CampaignReportSummary;
  live?: boolean;
  timeZone?: string;
  email: string | undefined;
}

/** The six reports as tabs; the tab, page, page size and filters are the URL's (useReportParams). */
export function ReportTabs({ campaignUuid, campaign, summary, live, timeZone, email }: ReportTabsProps) {
  const { type, page, perPage, filters, searchText, setType, setPage, setPerPage, setStatus, setReason, setSearchText, clearFilters } = useReportParams();
  return (
    // Only the open tab's panel is mounted: the other reports are read when their tab is chosen.
    <Tabs value={type} onChange={(value) => value && setType(value as ReportType)} keepMounted={false}>
      <Tabs.List aria-label="Reports" mb="md">
        {REPORT_TYPES.map((report) => (
          <Tabs.Tab key={report} value={report}>
            {REPORT_DEFINITIONS[report].label}
          </Tabs.Tab>
        ))}
      </Tabs.List>
      {REPORT_TYPES.map((report) => (
        <Tabs.Panel key={report} value={report}>
          <ReportView
            campaignUuid={campaignUuid}
            campaign={campaign}
            type={report}
            page={page}
            perPage={perPage}
            onPageChange={setPage}
            onPerPageChange={setPerPage}
            filters={filters}
            searchText={searchText}
            onSearchTextChange={setSearchText}
            onStatusChange={setStatus}
            onReasonChange={setReason}
            onClearFilters={clearFilters}
            headline={report === 'clicks' && campaign.status !== 0 ? <ClicksSummary summary={summary} /> : undefined}
            live={live}
            timeZone={timeZone}
            email={email}
          />
        </Tabs.Panel>
      ))}
    </Tabs>
  );
}

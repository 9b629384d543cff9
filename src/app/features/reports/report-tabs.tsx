import { Tabs } from '@mantine/core';
import { REPORT_TYPES, type ReportType } from '../../../shared/contract';
import { REPORT_DEFINITIONS } from './report-columns';
import type { ReportCampaign } from './report-empty-state';
import { ReportView } from './report-view';
import { useReportParams } from './use-report-params';

interface ReportTabsProps {
  campaignUuid: string;
  campaign: ReportCampaign;
  live?: boolean;
  timeZone?: string;
  email: string | undefined;
}

/** The six reports as tabs; the tab, page and page size are the URL's (useReportParams). */
export function ReportTabs({ campaignUuid, campaign, live, timeZone, email }: ReportTabsProps) {
  const { type, page, perPage, setType, setPage, setPerPage } = useReportParams();
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
            live={live}
            timeZone={timeZone}
            email={email}
          />
        </Tabs.Panel>
      ))}
    </Tabs>
  );
}

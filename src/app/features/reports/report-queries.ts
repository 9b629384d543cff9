import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { ReportType } from '../../../shared/contract';
import {
  getAltDeliveryReport,
  getCampaignReportSummary,
  getClicksReport,
  getDeliveryReport,
  getRecipientReport,
  getSentReport,
  getUnsentReport,
  listCampaignReportSummaries,
  listReportJobs,
} from '../../api/gen/sdk.gen';
import type {
  AltDeliveryReportRow,
  ClicksReportRow,
  DeliveryReportRow,
  PageLinks,
  PageMeta,
  RecipientReportRow,
  ReportJob,
  SentReportRow,
  UnsentReportRow,
} from '../../api/gen/types.gen';

import type { ReportFilterParams } from './use-report-params';

export interface ReportPageParams {
  page: number;
  per_page: number;
}

/** A report page's query: its page, and the filters the report takes (docs/api-conventions.md#reports). */
export type ReportQuery = ReportPageParams & ReportFilterParams;

/** The Reports page's list of campaigns: a page of them, found by name when `search` is given. */
export type ReportSummariesParams = ReportPageParams & { search?: string };

interface ReportRows {
  delivery: DeliveryReportRow;
  alt_delivery: AltDeliveryReportRow;
  recipient: RecipientReportRow;
  sent: SentReportRow;
  unsent: UnsentReportRow;
  clicks: ClicksReportRow;
}

export interface ReportPage<T extends ReportType = ReportType> {
  data: ReportRows[T][];
  links: PageLinks;
  meta: PageMeta;
}

type PageReader = (options: { path: { campaign_uuid: string }; query: ReportQuery; signal: AbortSignal; throwOnError: true }) => Promise<{
  data: ReportPage;
}>;

/** One generated operation per report (each has its own row schema in the contract). */
const READERS: Record<ReportType, PageReader> = {
  delivery: getDeliveryReport,
  alt_delivery: getAltDeliveryReport,
  recipient: getRecipientReport,
  sent: getSentReport,
  unsent: getUnsentReport,
  clicks: getClicksReport,
};

/** The clicks chart reads at most this many pages of the most the API gives (100 rows each). */
export const CLICK_CHART_PAGES = 5;
const CLICK_CHART_PER_PAGE = 100;

/** How often the jobs list is read again while one of them is under way. */
export const REPORT_JOB_POLL_MS = 2_000;

/** Keys from general to specific: `reportKeys.campaign(uuid)` covers every report of a campaign. */
export const reportKeys = {
  all: ['reports'] as const,
  campaign: (campaignUuid: string) => [...reportKeys.all, campaignUuid] as const,
  report: (campaignUuid: string, type: ReportType) => [...reportKeys.campaign(campaignUuid), type] as const,
  page: (campaignUuid: string, type: ReportType, params: ReportQuery) => [...reportKeys.report(campaignUuid, type), params] as const,
  clickTimes: (campaignUuid: string, counted?: number) => [...reportKeys.campaign(campaignUuid), 'click-times', counted] as const,
  summary: (campaignUuid: string) => [...reportKeys.campaign(campaignUuid), 'summary'] as const,
  /** The team's campaigns with their figures (the Reports page). */
  summaries: (params: ReportSummariesParams) => [...reportKeys.all, 'summaries', params] as const,
};

export const reportJobKeys = {
  all: ['report-jobs'] as const,
  list: (params: ReportPageParams) => [...reportJobKeys.all, params] as const,
};

export function isReportJobUnderWay(job: Pick<ReportJob, 'status'>): boolean {
  return job.status === 'queued' || job.status === 'writing' || job.status === 'mailing';
}

export interface ClickTimes {
  /** `Clicked_At` of the clicks by people read, in the order they came (link-preview bots left out, as the counts leave them). */
  times: string[];
  /** Rows of the clicks report read (people and bots). */
  read: number;
  /** Clicks in the whole report; more than `read` when the chart read only the first pages. */
  total: number;
}

export const reportQueries = {
  /**
   * One page of a report. While the next page loads the previous one stays on screen — but only a
   * page of the same report: another tab's rows would not fit this table's columns.
   */
  page: <T extends ReportType>(campaignUuid: string, type: T, params: ReportQuery) => {
    const queryKey = reportKeys.page(campaignUuid, type, params);
    return queryOptions<ReportPage<T>, Error, ReportPage<T>, typeof queryKey>({
      queryKey,
      queryFn: async ({ signal }) =>
        (await READERS[type]({ path: { campaign_uuid: campaignUuid }, query: params, signal, throwOnError: true })).data as ReportPage<T>,
      placeholderData: (previous, previousQuery) =>
        previousQuery && previousQuery.queryKey[1] === campaignUuid && previousQuery.queryKey[2] === type ? previous : undefined,
    });
  },
  /**
   * What a campaign's reports add up to: delivery by status, clicks by people and bots, opt-outs and
   * their rates. The split of failed and expired messages reads an expired campaign's messages, so it
   * is read once a page, not polled with the live counts.
   */
  summary: (campaignUuid: string) =>
    queryOptions({
      queryKey: reportKeys.summary(campaignUuid),
      queryFn: async ({ signal }) => (await getCampaignReportSummary({ path: { campaign_uuid: campaignUuid }, signal, throwOnError: true })).data.data,
    }),
  /** A page of the team's campaigns that have started, last started first, with their figures side by side. */
  summaries: (params: ReportSummariesParams) =>
    queryOptions({
      queryKey: reportKeys.summaries(params),
      queryFn: async ({ signal }) => (await listCampaignReportSummaries({ query: params, signal, throwOnError: true })).data,
      placeholderData: keepPreviousData,
    }),
  /**
   * The first clicks of the campaign, enough for a chart: up to CLICK_CHART_PAGES pages of 100.
   * `counted` is the campaign's click counter as the page last read it: a new count is a new read,
   * so the chart follows its counter (read as often as the counter is, and only when it moved).
   */
  clickTimes: (campaignUuid: string, counted?: number) => {
    const queryKey = reportKeys.clickTimes(campaignUuid, counted);
    return queryOptions<ClickTimes, Error, ClickTimes, typeof queryKey>({
      queryKey,
      // The chart on screen stays while the next count's clicks are read (never another campaign's).
      placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[1] === campaignUuid ? previous : undefined),
      queryFn: async ({ signal }): Promise<ClickTimes> => {
        const times: string[] = [];
        let read = 0;
        let total = 0;
        for (let page = 1; page <= CLICK_CHART_PAGES; page += 1) {
          const { data } = await getClicksReport({
            path: { campaign_uuid: campaignUuid },
            query: { page, per_page: CLICK_CHART_PER_PAGE },
            signal,
            throwOnError: true,
          });
          times.push(
            ...data.data
              .filter((click) => click.Device_Type !== 'bot')
              .map((click) => click.Clicked_At)
              .filter(Boolean),
          );
          read += data.data.length;
          total = data.meta.total;
          if (page >= data.meta.last_page) break;
        }
        return { times, read, total };
      },
    });
  },
};

export const reportJobQueries = {
  /** The user's report e-mails in this team, newest first; read again while one is under way. */
  list: (params: ReportPageParams) =>
    queryOptions({
      queryKey: reportJobKeys.list(params),
      queryFn: async ({ signal }) => (await listReportJobs({ query: params, signal, throwOnError: true })).data,
      placeholderData: keepPreviousData,
      refetchInterval: (query) => (query.state.data?.data.some(isReportJobUnderWay) ? REPORT_JOB_POLL_MS : false),
    }),
};

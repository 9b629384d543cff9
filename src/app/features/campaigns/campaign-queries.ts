import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { CampaignInput } from '../../../shared/contract';
import { listCampaigns, showCampaign, showCampaignSummary, uniqueContacts } from '../../api/gen/sdk.gen';
import { fetchCampaignPreview, fetchCampaignReview } from './campaign-review-api';

/** Campaign states of docs/interface.md §3. */
export const CAMPAIGN_STATUSES = [
  { value: 0, label: 'Pending' },
  { value: 1, label: 'Sending' },
  { value: 2, label: 'Sent' },
] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number]['value'];

export interface CampaignListParams {
  page: number;
  per_page: number;
  status?: CampaignStatus;
}

export interface RecipientGroups {
  included: readonly string[];
  excluded: readonly string[];
}

/** Keys from general to specific, so `campaignKeys.all` invalidates every campaign query. */
export const campaignKeys = {
  all: ['campaigns'] as const,
  lists: () => [...campaignKeys.all, 'list'] as const,
  list: (params: CampaignListParams) => [...campaignKeys.lists(), params] as const,
  details: () => [...campaignKeys.all, 'detail'] as const,
  detail: (uuid: string) => [...campaignKeys.details(), uuid] as const,
  summary: (uuid: string) => [...campaignKeys.detail(uuid), 'summary'] as const,
  review: (uuid: string) => [...campaignKeys.detail(uuid), 'review'] as const,
  previews: () => [...campaignKeys.all, 'preview'] as const,
  preview: (input: CampaignInput) => [...campaignKeys.previews(), input] as const,
  estimates: () => [...campaignKeys.all, 'estimate'] as const,
  estimate: (groups: RecipientGroups) => [...campaignKeys.estimates(), groups] as const,
};

/** A test send's statuses that will not change: its message was delivered, failed or never sent. */
const FINAL_TEST_STATUSES = new Set(['delivered', 'failed', 'unsent']);
/** How often the review is read while a test send is on its way; after TEST_SEND_FAST_READS reads, every TEST_SEND_SLOW_MS. */
export const TEST_SEND_REFRESH_MS = 2_000;
const TEST_SEND_FAST_READS = 150;
const TEST_SEND_SLOW_MS = 15_000;

/**
 * The review's refetch interval: while a test send is queued or awaits its receipt, every couple of
 * seconds (then, after five minutes of reads, every 15 s: a receipt that never comes does not keep
 * the page busy), until every test is final; then no more.
 */
export function testSendRefresh(testSends: ReadonlyArray<{ status: string }>, reads: number): number | false {
  if (testSends.every((test) => FINAL_TEST_STATUSES.has(test.status))) return false;
  return reads < TEST_SEND_FAST_READS ? TEST_SEND_REFRESH_MS : TEST_SEND_SLOW_MS;
}

export const campaignQueries = {
  list: (params: CampaignListParams) =>
    queryOptions({
      queryKey: campaignKeys.list(params),
      queryFn: async ({ signal }) => (await listCampaigns({ query: params, signal, throwOnError: true })).data,
      placeholderData: keepPreviousData,
    }),
  detail: (uuid: string) =>
    queryOptions({
      queryKey: campaignKeys.detail(uuid),
      queryFn: async ({ signal }) => (await showCampaign({ path: { campaign_uuid: uuid }, signal, throwOnError: true })).data.data,
    }),
  summary: (uuid: string) =>
    queryOptions({
      queryKey: campaignKeys.summary(uuid),
      queryFn: async ({ signal }) => (await showCampaignSummary({ path: { campaign_uuid: uuid }, signal, throwOnError: true })).data.data,
    }),
  /**
   * What a saved campaign will do (recipients, parts, cost, coverage, test sends), from its real
   * audience. Read again while one of its test sends has no final status yet (testSendRefresh).
   */
  review: (uuid: string) =>
    queryOptions({
      queryKey: campaignKeys.review(uuid),
      queryFn: ({ signal }) => fetchCampaignReview(uuid, signal),
      staleTime: 0,
      refetchInterval: (query) => testSendRefresh(query.state.data?.test_sends ?? [], query.state.dataUpdateCount),
    }),
  /** The same for a campaign not saved (or not saved as it is in the form): nothing is written. */
  preview: (input: CampaignInput) =>
    queryOptions({
      queryKey: campaignKeys.preview(input),
      queryFn: ({ signal }) => fetchCampaignPreview(input, signal),
      placeholderData: keepPreviousData,
    }),
  /** Distinct numbers the groups reach now (included minus excluded minus default_optouts): the page total of one row. */
  estimate: (groups: RecipientGroups) =>
    queryOptions({
      queryKey: campaignKeys.estimate(groups),
      queryFn: async ({ signal }) =>
        (
          await uniqueContacts({
            body: { included_contact_group_uuids: [...groups.included], excluded_contact_group_uuids: [...groups.excluded] },
            query: { page: 1, per_page: 1 },
            signal,
            throwOnError: true,
          })
        ).data.meta.total,
      placeholderData: keepPreviousData,
    }),
};

import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { listContactFlowRuns, listFlowRuns, listFlows, showFlow } from '../../api/gen/sdk.gen';

export interface FlowListParams {
  page: number;
  per_page: number;
}

/** The newest runs a page shows (a flow's, or a number's on the contact page). */
export const RUNS_PAGE = { page: 1, per_page: 50 } as const;

export const flowKeys = {
  all: ['flows'] as const,
  lists: () => [...flowKeys.all, 'list'] as const,
  list: (params: FlowListParams) => [...flowKeys.lists(), params] as const,
  detail: (uuid: string) => [...flowKeys.all, 'detail', uuid] as const,
  runs: (uuid: string) => [...flowKeys.detail(uuid), 'runs'] as const,
  /** Every number's runs (the contact page): a run started from a flow's page changes them. */
  contactRuns: (phoneNumber?: string) =>
    phoneNumber ? ([...flowKeys.all, 'contact-runs', phoneNumber] as const) : ([...flowKeys.all, 'contact-runs'] as const),
};

export const flowQueries = {
  list: (params: FlowListParams) =>
    queryOptions({
      queryKey: flowKeys.list(params),
      queryFn: async ({ signal }) => (await listFlows({ query: params, signal, throwOnError: true })).data,
      placeholderData: keepPreviousData,
    }),
  detail: (uuid: string) =>
    queryOptions({
      queryKey: flowKeys.detail(uuid),
      queryFn: async ({ signal }) => (await showFlow({ path: { flow_uuid: uuid }, signal, throwOnError: true })).data.data,
    }),
  /** The flow's newest runs, each with its history. */
  runs: (uuid: string) =>
    queryOptions({
      queryKey: flowKeys.runs(uuid),
      queryFn: async ({ signal }) => (await listFlowRuns({ path: { flow_uuid: uuid }, query: RUNS_PAGE, signal, throwOnError: true })).data,
    }),
  /** A number's newest runs of the team's flows (404 when the team holds nothing about it). */
  contactRuns: (phoneNumber: string) =>
    queryOptions({
      queryKey: flowKeys.contactRuns(phoneNumber),
      queryFn: async ({ signal }) => (await listContactFlowRuns({ path: { phone_number: phoneNumber }, query: RUNS_PAGE, signal, throwOnError: true })).data,
    }),
};

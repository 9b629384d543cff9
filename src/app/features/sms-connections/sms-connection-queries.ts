import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { listSmsConnections, showSmsConnection } from '../../api/gen/sdk.gen';

export interface SmsConnectionListParams {
  page: number;
  per_page: number;
}

export const smsConnectionKeys = {
  all: ['sms-connections'] as const,
  lists: () => [...smsConnectionKeys.all, 'list'] as const,
  list: (params: SmsConnectionListParams) => [...smsConnectionKeys.lists(), params] as const,
  detail: (uuid: string) => [...smsConnectionKeys.all, 'detail', uuid] as const,
};

/** How often a connection's state (circuit, today's counts) is read again while its page is open. */
export const STATE_REFRESH_MS = 15_000;

export const smsConnectionQueries = {
  list: (params: SmsConnectionListParams) =>
    queryOptions({
      queryKey: smsConnectionKeys.list(params),
      queryFn: async ({ signal }) => (await listSmsConnections({ query: params, signal, throwOnError: true })).data,
      placeholderData: keepPreviousData,
      refetchInterval: STATE_REFRESH_MS,
    }),
  detail: (uuid: string) =>
    queryOptions({
      queryKey: smsConnectionKeys.detail(uuid),
      queryFn: async ({ signal }) => (await showSmsConnection({ path: { connection_uuid: uuid }, signal, throwOnError: true })).data.data,
      refetchInterval: STATE_REFRESH_MS,
    }),
};

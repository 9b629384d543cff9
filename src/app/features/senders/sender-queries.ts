import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { listSenders, showSender } from '../../api/gen/sdk.gen';

export interface SenderListParams {
  page: number;
  per_page: number;
}

/** Keys from general to specific, so `senderKeys.all` invalidates every sender query. */
export const senderKeys = {
  all: ['senders'] as const,
  lists: () => [...senderKeys.all, 'list'] as const,
  list: (params: SenderListParams) => [...senderKeys.lists(), params] as const,
  details: () => [...senderKeys.all, 'detail'] as const,
  detail: (uuid: string) => [...senderKeys.details(), uuid] as const,
};

export const senderQueries = {
  list: (params: SenderListParams) =>
    queryOptions({
      queryKey: senderKeys.list(params),
      queryFn: async ({ signal }) => (await listSenders({ query: params, signal, throwOnError: true })).data,
      // Keep the current page on screen while the next one loads.
      placeholderData: keepPreviousData,
    }),
  detail: (uuid: string) =>
    queryOptions({
      queryKey: senderKeys.detail(uuid),
      queryFn: async ({ signal }) => (await showSender({ path: { sender_uuid: uuid }, signal, throwOnError: true })).data.data,
    }),
};

import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { listSenders, showSender } from '../../api/gen/sdk.gen';

export interface SenderListParams {
  page: number;
  per_page: number;
  /** Only the items whose sender contains this text, ignoring case (the service's `search`); omitted for all. */
  search?: string;
}

/** The most the API gives in one page: a picker shows the first page, then what the service finds as the user types. */
const PICKER_PAGE = { page: 1, per_page: 100 } as const;
const pickerParams = (search: string): SenderListParams => (search ? { ...PICKER_PAGE, search } : PICKER_PAGE);

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
  /** Sender names to offer: the newest 100, or those that contain `search`. */
  picker: (search = '') =>
    queryOptions({
      queryKey: senderKeys.list(pickerParams(search)),
      queryFn: async ({ signal }) => (await listSenders({ query: pickerParams(search), signal, throwOnError: true })).data,
      select: (page) => page.data.map((sender) => sender.sender),
      placeholderData: keepPreviousData,
    }),
  detail: (uuid: string) =>
    queryOptions({
      queryKey: senderKeys.detail(uuid),
      queryFn: async ({ signal }) => (await showSender({ path: { sender_uuid: uuid }, signal, throwOnError: true })).data.data,
    }),
};

import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { listInboundMessages } from '../../api/gen/sdk.gen';

export interface InboundListParams {
  page: number;
  per_page: number;
}

export const inboundKeys = {
  all: ['inbound-messages'] as const,
  lists: () => [...inboundKeys.all, 'list'] as const,
  list: (params: InboundListParams) => [...inboundKeys.lists(), params] as const,
};

export const inboundQueries = {
  list: (params: InboundListParams) =>
    queryOptions({
      queryKey: inboundKeys.list(params),
      queryFn: async ({ signal }) => (await listInboundMessages({ query: params, signal, throwOnError: true })).data,
      placeholderData: keepPreviousData,
    }),
};

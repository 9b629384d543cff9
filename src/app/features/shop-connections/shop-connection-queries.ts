import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { listShopConnections } from '../../api/gen/sdk.gen';

export interface ShopConnectionListParams {
  page: number;
  per_page: number;
}

export const shopConnectionKeys = {
  all: ['shop-connections'] as const,
  lists: () => [...shopConnectionKeys.all, 'list'] as const,
  list: (params: ShopConnectionListParams) => [...shopConnectionKeys.lists(), params] as const,
};

export const shopConnectionQueries = {
  list: (params: ShopConnectionListParams) =>
    queryOptions({
      queryKey: shopConnectionKeys.list(params),
      queryFn: async ({ signal }) => (await listShopConnections({ query: params, signal, throwOnError: true })).data,
      placeholderData: keepPreviousData,
    }),
};

import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { listTokens } from '../../api/gen/sdk.gen';

export interface ApiTokenListParams {
  page: number;
  per_page: number;
}

export const apiTokenKeys = {
  all: ['tokens'] as const,
  lists: () => [...apiTokenKeys.all, 'list'] as const,
  list: (params: ApiTokenListParams) => [...apiTokenKeys.lists(), params] as const,
};

export const apiTokenQueries = {
  list: (params: ApiTokenListParams) =>
    queryOptions({
      queryKey: apiTokenKeys.list(params),
      queryFn: async ({ signal }) => (await listTokens({ query: params, signal, throwOnError: true })).data,
      placeholderData: keepPreviousData,
    }),
};

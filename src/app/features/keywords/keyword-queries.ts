import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { listKeywords, showKeyword } from '../../api/gen/sdk.gen';

export interface KeywordListParams {
  page: number;
  per_page: number;
}

export const keywordKeys = {
  all: ['keywords'] as const,
  lists: () => [...keywordKeys.all, 'list'] as const,
  list: (params: KeywordListParams) => [...keywordKeys.lists(), params] as const,
  details: () => [...keywordKeys.all, 'detail'] as const,
  detail: (uuid: string) => [...keywordKeys.details(), uuid] as const,
};

export const keywordQueries = {
  list: (params: KeywordListParams) =>
    queryOptions({
      queryKey: keywordKeys.list(params),
      queryFn: async ({ signal }) => (await listKeywords({ query: params, signal, throwOnError: true })).data,
      placeholderData: keepPreviousData,
    }),
  detail: (uuid: string) =>
    queryOptions({
      queryKey: keywordKeys.detail(uuid),
      queryFn: async ({ signal }) => (await showKeyword({ path: { keyword_uuid: uuid }, signal, throwOnError: true })).data.data,
    }),
};

import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { listVanityDomains } from '../../api/gen/sdk.gen';

export interface VanityDomainListParams {
  page: number;
  per_page: number;
}

/** The most the API gives in one page: pickers show every domain of the team from it. */
const PICKER_PAGE = { page: 1, per_page: 100 } as const;

export const vanityDomainKeys = {
  all: ['vanity-domains'] as const,
  lists: () => [...vanityDomainKeys.all, 'list'] as const,
  list: (params: VanityDomainListParams) => [...vanityDomainKeys.lists(), params] as const,
};

export const vanityDomainQueries = {
  list: (params: VanityDomainListParams) =>
    queryOptions({
      queryKey: vanityDomainKeys.list(params),
      queryFn: async ({ signal }) => (await listVanityDomains({ query: params, signal, throwOnError: true })).data,
      placeholderData: keepPreviousData,
    }),
  /** Every domain of the team (for pickers and short-link previews). */
  picker: () =>
    queryOptions({
      queryKey: vanityDomainKeys.list(PICKER_PAGE),
      queryFn: async ({ signal }) => (await listVanityDomains({ query: PICKER_PAGE, signal, throwOnError: true })).data,
      select: (page) => page.data,
    }),
};

import { queryOptions } from '@tanstack/react-query';
import { listContactGroups } from '../../api/gen/sdk.gen';

/** The most the API gives in one page: pickers show every group of the team from it. */
const PICKER_PAGE = { page: 1, per_page: 100 } as const;

export const contactGroupKeys = {
  all: ['contact-groups'] as const,
  lists: () => [...contactGroupKeys.all, 'list'] as const,
  list: (params: { page: number; per_page: number }) => [...contactGroupKeys.lists(), params] as const,
};

export const contactGroupQueries = {
  /** Every group of the team, for pickers (keywords) and field-name suggestions (templates). */
  picker: () =>
    queryOptions({
      queryKey: contactGroupKeys.list(PICKER_PAGE),
      queryFn: async ({ signal }) => (await listContactGroups({ query: PICKER_PAGE, signal, throwOnError: true })).data,
      select: (page) => page.data,
    }),
};

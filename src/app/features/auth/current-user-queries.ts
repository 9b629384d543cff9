import { queryOptions } from '@tanstack/react-query';
import { showCurrentUser } from '../../api/gen/sdk.gen';

export const currentUserKeys = {
  all: ['users'] as const,
  me: () => [...currentUserKeys.all, 'me'] as const,
};

export const currentUserQueries = {
  me: () =>
    queryOptions({
      queryKey: currentUserKeys.me(),
      queryFn: async ({ signal }) => (await showCurrentUser({ signal, throwOnError: true })).data.data,
      staleTime: 5 * 60_000,
    }),
};

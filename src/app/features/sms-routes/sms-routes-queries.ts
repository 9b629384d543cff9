import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { SmsRoutesInput } from '../../../shared/contract';
import { listSmsConnections, showSmsRoutes, updateSmsRoutes } from '../../api/gen/sdk.gen';

export const smsRouteKeys = {
  routes: ['sms-routes'] as const,
  /** Under the connections' own key, so a change to the connections refreshes the editor's choices. */
  connections: ['sms-connections', 'for-routes'] as const,
};

export const smsRouteQueries = {
  routes: () =>
    queryOptions({
      queryKey: smsRouteKeys.routes,
      queryFn: async ({ signal }) => (await showSmsRoutes({ signal, throwOnError: true })).data,
    }),
  /** The team's connections a rule may name (the first 100, oldest first, as routes without rules try them). */
  connections: () =>
    queryOptions({
      queryKey: smsRouteKeys.connections,
      queryFn: async ({ signal }) => (await listSmsConnections({ query: { page: 1, per_page: 100 }, signal, throwOnError: true })).data.data.slice().reverse(),
    }),
};

/** Replaces the team's routes; the saved list replaces the cached one. */
export function useSaveSmsRoutes() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: SmsRoutesInput) => (await updateSmsRoutes({ body: input, throwOnError: true })).data,
    onSuccess: (saved) => queryClient.setQueryData(smsRouteKeys.routes, saved),
  });
}

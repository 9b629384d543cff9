import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LoginRequest } from '../../../shared/contract';
import { apiBaseUrl } from '../../api/client';
import { createSession, deleteSession, showCurrentUser, switchTeam } from '../../api/gen/sdk.gen';
import { currentOrigin, endSession, getSession, normaliseBaseUrl, startSession } from '../../lib/session';
import { currentUserKeys } from './current-user-queries';

export interface TokenSignIn {
  baseUrl: string;
  token: string;
}

/** E-mail and password against the Herald serving this dashboard: the session is a cookie no script can read. */
export function useSignInWithPassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (credentials: LoginRequest) => {
      const baseUrl = currentOrigin();
      const { data } = await createSession({ body: credentials, baseUrl: apiBaseUrl(baseUrl), throwOnError: true });
      return { baseUrl, user: data.data };
    },
    onSuccess: ({ baseUrl, user }) => {
      queryClient.setQueryData(currentUserKeys.me(), user);
      startSession({ baseUrl, kind: 'password' });
    },
  });
}

/** An API token for any service speaking this API: it is kept only once the service accepts it. */
export function useSignInWithToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ baseUrl, token }: TokenSignIn) => {
      const serviceUrl = normaliseBaseUrl(baseUrl);
      const { data } = await showCurrentUser({
        baseUrl: apiBaseUrl(serviceUrl),
        headers: { Authorization: `Bearer ${token.trim()}` },
        throwOnError: true,
      });
      return { baseUrl: serviceUrl, token: token.trim(), user: data.data };
    },
    onSuccess: ({ baseUrl, token, user }) => {
      queryClient.setQueryData(currentUserKeys.me(), user);
      startSession({ baseUrl, token, kind: 'token' });
    },
  });
}

/** Revokes a password session and clears its cookies (a pasted API token stays valid for its other uses), then forgets the session. */
export function useSignOut() {
  return useMutation({
    mutationFn: async () => {
      if (getSession()?.kind !== 'password') return;
      try {
        await deleteSession({ throwOnError: true });
      } catch {
        // Signing out must always work locally, even when the service is unreachable.
      }
    },
    onSettled: () => endSession(),
  });
}

/** Every request is scoped to the current team, so nothing cached under the previous team may be shown. */
export function useSwitchTeam() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (teamUuid: string) => (await switchTeam({ path: { team_uuid: teamUuid }, throwOnError: true })).data.data,
    onSuccess: async (user) => {
      await queryClient.cancelQueries();
      queryClient.removeQueries({ type: 'inactive' });
      queryClient.setQueryData(currentUserKeys.me(), user);
      await queryClient.resetQueries({ predicate: (query) => query.queryKey[0] !== currentUserKeys.all[0] });
    },
  });
}

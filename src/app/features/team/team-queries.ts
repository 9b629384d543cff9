import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { listInvitations, listMembers, showInvitation, showTeamSettings } from '../../api/gen/sdk.gen';
import { apiBaseUrl } from '../../api/client';
import { currentOrigin } from '../../lib/session';

export interface TeamListParams {
  page: number;
  per_page: number;
}

/** Everything of the current team; an invitation link's preview is not the team's (it is public, by its secret). */
export const teamKeys = {
  all: ['team'] as const,
  members: () => [...teamKeys.all, 'members'] as const,
  memberList: (params: TeamListParams) => [...teamKeys.members(), 'list', params] as const,
  invitations: () => [...teamKeys.all, 'invitations'] as const,
  invitationList: (params: TeamListParams) => [...teamKeys.invitations(), 'list', params] as const,
  settings: () => [...teamKeys.all, 'settings'] as const,
};

export const invitationLinkKeys = {
  all: ['invitation-links'] as const,
  detail: (secret: string) => [...invitationLinkKeys.all, secret] as const,
};

export const teamQueries = {
  members: (params: TeamListParams) =>
    queryOptions({
      queryKey: teamKeys.memberList(params),
      queryFn: async ({ signal }) => (await listMembers({ query: params, signal, throwOnError: true })).data,
      placeholderData: keepPreviousData,
    }),
  /** Admins only (403 for the other roles). */
  invitations: (params: TeamListParams) =>
    queryOptions({
      queryKey: teamKeys.invitationList(params),
      queryFn: async ({ signal }) => (await listInvitations({ query: params, signal, throwOnError: true })).data,
      placeholderData: keepPreviousData,
    }),
  settings: () =>
    queryOptions({
      queryKey: teamKeys.settings(),
      queryFn: async ({ signal }) => (await showTeamSettings({ signal, throwOnError: true })).data.data,
    }),
};

export const invitationLinkQueries = {
  /**
   * What a link invites to, asked of the Herald serving this page (the link's own), whoever is signed in.
   * Read once: after the link is used it answers 404, which must not replace the page that says it worked.
   */
  detail: (secret: string) =>
    queryOptions({
      queryKey: invitationLinkKeys.detail(secret),
      queryFn: async ({ signal }) =>
        (await showInvitation({ path: { token: secret }, baseUrl: apiBaseUrl(currentOrigin()), signal, throwOnError: true })).data.data,
      staleTime: Infinity,
      refetchOnWindowFocus: false,
    }),
};

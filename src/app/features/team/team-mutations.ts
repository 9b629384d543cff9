import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { InvitationAccept, InvitationInput, Role, TeamSettingsInput } from '../../../shared/contract';
import { apiBaseUrl } from '../../api/client';
import { acceptInvitation, createInvitation, deleteInvitation, removeMember, updateMember, updateTeamSettings } from '../../api/gen/sdk.gen';
import { currentOrigin } from '../../lib/session';
import { invitationLinkKeys, teamKeys } from './team-queries';

export interface RoleChange {
  uuid: string;
  role: Role;
  /** The signed-in user's own role: what every page offers changes with it. */
  own: boolean;
}

export function useUpdateMemberRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ uuid, role }: RoleChange) => (await updateMember({ path: { user_uuid: uuid }, body: { role }, throwOnError: true })).data.data,
    onSuccess: (_member, { own }) => queryClient.invalidateQueries(own ? undefined : { queryKey: teamKeys.members() }),
  });
}

export function useRemoveMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (uuid: string) => {
      await removeMember({ path: { user_uuid: uuid }, throwOnError: true });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: teamKeys.members() }),
  });
}

export function useCreateInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: InvitationInput) => (await createInvitation({ body: input, throwOnError: true })).data.data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: teamKeys.invitations() }),
  });
}

export function useWithdrawInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (uuid: string) => {
      await deleteInvitation({ path: { invitation_uuid: uuid }, throwOnError: true });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: teamKeys.invitations() }),
  });
}

export function useUpdateTeamSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: TeamSettingsInput) => (await updateTeamSettings({ body: input, throwOnError: true })).data.data,
    onSuccess: (settings) => queryClient.setQueryData(teamKeys.settings(), settings),
  });
}

/**
 * Accepts a link on the Herald serving this page. Whoever is signed in here, if anyone, may have
 * just joined a team: what they see of their teams is read again.
 */
export function useAcceptInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: InvitationAccept) =>
      (await acceptInvitation({ body: input, baseUrl: apiBaseUrl(currentOrigin()), throwOnError: true })).data.data,
    // The link's own preview stays as it was read: asked again, it is 404 now that the link is used.
    onSuccess: () => queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== invitationLinkKeys.all[0] }),
  });
}

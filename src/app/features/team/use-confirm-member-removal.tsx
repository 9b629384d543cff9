import type { Member } from '../../api/gen/types.gen';
import { useConfirmAction } from '../../components/use-confirm-action';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import { useRemoveMember } from './team-mutations';

/** Asks before removing a member: their sign-ins and API tokens of the team stop working at once. */
export function useConfirmMemberRemoval(teamName: string) {
  const removal = useRemoveMember();

  return useConfirmAction((member: Pick<Member, 'uuid' | 'name' | 'email'>) => ({
    title: 'Remove member',
    message: (
      <>
        Remove <strong>{member.name}</strong> ({member.email}) from {teamName}? Their sign-ins and API tokens stop working in this team at once. To come back,
        they need a new invitation.
      </>
    ),
    confirmLabel: 'Remove member',
    onConfirm: () =>
      removal.mutate(member.uuid, {
        onSuccess: () => notifySuccess(`${member.name} was removed from ${teamName}.`),
        onError: (error) => notifyFailure(`${member.name} could not be removed`, error),
      }),
  }));
}

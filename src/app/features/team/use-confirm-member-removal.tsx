import type { Member } from '../../api/gen/types.gen';
import { useConfirmedMutation } from '../../components/use-confirm-action';
import { useRemoveMember } from './team-mutations';

/** Asks before removing a member: their sign-ins and API tokens of the team stop working at once. */
export function useConfirmMemberRemoval(teamName: string) {
  const removal = useRemoveMember();

  return useConfirmedMutation(removal, (member: Pick<Member, 'uuid' | 'name' | 'email'>) => ({
    title: 'Remove member',
    message: (
      <>
        Remove <strong>{member.name}</strong> ({member.email}) from {teamName}? Their sign-ins and API tokens stop working in this team at once. To come back,
        they need a new invitation.
      </>
    ),
    confirmLabel: 'Remove member',
    variables: member.uuid,
    success: `${member.name} was removed from ${teamName}.`,
    failure: `${member.name} could not be removed`,
  }));
}

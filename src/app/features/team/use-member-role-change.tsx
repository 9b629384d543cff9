import type { Member } from '../../api/gen/types.gen';
import { useConfirmAction } from '../../components/use-confirm-action';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import type { Role } from '../../lib/roles';
import { withArticle } from './member-roles';
import { useUpdateMemberRole } from './team-mutations';

interface RoleChangeRequest {
  member: Pick<Member, 'uuid' | 'name' | 'role'>;
  role: Role;
}

/**
 * Changes a member's role and says how it went (a 409 says the team would be left without an admin).
 * An admin giving up their own admin role is asked first: only another admin can give it back.
 */
export function useMemberRoleChange({ teamName, currentUserUuid }: { teamName: string; currentUserUuid: string | undefined }) {
  const change = useUpdateMemberRole();

  const run = ({ member, role }: RoleChangeRequest) => {
    const own = member.uuid === currentUserUuid;
    change.mutate(
      { uuid: member.uuid, role, own },
      {
        onSuccess: () => notifySuccess(own ? `You are now ${withArticle(role)} of ${teamName}.` : `${member.name} is now ${withArticle(role)}.`),
        onError: (error) => notifyFailure(`The role of ${member.name} could not be changed`, error),
      },
    );
  };

  const confirmOwnDemotion = useConfirmAction(({ member, role }: RoleChangeRequest) => ({
    title: 'Give up the admin role',
    message: (
      <>
        Become {withArticle(role)} of <strong>{teamName}</strong>? You will no longer be able to change its members, invitations and settings; only another
        admin can make you an admin again.
      </>
    ),
    confirmLabel: `Become ${withArticle(role)}`,
    cancelLabel: 'Stay an admin',
    onConfirm: () => run({ member, role }),
  }));

  const onRoleChange = (member: RoleChangeRequest['member'], role: Role) => {
    if (member.uuid === currentUserUuid && member.role === 'admin') confirmOwnDemotion({ member, role });
    else run({ member, role });
  };

  return { onRoleChange, pendingChange: change.isPending ? { uuid: change.variables.uuid, role: change.variables.role } : undefined };
}

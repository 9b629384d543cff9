import { useQuery } from '@tanstack/react-query';
import { can, roleExplanation, type Permission, type Role } from '../../lib/roles';
import { currentUserQueries } from './current-user-queries';

export interface TeamRole {
  /** The user's role in the current team; undefined until the user is loaded. */
  role: Role | undefined;
  teamName: string;
  /** Whether the role may do what `permission` names (nothing until the role is known). */
  can: (permission: Permission) => boolean;
  /** Why the page's actions are missing, in one sentence; undefined when the role may use them. */
  explain: (permission: Permission, subject?: string) => string | undefined;
}

/** The signed-in user's role in the team every request is scoped to; it changes with the team switcher. */
export function useTeamRole(): TeamRole {
  const { data: team } = useQuery({ ...currentUserQueries.me(), select: (user) => user.current_team });
  const role = team?.role;
  const teamName = team?.name ?? 'this team';
  return {
    role,
    teamName,
    can: (permission) => can(role, permission),
    explain: (permission, subject) => roleExplanation(role, teamName, permission, subject),
  };
}

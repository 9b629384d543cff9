import { ROLES } from '../../../shared/contract';
import { ROLE_LABELS, type Role } from '../../lib/roles';

/** What each role may do, in the words the Select and the invitation use. */
export const ROLE_DESCRIPTIONS: Record<Role, string> = {
  admin: 'Everything, members and settings included',
  editor: 'Templates, audiences and campaigns',
  viewer: 'Reads, and asks for report e-mails',
};

export const ROLE_OPTIONS = ROLES.map((role) => ({ value: role, label: ROLE_LABELS[role] }));

export function isRole(value: string | null): value is Role {
  return value !== null && (ROLES as readonly string[]).includes(value);
}

/** "an admin", "an editor", "a viewer". */
export function withArticle(role: Role): string {
  return `${role === 'viewer' ? 'a' : 'an'} ${role}`;
}

import type { Role } from '../../shared/contract';

export type { Role };

/**
 * What a page asks of the role in the current team (the service enforces the same, route by route):
 * `edit` changes the team's work (templates, links, keywords, contact groups, campaigns, keyword
 * tests); `admin` changes the team's settings (senders, vanity domains, webhooks, event endpoints). Reading and
 * asking for report e-mails need neither.
 */
export type Permission = 'edit' | 'admin';

const RANK: Record<Role, number> = { viewer: 0, editor: 1, admin: 2 };
const LOWEST: Record<Permission, Role> = { edit: 'editor', admin: 'admin' };

/** Whether `role` may do what `permission` names; an unknown role (the user not loaded yet) may not. */
export function can(role: Role | undefined, permission: Permission): boolean {
  return role !== undefined && RANK[role] >= RANK[LOWEST[permission]];
}

export const ROLE_LABELS: Record<Role, string> = { admin: 'Admin', editor: 'Editor', viewer: 'Viewer' };

/**
 * Why the page's actions are missing, in one sentence, or undefined when the role may use them.
 * `subject` names what an admin-only page changes, e.g. "senders".
 */
export function roleExplanation(role: Role | undefined, teamName: string, permission: Permission, subject = 'the team’s settings'): string | undefined {
  if (role === undefined || can(role, permission)) return undefined;
  if (role === 'viewer') {
    return `You have the viewer role in ${teamName}: you can read everything and e-mail reports, but not change anything. An admin of ${teamName} can make you an editor.`;
  }
  return `Only admins of ${teamName} can change ${subject}; you have the ${role} role.`;
}

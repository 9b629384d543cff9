/**
 * What each role may do in the dashboard, and the sentence that says why an action is missing. The
 * table mirrors the service's (src/server/http/roles.test.ts): a viewer reads, an editor changes the
 * team's work, only an admin changes its settings.
 *
 * Seen red: with `edit` needing the admin role in LOWEST (the editor could no longer edit), and
 * with the rank comparison turned to `>` (an editor could not edit, an admin could not change settings).
 */
import { describe, expect, it } from 'vitest';
import { can, roleExplanation, type Permission, type Role } from './roles';

const TABLE: Record<Role, Record<Permission, boolean>> = {
  viewer: { edit: false, admin: false },
  editor: { edit: true, admin: false },
  admin: { edit: true, admin: true },
};

describe('roles', () => {
  it.each(Object.entries(TABLE).flatMap(([role, allowed]) => Object.entries(allowed).map(([permission, expected]) => ({ role, permission, expected }))))(
    '$role may $permission: $expected',
    ({ role, permission, expected }) => {
      expect(can(role as Role, permission as Permission)).toBe(expected);
    },
  );

  it('lets nobody do anything while the role is not known', () => {
    expect(can(undefined, 'edit')).toBe(false);
    expect(can(undefined, 'admin')).toBe(false);
    expect(roleExplanation(undefined, 'Acme', 'edit')).toBeUndefined();
  });

  it('says nothing to a role that may act, and why to one that may not', () => {
    expect(roleExplanation('editor', 'Acme', 'edit')).toBeUndefined();
    expect(roleExplanation('admin', 'Acme', 'admin', 'senders')).toBeUndefined();
    expect(roleExplanation('viewer', 'Acme', 'edit')).toBe(
      'You have the viewer role in Acme: you can read everything and e-mail reports, but not change anything. An admin of Acme can make you an editor.',
    );
    expect(roleExplanation('viewer', 'Acme', 'admin', 'senders')).toMatch(/^You have the viewer role in Acme/);
    expect(roleExplanation('editor', 'Acme', 'admin', 'senders')).toBe('Only admins of Acme can change senders; you have the editor role.');
  });
});

import type { CurrentUser } from '../api/gen/types.gen';
import type { Role } from '../lib/roles';

export const ACME = { uuid: '7c1dcc2f-61b5-4b66-9a5f-2e3c4d5e6f70', name: 'Acme' };
export const GLOBEX = { uuid: '8d2edd30-72c6-4c77-8a6f-3f4d5e6f7081', name: 'Globex' };

/** A signed-in user working in Acme with `role` (and an admin of Globex), as GET /users/me answers. */
export function currentUser(role: Role, overrides: Partial<CurrentUser> = {}): CurrentUser {
  return {
    uuid: '33333333-3333-4333-8333-333333333333',
    name: 'Ada Lovelace',
    email: 'ada@herald.test',
    phone_number: null,
    current_team: { ...ACME, role },
    teams: [
      { ...ACME, role },
      { ...GLOBEX, role: 'admin' },
    ],
    app_timezone: 'Europe/London',
    created_at: '2026-11-01 08:00:00',
    ...overrides,
  };
}

/**
 * The `Suppressions` interface on the real database (issue 33, point 3): add with a source, remove
 * with a reason, check one number or many, count over a statement's numbers, and the history of a
 * number (who, what, when, source, reason). What is counted is what a team reads over the API: the
 * members of default_optouts and its count, and the history's rows.
 *
 * Seen red: with `remove` recording the opt-in but no longer deleting (the `contacts.remove` call in
 * suppressions.service.ts replaced by 0), "remove … with the reason" failed: the number was still
 * on the list, by `check` and by the contact-group API.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthContext } from '../../http/auth';
import { createTestApp, createTestClock, type TestApp, type TestUser } from '../../testing/test-app';
import type { Suppressions } from './suppressions.service';

const clock = createTestClock('2026-06-01T09:00:00Z');
let t: TestApp;
let owner: TestUser;
let other: TestUser;
let auth: AuthContext;
let otherAuth: AuthContext;
let suppressions: Suppressions;

const teamIdOf = async (user: TestUser) => Number((await t.database.pool.query('SELECT id FROM teams WHERE uuid = $1', [user.teamUuid])).rows[0].id);
const userIdOf = async (user: TestUser) => Number((await t.database.pool.query('SELECT id FROM users WHERE uuid = $1', [user.userUuid])).rows[0].id);
/** default_optouts as the spec's contact-group API shows it: its members and its count. */
const optoutsOf = async (user: TestUser) => {
  const group = (await t.request('GET', '/api/2.0/contact-groups/?per_page=100', { token: user.token }))
    .json()
    .data.find((g: { name: string }) => g.name === 'default_optouts');
  const members = (await t.request('GET', `/api/2.0/contact-groups/${group.uuid}/contacts?per_page=100`, { token: user.token }))
    .json()
    .data.map((c: { phone_number: string }) => c.phone_number);
  return { members, count: group.number_of_contacts as number };
};

beforeAll(async () => {
  t = await createTestApp({}, { clock });
  owner = await t.user();
  other = await t.user();
  auth = (await t.services.tokens.authenticate(owner.token))!;
  otherAuth = (await t.services.tokens.authenticate(other.token))!;
  suppressions = t.services.suppressions;
});
afterAll(() => t.close());

describe('Suppressions', () => {
  it('add: each number new to the list recorded once with its source and user, the list shown as default_optouts', async () => {
    const teamId = await teamIdOf(owner);
    const listId = await suppressions.listOf(teamId);
    const actor = { teamId, source: 'api' as const, userId: await userIdOf(owner) };
    const first = await t.database.db.transaction((tx) => suppressions.add(tx, listId, actor, ['447700900801', '447700900802', '447700900801']));
    expect(first).toBe(2);
    clock.advance(60_000);
    const again = await t.database.db.transaction((tx) =>
      suppressions.add(tx, listId, { ...actor, source: 'keyword', userId: null }, ['447700900802', '447700900803']),
    );
    expect(again).toBe(1);

    expect(await optoutsOf(owner)).toEqual({ members: ['447700900801', '447700900802', '447700900803'], count: 3 });
    expect(await optoutsOf(other)).toEqual({ members: [], count: 0 });
    expect(await suppressions.check(t.database.db, listId, '447700900802')).toBe(true);
    expect(await suppressions.check(t.database.db, await suppressions.listOf(await teamIdOf(other)), '447700900802')).toBe(false);
    expect([...(await suppressions.checkMany(t.database.db, listId, ['447700900801', '447700900809', '447700900803']))].sort()).toEqual([
      '447700900801',
      '447700900803',
    ]);
    expect(await suppressions.teamsSuppressing('447700900801')).toEqual([teamId]);

    const { items, total } = await suppressions.history(auth, '07700900802', { limit: 10, offset: 0 });
    expect(total).toBe(1);
    expect(items).toEqual([
      {
        phone_number: '447700900802',
        kind: 'opt_out',
        source: 'api',
        campaign: null,
        user: { uuid: owner.userUuid, name: expect.any(String) },
        reason: null,
        created_at: '2026-06-01 10:00:00',
      },
    ]);
    expect((await suppressions.history(auth, '07700900803', { limit: 10, offset: 0 })).items.map((e) => [e.kind, e.source, e.user])).toEqual([
      ['opt_out', 'keyword', null],
    ]);
  });

  it('remove: the number leaves the list with the reason, recorded as an opt-in; one not on it records nothing', async () => {
    const teamId = await teamIdOf(owner);
    const listId = await suppressions.listOf(teamId);
    clock.advance(60_000);
    const actor = { teamId, source: 'dashboard' as const, userId: await userIdOf(owner), reason: 'Signed up again at the counter' };
    const removed = await t.database.db.transaction((tx) => suppressions.remove(tx, listId, actor, ['447700900801', '447700900899']));
    expect(removed).toBe(1);
    expect(await suppressions.check(t.database.db, listId, '447700900801')).toBe(false);
    expect(await optoutsOf(owner)).toEqual({ members: ['447700900802', '447700900803'], count: 2 });

    // The number's history, newest first: who, what, when, from where and why.
    const history = await suppressions.history(auth, '+447700900801', { limit: 10, offset: 0 });
    expect(history.items.map(({ kind, source, user, reason, created_at }) => ({ kind, source, user: user?.uuid ?? null, reason, created_at }))).toEqual([
      { kind: 'opt_in', source: 'dashboard', user: owner.userUuid, reason: 'Signed up again at the counter', created_at: '2026-06-01 10:02:00' },
      { kind: 'opt_out', source: 'api', user: owner.userUuid, reason: null, created_at: '2026-06-01 10:00:00' },
    ]);
    expect((await suppressions.history(auth, '447700900899', { limit: 10, offset: 0 })).total).toBe(0);
    // Another team reads none of it.
    expect((await suppressions.history(otherAuth, undefined, { limit: 10, offset: 0 })).total).toBe(0);
  });

  it('clear: every number leaves, each recorded with the reason', async () => {
    const teamId = await teamIdOf(other);
    const listId = await suppressions.listOf(teamId);
    const actor = { teamId, source: 'api' as const, userId: await userIdOf(other), reason: 'Consent collected again' };
    await t.database.db.transaction((tx) => suppressions.add(tx, listId, actor, ['447700900811', '447700900812']));
    expect(await t.database.db.transaction((tx) => suppressions.clear(tx, listId, actor))).toBe(2);
    expect(await optoutsOf(other)).toEqual({ members: [], count: 0 });
    const { items } = await suppressions.history(otherAuth, undefined, { limit: 10, offset: 0 });
    expect(items.filter((e) => e.kind === 'opt_in').map((e) => [e.phone_number, e.reason])).toEqual(
      expect.arrayContaining([
        ['447700900811', 'Consent collected again'],
        ['447700900812', 'Consent collected again'],
      ]),
    );
  });

  it('countAmong: the distinct numbers of a statement that the team lists, and none of another team', async () => {
    const numbers = sql`SELECT unnest(ARRAY['447700900802', '447700900802', '447700900803', '447700900804']) AS phone_number`;
    expect(await suppressions.countAmong(t.database.db, await teamIdOf(owner), numbers)).toBe(2);
    expect(await suppressions.countAmong(t.database.db, await teamIdOf(other), numbers)).toBe(0);
  });

  it('refuses a number the history cannot read, in the house shape', async () => {
    await expect(suppressions.history(auth, 'not a number', { limit: 10, offset: 0 })).rejects.toMatchObject({
      fields: { phone_number: [expect.any(String)] },
    });
  });
});

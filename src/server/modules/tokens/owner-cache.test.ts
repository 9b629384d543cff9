import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../../testing/test-app';
import { createOwnerCache } from './owner-cache';

let t: TestApp;
let owner: TestUser;
// Another process's connection: what the CLI or a second Herald changes, this app only hears of.
let elsewhere: pg.Client;

async function until(what: string, condition: () => boolean | Promise<boolean>): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const status = async (token: string) => (await t.request('GET', '/api/2.0/senders/', { token })).statusCode;

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.user();
  elsewhere = new pg.Client(t.database.pool.options);
  await elsewhere.connect();
  await until('the change listener', () => t.services.tokenOwners.trusted);
});
afterAll(async () => {
  await elsewhere.end();
  await t.close();
});

describe('who a token is, remembered between requests', () => {
  it('answers from memory once a token is known, and forgets a token revoked by another process', async () => {
    const { token, uuid } = (await t.request('POST', '/api/2.0/tokens/', { token: owner.token, body: { name: 'Remembered' } })).json().data;
    expect(await status(token)).toBe(200);
    expect(t.services.tokenOwners.size).toBeGreaterThan(0);

    await elsewhere.query('UPDATE api_tokens SET revoked_at = now() WHERE uuid = $1', [uuid]);
    await until('the revoked token to be refused', async () => (await status(token)) === 401);
    expect(await status(token)).toBe(401);
  });

  it('follows a session moved to another team by another process', async () => {
    const user = await t.user();
    const second = await t.user({ team: 'Second team of the switcher' });
    await t.services.users.addToTeam(user.email, 'Second team of the switcher', 'admin');
    const session = (await t.request('POST', '/api/2.0/auth/login', { body: { email: user.email, password: user.password } })).json().data.token;
    const me = async () => (await t.request('GET', '/api/2.0/users/me', { token: session })).json().data;
    const first = await me();
    await elsewhere.query(
      `UPDATE api_tokens SET team_id = (SELECT id FROM teams WHERE name = 'Second team of the switcher')
        WHERE user_id = (SELECT id FROM users WHERE uuid = $1) AND kind = 'session'`,
      [user.userUuid],
    );
    await until('the other team to be current', async () => JSON.stringify(await me()) !== JSON.stringify(first));
    const created = await t.request('POST', '/api/2.0/senders/', { token: session, body: { sender: 'Switched' } });
    expect(created.statusCode).toBe(201);
    const inSecond = (await t.request('GET', '/api/2.0/senders/?per_page=100', { token: second.token })).json().data.map((s: { sender: string }) => s.sender);
    expect(inSecond).toContain('Switched');
  });

  it('stops a token at once when its user leaves its team in another process', async () => {
    const user = await t.user({ team: 'Left behind' });
    const other = await t.user({ team: 'Stays on' });
    await t.services.users.addToTeam(user.email, 'Stays on', 'editor');
    expect(await status(user.token)).toBe(200);
    await elsewhere.query(
      `DELETE FROM memberships WHERE user_id = (SELECT id FROM users WHERE uuid = $1) AND team_id = (SELECT id FROM teams WHERE uuid = $2)`,
      [user.userUuid, user.teamUuid],
    );
    await until('the token of the team left to be refused', async () => (await status(user.token)) === 401);
    expect(other.token).toBeTruthy();
  });

  it('looks every token up while it cannot hear changes, and remembers again once it hears them', async () => {
    const { token, uuid } = (await t.request('POST', '/api/2.0/tokens/', { token: owner.token, body: { name: 'Unheard' } })).json().data;
    expect(await status(token)).toBe(200);
    await elsewhere.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN %'`);
    await until('the lost listener to be noticed', () => !t.services.tokenOwners.trusted);
    expect(t.services.tokenOwners.size).toBe(0);

    // No notification can arrive now: only a lookup refuses the token.
    await elsewhere.query('UPDATE api_tokens SET revoked_at = now() WHERE uuid = $1', [uuid]);
    expect(await status(token)).toBe(401);

    await until('the listener to be back', () => t.services.tokenOwners.trusted);
    expect(await status(owner.token)).toBe(200);
    expect(t.services.tokenOwners.size).toBeGreaterThan(0);
  });
});

describe('the cache itself', () => {
  const auth = {
    userId: 1,
    userUuid: 'u',
    teamId: 1,
    teamUuid: 't',
    userEmail: 'a@herald.test',
    teamName: 'Herald',
    tokenName: 'ci',
    role: 'admin' as const,
    tokenId: 1,
    tokenKind: 'personal' as const,
    scope: 'full' as const,
  };

  it('keeps nothing until trusted, and an entry no longer than its time to live or its token', () => {
    let now = 1_000;
    const cache = createOwnerCache({ ttlMs: 60_000, now: () => now });
    cache.set('a', auth, null, cache.generation());
    expect(cache.get('a')).toBeUndefined();
    cache.setTrusted(true);
    cache.set('a', auth, null, cache.generation());
    cache.set('b', auth, now + 5_000, cache.generation());
    expect(cache.get('a')?.auth).toEqual(auth);
    now += 5_000;
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    now += 55_000;
    expect(cache.get('a')).toBeUndefined();
  });

  it('does not keep what a lookup read before a change', () => {
    const cache = createOwnerCache();
    cache.setTrusted(true);
    const before = cache.generation();
    cache.forget(); // a change arrives while the lookup is in flight
    cache.set('a', auth, null, before);
    expect(cache.get('a')).toBeUndefined();
  });
});

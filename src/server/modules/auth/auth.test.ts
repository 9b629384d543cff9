/**
 * Sign-in, sign-out, team switches and the sign-in throttle.
 *
 * Seen red: with the throttle keyed on the e-mail alone (the address left out of limitAttempts),
 * Alice's own sign-in from another address was 429; with the rehash in auth.service.ts removed, Bob's
 * stored hash still said N=2048 after he signed in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPasswords } from '../../lib/passwords';
import { createTestApp, createTestClock, TEST_PASSWORD_COST, type TestApp, type TestUser } from '../../testing/test-app';

let t: TestApp;
let alice: TestUser;
const clock = createTestClock(new Date());

beforeAll(async () => {
  t = await createTestApp({ LOGIN_RATE_LIMIT_PER_MINUTE: '5', APP_TIMEZONE: 'Asia/Tokyo' }, { clock });
  alice = await t.user({ email: 'alice@herald.test', team: 'Alpha' });
});
afterAll(() => t.close());

describe('bearer authentication', () => {
  it.each([
    ['no Authorization header', undefined],
    ['a token that does not exist', 'Bearer hrld_doesnotexist'],
    ['another scheme', 'Basic YWxpY2U6c2VjcmV0'],
    ['a bare token', 'hrld_x'],
  ])('answers 401 Unauthenticated for %s', async (_case, authorization) => {
    const response = await t.request('GET', '/api/2.0/senders/', { headers: authorization ? { authorization } : {} });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ error: { code: 401, http_code: 401, message: 'Unauthenticated.', request_id: expect.any(String) } });
  });

  it('accepts a valid token', async () => {
    const response = await t.request('GET', '/api/2.0/users/me', { token: alice.token });
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({
      uuid: alice.userUuid,
      email: 'alice@herald.test',
      current_team: { uuid: alice.teamUuid, name: 'Alpha', role: 'admin' },
      teams: [{ uuid: alice.teamUuid, name: 'Alpha', role: 'admin' }],
      app_timezone: 'Asia/Tokyo',
    });
  });
});

describe('sign-in', () => {
  it('returns a working token and the user for the right password', async () => {
    const response = await t.request('POST', '/api/2.0/auth/login', { body: { email: 'ALICE@herald.test', password: alice.password } });
    expect(response.statusCode).toBe(200);
    const { token, user } = response.json().data;
    expect(token).toMatch(/^hrld_[A-Za-z0-9_-]{40,}$/);
    expect(user.uuid).toBe(alice.userUuid);
    expect((await t.request('GET', '/api/2.0/senders/', { token })).statusCode).toBe(200);
  });

  it('refuses a wrong password and an unknown address alike', async () => {
    for (const body of [
      { email: 'alice@herald.test', password: 'wrong-password' },
      { email: 'nobody@herald.test', password: 'wrong-password' },
    ]) {
      const response = await t.request('POST', '/api/2.0/auth/login', { body });
      expect(response.statusCode).toBe(401);
      expect(response.json().error.message).toBe('These credentials do not match our records.');
    }
  });

  it('validates the body', async () => {
    const response = await t.request('POST', '/api/2.0/auth/login', { body: { email: 'alice@herald.test' } });
    expect(response.statusCode).toBe(422);
    expect(response.json().error.errors).toEqual({ password: ['The password field is required.'] });
  });

  it('limits attempts per address with 429 and Retry-After', async () => {
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 6; i++) {
      last = await t.request('POST', '/api/2.0/auth/login', { body: { email: 'target@herald.test', password: 'guess' } });
      statuses.push(last.statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
    expect(last!.json().error).toMatchObject({ code: 429, message: 'Too many sign-in attempts. Try again later.' });
  });

  it('throttles failed sign-ins by e-mail and address together, with a growing wait, never the owner signing in from elsewhere', async () => {
    const signIn = (password: string, address: string, email = alice.email) =>
      t.app.inject({
        method: 'POST',
        url: '/api/2.0/auth/login',
        remoteAddress: address,
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ email, password }),
      });
    const statuses = async (count: number, address: string) => {
      const codes: number[] = [];
      for (let i = 0; i < count; i++) codes.push((await signIn('a-wrong-guess', address)).statusCode);
      return codes;
    };
    expect(await statuses(6, '203.0.113.66')).toEqual([401, 401, 401, 401, 401, 429]);
    expect((await signIn('a-wrong-guess', '203.0.113.66')).headers['retry-after']).toBe('30');
    // Alice, from her own address, signs in at once; the guesser's other e-mails are not held either.
    expect((await signIn(alice.password, '198.51.100.5')).statusCode).toBe(200);
    expect((await signIn('a-wrong-guess', '203.0.113.66', 'someone-else@herald.test')).statusCode).toBe(401);
    // The wait over, one more failure doubles it.
    clock.advance(30_000);
    expect(await statuses(2, '203.0.113.66')).toEqual([401, 429]);
    expect((await signIn('a-wrong-guess', '203.0.113.66')).headers['retry-after']).toBe('60');
    clock.advance(60_000);
    // The right password after the wait signs in and clears the count: the next failure is free again.
    expect((await signIn(alice.password, '203.0.113.66')).statusCode).toBe(200);
    expect(await statuses(5, '203.0.113.66')).toEqual([401, 401, 401, 401, 401]);
    clock.advance(3_600_000);
  });

  it('hashes a password made with older scrypt parameters again at sign-in', async () => {
    const bob = await t.user({ email: 'bob@herald.test', team: 'Alpha' });
    // Made with other parameters than the app's (production had N=2^15 before; the test app hashes cheaply).
    const old = await createPasswords({ N: 2048, r: 8, p: 1 }).hash(bob.password);
    await t.database.pool.query('UPDATE users SET password_hash = $1 WHERE email = $2', [old, bob.email]);
    const signIn = () => t.request('POST', '/api/2.0/auth/login', { body: { email: bob.email, password: bob.password } });
    expect((await signIn()).statusCode).toBe(200);
    const { rows } = await t.database.pool.query<{ password_hash: string }>('SELECT password_hash FROM users WHERE email = $1', [bob.email]);
    expect(rows[0]!.password_hash.startsWith(`scrypt$${TEST_PASSWORD_COST.N}$8$1$`)).toBe(true);
    expect(rows[0]!.password_hash).not.toBe(old);
    expect((await signIn()).statusCode).toBe(200);
  });

  it('signs out by revoking the token used, at once', async () => {
    const { token } = (await t.request('POST', '/api/2.0/auth/login', { body: { email: alice.email, password: alice.password } })).json().data;
    const response = await t.request('POST', '/api/2.0/auth/logout', { token });
    expect(response.statusCode).toBe(204);
    expect((await t.request('GET', '/api/2.0/users/me', { token })).statusCode).toBe(401);
    expect((await t.request('GET', '/api/2.0/users/me', { token: alice.token })).statusCode).toBe(200);
  });
});

describe('teams', () => {
  it("switches the session it is called with, and that session's requests follow it", async () => {
    const bob = await t.user({ team: 'Bravo' });
    const charlie = await t.user({ team: 'Charlie' });
    await t.services.users.addToTeam(bob.email, 'Charlie', 'editor');
    const session = (await t.request('POST', '/api/2.0/auth/login', { body: { email: bob.email, password: bob.password } })).json().data.token;

    const switched = await t.request('GET', `/api/2.0/users/switch/team/${charlie.teamUuid}`, { token: session });
    expect(switched.statusCode).toBe(200);
    expect(switched.json().data.current_team).toEqual({ uuid: charlie.teamUuid, name: 'Charlie', role: 'editor' });
    expect(switched.json().data.teams.map((team: { name: string }) => team.name)).toEqual(['Bravo', 'Charlie']);

    const sendersOf = async (token: string) => (await t.request('GET', '/api/2.0/senders/', { token })).json().data.map((s: { sender: string }) => s.sender);
    expect(await sendersOf(session)).toContain('Charlie');
    expect(await sendersOf(session)).not.toContain('Bravo');
    // The user's API token stays in the team it was made in.
    expect(await sendersOf(bob.token)).toContain('Bravo');
    expect(await sendersOf(bob.token)).not.toContain('Charlie');
  });

  it('refuses to switch with an API token (it acts in the team it was made in)', async () => {
    const erin = await t.user({ team: 'Echo' });
    const foxtrot = await t.user({ team: 'Foxtrot' });
    await t.services.users.addToTeam(erin.email, 'Foxtrot', 'editor');
    const response = await t.request('GET', `/api/2.0/users/switch/team/${foxtrot.teamUuid}`, { token: erin.token });
    expect(response.statusCode).toBe(403);
    expect(response.json().error.message).toBe('An API token acts in the team it was made in; make a token in the other team instead.');
    expect((await t.request('GET', '/api/2.0/users/me', { token: erin.token })).json().data.current_team.uuid).toBe(erin.teamUuid);
  });

  it('answers 404 for a team the user is not in, or a malformed uuid', async () => {
    const dave = await t.user({ team: 'Delta' });
    for (const uuid of [alice.teamUuid, 'not-a-uuid', '00000000-0000-4000-8000-000000000000']) {
      const response = await t.request('GET', `/api/2.0/users/switch/team/${uuid}`, { token: dave.token });
      expect(response.statusCode).toBe(404);
    }
  });

  it('gives a new team its default_optouts group, not deletable', async () => {
    const { rows } = await t.database.pool.query(`SELECT g.name, g.deletable FROM contact_groups g JOIN teams t ON t.id = g.team_id WHERE t.uuid = $1`, [
      alice.teamUuid,
    ]);
    expect(rows).toEqual([{ name: 'default_optouts', deletable: false }]);
  });
});

import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestClock, type TestApp, type TestUser } from '../../testing/test-app';

/**
 * Tokens bound to their team (issue 18, point 1). What is counted is what another team's data shows
 * to the token: the senders it lists and the rows it writes. The binding test went red when
 * findOwner resolved the team through the user's current team again (the bug it guards: a "CRM
 * sync" token followed its user's dashboard switch into another team), and the read-only test when
 * the scope check in http/auth.ts was removed.
 */
let t: TestApp;
let owner: TestUser;
// Moved by hand: a token's expiry is read against it.
const clock = createTestClock(new Date());

beforeAll(async () => {
  t = await createTestApp({}, { clock });
  owner = await t.user();
});
afterAll(() => t.close());

describe('personal API tokens', () => {
  it('shows a new token once, with the hrld_ prefix, and stores only its SHA-256 digest', async () => {
    const response = await t.request('POST', '/api/2.0/tokens/', { token: owner.token, body: { name: 'Zapier' } });
    expect(response.statusCode).toBe(201);
    const created = response.json().data;
    expect(created.token).toMatch(/^hrld_[A-Za-z0-9_-]{43}$/);
    expect(created.hint).toBe(`${created.token.slice(0, 9)}…`);

    const { rows } = await t.database.pool.query(`SELECT encode(token_hash, 'hex') AS hash FROM api_tokens WHERE uuid = $1`, [created.uuid]);
    expect(rows[0].hash).toBe(createHash('sha256').update(created.token).digest('hex'));
    const dump = await t.database.pool.query(`SELECT row_to_json(t)::text AS row FROM api_tokens t`);
    expect(dump.rows.some((r: { row: string }) => r.row.includes(created.token.slice(5)))).toBe(false);

    const list = (await t.request('GET', '/api/2.0/tokens/', { token: owner.token })).json();
    const listed = list.data.find((token: { uuid: string }) => token.uuid === created.uuid);
    expect(listed).toEqual({
      uuid: created.uuid,
      name: 'Zapier',
      hint: created.hint,
      team_uuid: owner.teamUuid,
      scope: 'full',
      expires_at: '',
      last_used_at: '',
      created_at: created.created_at,
    });
    expect(JSON.stringify(list)).not.toContain(created.token);
  });

  it('works at once and records when it was last used', async () => {
    const { token, uuid } = (await t.request('POST', '/api/2.0/tokens/', { token: owner.token, body: { name: 'Used' } })).json().data;
    expect((await t.request('GET', '/api/2.0/senders/', { token })).statusCode).toBe(200);
    const listed = (await t.request('GET', '/api/2.0/tokens/', { token: owner.token })).json().data.find((x: { uuid: string }) => x.uuid === uuid);
    expect(listed.last_used_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it('refuses a revoked token at once', async () => {
    const { token, uuid } = (await t.request('POST', '/api/2.0/tokens/', { token: owner.token, body: { name: 'Short-lived' } })).json().data;
    expect((await t.request('GET', '/api/2.0/senders/', { token })).statusCode).toBe(200);
    const revoked = await t.request('DELETE', `/api/2.0/tokens/${uuid}`, { token: owner.token });
    expect(revoked.statusCode).toBe(204);
    expect((await t.request('GET', '/api/2.0/senders/', { token })).statusCode).toBe(401);
    const list = (await t.request('GET', '/api/2.0/tokens/', { token: owner.token })).json().data;
    expect(list.map((x: { uuid: string }) => x.uuid)).not.toContain(uuid);
  });

  it("cannot revoke another user's token", async () => {
    const other = await t.user();
    const { uuid } = (await t.request('POST', '/api/2.0/tokens/', { token: other.token, body: { name: 'Theirs' } })).json().data;
    expect((await t.request('DELETE', `/api/2.0/tokens/${uuid}`, { token: owner.token })).statusCode).toBe(404);
    expect((await t.request('GET', '/api/2.0/tokens/', { token: other.token })).json().data.map((x: { uuid: string }) => x.uuid)).toContain(uuid);
  });

  it('requires a name', async () => {
    const response = await t.request('POST', '/api/2.0/tokens/', { token: owner.token, body: { name: '  ' } });
    expect(response.statusCode).toBe(422);
    expect(response.json().error.errors).toEqual({ name: ['The name field is required.'] });
  });
});

describe('tokens bound to their team', () => {
  const sendersOf = async (token: string) =>
    (await t.request('GET', '/api/2.0/senders/?per_page=100', { token })).json().data.map((s: { sender: string }) => s.sender);
  const signIn = async (user: TestUser) =>
    (await t.request('POST', '/api/2.0/auth/login', { body: { email: user.email, password: user.password } })).json().data.token;

  it('keeps a token in the team it was made in when its user switches the dashboard to another team', async () => {
    const marketer = await t.user({ team: 'Northwind' });
    const other = await t.user({ team: 'Southwind' });
    await t.services.users.addToTeam(marketer.email, 'Southwind', 'editor');
    const crm = (await t.request('POST', '/api/2.0/tokens/', { token: marketer.token, body: { name: 'CRM sync' } })).json().data;
    expect(crm.team_uuid).toBe(marketer.teamUuid);

    const session = await signIn(marketer);
    expect((await t.request('GET', `/api/2.0/users/switch/team/${other.teamUuid}`, { token: session })).statusCode).toBe(200);
    expect(await sendersOf(session)).toContain('Southwind');

    // The CRM token still sees its own team's senders, and none of the other's.
    expect(await sendersOf(crm.token)).toContain('Northwind');
    expect(await sendersOf(crm.token)).not.toContain('Southwind');
    const written = await t.request('POST', '/api/2.0/senders/', { token: crm.token, body: { sender: 'CrmOwn' } });
    expect(written.statusCode).toBe(201);
    expect(await sendersOf(other.token)).not.toContain('CrmOwn');
    expect(await sendersOf(marketer.token)).toContain('CrmOwn');
  });

  it("stops a token of a team its user has left, and lists each token's team", async () => {
    const user = await t.user({ team: 'Leaving Co' });
    const stay = await t.user({ team: 'Staying Co' });
    await t.services.users.addToTeam(user.email, 'Staying Co', 'editor');
    const session = await signIn(user);
    await t.request('GET', `/api/2.0/users/switch/team/${stay.teamUuid}`, { token: session });
    const kept = (await t.request('POST', '/api/2.0/tokens/', { token: session, body: { name: 'In Staying' } })).json().data;
    const listed = (await t.request('GET', '/api/2.0/tokens/', { token: session })).json().data;
    expect(Object.fromEntries(listed.map((x: { name: string; team_uuid: string }) => [x.name, x.team_uuid]))).toMatchObject({
      'In Staying': stay.teamUuid,
      test: user.teamUuid,
    });

    await t.database.pool.query(
      'DELETE FROM memberships WHERE user_id = (SELECT id FROM users WHERE uuid = $1) AND team_id = (SELECT id FROM teams WHERE uuid = $2)',
      [user.userUuid, user.teamUuid],
    );
    t.services.tokenOwners.forget();
    expect((await t.request('GET', '/api/2.0/senders/', { token: user.token })).statusCode).toBe(401);
    expect((await t.request('GET', '/api/2.0/senders/', { token: kept.token })).statusCode).toBe(200);
  });

  it('answers only GET requests for a read-only token', async () => {
    const created = await t.request('POST', '/api/2.0/tokens/', { token: owner.token, body: { name: 'Dashboard TV', scope: 'read_only' } });
    expect(created.statusCode).toBe(201);
    const { token, uuid } = created.json().data;
    expect(created.json().data.scope).toBe('read_only');
    expect((await t.request('GET', '/api/2.0/senders/', { token })).statusCode).toBe(200);
    const before = await sendersOf(owner.token);
    for (const [method, url, body] of [
      ['POST', '/api/2.0/senders/', { sender: 'ReadOnly' }],
      ['POST', '/api/2.0/tokens/', { name: 'Escalate' }],
      ['DELETE', `/api/2.0/tokens/${uuid}`, undefined],
      ['POST', '/api/2.0/auth/logout', undefined],
    ] as const) {
      const response = await t.request(method, url, { token, body });
      expect(response.statusCode, `${method} ${url}`).toBe(403);
      expect(response.json().error.message).toBe('This API token is read-only: it can only read (GET requests).');
    }
    expect(await sendersOf(owner.token)).toEqual(before);
    expect((await t.request('GET', '/api/2.0/senders/', { token })).statusCode).toBe(200);
  });

  it('stops a token at its expiry, and refuses an expiry that has passed', async () => {
    const soon = new Date(clock.now().getTime() + 3_600_000);
    const local = new Intl.DateTimeFormat('sv-SE', { timeZone: t.config.appTimezone, dateStyle: 'short', timeStyle: 'medium' }).format(soon);
    const created = await t.request('POST', '/api/2.0/tokens/', { token: owner.token, body: { name: 'For an hour', expires_at: local } });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().data.expires_at).toBe(local);
    const { token } = created.json().data;
    expect((await t.request('GET', '/api/2.0/senders/', { token })).statusCode).toBe(200);
    clock.advance(3_600_000 + 1000);
    t.services.tokenOwners.forget();
    expect((await t.request('GET', '/api/2.0/senders/', { token })).statusCode).toBe(401);

    const past = await t.request('POST', '/api/2.0/tokens/', { token: owner.token, body: { name: 'Too late', expires_at: '2020-01-01 00:00:00' } });
    expect(past.statusCode).toBe(422);
    expect(past.json().error.errors).toEqual({ expires_at: ['The expires at must be a date in the future.'] });
    const badScope = await t.request('POST', '/api/2.0/tokens/', { token: owner.token, body: { name: 'Odd', scope: 'admin' } });
    expect(badScope.statusCode).toBe(422);
    expect(badScope.json().error.errors).toEqual({ scope: ['The scope must be full or read_only.'] });
  });
});

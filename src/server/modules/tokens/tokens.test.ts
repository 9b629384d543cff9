import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../../testing/test-app';

let t: TestApp;
let owner: TestUser;

beforeAll(async () => {
  t = await createTestApp();
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
    expect(listed).toEqual({ uuid: created.uuid, name: 'Zapier', hint: created.hint, last_used_at: '', created_at: created.created_at });
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

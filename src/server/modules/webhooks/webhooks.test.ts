/**
 * Webhooks: the shape of docs/interface.md §2.3, the signing secret, the custom headers (credentials:
 * sealed at rest, shown in full only when created, then masked — the last 4 characters to admins,
 * nothing to other roles or read-only tokens; a masked value sent back keeps the stored one).
 *
 * Seen red: with `present` showing `openHeaders` to every role, the viewer's answer held the bearer
 * value; with `sealHeaders` storing values as given, the row held it in clear; without the mask check
 * in `sealHeaders`, a PUT echoing the masked value stored the mask.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sealStoredHeaders } from '../../db/stored-headers';
import { createSecretBox } from '../../lib/secret-box';
import { createTestApp, TEST_PUBLIC_URL, type TestApp, type TestUser } from '../../testing/test-app';
import { startWebhookReceiver } from '../../testing/webhook-receiver';

const secretKey = randomBytes(32);
let t: TestApp;
let owner: TestUser;
let stranger: TestUser;

beforeAll(async () => {
  t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true' }, { secretKey });
  owner = await t.user();
  stranger = await t.user();
});
afterAll(() => t.close());

const valid = { name: 'CRM', url: 'https://hooks.example.com/herald', headers: { Authorization: 'Bearer abc', 'X-Team': 'marketing' } };
const create = (body: unknown, user = owner) => t.request('POST', '/api/2.0/webhooks/', { token: user.token, body });

describe('webhooks', () => {
  it('creates a webhook in the shape of docs/interface.md §2.3, with a signing secret shown once', async () => {
    const response = await create(valid);
    expect(response.statusCode).toBe(201);
    const webhook = response.json().data;
    expect(webhook).toMatchObject({ ...valid, links: [{ rel: 'self', uri: `${TEST_PUBLIC_URL}/api/2.0/webhooks/${webhook.uuid}` }] });
    expect(webhook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const shown = (await t.request('GET', `/api/2.0/webhooks/${webhook.uuid}`, { token: owner.token })).json().data;
    expect(shown).not.toHaveProperty('secret');
    // After creation, masked: the values are credentials.
    expect(shown.headers).toEqual({ Authorization: '********', 'X-Team': '********' });
  });

  it('keeps header values sealed, shows them masked to admins and not at all to other roles, and keeps a masked value sent back', async () => {
    const receiver = await startWebhookReceiver();
    const secretHeaders = { Authorization: 'Bearer crm-token-0123456789-wxyz', 'X-Team': 'marketing' };
    const webhook = (await create({ ...valid, url: receiver.url, headers: secretHeaders })).json().data;
    expect(webhook.headers).toEqual(secretHeaders); // in full in the answer that creates them, like a token
    const { rows } = await t.database.pool.query(`SELECT headers::text AS headers FROM webhooks WHERE uuid = $1`, [webhook.uuid]);
    expect(rows[0].headers).toContain('Authorization');
    expect(rows[0].headers).not.toContain('crm-token');
    expect(rows[0].headers).not.toContain('marketing');

    const asAdmin = (await t.request('GET', `/api/2.0/webhooks/${webhook.uuid}`, { token: owner.token })).json().data;
    expect(asAdmin.headers).toEqual({ Authorization: '********wxyz', 'X-Team': '********' });
    await t.services.users.addToTeam(stranger.email, (await t.services.teamsRepository.findByUuid(owner.teamUuid))!.name, 'viewer');
    const team = (await t.services.teamsRepository.findByUuid(owner.teamUuid))!;
    const strangerId = (await t.services.usersRepository.findByEmail(stranger.email))!.id;
    const viewer = (await t.services.tokens.issue(strangerId, 'personal', 'viewer', { teamId: team.id })).token;
    const ownerId = (await t.services.usersRepository.findByEmail(owner.email))!.id;
    const readOnly = (await t.services.tokens.issue(ownerId, 'personal', 'read only', { teamId: team.id, scope: 'read_only' })).token;
    for (const token of [viewer, readOnly]) {
      const shown = await t.request('GET', `/api/2.0/webhooks/${webhook.uuid}`, { token });
      const listed = await t.request('GET', '/api/2.0/webhooks/?per_page=100', { token });
      for (const body of [shown.body, listed.body]) {
        expect(body).not.toContain('crm-token');
        expect(body).not.toContain('wxyz');
        expect(body).not.toContain('marketing');
      }
      expect(shown.json().data.headers).toEqual({ Authorization: '********', 'X-Team': '********' });
    }

    // The dashboard's form sends back what it read: the masked values keep the stored ones; a new value replaces its own.
    const edited = await t.request('PUT', `/api/2.0/webhooks/${webhook.uuid}`, {
      token: owner.token,
      body: { headers: { Authorization: '********wxyz', 'X-Team': 'sales-team-000042' } },
    });
    expect(edited.json().data.headers).toEqual({ Authorization: '********wxyz', 'X-Team': '********0042' });
    // What the receiver gets: the stored value, opened, not the mask.
    expect((await t.request('POST', `/api/2.0/webhooks/${webhook.uuid}/test`, { token: owner.token })).statusCode).toBe(200);
    expect(receiver.calls).toHaveLength(1);
    expect(receiver.calls[0]!.headers).toMatchObject({ authorization: 'Bearer crm-token-0123456789-wxyz', 'x-team': 'sales-team-000042' });

    // A value stored in clear by an older release is sealed at the next start, and still sent as it was.
    await t.database.pool.query(`UPDATE webhooks SET headers = '{"X-Legacy": "legacy-clear-value-1234"}'::jsonb WHERE uuid = $1`, [webhook.uuid]);
    expect(await sealStoredHeaders(t.database.db, createSecretBox(secretKey))).toBe(1);
    expect((await t.database.pool.query(`SELECT headers::text AS h FROM webhooks WHERE uuid = $1`, [webhook.uuid])).rows[0].h).not.toContain('legacy-clear');
    await t.request('POST', `/api/2.0/webhooks/${webhook.uuid}/test`, { token: owner.token });
    expect(receiver.calls[1]!.headers['x-legacy']).toBe('legacy-clear-value-1234');
    await receiver.close();
  });

  it('stores the secret encrypted, not in clear', async () => {
    const webhook = (await create(valid)).json().data;
    const { rows } = await t.database.pool.query(`SELECT secret_encrypted FROM webhooks WHERE uuid = $1`, [webhook.uuid]);
    const stored: Buffer = rows[0].secret_encrypted;
    expect(stored.toString('latin1')).not.toContain(webhook.secret.slice(6, 30));
    expect(stored.toString('base64')).not.toContain(webhook.secret.slice(6, 30));
  });

  it('rotates the secret: a new one, shown once', async () => {
    const webhook = (await create(valid)).json().data;
    const rotated = await t.request('POST', `/api/2.0/webhooks/${webhook.uuid}/rotate-secret`, { token: owner.token });
    expect(rotated.statusCode).toBe(200);
    expect(rotated.json().data.secret).toMatch(/^whsec_/);
    expect(rotated.json().data.secret).not.toBe(webhook.secret);
  });

  it.each([
    ['a relative url', { ...valid, url: '/hook' }, 'url', 'The url must be an absolute http or https URL.'],
    ['an ftp url', { ...valid, url: 'ftp://example.com/x' }, 'url', 'The url must be an absolute http or https URL.'],
    ['no name', { url: valid.url }, 'name', 'The name field is required.'],
    ['a header name with a space', { ...valid, headers: { 'X Bad': '1' } }, 'headers.X Bad', '"X Bad" is not a valid header name.'],
    ['a header value with CR LF', { ...valid, headers: { 'X-Ok': 'a\r\nInjected: 1' } }, 'headers.X-Ok', 'The value of X-Ok may not contain line breaks.'],
    ['a Host header', { ...valid, headers: { host: 'internal' } }, 'headers.host', 'The host header is set by Herald and cannot be stored.'],
    [
      'a Content-Length header',
      { ...valid, headers: { 'Content-Length': '5' } },
      'headers.Content-Length',
      'The Content-Length header is set by Herald and cannot be stored.',
    ],
    [
      'a Transfer-Encoding header',
      { ...valid, headers: { 'Transfer-Encoding': 'chunked' } },
      'headers.Transfer-Encoding',
      'The Transfer-Encoding header is set by Herald and cannot be stored.',
    ],
    [
      'a Connection header',
      { ...valid, headers: { Connection: 'close' } },
      'headers.Connection',
      'The Connection header is set by Herald and cannot be stored.',
    ],
    ['a non-string header value', { ...valid, headers: { 'X-N': 5 } }, 'headers.X-N', 'Every header value must be a string.'],
    ['headers that are a list', { ...valid, headers: ['X-A: 1'] }, 'headers', 'The headers must be an object of header names to values.'],
  ])('refuses %s with 422 naming the field', async (_case, body, field, message) => {
    const response = await create(body);
    expect(response.statusCode).toBe(422);
    expect(response.json().error.errors[field]).toEqual([message]);
  });

  it('accepts a webhook without headers', async () => {
    const response = await create({ name: 'Plain', url: 'http://example.com/hook' });
    expect(response.statusCode).toBe(201);
    expect(response.json().data.headers).toEqual({});
  });

  it('edits partially: the fields left out keep their values', async () => {
    const webhook = (await create(valid)).json().data;
    const renamed = await t.request('PUT', `/api/2.0/webhooks/${webhook.uuid}`, { token: owner.token, body: { name: 'Renamed' } });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().data).toMatchObject({ name: 'Renamed', url: valid.url, headers: { Authorization: '********', 'X-Team': '********' } });
    const moved = await t.request('PUT', `/api/2.0/webhooks/${webhook.uuid}`, {
      token: owner.token,
      body: { url: 'https://other.example.com/x', headers: {} },
    });
    expect(moved.json().data).toMatchObject({ name: 'Renamed', url: 'https://other.example.com/x', headers: {} });
    const invalid = await t.request('PUT', `/api/2.0/webhooks/${webhook.uuid}`, { token: owner.token, body: { url: 'nope' } });
    expect(invalid.statusCode).toBe(422);
  });

  it('deletes a webhook', async () => {
    const webhook = (await create(valid)).json().data;
    expect((await t.request('DELETE', `/api/2.0/webhooks/${webhook.uuid}`, { token: owner.token })).statusCode).toBe(204);
    expect((await t.request('GET', `/api/2.0/webhooks/${webhook.uuid}`, { token: owner.token })).statusCode).toBe(404);
  });

  it("never shows, edits, rotates or deletes another team's webhook", async () => {
    const webhook = (await create(valid)).json().data;
    const url = `/api/2.0/webhooks/${webhook.uuid}`;
    for (const [method, path, body] of [
      ['GET', url],
      ['PUT', url, { name: 'x' }],
      ['POST', `${url}/rotate-secret`],
      ['DELETE', url],
    ] as const) {
      expect((await t.request(method, path, { token: stranger.token, body })).statusCode).toBe(404);
    }
    expect((await t.request('GET', '/api/2.0/webhooks/', { token: stranger.token })).json().meta.total).toBe(0);
  });
});

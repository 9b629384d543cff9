import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_PUBLIC_URL, type TestApp, type TestUser } from '../../testing/test-app';

let t: TestApp;
let owner: TestUser;
let stranger: TestUser;

beforeAll(async () => {
  t = await createTestApp();
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
    expect(shown.headers).toEqual(valid.headers);
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
    expect(renamed.json().data).toMatchObject({ name: 'Renamed', url: valid.url, headers: valid.headers });
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

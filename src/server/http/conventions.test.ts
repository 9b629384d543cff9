import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../testing/test-app';

let t: TestApp;
let user: TestUser;

beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '40', BODY_LIMIT_BYTES: '4096', APP_TIMEZONE: 'America/New_York' });
  user = await t.user();
});
afterAll(() => t.close());

describe('HTTP conventions', () => {
  it('answers an unknown route with 404 in the error shape', async () => {
    const response = await t.request('GET', '/api/2.0/nothing-here', { token: user.token });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      error: { code: 404, http_code: 404, message: 'The route GET /api/2.0/nothing-here does not exist.', request_id: expect.any(String) },
    });
  });

  it('answers 404 for an unknown uuid and a malformed one', async () => {
    for (const id of ['5b0c5a8e-3f7e-4c1e-9d55-0b5e0f1a2b3c', 'not-a-uuid', "1' OR '1'='1"]) {
      const response = await t.request('GET', `/api/2.0/senders/${encodeURIComponent(id)}`, { token: user.token });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({
        error: { code: 404, http_code: 404, message: 'The requested resource was not found.', request_id: expect.any(String) },
      });
    }
  });

  it('answers malformed JSON with 400 and a body that is not an object with 422', async () => {
    const malformed = await t.request('POST', '/api/2.0/senders/', { token: user.token, body: '{"sender": ' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error).toEqual({ code: 400, http_code: 400, message: 'The request body is not valid JSON.', request_id: expect.any(String) });
    const array = await t.request('POST', '/api/2.0/senders/', { token: user.token, body: '["Herald"]' });
    expect(array.statusCode).toBe(422);
    expect(array.json().error.errors).toEqual({ body: ['The request body must be a JSON object.'] });
  });

  it('refuses a body over the limit with 413', async () => {
    const response = await t.request('POST', '/api/2.0/senders/', { token: user.token, body: { sender: 'Big', padding: 'x'.repeat(5000) } });
    expect(response.statusCode).toBe(413);
    expect(response.json().error).toEqual({ code: 413, http_code: 413, message: 'The request body is too large.', request_id: expect.any(String) });
  });

  it('accepts Content-Type: application/json on a request without a body', async () => {
    const created = (await t.request('POST', '/api/2.0/senders/', { token: user.token, body: { sender: 'NoBody' } })).json().data;
    const response = await t.request('DELETE', `/api/2.0/senders/${created.uuid}`, { token: user.token });
    expect(response.statusCode).toBe(204);
  });

  it('ignores unknown fields and never lets a request set server-owned ones', async () => {
    const response = await t.request('POST', '/api/2.0/senders/', {
      token: user.token,
      body: { sender: 'Owned', uuid: '00000000-0000-4000-8000-000000000000', status: '0', team_id: '42', created_at: '2000-01-01 00:00:00', colour: 'red' },
    });
    expect(response.statusCode).toBe(201);
    const sender = response.json().data;
    expect(sender.uuid).not.toBe('00000000-0000-4000-8000-000000000000');
    expect(sender).toMatchObject({ status: '1', team_id: '' });
    expect(sender.created_at.startsWith('2000')).toBe(false);
    expect(sender).not.toHaveProperty('colour');
  });

  it('writes timestamps in APP_TIMEZONE', async () => {
    const sender = (await t.request('POST', '/api/2.0/senders/', { token: user.token, body: { sender: 'Zoned' } })).json().data;
    const { rows } = await t.database.pool.query(
      `SELECT to_char(created_at AT TIME ZONE 'America/New_York', 'YYYY-MM-DD HH24:MI:SS') AS local FROM senders WHERE uuid = $1`,
      [sender.uuid],
    );
    expect(sender.created_at).toBe(rows[0].local);
  });

  it('sends security headers and forbids caching API answers', async () => {
    const response = await t.request('GET', '/api/2.0/senders/', { token: user.token });
    expect(response.headers).toMatchObject({
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
    });
    expect(String(response.headers['content-security-policy'])).toContain("default-src 'self'");
  });

  it('serves health, the OpenAPI document and the reference page without a token', async () => {
    expect((await t.request('GET', '/healthz')).json()).toEqual({ status: 'ok' });
    const document = (await t.request('GET', '/api/2.0/openapi.json')).json();
    expect(document.openapi).toBe('3.1.0');
    expect(document.paths['/api/2.0/senders'].get.operationId).toBe('listSenders');
    expect(document.components.schemas.Sender.properties.sender).toBeDefined();
    const page = await t.request('GET', '/api/docs');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<title>Herald API reference</title>');
    expect((await t.request('GET', '/api/docs/init.js')).body).toContain("url: '/api/2.0/openapi.json'");
    expect((await t.request('GET', '/api/docs/assets/swagger-ui-bundle.js')).statusCode).toBe(200);
  });

  // Last: it spends this token's allowance.
  it('limits requests per token with 429 and Retry-After, leaving other tokens alone', async () => {
    const busy = await t.user();
    let response;
    for (let i = 0; i < 41; i++) response = await t.request('GET', '/api/2.0/senders/', { token: busy.token });
    expect(response!.statusCode).toBe(429);
    expect(Number(response!.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(response!.json().error).toEqual({ code: 429, http_code: 429, message: 'Too many requests. Try again later.', request_id: expect.any(String) });
    const other = await t.user();
    expect((await t.request('GET', '/api/2.0/senders/', { token: other.token })).statusCode).toBe(200);
  });
});

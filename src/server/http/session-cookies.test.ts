/**
 * The dashboard's session over a real socket (fetch, as a browser sends it): an HttpOnly,
 * SameSite=Strict cookie no script can read, and a CSRF secret every change must echo. Counted in
 * what a refused change left behind (the team's templates), and in what a signed-out cookie still
 * reaches.
 *
 * Seen red: with the CSRF check in http/auth.ts removed, the change without the header created a
 * template; with `HttpOnly` dropped from the session cookie, the attribute check failed.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../testing/test-app';

let t: TestApp;
let secure: TestApp;
let base: string;
let user: TestUser;

beforeAll(async () => {
  t = await createTestApp({ DASHBOARD_CONNECT_SRC: 'https://other-herald.example.com' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/2.0`;
  secure = await createTestApp({ PUBLIC_URL: 'https://herald.example.com' });
  user = await t.user({ password: 'cookie-password-1' });
});
afterAll(async () => {
  await t.close();
  await secure.close();
});

/** The cookies a response sets, by name: value and attributes as written. */
function setCookies(response: Response): Record<string, { value: string; attributes: string[] }> {
  const cookies: Record<string, { value: string; attributes: string[] }> = {};
  for (const line of response.headers.getSetCookie()) {
    const [pair, ...attributes] = line.split(';').map((part) => part.trim());
    const [name, value] = [pair!.slice(0, pair!.indexOf('=')), pair!.slice(pair!.indexOf('=') + 1)];
    cookies[name] = { value, attributes };
  }
  return cookies;
}

async function signIn(): Promise<{ cookie: string; csrf: string; response: Response }> {
  const response = await fetch(`${base}/auth/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: user.email, password: 'cookie-password-1' }),
  });
  const cookies = setCookies(response);
  return { cookie: `herald_session=${cookies.herald_session!.value}; herald_csrf=${cookies.herald_csrf!.value}`, csrf: cookies.herald_csrf!.value, response };
}

const templateCount = async () => Number((await t.database.pool.query(`SELECT count(*) FROM templates`)).rows[0].count);
const createTemplate = (headers: Record<string, string>) =>
  fetch(`${base}/templates/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ name: 'T', body: 'Hi', sender: 'Acme' }),
  });

describe('the dashboard session cookie', () => {
  it('is HttpOnly and SameSite=Strict, and the answer carries no token', async () => {
    const { response } = await signIn();
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.data.email).toBe(user.email);
    expect(JSON.stringify(body)).not.toContain('hrld_');
    const cookies = setCookies(response);
    expect(cookies.herald_session!.value).toMatch(/^hrld_/);
    expect(cookies.herald_session!.attributes).toEqual(expect.arrayContaining(['Path=/', 'SameSite=Strict', 'HttpOnly', 'Max-Age=2592000']));
    expect(cookies.herald_session!.attributes).not.toContain('Secure');
    expect(cookies.herald_csrf!.attributes).toEqual(expect.arrayContaining(['Path=/', 'SameSite=Strict']));
    expect(cookies.herald_csrf!.attributes).not.toContain('HttpOnly'); // the page's scripts read it, to echo it
  });

  it('reads with the cookie alone, and changes only with the CSRF secret echoed', async () => {
    const { cookie, csrf } = await signIn();
    expect((await fetch(`${base}/users/me`, { headers: { cookie } })).status).toBe(200);
    const before = await templateCount();
    const missing = await createTemplate({ cookie });
    expect(missing.status).toBe(403);
    expect((await missing.json()).error.message).toBe('The request did not carry the CSRF token of this session. Reload the page and try again.');
    expect((await createTemplate({ cookie, 'x-csrf-token': `${csrf}x` })).status).toBe(403);
    expect(await templateCount()).toBe(before);
    expect((await createTemplate({ cookie, 'x-csrf-token': csrf })).status).toBe(201);
    // A bearer token needs no CSRF secret: no browser sends it on its own.
    expect((await createTemplate({ authorization: `Bearer ${user.token}` })).status).toBe(201);
    expect(await templateCount()).toBe(before + 2);
  });

  it('signs out: the session is revoked and the cookies cleared', async () => {
    const { cookie, csrf } = await signIn();
    const out = await fetch(`${base}/auth/session`, { method: 'DELETE', headers: { cookie, 'x-csrf-token': csrf } });
    expect(out.status).toBe(204);
    const cleared = setCookies(out);
    expect(cleared.herald_session).toMatchObject({ value: '', attributes: expect.arrayContaining(['Max-Age=0']) });
    expect((await fetch(`${base}/users/me`, { headers: { cookie } })).status).toBe(401);
  });

  it('is Secure when the service is served over https', async () => {
    const secureUser = await secure.user({ password: 'cookie-password-1' });
    const response = await secure.app.inject({
      method: 'POST',
      url: '/api/2.0/auth/session',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: secureUser.email, password: 'cookie-password-1' }),
    });
    const lines = ([] as string[]).concat(response.headers['set-cookie'] ?? []);
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line).toContain('; Secure');
  });

  it("limits the page's connections to its own service, and to the origins named in DASHBOARD_CONNECT_SRC", async () => {
    const own = (await secure.app.inject({ method: 'GET', url: '/healthz' })).headers['content-security-policy'];
    expect(own).toContain("connect-src 'self';");
    const named = (await fetch(`${base.replace('/api/2.0', '')}/healthz`)).headers.get('content-security-policy');
    expect(named).toContain("connect-src 'self' https://other-herald.example.com;");
  });
});

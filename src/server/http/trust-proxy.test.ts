/**
 * TRUST_PROXY: behind a reverse proxy the client's address is the one the proxy forwards, as far as
 * the setting trusts it; without it, a forged X-Forwarded-For changes nothing. Seen in what the audit
 * log records and in the per-address limit of unauthenticated calls.
 *
 * Over https (the proxy's X-Forwarded-Proto, trusted) every answer carries HSTS; over http, or with
 * the header forged to an app that trusts no proxy, none does.
 *
 * Seen red: with `trustProxy` fixed to false in app.ts, the trusted app recorded the proxy's address;
 * with the Strict-Transport-Security line removed from security-headers.ts, the https answers had none.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestClock, type TestApp } from '../testing/test-app';

let direct: TestApp;
let proxied: TestApp;

beforeAll(async () => {
  // A stopped clock: the limits count in one-minute windows, and a run across a minute's end would start a new one.
  const clock = createTestClock('2026-06-01T10:00:30Z');
  direct = await createTestApp({ RATE_LIMIT_PER_MINUTE: '3' }, { clock });
  proxied = await createTestApp({ RATE_LIMIT_PER_MINUTE: '3', TRUST_PROXY: '1' }, { clock });
});
afterAll(async () => {
  await direct.close();
  await proxied.close();
});

const failedSignIn = (t: TestApp, email: string, forwardedFor: string, proxy = '10.0.0.2') =>
  t.app.inject({
    method: 'POST',
    url: '/api/2.0/auth/login',
    remoteAddress: proxy,
    headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor },
    payload: JSON.stringify({ email, password: 'not-the-password' }),
  });

async function addressRecordedFor(t: TestApp, forwardedFor: string): Promise<string> {
  const user = await t.user();
  expect((await failedSignIn(t, user.email, forwardedFor)).statusCode).toBe(401);
  const events = await t.request('GET', '/api/2.0/audit-events?action=loginFailed', { token: user.token });
  return events.json().data[0].ip;
}

describe('TRUST_PROXY', () => {
  it('takes the forwarded client address from a trusted proxy, and ignores it otherwise', async () => {
    expect(await addressRecordedFor(proxied, '203.0.113.7')).toBe('203.0.113.7');
    // One hop trusted: of a forged chain, only the address the proxy itself added counts.
    expect(await addressRecordedFor(proxied, '198.51.100.1, 203.0.113.8')).toBe('203.0.113.8');
    expect(await addressRecordedFor(direct, '203.0.113.7')).toBe('10.0.0.2');
  });

  it('limits unauthenticated calls per real client, not per proxy', async () => {
    const statuses = async (t: TestApp, client: string) => {
      const codes: number[] = [];
      for (let i = 0; i < 4; i++) codes.push((await failedSignIn(t, `nobody-${client}@example.com`, client, '10.0.0.3')).statusCode);
      return codes;
    };
    expect(await statuses(proxied, '203.0.113.21')).toEqual([401, 401, 401, 429]);
    expect(await statuses(proxied, '203.0.113.22')).toEqual([401, 401, 401, 429]);
    // Without trust, every client behind the proxy shares the proxy's address (and its limit).
    expect(await statuses(direct, '203.0.113.21')).toEqual([401, 401, 401, 429]);
    expect(await statuses(direct, '203.0.113.22')).toEqual([429, 429, 429, 429]);
  });

  it('sends HSTS when served over https, and only then', async () => {
    const hstsOf = async (t: TestApp, url: string, proto?: string) => {
      const response = await t.app.inject({ method: 'GET', url, remoteAddress: '10.0.0.4', headers: proto ? { 'x-forwarded-proto': proto } : {} });
      return response.headers['strict-transport-security'];
    };
    expect(await hstsOf(proxied, '/api/2.0/auth/me', 'https')).toBe('max-age=31536000');
    expect(await hstsOf(proxied, '/healthz', 'https')).toBe('max-age=31536000');
    expect(await hstsOf(proxied, '/api/2.0/auth/me', 'http')).toBeUndefined();
    expect(await hstsOf(proxied, '/api/2.0/auth/me')).toBeUndefined();
    // A forged header to a service that trusts no proxy is plain http.
    expect(await hstsOf(direct, '/api/2.0/auth/me', 'https')).toBeUndefined();
  });
});

import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** The dashboard's sign-in: the session token, which no script can read (HttpOnly). */
export const SESSION_COOKIE = 'herald_session';
/** The CSRF secret the dashboard's scripts read and echo in CSRF_HEADER on every change (double submit). */
export const CSRF_COOKIE = 'herald_csrf';
export const CSRF_HEADER = 'x-csrf-token';

const SESSION_SECONDS = 30 * 86_400;

/** The request's cookies by name (the first of each name); values are URL-decoded when they can be. */
export function cookiesOf(request: FastifyRequest): Record<string, string> {
  const cookies: Record<string, string> = {};
  for (const pair of (request.headers.cookie ?? '').split(';')) {
    const at = pair.indexOf('=');
    if (at <= 0) continue;
    const name = pair.slice(0, at).trim();
    if (name in cookies) continue;
    const raw = pair.slice(at + 1).trim();
    try {
      cookies[name] = decodeURIComponent(raw);
    } catch {
      cookies[name] = raw;
    }
  }
  return cookies;
}

function cookie(name: string, value: string, options: { httpOnly: boolean; secure: boolean; maxAge: number }): string {
  return [
    `${name}=${encodeURIComponent(value)}`,
    'Path=/',
    `Max-Age=${options.maxAge}`,
    'SameSite=Strict',
    ...(options.httpOnly ? ['HttpOnly'] : []),
    ...(options.secure ? ['Secure'] : []),
  ].join('; ');
}

/** Opens the browser's session: the token in an HttpOnly cookie, a fresh CSRF secret beside it. Secure when served over https. */
export function setSessionCookies(reply: FastifyReply, token: string, secure: boolean): void {
  reply.header('set-cookie', [
    cookie(SESSION_COOKIE, token, { httpOnly: true, secure, maxAge: SESSION_SECONDS }),
    cookie(CSRF_COOKIE, randomBytes(24).toString('base64url'), { httpOnly: false, secure, maxAge: SESSION_SECONDS }),
  ]);
}

export function clearSessionCookies(reply: FastifyReply, secure: boolean): void {
  reply.header('set-cookie', [
    cookie(SESSION_COOKIE, '', { httpOnly: true, secure, maxAge: 0 }),
    cookie(CSRF_COOKIE, '', { httpOnly: false, secure, maxAge: 0 }),
  ]);
}

/** Whether a request authenticated by the session cookie proves it comes from the dashboard's own page. */
export function csrfHolds(request: FastifyRequest, cookies: Record<string, string>): boolean {
  const expected = cookies[CSRF_COOKIE];
  const given = request.headers[CSRF_HEADER];
  if (!expected || typeof given !== 'string') return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

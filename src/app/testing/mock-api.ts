import { vi } from 'vitest';
import { startSession } from '../lib/session';

export type ApiHandler = (request: Request, url: URL) => Response | Promise<Response>;

/** A JSON response as the service sends it. */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });
}

/** The house error body (docs/api-conventions.md). */
export function apiError(status: number, message: string, errors?: Record<string, string[]>): Response {
  return json({ error: { code: status, http_code: status, message, ...(errors && { errors }) } }, status);
}

/** Answers the dashboard's requests in place of the service; returns the mock to inspect the requests made. */
export function mockApi(handler: ApiHandler) {
  const fetchMock = vi.fn(async (request: Request) => handler(request, new URL(request.url)));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** The CSRF secret a signed-in test's cookie holds: every change must echo it in X-CSRF-Token. */
export const TEST_CSRF = 'test-csrf-secret';

/** A password session, as the service opens it: a session cookie (which the page never sees) and a CSRF cookie. */
export function signIn(): void {
  document.cookie = `herald_csrf=${TEST_CSRF}; path=/`;
  startSession({ baseUrl: window.location.origin, kind: 'password' });
}

/** A list envelope of one page. */
export function page<T>(items: T[], { current_page = 1, per_page = 15, total = items.length } = {}) {
  const from = items.length ? (current_page - 1) * per_page + 1 : null;
  const path = `${window.location.origin}/api/2.0/list`;
  return {
    data: items,
    links: { first: `${path}?page=1`, last: `${path}?page=1`, prev: null, next: null },
    meta: {
      current_page,
      from,
      last_page: Math.max(1, Math.ceil(total / per_page)),
      path,
      per_page,
      to: from === null ? null : from + items.length - 1,
      total,
    },
  };
}

import { useSyncExternalStore } from 'react';

/**
 * How the session was opened: a password sign-in is a cookie the browser keeps and no script can
 * read (sign-out revokes it); a pasted API token is kept in this tab's memory only, and forgotten.
 */
export type SessionKind = 'password' | 'token';

export interface Session {
  /** Origin of the service, e.g. `https://herald.example.com`; the API lives under `<baseUrl>/api/2.0`. */
  baseUrl: string;
  /** The bearer token of a token session (in memory only); a password session has none (its cookie carries it). */
  token?: string;
  kind: SessionKind;
}

/** Only that a password session is open, for this tab's reloads and the other tabs: never a token. */
const STORAGE_KEY = 'herald.session';
const listeners = new Set<() => void>();
let tokenSession: Session | null = null;
let cached: { raw: string | null; session: Session | null } = { raw: null, session: null };

/** The stored marker of a password session; anything else found under the key (an older dashboard's stored token) is dropped. */
function parse(raw: string | null): Session | null {
  if (!raw) return null;
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value === 'object' && value !== null) {
      const { baseUrl, token, kind } = value as Record<string, unknown>;
      if (kind === 'password' && typeof baseUrl === 'string' && token === undefined) return { baseUrl, kind: 'password' };
    }
  } catch {
    // not ours: dropped below
  }
  window.localStorage.removeItem(STORAGE_KEY);
  return null;
}

/** The open session; the same object until it changes (useSyncExternalStore needs a stable snapshot). */
export function getSession(): Session | null {
  if (tokenSession) return tokenSession;
  const raw = window.localStorage.getItem(STORAGE_KEY);
  if (raw !== cached.raw) cached = { raw, session: parse(raw) };
  return cached.session;
}

function notify() {
  for (const listener of listeners) listener();
}

export function startSession(session: Session): void {
  if (session.kind === 'token') {
    // Kept in memory for this tab's life: never written where a script could find it later.
    tokenSession = { baseUrl: session.baseUrl, token: session.token, kind: 'token' };
    window.localStorage.removeItem(STORAGE_KEY);
  } else {
    tokenSession = null;
    window.localStorage.setItem(STORAGE_KEY, JSON.stringify({ baseUrl: session.baseUrl, kind: 'password' }));
  }
  notify();
}

export function endSession(): void {
  if (tokenSession === null && window.localStorage.getItem(STORAGE_KEY) === null) return;
  tokenSession = null;
  window.localStorage.removeItem(STORAGE_KEY);
  notify();
}

export function subscribeToSession(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab signing in or out changes the same storage key.
  const onStorage = (event: StorageEvent) => {
    if (event.key === STORAGE_KEY || event.key === null) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export function useSession(): Session | null {
  return useSyncExternalStore(subscribeToSession, getSession, () => null);
}

/** Where the dashboard itself is served; a password sign-in always goes to this service. */
export function currentOrigin(): string {
  return window.location.origin;
}

/** `https://host/` and `https://host` name the same service. */
export function normaliseBaseUrl(baseUrl: string): string {
  return baseUrl.trim().replace(/\/+$/, '');
}

/** The CSRF secret the service set beside the session cookie: every change of a password session echoes it. */
export function csrfToken(): string | undefined {
  for (const pair of document.cookie.split(';')) {
    const [name, ...value] = pair.trim().split('=');
    if (name === 'herald_csrf') return decodeURIComponent(value.join('='));
  }
  return undefined;
}

/** The headers that authenticate a request of the open session: its bearer token, or the CSRF secret of its cookie for a change. */
export function sessionHeaders(session: Session | null, method: string): Record<string, string> {
  if (session?.token) return { Authorization: `Bearer ${session.token}` };
  const csrf = method === 'GET' || method === 'HEAD' ? undefined : csrfToken();
  return csrf ? { 'X-CSRF-Token': csrf } : {};
}

import { useSyncExternalStore } from 'react';

/** How the session was opened: a password sign-in owns its token (sign-out revokes it); a pasted API token is only forgotten. */
export type SessionKind = 'password' | 'token';

export interface Session {
  /** Origin of the service, e.g. `https://herald.example.com`; the API lives under `<baseUrl>/api/2.0`. */
  baseUrl: string;
  token: string;
  kind: SessionKind;
}

const STORAGE_KEY = 'herald.session';
const listeners = new Set<() => void>();
let cached: { raw: string | null; session: Session | null } = { raw: null, session: null };

function parse(raw: string | null): Session | null {
  if (!raw) return null;
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value !== 'object' || value === null) return null;
    const { baseUrl, token, kind } = value as Record<string, unknown>;
    if (typeof baseUrl !== 'string' || typeof token !== 'string' || !token) return null;
    return { baseUrl, token, kind: kind === 'password' ? 'password' : 'token' };
  } catch {
    return null;
  }
}

/** The stored session; the same object until the stored value changes (useSyncExternalStore needs a stable snapshot). */
export function getSession(): Session | null {
  const raw = window.localStorage.getItem(STORAGE_KEY);
  if (raw !== cached.raw) cached = { raw, session: parse(raw) };
  return cached.session;
}

function notify() {
  for (const listener of listeners) listener();
}

export function startSession(session: Session): void {
  window.localStorage.setItem(STORAGE_KEY, JSON.stringify(session));
  notify();
}

export function endSession(): void {
  if (window.localStorage.getItem(STORAGE_KEY) === null) return;
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

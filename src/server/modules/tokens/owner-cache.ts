import pg from 'pg';
import type { AuthContext } from '../../http/auth';

/** The channel migration 0018's triggers notify when a token, user, membership or team changes. */
export const AUTH_CHANGED_CHANNEL = 'herald_auth_changed';

type Entry = { auth: AuthContext; until: number; touchedAt: number };

/**
 * Who each bearer token is, remembered by this process so that a request costs no lookup. It is
 * trusted only while `listenForAuthChanges` is connected: every change that could alter an answer
 * (a revocation, a team switch, from any process or the CLI) is notified by PostgreSQL, and the
 * cache forgets everything. This process also forgets at once after its own changes, so its next
 * request never sees the old answer. An entry lives at most `ttlMs` and never past its token's expiry.
 */
export function createOwnerCache(options: { ttlMs?: number; maxEntries?: number; now?: () => number } = {}) {
  const ttlMs = options.ttlMs ?? 60_000;
  const maxEntries = options.maxEntries ?? 10_000;
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();
  let trusted = false;
  // A lookup that began before a change must not store what it read: each change starts a new generation.
  let generation = 0;

  const forget = () => {
    entries.clear();
    generation += 1;
  };

  return {
    get(key: string): Entry | undefined {
      if (!trusted) return undefined;
      const entry = entries.get(key);
      if (entry && entry.until <= now()) {
        entries.delete(key);
        return undefined;
      }
      return entry;
    },

    /** The generation to hand back to `set` with what a lookup started now finds. */
    generation: () => generation,

    set(key: string, auth: AuthContext, tokenExpiresAtMs: number | null, lookupGeneration: number): void {
      if (!trusted || lookupGeneration !== generation) return;
      if (entries.size >= maxEntries) entries.clear();
      const until = Math.min(now() + ttlMs, tokenExpiresAtMs ?? Infinity);
      entries.set(key, { auth, until, touchedAt: now() });
    },

    forget,

    /** Called by the listener: trusted only while changes are heard. */
    setTrusted(value: boolean): void {
      trusted = value;
      forget();
    },

    get size() {
      return entries.size;
    },

    /** Whether answers are kept (only while changes are heard). */
    get trusted() {
      return trusted;
    },
  };
}
export type OwnerCache = ReturnType<typeof createOwnerCache>;

/**
 * Keeps one connection listening on AUTH_CHANGED_CHANNEL and makes `cache` forget on every
 * notification. While the connection is down the cache is not trusted (every request looks its
 * token up); it reconnects with back-off. Returns a stop function.
 */
export function listenForAuthChanges(
  connection: pg.ClientConfig,
  cache: Pick<OwnerCache, 'forget' | 'setTrusted'>,
  log: { warn(message: string): void } = console,
): () => Promise<void> {
  let client: pg.Client | undefined;
  let stopped = false;
  let delayMs = 500;
  let timer: NodeJS.Timeout | undefined;

  const connect = async () => {
    if (stopped) return;
    const current = new pg.Client(connection);
    client = current;
    let lost = false;
    const lose = (reason: string) => {
      if (lost) return;
      lost = true;
      cache.setTrusted(false);
      void current.end().catch(() => undefined);
      if (stopped) return;
      log.warn(`auth cache: change listener lost (${reason}); looking tokens up until it is back`);
      timer = setTimeout(() => void connect(), delayMs);
      delayMs = Math.min(delayMs * 2, 30_000);
    };
    current.on('error', (error) => lose(error.message));
    current.on('end', () => lose('connection ended'));
    current.on('notification', () => cache.forget());
    try {
      await current.connect();
      await current.query(`LISTEN ${AUTH_CHANGED_CHANNEL}`);
      if (stopped || lost) return;
      delayMs = 500;
      cache.setTrusted(true);
    } catch (error) {
      lose((error as Error).message);
    }
  };
  void connect();

  return async () => {
    stopped = true;
    clearTimeout(timer);
    cache.setTrusted(false);
    await client?.end().catch(() => undefined);
  };
}

import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as schema from './schema';

// `$client`: the pool, or the one connection of a database opened on a checked-out client (imports).
export type Db = NodePgDatabase<typeof schema> & { $client: pg.Pool | pg.PoolClient };
/** A transaction handle has the same query API as the database. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export type Database = {
  pool: pg.Pool;
  db: Db;
  close(): Promise<void>;
};

// bigint columns (counts) come back as numbers; Herald's counts stay far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export function connectDatabase(url: string, options: { max?: number; warn?: (message: string) => void } = {}): Database {
  const pool = new pg.Pool({ connectionString: url, max: options.max ?? 20, connectionTimeoutMillis: 10_000 });
  // An idle client that loses its server (restart, failover) must not crash the process.
  const warn = options.warn ?? ((message: string) => console.error(message));
  let closing = false;
  pool.on('error', (error) => {
    if (!closing) warn(`database: idle connection error: ${error.message}`);
  });
  // Nor one checked out and waiting in an open transaction when its server goes away: its query (or
  // the next one) fails and the pool drops it on release; the 'error' event itself needs a listener.
  let open = 0;
  pool.on('connect', (client) => {
    open++;
    client.on('error', () => undefined);
  });
  const removed: Array<() => void> = [];
  pool.on('remove', () => {
    open--;
    removed.splice(0).forEach((resolve) => resolve());
  });
  const db = drizzle(pool, { schema });
  return {
    pool,
    db,
    // pool.end() resolves once its clients are told to end, not when their connections are closed:
    // wait for those too, so a server stopped right after (the embedded one) finds no session to
    // terminate, and none of them warns of the stop it is part of.
    async close() {
      closing = true;
      await pool.end();
      const deadline = Date.now() + 5_000;
      while (open > 0 && Date.now() < deadline)
        await new Promise<void>((resolve) => {
          removed.push(resolve);
          setTimeout(resolve, 100).unref();
        });
    },
  };
}

/** `url` with its database name replaced. */
export function withDatabaseName(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const cause = (error as { cause?: unknown })?.cause ?? error;
  const pgError = cause as { code?: string; constraint?: string };
  return pgError?.code === '23505' && (constraint === undefined || pgError.constraint === constraint);
}

/** A row still referenced elsewhere (foreign key), e.g. deleting what another row uses. */
export function isForeignKeyViolation(error: unknown): boolean {
  const cause = (error as { cause?: unknown })?.cause ?? error;
  return (cause as { code?: string })?.code === '23503';
}

/** Connection errors of node-postgres and the socket under it: the server is down, restarting or refusing connections. */
const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
// 57P01-03: shutting down or starting up; 53300: too many connections; class 08: connection exceptions.
const UNAVAILABLE_SQLSTATES = /^(57P0[123]|53300|08...)$/;
const UNAVAILABLE_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|not currently accepting connections|the database system is (starting up|shutting down)/i;

/**
 * Whether an error (or one it was caused by: Drizzle wraps the driver's) says the database cannot be
 * reached right now, rather than that a statement was wrong: a request that met it is answered 503.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth++) {
    const { code, message, cause } = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || UNAVAILABLE_SQLSTATES.test(code))) return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message)) return true;
    // AggregateError (a connection refused on every address of a host name).
    const errors = (current as { errors?: unknown }).errors;
    if (Array.isArray(errors) && errors.some((inner) => isDatabaseUnavailable(inner))) return true;
    current = cause;
  }
  return false;
}

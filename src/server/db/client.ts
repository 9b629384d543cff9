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

export function connectDatabase(url: string, options: { max?: number } = {}): Database {
  const pool = new pg.Pool({ connectionString: url, max: options.max ?? 20, connectionTimeoutMillis: 10_000 });
  // An idle client that loses its server (restart, failover) must not crash the process.
  pool.on('error', (error) => console.error(`database: idle connection error: ${error.message}`));
  // Nor one checked out and waiting in an open transaction when its server goes away: its query (or
  // the next one) fails and the pool drops it on release; the 'error' event itself needs a listener.
  pool.on('connect', (client) => client.on('error', () => undefined));
  const db = drizzle(pool, { schema });
  return { pool, db, close: () => pool.end() };
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

import fs from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';
import { z } from 'zod';
import { parseRows } from './rows';

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));
// Any number: every Herald process takes this advisory lock, so only one migrates at a time.
export const MIGRATION_LOCK = 4_841_127;
const MigrationRowSchema = z.object({ name: z.string() });

/** A migration this run applied, and how long it took. */
export type AppliedMigration = { name: string; ms: number };

let knownFiles: Promise<string[]> | undefined;
/** The migrations this code knows, in the order they apply (their file names: the schema version is the last); read once. */
export const migrationFiles = (): Promise<string[]> =>
  (knownFiles ??= fs.readdir(MIGRATIONS_DIR).then((names) => names.filter((f) => f.endsWith('.sql')).sort()));

export const readMigration = (file: string): Promise<string> => fs.readFile(MIGRATIONS_DIR + file, 'utf8');

/**
 * The migrations this version ships that the database has not applied (empty: its schema is current).
 * Read-only: readiness asks it, and a process that starts applies them (migrate).
 */
export async function pendingMigrations(pool: pg.Pool): Promise<string[]> {
  const applied = await pool.query('SELECT name FROM schema_migrations');
  const done = new Set(parseRows(MigrationRowSchema, applied.rows).map((r) => r.name));
  return (await migrationFiles()).filter((file) => !done.has(file));
}

/** The refusal of code older than its database: the database has migrations this code does not know. */
export class SchemaNewerThanCodeError extends Error {
  constructor(unknown: string[], known: string[]) {
    super(
      `The database schema is newer than this Herald: it has migration${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}, ` +
        `which this code does not know (its latest is ${known.at(-1) ?? 'none'}). ` +
        'Run the Herald version that upgraded the database (or a newer one); to go back to this version, restore a backup made before the upgrade.',
    );
  }
}

/** Refuses (SchemaNewerThanCodeError) a database that has a migration not among `known`. */
export function checkSchemaKnown(applied: Iterable<string>, known: string[]): void {
  const knownSet = new Set(known);
  const unknown = [...applied].filter((name) => !knownSet.has(name)).sort();
  if (unknown.length > 0) throw new SchemaNewerThanCodeError(unknown, known);
}

/**
 * Applies the SQL files of db/migrations in name order, each once, each in its own transaction,
 * and records each in `schema_migrations` (name, applied_at). Refuses a database that has a
 * migration this code does not know (code older than its database) before changing anything.
 * Returns what it applied.
 */
export async function migrate(pool: pg.Pool): Promise<AppliedMigration[]> {
  const client = await pool.connect();
  const applied: AppliedMigration[] = [];
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await client.query('CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
    const done = new Set(parseRows(MigrationRowSchema, (await client.query('SELECT name FROM schema_migrations')).rows).map((r) => r.name));
    const files = await migrationFiles();
    checkSchemaKnown(done, files);
    for (const file of files) {
      if (done.has(file)) continue;
      const sql = await readMigration(file);
      const started = performance.now();
      await client.query('BEGIN');
      try {
        await client.query(sql);
        await client.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file]);
        await client.query('COMMIT');
        applied.push({ name: file, ms: Math.round(performance.now() - started) });
      } catch (error) {
        await client.query('ROLLBACK');
        throw new Error(`Migration ${file} failed: ${(error as Error).message}`, { cause: error });
      }
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    client.release();
  }
  return applied;
}

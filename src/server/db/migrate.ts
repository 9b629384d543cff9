import fs from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';
import { z } from 'zod';
import { parseRows } from './rows';

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));
// Any number: every Herald process takes this advisory lock, so only one migrates at a time.
const MIGRATION_LOCK = 4_841_127;
const MigrationRowSchema = z.object({ name: z.string() });

let knownFiles: Promise<string[]> | undefined;
/** The migration files this version of Herald ships, in name order (read once). */
const migrationFiles = (): Promise<string[]> => (knownFiles ??= fs.readdir(MIGRATIONS_DIR).then((names) => names.filter((f) => f.endsWith('.sql')).sort()));

/**
 * The migrations this version ships that the database has not applied (empty: its schema is current).
 * Read-only: readiness asks it, and a process that starts applies them (migrate).
 */
export async function pendingMigrations(pool: pg.Pool): Promise<string[]> {
  const applied = await pool.query('SELECT name FROM schema_migrations');
  const done = new Set(parseRows(MigrationRowSchema, applied.rows).map((r) => r.name));
  return (await migrationFiles()).filter((file) => !done.has(file));
}

/** Applies the SQL files of db/migrations in name order, each once, each in its own transaction. */
export async function migrate(pool: pg.Pool): Promise<string[]> {
  const client = await pool.connect();
  const applied: string[] = [];
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await client.query('CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
    const done = new Set(parseRows(MigrationRowSchema, (await client.query('SELECT name FROM schema_migrations')).rows).map((r) => r.name));
    const files = await migrationFiles();
    for (const file of files) {
      if (done.has(file)) continue;
      const sql = await fs.readFile(MIGRATIONS_DIR + file, 'utf8');
      await client.query('BEGIN');
      try {
        await client.query(sql);
        await client.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file]);
        await client.query('COMMIT');
        applied.push(file);
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

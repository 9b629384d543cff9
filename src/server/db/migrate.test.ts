import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './client';
import { migrate, migrationFiles, SchemaNewerThanCodeError } from './migrate';
import { emptyDatabase } from '../testing/empty-database';

// Migrations on an empty database of the test run's server: each applied once and reported, and a
// database newer than the code refused before anything runs (seen red without checkSchemaKnown:
// migrate resolved with nothing to do).
const name = `herald_migrate_${process.pid}`;
let database: Database;

let drop: () => Promise<void>;

beforeAll(async () => {
  ({ database, drop } = await emptyDatabase(name));
});
afterAll(() => drop());

describe('migrate', () => {
  it('applies every migration once, reports each with its time, and records it', async () => {
    const files = await migrationFiles();
    const applied = await migrate(database.pool);
    expect(applied.map((m) => m.name)).toEqual(files);
    expect(applied.every((m) => Number.isInteger(m.ms) && m.ms >= 0)).toBe(true);
    expect(await migrate(database.pool)).toEqual([]);
    const recorded = await database.pool.query('SELECT name, applied_at FROM schema_migrations ORDER BY name');
    expect(recorded.rows.map((r) => r.name)).toEqual(files);
    expect(recorded.rows.every((r) => r.applied_at instanceof Date)).toBe(true);
  });

  it('refuses a database that has a migration this code does not know', async () => {
    await database.pool.query("INSERT INTO schema_migrations (name) VALUES ('9999_later.sql'), ('9998_later.sql')");
    const refusal = migrate(database.pool);
    await expect(refusal).rejects.toBeInstanceOf(SchemaNewerThanCodeError);
    await expect(refusal).rejects.toThrow(
      `The database schema is newer than this Herald: it has migrations 9998_later.sql, 9999_later.sql, which this code does not know (its latest is ${(await migrationFiles()).at(-1)}).`,
    );
  });
});

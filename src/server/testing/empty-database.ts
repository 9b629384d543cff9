import { inject } from 'vitest';
import { connectDatabase, withDatabaseName, type Database } from '../db/client';
import { onServer } from './processes';

/**
 * An empty database on the test run's server, for tests of the migrations themselves (other tests
 * copy the migrated template: test-app.ts). `drop` closes it and removes it.
 */
export async function emptyDatabase(name: string): Promise<{ database: Database; drop: () => Promise<void> }> {
  const url = inject('databaseUrl');
  await onServer(url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await onServer(url, `CREATE DATABASE ${name}`);
  const database = connectDatabase(withDatabaseName(url, name), { max: 2 });
  return {
    database,
    drop: async () => {
      await database.close();
      await onServer(url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

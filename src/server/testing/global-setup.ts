import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { connectDatabase, withDatabaseName } from '../db/client';
import { startEmbeddedPostgres } from '../db/embedded';
import { migrate } from '../db/migrate';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A server URL with the right to create databases. */
    databaseUrl: string;
    /** A migrated database each test file copies (`CREATE DATABASE … TEMPLATE`). */
    templateDatabase: string;
  }
}

/**
 * One PostgreSQL per test run: the embedded one, or the server of DATABASE_URL (CI runs the
 * suite a second time on Debian's PostgreSQL that way). Each test file gets its own database.
 */
export default async function setup(project: TestProject) {
  const dataDir = process.env.DATABASE_URL ? undefined : await fs.mkdtemp(path.join(os.tmpdir(), 'herald-test-'));
  if (dataDir) await fs.chmod(dataDir, 0o755); // the database runs as the postgres user
  const server = dataDir ? await startEmbeddedPostgres(dataDir) : undefined;
  const databaseUrl = process.env.DATABASE_URL ?? server!.url;
  // One per project (the service and process projects each set up their own), so neither drops the other's.
  const templateDatabase = `herald_template_${process.pid}_${project.name.replace(/\W/g, '_')}`;

  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${templateDatabase}`);
  await admin.query(`CREATE DATABASE ${templateDatabase}`);
  const template = connectDatabase(withDatabaseName(databaseUrl, templateDatabase), { max: 1 });
  await migrate(template.pool);
  await template.close();

  project.provide('databaseUrl', databaseUrl);
  project.provide('templateDatabase', templateDatabase);

  return async () => {
    await admin.query(`DROP DATABASE IF EXISTS ${templateDatabase} WITH (FORCE)`);
    await admin.end();
    await server?.stop();
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  };
}

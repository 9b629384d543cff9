/**
 * The contract flow's last step: writes openapi.json from the service's routes (zod schemas)
 * and regenerates the dashboard's client in src/app/api/gen. CI fails when this changes a file.
 */
import fs from 'node:fs/promises';
import { createClient } from '@hey-api/openapi-ts';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import { connectDatabase } from '../src/server/db/client';

const OUTPUT = 'src/app/api/gen';

// The document depends only on the routes; the database is never queried here.
const config = loadConfig({ PUBLIC_URL: 'http://localhost:8080', LOG_LEVEL: 'silent' });
const database = connectDatabase('postgres://openapi@127.0.0.1:1/none');
const { app } = await buildApp({ config, database, secretKey: Buffer.alloc(32), logger: false });
await app.ready();
const document = app.swagger();
await fs.writeFile('openapi.json', JSON.stringify(document, null, 2) + '\n');
await app.close();
await database.close();

await fs.rm(OUTPUT, { recursive: true, force: true });
await createClient({
  input: 'openapi.json',
  output: { path: OUTPUT },
  logs: { level: 'silent' },
  plugins: ['@hey-api/client-fetch', '@hey-api/typescript', '@hey-api/sdk'],
});
console.log(`wrote openapi.json and ${OUTPUT}`);

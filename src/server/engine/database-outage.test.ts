import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../db/embedded';
import { withDatabaseName } from '../db/client';
import { campaignDueNow, childEnv, freePort, runHerald, signIn, waitForHealthy, type ApiCall, type HeraldProcess } from '../testing/processes';

// Database faults in the middle of a send. Herald runs as a process on a PostgreSQL of its own
// (through DATABASE_URL) that the test controls: first every connection is cut and none accepted for
// three seconds, then the server itself is stopped and started again on the same port. Herald must
// reconnect by itself and finish with every recipient sent to exactly once.
const RECIPIENTS = 400;
const databaseName = 'herald_outage';
let dataDir: string;
let serverDir: string;
let server: EmbeddedDatabase;
let port: number;
let herald: HeraldProcess;
let api: ApiCall;
let databaseUrl: string;

async function onServer(statement: string) {
  const admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
  try {
    return await admin.query(statement);
  } finally {
    await admin.end();
  }
}

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'herald-outage-'));
  serverDir = await fs.mkdtemp(path.join(os.tmpdir(), 'herald-outage-pg-'));
  await fs.chmod(serverDir, 0o755); // the database runs as the postgres user
  server = await startEmbeddedPostgres(serverDir);
  port = await freePort();
  await onServer(`CREATE DATABASE ${databaseName}`);
  databaseUrl = withDatabaseName(server.url, databaseName);
  herald = runHerald(
    'src/server/main.ts',
    [],
    childEnv({
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      PORT: String(port),
      HERALD_SECRET_KEY: randomBytes(32).toString('base64'),
      HERALD_ADMIN_EMAIL: 'admin@outage.test',
      HERALD_ADMIN_PASSWORD: 'outage-password-1',
      SMS_RATE_LIMIT: '40',
      ENGINE_TICK_MS: '100',
      ENGINE_LEASE_MS: '3000',
      SMS_SIMULATOR_LATENCY_MS: '5',
    }),
  );
  await waitForHealthy(port, herald);
  api = await signIn(port, 'admin@outage.test', 'outage-password-1');
});
afterAll(async () => {
  herald?.child.kill('SIGTERM');
  await herald?.exited;
  await server?.stop();
  await fs.rm(dataDir, { recursive: true, force: true });
  await fs.rm(serverDir, { recursive: true, force: true });
});

describe('database faults during a send', { timeout: 180_000 }, () => {
  it('an outage, then a server restart: Herald reconnects and every recipient gets exactly one message', async () => {
    const campaign = await campaignDueNow(api, { name: 'Outage', recipients: RECIPIENTS, firstNumber: 700000 });

    // Wait until sending is under way (40 a second: the whole send takes several seconds).
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      await vi.waitFor(async () => expect((await db.query(`SELECT count(*)::int AS n FROM simulator_deliveries`)).rows[0].n).toBeGreaterThan(40), {
        timeout: 60_000,
        interval: 50,
      });
    } finally {
      await db.end();
    }

    // The outage: no new connection for three seconds, and every open one cut (repeatedly, so a
    // reconnect attempt in between is cut too).
    await onServer(`ALTER DATABASE ${databaseName} ALLOW_CONNECTIONS false`);
    const cut = () => onServer(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${databaseName}'`);
    const outageEnds = Date.now() + 3_000;
    while (Date.now() < outageEnds) {
      await cut();
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const midway = await onServer(`SELECT 1`); // the server itself stayed up; only this database was out
    expect(midway.rowCount).toBe(1);
    await onServer(`ALTER DATABASE ${databaseName} ALLOW_CONNECTIONS true`);

    // Then a restart of the server itself, once sending has gone on a little: down for two seconds,
    // back on the same port.
    const sentBefore = async () => {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      try {
        return (await client.query(`SELECT count(*)::int AS n FROM simulator_deliveries`)).rows[0].n as number;
      } finally {
        await client.end();
      }
    };
    const before = await sentBefore();
    await vi.waitFor(async () => expect(await sentBefore()).toBeGreaterThan(before + 20), { timeout: 60_000, interval: 50 });
    const serverPort = Number(new URL(server.url).port);
    await server.stop();
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    server = await startEmbeddedPostgres(serverDir, { port: serverPort });

    await vi.waitFor(async () => expect((await api('GET', `/campaigns/${campaign}`)).data.status).toBe(2), { timeout: 120_000, interval: 250 });
    const check = new pg.Client({ connectionString: databaseUrl });
    await check.connect();
    try {
      // The simulator's record is keyed by client reference: one row per message that went out.
      const sent = await check.query(`SELECT count(*)::int AS total, count(DISTINCT to_number)::int AS numbers FROM simulator_deliveries`);
      expect(sent.rows[0]).toEqual({ total: RECIPIENTS, numbers: RECIPIENTS });
      await vi.waitFor(
        async () => {
          const messages = await check.query(`SELECT status, count(*)::int AS n FROM messages GROUP BY status`);
          expect(messages.rows).toEqual([{ status: 'delivered', n: RECIPIENTS }]);
        },
        { timeout: 30_000, interval: 250 },
      );
    } finally {
      await check.end();
    }
    // The outage was felt (connections were cut under Herald), and it is still serving.
    expect(herald.output()).toMatch(/terminating connection|engine tick failed|idle connection error/);
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    expect(herald.child.exitCode).toBeNull();
  });
});

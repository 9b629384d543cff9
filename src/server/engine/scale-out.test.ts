import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { withDatabaseName } from '../db/client';
import { campaignDueNow, childEnv, freePort, runHerald, signIn, waitForHealthy, type ApiCall, type HeraldProcess } from '../testing/processes';

// Two Herald processes on one PostgreSQL through DATABASE_URL, as a scaled-out deployment runs:
// the test run's server (Debian's PostgreSQL in CI's second run, else the embedded one), a fresh
// database on it, one process serving HTTP and sending, one `--role worker`.
const RECIPIENTS = 400;
let dataDir: string;
let port: number;
let first: HeraldProcess;
let worker: HeraldProcess;
let databaseUrl: string;
let api: ApiCall;

const tuning = { SMS_RATE_LIMIT: '40', ENGINE_TICK_MS: '100', ENGINE_LEASE_MS: '5000', SMS_SIMULATOR_LATENCY_MS: '5' };

const databaseName = `herald_scale_${randomBytes(6).toString('hex')}`;

async function onServer(statement: string) {
  const admin = new pg.Client({ connectionString: inject('databaseUrl') });
  await admin.connect();
  await admin.query(statement);
  await admin.end();
}

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'herald-scale-'));
  port = await freePort();
  await onServer(`CREATE DATABASE ${databaseName}`);
  databaseUrl = withDatabaseName(inject('databaseUrl'), databaseName);
  const shared = { DATABASE_URL: databaseUrl, DATA_DIR: dataDir, HERALD_SECRET_KEY: randomBytes(32).toString('base64'), ...tuning };
  first = runHerald(
    'src/server/main.ts',
    [],
    childEnv({ ...shared, PORT: String(port), HERALD_ADMIN_EMAIL: 'admin@scale.test', HERALD_ADMIN_PASSWORD: 'scale-password-1' }),
  );
  await waitForHealthy(port, first);
  worker = runHerald('src/server/main.ts', ['--role', 'worker'], childEnv({ ...shared, LOG_LEVEL: 'info' }));
  // The campaign starts only once both engines run, so both must take part.
  await vi.waitFor(() => expect(worker.output()).toContain('Herald worker'), { timeout: 90_000, interval: 100 });
  api = await signIn(port, 'admin@scale.test', 'scale-password-1');
});
afterAll(async () => {
  for (const process of [worker, first]) {
    process?.child.kill('SIGTERM');
    await process?.exited;
  }
  await fs.rm(dataDir, { recursive: true, force: true });
  await onServer(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
});

describe('two processes on one database', { timeout: 180_000 }, () => {
  it('send one campaign together, every recipient exactly once, within one rate cap', async () => {
    const campaign = await campaignDueNow(api, { name: 'Scale-out', recipients: RECIPIENTS, firstNumber: 800000 });
    await vi.waitFor(async () => expect((await api('GET', `/campaigns/${campaign}`)).data.status).toBe(2), { timeout: 120_000, interval: 200 });

    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      const sent = await db.query(
        `SELECT count(*)::int AS total, count(DISTINCT to_number)::int AS numbers, max(submissions) AS most FROM simulator_deliveries`,
      );
      expect(sent.rows[0]).toEqual({ total: RECIPIENTS, numbers: RECIPIENTS, most: 1 });
      const workers = await db.query(`SELECT count(DISTINCT submitted_by)::int AS processes FROM messages`);
      expect(workers.rows[0].processes, worker.output()).toBe(2);
      // SMS_RATE_LIMIT holds for the gateway, not per process: never more than 40 in any second, as
      // the gateway saw them (the simulator's record of each hand-over, not Herald's settle time).
      const busiest = await db.query(
        `SELECT max(n)::int AS most FROM (SELECT count(*) AS n FROM simulator_deliveries GROUP BY date_trunc('second', created_at)) s`,
      );
      expect(busiest.rows[0].most).toBeLessThanOrEqual(40);
    } finally {
      await db.end();
    }
  });
});

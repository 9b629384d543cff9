import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { withDatabaseName } from '../db/client';
import { campaignDueNow, childEnv, freePort, onServer, runHerald, signIn, waitForHealthy, type ApiCall, type HeraldProcess } from '../testing/processes';

// Herald processes on one PostgreSQL through DATABASE_URL, as a scaled-out deployment runs: the test
// run's server (Debian's PostgreSQL in CI's second run, else the embedded one), a fresh database on
// it, one process serving HTTP and sending, one `--role worker`, and a second HTTP process
// (`--role api`) for the limits every process shares.
//
// Seen red: with the request limit counted in each process's memory (as before issue 18), the two
// API processes let through 400 of 400 requests against a limit of 300.
const RECIPIENTS = 400;
let dataDir: string;
let port: number;
let first: HeraldProcess;
let worker: HeraldProcess;
let second: HeraldProcess;
let secondPort: number;
let databaseUrl: string;
let api: ApiCall;

const tuning = {
  SMS_RATE_LIMIT: '40',
  ENGINE_TICK_MS: '100',
  ENGINE_LEASE_MS: '5000',
  SMS_SIMULATOR_LATENCY_MS: '5',
  RATE_LIMIT_PER_MINUTE: '300',
  LOGIN_RATE_LIMIT_PER_MINUTE: '6',
};

const databaseName = `herald_scale_${randomBytes(6).toString('hex')}`;

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'herald-scale-'));
  port = await freePort();
  await onServer(inject('databaseUrl'), `CREATE DATABASE ${databaseName}`);
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
  secondPort = await freePort();
  second = runHerald('src/server/main.ts', ['--role', 'api'], childEnv({ ...shared, PORT: String(secondPort) }));
  await waitForHealthy(secondPort, second);
});
afterAll(async () => {
  for (const process of [second, worker, first]) {
    process?.child.kill('SIGTERM');
    await process?.exited;
  }
  await fs.rm(dataDir, { recursive: true, force: true });
  await onServer(inject('databaseUrl'), `DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
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

describe('two API processes on one database', { timeout: 120_000 }, () => {
  /** Waits, when a minute is about to turn, for the next one: the limits count in one-minute windows. */
  async function withinOneMinute() {
    const second = new Date().getSeconds();
    if (second > 40) await new Promise((resolve) => setTimeout(resolve, (61 - second) * 1000));
  }

  it('share one request limit per token: 300 a minute between them, not 300 each', async () => {
    const token = (await api('POST', '/tokens/', { name: 'Limits' })).data.token as string;
    await withinOneMinute();
    const call = (to: number) => fetch(`http://localhost:${to}/api/2.0/senders/`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.status);
    const statuses = await Promise.all(Array.from({ length: 400 }, (_, i) => call(i % 2 === 0 ? port : secondPort)));
    expect(statuses.filter((status) => status === 200)).toHaveLength(300);
    expect(statuses.filter((status) => status === 429)).toHaveLength(100);
  });

  it('share one sign-in limit per address', async () => {
    await withinOneMinute();
    const attempt = (to: number) =>
      fetch(`http://localhost:${to}/api/2.0/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'somebody@scale.test', password: 'wrong-password' }),
      }).then((r) => r.status);
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push(await attempt(i % 2 === 0 ? port : secondPort));
    expect(statuses.filter((status) => status === 401)).toHaveLength(6);
    expect(statuses.slice(6)).toEqual([429, 429, 429, 429]);
  });
});

import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { withDatabaseName } from '../db/client';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../db/embedded';
import { campaignDueNow, childEnv, freePort, runHerald, signIn, stopHeralds, waitForHealthy, type ApiCall, type HeraldProcess } from '../testing/processes';
import { SmppPeer } from '../testing/smpp-peer';

// Metrics and readiness of a scaled-out deployment, as processes over sockets: an `--role api`
// process on PORT and an `--role worker` on METRICS_PORT, on one PostgreSQL of the test's own (so it
// can be stopped and started again), the worker sending to a real SMPP peer (so its bind can drop).
//
// Seen red once each: the worker without its METRICS_PORT server (main.ts: nothing listened there);
// the bind check of readiness made to answer ok (the worker stayed 200 with the peer gone); the 503
// mapping of http/errors.ts skipped (500 "Server Error" while PostgreSQL was stopped).
const TOKEN = 'process-metrics-token-0123456789';
const RECIPIENTS = 6;
const databaseName = 'herald_observed';
let serverDir: string;
let apiDir: string;
let workerDir: string;
let server: EmbeddedDatabase;
let peer: SmppPeer;
let api: HeraldProcess;
let worker: HeraldProcess;
let port: number;
let metricsPort: number;
let call: ApiCall;

const apiUrl = (route: string) => `http://127.0.0.1:${port}${route}`;
const workerUrl = (route: string) => `http://127.0.0.1:${metricsPort}${route}`;
const scrape = async (url: string) => {
  const response = await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(response.status).toBe(200);
  return response.text();
};
/** The value of one series in a scrape (undefined when absent). */
const valueOf = (text: string, series: string): number | undefined => {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

beforeAll(async () => {
  serverDir = await fs.mkdtemp(path.join(os.tmpdir(), 'herald-observed-pg-'));
  await fs.chmod(serverDir, 0o755); // the database runs as the postgres user
  apiDir = await fs.mkdtemp(path.join(os.tmpdir(), 'herald-observed-api-'));
  workerDir = await fs.mkdtemp(path.join(os.tmpdir(), 'herald-observed-worker-'));
  server = await startEmbeddedPostgres(serverDir);
  const admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${databaseName}`);
  await admin.end();
  peer = await SmppPeer.start();
  peer.autoReceipt = 'DELIVRD';
  port = await freePort();
  metricsPort = await freePort();
  const shared = {
    DATABASE_URL: withDatabaseName(server.url, databaseName),
    HERALD_SECRET_KEY: randomBytes(32).toString('base64'),
    HERALD_ADMIN_EMAIL: 'admin@observed.test',
    HERALD_ADMIN_PASSWORD: 'observed-password-1',
    METRICS_TOKEN: TOKEN,
    SMS_GATEWAY: peer.url({ window: 5 }),
    ENGINE_TICK_MS: '100',
    HOST: '127.0.0.1',
  };
  api = runHerald('src/server/main.ts', ['--role', 'api'], childEnv({ ...shared, DATA_DIR: apiDir, PORT: String(port) }));
  await waitForHealthy(port, api);
  worker = runHerald('src/server/main.ts', ['--role', 'worker'], childEnv({ ...shared, DATA_DIR: workerDir, METRICS_PORT: String(metricsPort) }));
  await vi.waitFor(async () => expect((await fetch(workerUrl('/readyz'))).status).toBe(200), { timeout: 90_000, interval: 200 });
  call = await signIn(port, 'admin@observed.test', 'observed-password-1');
}, 180_000);

afterAll(async () => {
  await stopHeralds(worker, api);
  await peer?.close();
  await server?.stop();
  for (const dir of [serverDir, apiDir, workerDir]) if (dir) await fs.rm(dir, { recursive: true, force: true });
}, 60_000);

describe('metrics and readiness across processes', { timeout: 180_000 }, () => {
  it('a worker answers /healthz, /readyz and /metrics (with its token) on METRICS_PORT, and nothing else', async () => {
    expect(await (await fetch(workerUrl('/healthz'))).json()).toEqual({ status: 'ok' });
    expect(await (await fetch(workerUrl('/readyz'))).json()).toEqual({
      status: 'ready',
      checks: { database: { status: 'ok' }, migrations: { status: 'ok' }, sms_gateway: { status: 'ok' } },
    });
    const refused = await fetch(workerUrl('/metrics'));
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ error: { code: 401, http_code: 401 } });
    const elsewhere = await fetch(workerUrl('/api/2.0/campaigns/'));
    expect(elsewhere.status).toBe(404);
    expect(await elsewhere.json()).toMatchObject({ error: { code: 404, http_code: 404 } });
    expect(valueOf(await scrape(workerUrl('/metrics')), 'herald_gateway_connected')).toBe(1);

    // A second worker asked for the same METRICS_PORT stops at once, saying which variable to change.
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'herald-observed-second-'));
    try {
      const second = runHerald(
        'src/server/main.ts',
        ['--role', 'worker'],
        childEnv({ DATABASE_URL: withDatabaseName(server.url, databaseName), DATA_DIR: dir, METRICS_PORT: String(metricsPort), HOST: '127.0.0.1' }),
      );
      expect(await second.exited).toBe(1);
      expect(second.output()).toContain(`Port ${metricsPort} is in use: stop what holds it or set METRICS_PORT.`);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it('both processes report the messages sent as the database has them; the worker alone its gateway', async () => {
    await campaignDueNow(call, { name: 'Observed', recipients: RECIPIENTS, firstNumber: 900100 });
    await vi.waitFor(async () => expect(valueOf(await scrape(apiUrl('/metrics')), 'herald_messages{status="delivered"}')).toBe(RECIPIENTS), {
      timeout: 90_000,
      interval: 250,
    });
    const fromWorker = await scrape(workerUrl('/metrics'));
    const fromApi = await scrape(apiUrl('/metrics'));
    for (const status of ['queued', 'submitted', 'delivered', 'failed', 'unsent']) {
      expect(valueOf(fromWorker, `herald_messages{status="${status}"}`)).toBe(valueOf(fromApi, `herald_messages{status="${status}"}`));
    }
    expect(valueOf(fromWorker, 'herald_queue_depth')).toBe(0);
    expect(valueOf(fromWorker, 'herald_gateway_submit_seconds_count')).toBeGreaterThan(0);
    expect(fromApi).not.toMatch(/^herald_gateway_/m);
    // The API process timed the requests of the campaign's making by their route patterns.
    expect(fromApi).toMatch(/^herald_http_request_duration_seconds_count\{route="\/api\/2\.0\/campaigns\/",method="POST",status="201"\} 1$/m);
  });

  it('the worker is not ready while its SMPP bind is down, naming the gateway, and ready again once it binds', async () => {
    const smppPort = peer.port;
    await peer.close();
    await vi.waitFor(
      async () => {
        const response = await fetch(workerUrl('/readyz'));
        expect(response.status).toBe(503);
        const body = await response.json();
        expect(body.checks.sms_gateway).toEqual({ status: 'failing', detail: expect.stringContaining('not bound') });
        expect(body.error.errors).toEqual({ sms_gateway: [expect.any(String)] });
      },
      { timeout: 30_000, interval: 200 },
    );
    expect(valueOf(await scrape(workerUrl('/metrics')), 'herald_gateway_connected')).toBe(0);
    expect((await fetch(apiUrl('/readyz'))).status).toBe(200); // the API process does not send: its readiness does not hang on the bind

    peer = await SmppPeer.start({ port: smppPort });
    peer.autoReceipt = 'DELIVRD';
    await vi.waitFor(async () => expect((await fetch(workerUrl('/readyz'))).status).toBe(200), { timeout: 60_000, interval: 200 });
    expect(valueOf(await scrape(workerUrl('/metrics')), 'herald_gateway_connected')).toBe(1);
  });

  it('PostgreSQL stopped: the API answers 503 with Retry-After, both processes are alive but not ready; started again: ready', async () => {
    const serverPort = Number(new URL(server.url).port);
    await server.stop();
    try {
      const answer = await fetch(apiUrl('/api/2.0/campaigns/'), { headers: { authorization: `Bearer ${randomBytes(16).toString('hex')}` } });
      // Any request that needs the database: this one looks its token up first.
      expect(answer.status).toBe(503);
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await answer.json()).toEqual({
        error: { code: 503, http_code: 503, message: expect.stringContaining('database'), request_id: expect.any(String) },
      });
      for (const url of [apiUrl, workerUrl]) {
        expect((await fetch(url('/healthz'))).status).toBe(200);
        const ready = await fetch(url('/readyz'));
        expect(ready.status).toBe(503);
        expect((await ready.json()).checks.database.status).toBe('failing');
      }
      // The process's own series still answer; the database's are left out rather than reported as 0.
      const during = await scrape(workerUrl('/metrics'));
      expect(valueOf(during, 'herald_gateway_connected')).toBe(1);
      expect(valueOf(during, 'herald_queue_depth')).toBeUndefined();
    } finally {
      server = await startEmbeddedPostgres(serverDir, { port: serverPort });
    }
    for (const url of [apiUrl, workerUrl]) {
      await vi.waitFor(async () => expect((await fetch(url('/readyz'))).status).toBe(200), { timeout: 60_000, interval: 250 });
    }
    expect((await call('GET', '/campaigns/')).data).toHaveLength(1);
  });
});

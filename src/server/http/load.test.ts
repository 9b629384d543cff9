import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { withDatabaseName } from '../db/client';
import { formatTimestamp } from '../lib/time';
import { childEnv, freePort, runHerald, waitForHealthy, signInToken, type HeraldProcess } from '../testing/processes';

// Load (issue #8): 200 clients for 60 s of mixed reads and writes against a Herald process while it
// sends a 100,000-recipient campaign. What must hold is that nothing fails; the latencies are printed
// for BENCHMARKS.md, never asserted (the machine's speed is not the test's business).
const CLIENTS = 200;
const SECONDS = 60;
const RECIPIENTS = 100_000;
const databaseName = `herald_load_${randomBytes(6).toString('hex')}`;
let dataDir: string;
let port: number;
let herald: HeraldProcess;
let token: string;

async function onServer(statement: string) {
  const admin = new pg.Client({ connectionString: inject('databaseUrl') });
  await admin.connect();
  try {
    return await admin.query(statement);
  } finally {
    await admin.end();
  }
}

const call = async (method: string, route: string, body?: unknown, contentType = 'application/json') => {
  const response = await fetch(`http://127.0.0.1:${port}/api/2.0${route}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': contentType, accept: 'application/json' },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    signal: AbortSignal.timeout(60_000),
  });
  const text = await response.text();
  return { status: response.status, json: text ? JSON.parse(text) : undefined };
};

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'herald-load-'));
  port = await freePort();
  await onServer(`CREATE DATABASE ${databaseName}`);
  herald = runHerald(
    'src/server/main.ts',
    [],
    childEnv({
      DATABASE_URL: withDatabaseName(inject('databaseUrl'), databaseName),
      DATA_DIR: dataDir,
      PORT: String(port),
      HERALD_SECRET_KEY: randomBytes(32).toString('base64'),
      HERALD_ADMIN_EMAIL: 'admin@load.test',
      HERALD_ADMIN_PASSWORD: 'load-password-1',
      // One token drives all 200 clients: its per-minute limit is lifted, the gateway's cap kept
      // so the send lasts through the load.
      RATE_LIMIT_PER_MINUTE: '10000000',
      SMS_RATE_LIMIT: '1500',
      SMS_SIMULATOR_LATENCY_MS: '50',
    }),
  );
  await waitForHealthy(port, herald);
  token = await signInToken(port, 'admin@load.test', 'load-password-1');
}, 120_000);
afterAll(async () => {
  herald?.child.kill('SIGTERM');
  await herald?.exited;
  await fs.rm(dataDir, { recursive: true, force: true });
  await onServer(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
});

describe('load while a campaign sends', { timeout: 300_000 }, () => {
  it(`answers ${CLIENTS} clients of mixed reads and writes for ${SECONDS} s without a single error`, async () => {
    const template = (await call('POST', '/templates/', { name: 'Load', body: 'Hi {{first_name}}, this is a load test.', sender: 'Herald' })).json.data.uuid;
    const group = (await call('POST', '/contact-groups/', { name: 'Everyone' })).json.data.uuid;
    let csv = 'phone_number,first_name\n';
    for (let i = 0; i < RECIPIENTS; i++) csv += `4477${String(i).padStart(8, '0')},N${i}\n`;
    const imported = await call('POST', `/contact-groups/${group}/imports?file_name=load.csv`, csv, 'text/csv');
    expect(imported.status, JSON.stringify(imported.json)).toBeLessThan(300);
    await vi.waitFor(async () => expect((await call('GET', `/contact-groups/${group}`)).json.data.number_of_contacts).toBe(RECIPIENTS), {
      timeout: 120_000,
      interval: 500,
    });
    const now = Date.now();
    const campaign = (
      await call('POST', '/campaigns/', {
        name: 'Load',
        sender: 'Herald',
        scheduled_send_date: formatTimestamp(new Date(now + 1000), 'Europe/London'),
        expiry_date: formatTimestamp(new Date(now + 3_600_000), 'Europe/London'),
        included_contact_groups: [group],
        template_uuid: template,
      })
    ).json.data.uuid;
    await vi.waitFor(async () => expect((await call('GET', `/campaigns/${campaign}`)).json.data.status).toBe(1), { timeout: 60_000, interval: 200 });

    // The mix a dashboard and an integrator make: lists, a campaign and its progress, report pages, and writes.
    const mix: Array<[weight: number, name: string, request: (client: number, n: number) => Promise<{ status: number }>]> = [
      [4, 'GET /templates/', () => call('GET', '/templates/')],
      [4, 'GET /campaigns/{uuid}', () => call('GET', `/campaigns/${campaign}`)],
      [2, 'GET /campaigns/', () => call('GET', '/campaigns/')],
      [1, 'GET /campaigns/{uuid}/summary', () => call('GET', `/campaigns/${campaign}/summary`)],
      [2, 'GET /reporting/{uuid}/delivery', (_c, n) => call('GET', `/reporting/${campaign}/delivery?page=${1 + (n % 5000)}`)],
      [1, 'POST /templates/', (c, n) => call('POST', '/templates/', { name: `T ${c}-${n}`, body: 'Hello {{first_name}}', sender: 'Herald' })],
      [
        1,
        'PUT /contact-groups/{uuid}/add-contacts',
        (c, n) =>
          call('PUT', `/contact-groups/${group}/add-contacts`, {
            contacts: [{ phone_number: `4478${String(c * 100_000 + n).padStart(8, '0')}`, custom_fields: { first_name: 'Late' } }],
          }),
      ],
    ];
    const deck = mix.flatMap((entry) => Array<typeof entry>(entry[0]).fill(entry));
    const latencies = new Map<string, number[]>(mix.map(([, name]) => [name, []]));
    const failures: string[] = [];
    const ends = Date.now() + SECONDS * 1000;
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, client) => {
        for (let n = 0; Date.now() < ends; n++) {
          const [, name, request] = deck[(client + n) % deck.length]!;
          const started = performance.now();
          try {
            const { status } = await request(client, n);
            if (status >= 400) failures.push(`${name}: ${status}`);
          } catch (error) {
            failures.push(`${name}: ${error instanceof Error ? error.message : String(error)}`);
          }
          latencies.get(name)!.push(performance.now() - started);
        }
      }),
    );

    const all = [...latencies.values()].flat().sort((a, b) => a - b);
    const at = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
    const lines = [...latencies].map(([name, values]) => {
      const sorted = values.sort((a, b) => a - b);
      return `  ${name}: ${sorted.length} requests, p50 ${at(sorted, 50).toFixed(0)} ms, p99 ${at(sorted, 99).toFixed(0)} ms`;
    });
    const sending = (await call('GET', `/campaigns/${campaign}/summary`)).json.data;
    console.log(
      [
        `load: ${CLIENTS} clients, ${SECONDS} s, ${all.length} requests (${Math.round(all.length / SECONDS)}/s), ${failures.length} failed; ` +
          `p50 ${at(all, 50).toFixed(0)} ms, p99 ${at(all, 99).toFixed(0)} ms; meanwhile ${sending.delivered + sending.submitted + sending.failed} of ${RECIPIENTS} messages sent`,
        ...lines,
      ].join('\n'),
    );
    expect(failures.slice(0, 20)).toEqual([]);
    expect(all.length).toBeGreaterThan(CLIENTS);
    // The send went on under the load.
    expect(sending.submitted + sending.delivered).toBeGreaterThan(0);
    expect(herald.child.exitCode).toBeNull();
  });
});

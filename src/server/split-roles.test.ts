import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { withDatabaseName } from './db/client';
import { startSmtpSink, type SmtpSink } from './testing/smtp-sink';
import { campaignDueNow, childEnv, freePort, runHerald, signIn, stopHeralds, waitForHealthy, type ApiCall, type HeraldProcess } from './testing/processes';

// Herald split by role, as a scaled-out deployment runs it (issue 22, point 7): two `--role api`
// processes behind one public URL and two `--role worker` processes, on one PostgreSQL (a fresh
// database on the test run's server), each process with its own DATA_DIR, the workers without the
// API's PUBLIC_URL, all on loopback. Across them: a campaign sent (every recipient exactly once, at
// the simulator), a report asked for on one API process, its e-mailed link (on the API's public
// URL) downloaded from the other with the right rows, an import through one visible through the
// other, and one request limit between the two.
//
// Seen red: with reports kept as files in the writing worker's DATA_DIR and linked on its own
// PUBLIC_URL (the reports module before issue 22, point 7), the e-mailed link was on the worker's
// http://localhost:8080, and its path, asked of the other API process (that assertion made soft for
// the run), answered 410 (no file in its DATA_DIR).
const RECIPIENTS = 300;
const PUBLIC_URL = 'http://herald.example.test';
const databaseName = `herald_split_${randomBytes(6).toString('hex')}`;
const dirs: string[] = [];
const processes: HeraldProcess[] = [];
let apiPorts: [number, number];
let api: ApiCall;
let token: string;
let databaseUrl: string;
let sink: SmtpSink;

const tuning = {
  SMS_RATE_LIMIT: '60',
  ENGINE_TICK_MS: '100',
  ENGINE_LEASE_MS: '5000',
  SMS_SIMULATOR_LATENCY_MS: '5',
  RATE_LIMIT_PER_MINUTE: '300',
};

async function onServer(statement: string) {
  const admin = new pg.Client({ connectionString: inject('databaseUrl') });
  await admin.connect();
  await admin.query(statement);
  await admin.end();
}

async function query<T>(statement: string, values: unknown[] = []): Promise<T[]> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    return (await db.query(statement, values)).rows as T[];
  } finally {
    await db.end();
  }
}

/** A process of its own DATA_DIR, in `role`. */
async function start(role: 'api' | 'worker', shared: Record<string, string>, extra: Record<string, string> = {}): Promise<HeraldProcess> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), `herald-split-${role}-`));
  dirs.push(dataDir);
  const process = runHerald('src/server/main.ts', ['--role', role], childEnv({ ...shared, DATA_DIR: dataDir, ...extra }));
  processes.push(process);
  return process;
}

/** A call on one API process by port, with the shared token; the raw response. */
const on = (port: number, route: string, init: RequestInit = {}) =>
  fetch(`http://localhost:${port}/api/2.0${route}`, { ...init, headers: { authorization: `Bearer ${token}`, accept: 'application/json', ...init.headers } });

beforeAll(async () => {
  sink = await startSmtpSink();
  await onServer(`CREATE DATABASE ${databaseName}`);
  databaseUrl = withDatabaseName(inject('databaseUrl'), databaseName);
  const shared = { DATABASE_URL: databaseUrl, HERALD_SECRET_KEY: randomBytes(32).toString('base64'), SMTP_URL: sink.url, ...tuning };
  apiPorts = [await freePort(), await freePort()];
  // The API processes behind one public URL (a load balancer's); the workers are not given it.
  const first = await start('api', shared, {
    PORT: String(apiPorts[0]),
    PUBLIC_URL,
    HERALD_ADMIN_EMAIL: 'admin@split.test',
    HERALD_ADMIN_PASSWORD: 'split-password-1',
  });
  await waitForHealthy(apiPorts[0], first);
  const second = await start('api', shared, { PORT: String(apiPorts[1]), PUBLIC_URL });
  const workers = [await start('worker', shared, { LOG_LEVEL: 'info' }), await start('worker', shared, { LOG_LEVEL: 'info' })];
  await waitForHealthy(apiPorts[1], second);
  for (const worker of workers) await vi.waitFor(() => expect(worker.output()).toContain('Herald worker'), { timeout: 90_000, interval: 100 });
  api = await signIn(apiPorts[0], 'admin@split.test', 'split-password-1');
  token = (await api('POST', '/tokens/', { name: 'Split roles' })).data.token;
});
afterAll(async () => {
  await stopHeralds(...processes.reverse());
  await sink?.close();
  for (const dir of dirs) await fs.rm(dir, { recursive: true, force: true });
  await onServer(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
});

describe('two API and two worker processes on one database, each with its own DATA_DIR', { timeout: 180_000 }, () => {
  let campaign: string;

  it('send a campaign: every recipient exactly once, by the workers', async () => {
    campaign = await campaignDueNow(api, { name: 'Split', recipients: RECIPIENTS, firstNumber: 700000 });
    // Followed through the other API process.
    await vi.waitFor(async () => expect((await (await on(apiPorts[1], `/campaigns/${campaign}`)).json()).data.status).toBe(2), {
      timeout: 120_000,
      interval: 200,
    });
    const [sent] = await query(`SELECT count(*)::int AS total, count(DISTINCT to_number)::int AS numbers, max(submissions) AS most FROM simulator_deliveries`);
    expect(sent).toEqual({ total: RECIPIENTS, numbers: RECIPIENTS, most: 1 });
    const [by] = await query<{ processes: number }>(`SELECT count(DISTINCT submitted_by)::int AS processes FROM messages`);
    expect(by!.processes, processes.map((p) => p.output()).join('\n')).toBe(2);
  });

  it('a report asked for on one API process, written by a worker, downloads from the other API process through its e-mailed link', async () => {
    const asked = await on(apiPorts[0], `/reporting/${campaign}/recipient`, { method: 'POST' });
    expect(asked.status).toBe(202);
    const mail = await sink.waitForMessage((m) => m.subject.includes('recipients report'), 60_000);
    const link = /(https?:\/\/\S+\/api\/2\.0\/report-downloads\/\S+)/.exec(mail.text)![1]!;
    // On the public URL of the API processes, not on the worker's own address.
    expect(link.startsWith(`${PUBLIC_URL}/api/2.0/report-downloads/`), link).toBe(true);
    const { pathname, search } = new URL(link);
    const csvOf = async (port: number) => {
      const response = await fetch(`http://localhost:${port}${pathname}${search}`);
      const body = await response.text();
      expect(response.status, body).toBe(200);
      return body;
    };
    const fromOther = await csvOf(apiPorts[1]);
    const lines = fromOther.replace(/^\uFEFF/, '').split('\r\n');
    expect(lines[0]).toBe('Phone_Number,Group_Name,Group_Description,Field_Names,Field_Values');
    expect(lines.at(-1)).toBe('');
    const numbers = lines.slice(1, -1).map((line) => line.split(',')[0]);
    expect(numbers).toEqual(Array.from({ length: RECIPIENTS }, (_, i) => `447700${700000 + i}`));
    expect(await csvOf(apiPorts[0])).toBe(fromOther);
    // Nothing of it on any process's disk.
    for (const dir of dirs) expect(await fs.stat(path.join(dir, 'reports')).catch(() => undefined)).toBeUndefined();
  });

  it('an import through one API process is seen through the other', async () => {
    const group = (await api('POST', '/contact-groups/', { name: 'Imported', headers: ['first_name'] })).data.uuid as string;
    const csv = `phone_number,first_name\n${Array.from({ length: 50 }, (_, i) => `07700${600000 + i},I${i}`).join('\n')}\n`;
    const imported = await on(apiPorts[1], `/contact-groups/${group}/imports`, { method: 'POST', headers: { 'content-type': 'text/csv' }, body: csv });
    expect(imported.status, await imported.clone().text()).toBe(201);
    const created = (await imported.json()).data;
    expect(created).toMatchObject({ status: 'completed', contacts_added: 50 });
    const seen = await (await on(apiPorts[0], `/contact-imports/${created.uuid}`)).json();
    expect(seen.data).toEqual(created);
    const contacts = await (await on(apiPorts[0], `/contact-groups/${group}/contacts?per_page=100`)).json();
    expect(contacts.meta.total).toBe(50);
    expect((await (await on(apiPorts[0], `/contact-groups/${group}`)).json()).data).toMatchObject({ number_of_contacts: 50, status: 'Ready' });
  });

  it('share one request limit per token: 300 a minute between them, not 300 each', async () => {
    const limited = (await api('POST', '/tokens/', { name: 'Limits' })).data.token as string;
    // The limits count in one-minute windows: when one is about to turn, wait for the next.
    const second = new Date().getSeconds();
    if (second > 40) await new Promise((resolve) => setTimeout(resolve, (61 - second) * 1000));
    const call = (port: number) =>
      fetch(`http://localhost:${port}/api/2.0/senders/`, { headers: { authorization: `Bearer ${limited}` } }).then((r) => r.status);
    const statuses = await Promise.all(Array.from({ length: 400 }, (_, i) => call(apiPorts[i % 2]!)));
    expect(statuses.filter((status) => status === 200)).toHaveLength(300);
    expect(statuses.filter((status) => status === 429)).toHaveLength(100);
  });
});

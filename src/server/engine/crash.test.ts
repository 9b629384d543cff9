import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { formatTimestamp } from '../lib/time';
import { childEnv, freePort, runHerald, waitForHealthy, type HeraldProcess } from '../testing/processes';

// The service as it runs for real, killed with SIGKILL in the middle of a send and started again.
const RECIPIENTS = 300;
let dataDir: string;
let env: NodeJS.ProcessEnv;
let port: number;
let herald: HeraldProcess;
let token: string;

const api = async (method: string, route: string, body?: unknown) => {
  const response = await fetch(`http://localhost:${port}/api/2.0${route}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return response.json();
};

async function database(): Promise<pg.Client> {
  const pid = await fs.readFile(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8');
  const password = await fs.readFile(path.join(dataDir, 'postgres.password'), 'utf8');
  const client = new pg.Client({ host: '127.0.0.1', port: Number(pid.split('\n')[3]), user: 'postgres', password, database: 'postgres' });
  await client.connect();
  return client;
}

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'herald-crash-'));
  await fs.chmod(dataDir, 0o755);
  port = await freePort();
  env = childEnv({
    DATA_DIR: dataDir,
    PORT: String(port),
    HERALD_ADMIN_EMAIL: 'admin@crash.test',
    HERALD_ADMIN_PASSWORD: 'crash-password-1',
    SMS_RATE_LIMIT: '40',
    ENGINE_TICK_MS: '100',
    ENGINE_LEASE_MS: '1000',
    SMS_SIMULATOR_LATENCY_MS: '5',
  });
});
afterAll(async () => {
  herald?.child.kill('SIGTERM');
  await herald?.exited;
  await fs.rm(dataDir, { recursive: true, force: true });
});

describe('a crash in the middle of a send', { timeout: 180_000 }, () => {
  it('loses no recipient and sends none twice', async () => {
    herald = runHerald('src/server/main.ts', [], env);
    await waitForHealthy(port, herald);
    const login = await fetch(`http://localhost:${port}/api/2.0/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@crash.test', password: 'crash-password-1' }),
    });
    token = (await login.json()).data.token;

    const template = (await api('POST', '/templates/', { name: 'Crash', body: 'Hello {{first_name}}', sender: 'Herald' })).data.uuid;
    const group = (await api('POST', '/contact-groups/', { name: 'Everyone' })).data.uuid;
    const contacts = Array.from({ length: RECIPIENTS }, (_, i) => ({ phone_number: `07700${String(900000 + i)}`, custom_fields: { first_name: `N${i}` } }));
    expect((await api('PUT', `/contact-groups/${group}/add-contacts`, { contacts })).data.number_of_contacts).toBe(RECIPIENTS);
    const now = Date.now();
    const campaign = (
      await api('POST', '/campaigns/', {
        name: 'Crash test',
        sender: 'Herald',
        scheduled_send_date: formatTimestamp(new Date(now + 1000), 'Europe/London'),
        expiry_date: formatTimestamp(new Date(now + 3_600_000), 'Europe/London'),
        included_contact_groups: [group],
        excluded_contact_groups: [],
        template_uuid: template,
      })
    ).data.uuid;

    // Kill it once some, but not all, messages have gone (40 a second: a few seconds in).
    await vi.waitFor(
      async () => {
        const summary = (await api('GET', `/campaigns/${campaign}/summary`)).data;
        expect(summary.submitted + summary.delivered).toBeGreaterThanOrEqual(60);
      },
      { timeout: 60_000, interval: 100 },
    );
    herald.child.kill('SIGKILL');
    await herald.exited;

    herald = runHerald('src/server/main.ts', [], env);
    await waitForHealthy(port, herald);
    await vi.waitFor(async () => expect((await api('GET', `/campaigns/${campaign}`)).data.status).toBe(2), { timeout: 120_000, interval: 200 });

    const db = await database();
    try {
      const sent = await db.query(`SELECT count(*)::int AS total, count(DISTINCT to_number)::int AS numbers, count(*) FILTER (WHERE body LIKE 'Hello N%')::int AS personal FROM simulator_deliveries`);
      expect(sent.rows[0]).toEqual({ total: RECIPIENTS, numbers: RECIPIENTS, personal: RECIPIENTS });
      const messages = await db.query(`SELECT count(*)::int AS total, count(*) FILTER (WHERE status IN ('submitted', 'delivered'))::int AS sent FROM messages`);
      expect(messages.rows[0]).toEqual({ total: RECIPIENTS, sent: RECIPIENTS });
    } finally {
      await db.end();
    }
  });
});

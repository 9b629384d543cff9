/**
 * No upload can crash the service (issue 32, point 4): a workbook of 800 KB on the wire whose
 * shared strings unpack to 300 MB (built here with node:zlib) is sent over a real socket to Herald
 * running as a process of its own. It is refused with a 422 in the house shape, the group is left
 * as it was, the service goes on importing, and neither Herald nor the PostgreSQL backends serving
 * it grew by more than 250 MB meanwhile (Herald's peak resident set, reset before the upload; the
 * backends' anonymous memory, sampled).
 *
 * Seen red: with the limits of workbook-limits.ts lifted, the workbook was read and Herald's peak
 * grew by 340 MB (exceljs keeps every shared string).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { XLSX_CONTENT_TYPE } from '../../../shared/contract/imports';
import { withDatabaseName } from '../../db/client';
import { childEnv, freePort, onServer, runHerald, waitForHealthy, signInToken, type HeraldProcess } from '../../testing/processes';
import { workbookOf } from '../../testing/workbook-zip';

const MB = 1_000_000;
const databaseName = `herald_bomb_${randomBytes(6).toString('hex')}`;
let dataDir: string;
let port: number;
let herald: HeraldProcess;
let token: string;

const call = async (method: string, route: string, body?: unknown) => {
  const response = await fetch(`http://127.0.0.1:${port}/api/2.0${route}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, json: await response.json() };
};

const upload = async (group: string, workbook: Buffer) => {
  const response = await fetch(`http://127.0.0.1:${port}/api/2.0/contact-groups/${group}/imports`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': XLSX_CONTENT_TYPE },
    body: new Blob([new Uint8Array(workbook)]),
    signal: AbortSignal.timeout(60_000),
  });
  return { status: response.status, json: await response.json() };
};

/** A value of /proc/<pid>/status in bytes (`VmHWM`, `VmRSS`, `RssAnon`), or null once the process is gone. */
async function statusOf(pid: number, field: string): Promise<number | null> {
  const status = await fs.readFile(`/proc/${pid}/status`, 'utf8').catch(() => null);
  const kb = status?.match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'))?.[1];
  return kb === undefined ? null : Number(kb) * 1024;
}

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'herald-bomb-'));
  port = await freePort();
  await onServer(inject('databaseUrl'), `CREATE DATABASE ${databaseName}`);
  herald = runHerald(
    'src/server/main.ts',
    ['--role', 'api'],
    childEnv({
      DATABASE_URL: withDatabaseName(inject('databaseUrl'), databaseName),
      DATA_DIR: dataDir,
      PORT: String(port),
      HERALD_SECRET_KEY: randomBytes(32).toString('base64'),
      HERALD_ADMIN_EMAIL: 'admin@bomb.test',
      HERALD_ADMIN_PASSWORD: 'bomb-password-1',
    }),
  );
  await waitForHealthy(port, herald);
  token = await signInToken(port, 'admin@bomb.test', 'bomb-password-1');
}, 120_000);
afterAll(async () => {
  herald?.child.kill('SIGTERM');
  await herald?.exited;
  await fs.rm(dataDir, { recursive: true, force: true });
  await onServer(inject('databaseUrl'), `DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
});

describe('a workbook that unpacks to 300 MB', { timeout: 60_000 }, () => {
  it('is refused with a 422 while no process of Herald grows by 250 MB, and the service goes on', async () => {
    const group = (await call('POST', '/contact-groups/', { name: 'Bomb' })).json.data.uuid as string;
    // A workbook read first, so that what any import loads (exceljs, the zip reader) is in the baseline.
    const small = await workbookOf({ numbers: ['07700900001'] });
    expect((await upload(group, small)).json.data).toMatchObject({ status: 'completed', contacts_added: 1 });

    // 300,000 texts of 1,000 bytes that no cell uses, the sizes left out of the zip's local headers.
    const bomb = await workbookOf({ numbers: ['07700900002'], padding: `<si><t>${'x'.repeat(983)}</t></si>`, times: 300_000, hideSizes: true });
    expect(bomb.length).toBeLessThan(2 * MB);

    const pid = herald.child.pid!;
    const before = (await statusOf(pid, 'VmRSS'))!;
    // Resets VmHWM to the current resident set (Linux 4.0+), so the peak read after is the upload's.
    await fs.writeFile(`/proc/${pid}/clear_refs`, '5');
    const database = new pg.Client({ connectionString: inject('databaseUrl') });
    await database.connect();
    const backends = new Map<number, { first: number; peak: number }>();
    let sampling = true;
    const sample = (async () => {
      while (sampling) {
        const { rows } = await database.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1', [databaseName]);
        for (const { pid: backend } of rows) {
          const anon = await statusOf(backend, 'RssAnon');
          if (anon === null) continue;
          const seen = backends.get(backend);
          backends.set(backend, seen ? { first: seen.first, peak: Math.max(seen.peak, anon) } : { first: anon, peak: anon });
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();

    const refused = await upload(group, bomb);
    sampling = false;
    await sample;
    await database.end();
    const peak = (await statusOf(pid, 'VmHWM'))!;

    expect(peak - before).toBeLessThan(250 * MB);
    expect(backends.size).toBeGreaterThan(0);
    for (const { first, peak: backendPeak } of backends.values()) expect(backendPeak - first).toBeLessThan(250 * MB);
    expect(refused.status).toBe(422);
    expect(refused.json.error).toMatchObject({ code: 422, http_code: 422 });
    expect(refused.json.error.errors.file[0]).toMatch(/shared strings unpack to more than 64 MiB/);

    // Refused while its layout was read (the shared strings come before the sheet): no import was
    // started, the group is as it was, and the service imports the next file.
    const imports = (await call('GET', `/contact-groups/${group}/imports`)).json.data;
    expect(imports.map((row: { status: string }) => row.status)).toEqual(['completed']);
    const next = await upload(group, await workbookOf({ numbers: ['07700900003'] }));
    expect(next.json.data).toMatchObject({ status: 'completed', contacts_added: 1 });
    const contacts = (await call('GET', `/contact-groups/${group}/contacts`)).json.data.map((contact: { phone_number: string }) => contact.phone_number);
    expect(contacts.sort()).toEqual(['447700900001', '447700900003']);
  });
});

import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createGunzip } from 'node:zlib';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { childEnv, embeddedDatabase, freePort, runCli, runHerald, signIn, campaignDueNow, waitForHealthy, type HeraldProcess } from '../testing/processes';
import { BackupSummarySchema, readFrames, type BackupSummary } from './backup-format';
import { withDatabaseName } from './client';

// `cli backup` and `cli restore` on real processes and real PostgreSQL servers: the embedded one
// of a Herald sending through the simulator, backed up in the middle of the send and restored into
// a fresh DATA_DIR that Herald then starts on; and an external one (DATABASE_URL, the test run's
// server), where source and copy are compared table by table. The checksums here are the test's own
// SQL (every table of the schema as pg_class lists it, md5 of its rows), not the code's.
//
// Seen red, each on purpose once: a backup that skipped one table (the restore refuses: "has no rows
// for messages"); a backup that read each table in its own transaction, i.e. several snapshots, with
// a pause between tables (the campaign's counters no longer matched its messages in the copy: 296
// delivered counted, 168 messages delivered); a restore with the tables' triggers on while loading
// (counters counted twice: the restore's own verification refused, team_hourly_counts and
// team_row_counts differing); and migrate without its check of a database newer than the code
// (Herald started on it and ran); the restore into a DATA_DIR that is a service user's home holding
// `.npm` (refused as "not empty" before the restore ignored what is not Herald's).
const RECIPIENTS = 400;
const ADMIN = { email: 'admin@backup.test', password: 'backup-password-1' };

let root: string;
let herald: HeraldProcess | undefined;
let restored: HeraldProcess | undefined;
const databases: string[] = [];

async function onServer(statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: inject('databaseUrl') });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

async function newDatabase(label: string): Promise<string> {
  const name = `herald_backup_${label}_${process.pid}`;
  await onServer(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await onServer(`CREATE DATABASE ${name}`);
  databases.push(name);
  return withDatabaseName(inject('databaseUrl'), name);
}

/** The summary (row counts and checksums at the snapshot) a backup file ends with. */
async function summaryOf(file: string): Promise<BackupSummary> {
  for await (const frame of readFrames(createReadStream(file).pipe(createGunzip()))) {
    if (frame.type === 'Z') return BackupSummarySchema.parse(JSON.parse(frame.payload.toString('utf8')));
  }
  throw new Error(`${file} has no summary`);
}

/** Every table of the schema: its row count and md5 of its rows' md5s, one a line, in C order (as the backup's summary puts it). */
async function tablesOf(db: pg.Client): Promise<Record<string, { rows: number; checksum: string }>> {
  await db.query("SET TimeZone = 'UTC'; SET DateStyle = 'ISO, YMD'; SET IntervalStyle = 'postgres'; SET extra_float_digits = 1; SET bytea_output = 'hex'");
  const tables = await db.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') ORDER BY 1`,
  );
  const result: Record<string, { rows: number; checksum: string }> = {};
  for (const { name } of tables.rows) {
    const row = (
      await db.query<{ rows: number; checksum: string }>(
        `SELECT count(*)::int AS rows, md5(coalesce(string_agg(h || E'\\n', '' ORDER BY h COLLATE "C"), '')) AS checksum
           FROM (SELECT md5(t::text) AS h FROM "${name}" t) s`,
      )
    ).rows[0]!;
    result[name] = row;
  }
  return result;
}

const asRecord = (summary: BackupSummary) => Object.fromEntries(summary.tables.map((t) => [t.name, { rows: t.rows, checksum: t.checksum }]));

beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'herald-backup-'));
  await fs.chmod(root, 0o755); // the database runs as the postgres user
});
afterAll(async () => {
  for (const process of [herald, restored]) {
    process?.child.kill('SIGTERM');
    await process?.exited;
  }
  for (const name of databases) await onServer(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
  await fs.rm(root, { recursive: true, force: true });
});

describe('backup and restore, embedded database', { timeout: 300_000 }, () => {
  const source = () => path.join(root, 'source');
  const copy = () => path.join(root, 'copy');
  const file = () => path.join(root, 'mid-send.herald-backup');

  it('backs up a Herald in the middle of a send; the restore into a fresh DATA_DIR starts with every row of every table as at the snapshot', async () => {
    const port = await freePort();
    const env = childEnv({
      DATA_DIR: source(),
      PORT: String(port),
      HERALD_ADMIN_EMAIL: ADMIN.email,
      HERALD_ADMIN_PASSWORD: ADMIN.password,
      SMS_RATE_LIMIT: '40',
      ENGINE_TICK_MS: '100',
      SMS_SIMULATOR_LATENCY_MS: '5',
    });
    herald = runHerald('src/server/main.ts', [], env);
    await waitForHealthy(port, herald);
    const api = await signIn(port, ADMIN.email, ADMIN.password);
    const campaign = await campaignDueNow(api, { name: 'Backed up', recipients: RECIPIENTS, firstNumber: 900000 });
    await vi.waitFor(
      async () => {
        const summary = (await api('GET', `/campaigns/${campaign}/summary`)).data;
        expect(summary.submitted + summary.delivered).toBeGreaterThanOrEqual(40);
      },
      { timeout: 60_000, interval: 100 },
    );

    const backedUp = await runCli(['backup', '--out', file()], env);
    expect(backedUp.stderr).toBe('');
    expect(backedUp.code).toBe(0);
    expect(JSON.parse(backedUp.stdout)).toMatchObject({ file: file(), schema_version: expect.stringMatching(/^\d{4}_.*\.sql$/), secret_key: 'file' });
    expect((await fs.stat(file())).mode & 0o777).toBe(0o600);
    expect((await fetch(`http://localhost:${port}/healthz`)).status).toBe(200);
    const summary = await summaryOf(file());

    // The documented service layout (docs/deploy.md): DATA_DIR is the service user's home, and npm keeps its cache there.
    await fs.mkdir(path.join(copy(), '.npm', '_logs'), { recursive: true });
    await fs.writeFile(path.join(copy(), '.npm', '_logs', 'debug-0.log'), 'npm was here\n');
    const restoredNow = await runCli(['restore', file()], childEnv({ DATA_DIR: copy() }));
    expect(restoredNow.stderr).toBe('');
    expect(restoredNow.code).toBe(0);
    expect(await fs.readFile(path.join(copy(), '.npm', '_logs', 'debug-0.log'), 'utf8')).toBe('npm was here\n');
    expect(JSON.parse(restoredNow.stdout)).toMatchObject({ verified: true, tables: summary.tables.length });
    expect(await fs.readFile(path.join(copy(), 'secret.key'), 'utf8')).toBe(await fs.readFile(path.join(source(), 'secret.key'), 'utf8'));

    // Herald starts on the copy (the API only: no engine to carry the send on and change the rows).
    const copyPort = await freePort();
    const copyEnv = childEnv({ DATA_DIR: copy(), PORT: String(copyPort) });
    restored = runHerald('src/server/main.ts', ['--role', 'api'], copyEnv);
    await waitForHealthy(copyPort, restored);
    const db = await embeddedDatabase(copy());
    try {
      // Every table, and every row: the counts and checksums of the snapshot, by this test's own reading.
      const tables = await tablesOf(db);
      expect(tables).toEqual(asRecord(summary));
      expect(tables.messages!.rows).toBe(RECIPIENTS);
      // The snapshot was taken mid-send, and is one snapshot: the campaign's counters agree with its messages.
      const state = await db.query(
        `SELECT c.submitted_count::int AS submitted_counter, c.delivered_count::int AS delivered_counter,
                count(*) FILTER (WHERE m.status = 'submitted')::int AS submitted, count(*) FILTER (WHERE m.status = 'delivered')::int AS delivered,
                count(*) FILTER (WHERE m.status = 'queued')::int AS queued
           FROM campaigns c JOIN messages m ON m.campaign_id = c.id WHERE c.uuid = $1 GROUP BY c.id`,
        [campaign],
      );
      const { submitted_counter, delivered_counter, submitted, delivered, queued } = state.rows[0];
      expect({ submitted: submitted_counter, delivered: delivered_counter }).toEqual({ submitted, delivered });
      expect(submitted + delivered).toBeGreaterThanOrEqual(40);
      expect(queued).toBeGreaterThan(0);
    } finally {
      await db.end();
    }
    // The same people sign in, and the sealed secrets open with the restored key (the campaign reads back).
    const copyApi = await signIn(copyPort, ADMIN.email, ADMIN.password);
    expect((await copyApi('GET', `/campaigns/${campaign}`)).data.name).toBe('Backed up');
    restored.child.kill('SIGTERM');
    expect(await restored.exited).toBe(0);
    restored = undefined;
    herald.child.kill('SIGTERM');
    expect(await herald.exited).toBe(0);
    herald = undefined;
  });

  it('backs up a stopped Herald too, and leaves its database stopped', async () => {
    const stopped = path.join(root, 'stopped.herald-backup');
    const result = await runCli(['backup', '--out', stopped], childEnv({ DATA_DIR: source() }));
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).rows).toBeGreaterThan(RECIPIENTS);
    expect(await fs.stat(path.join(source(), 'postgres', 'postmaster.pid')).catch(() => undefined)).toBeUndefined();
  });

  it('refuses to restore into a DATA_DIR that is not empty, and leaves it as it was', async () => {
    const before = await fs.readdir(copy());
    const result = await runCli(['restore', file()], childEnv({ DATA_DIR: copy() }));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`DATA_DIR (${copy()}) is not empty`);
    expect(result.stdout).toBe('');
    expect(await fs.readdir(copy())).toEqual(before);
  });

  it('refuses a cut or foreign file, and leaves no DATA_DIR behind', async () => {
    const cut = path.join(root, 'cut.herald-backup');
    const whole = await fs.readFile(file());
    await fs.writeFile(cut, whole.subarray(0, Math.floor(whole.length * 0.6)));
    const target = path.join(root, 'from-cut');
    const result = await runCli(['restore', cut], childEnv({ DATA_DIR: target }));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('is not a Herald backup, or is damaged');
    expect(await fs.stat(target).catch(() => undefined)).toBeUndefined();
    // In a service user's home, the failed restore takes away only what it wrote: npm's cache stays.
    const home = path.join(root, 'home-from-cut');
    await fs.mkdir(path.join(home, '.npm'), { recursive: true });
    const inHome = await runCli(['restore', cut], childEnv({ DATA_DIR: home }));
    expect(inHome.code).toBe(1);
    expect(inHome.stderr).toContain('is not a Herald backup, or is damaged');
    expect(await fs.readdir(home)).toEqual(['.npm']);

    const foreign = path.join(root, 'notes.txt');
    await fs.writeFile(foreign, 'not a backup\n');
    const refused = await runCli(['restore', foreign], childEnv({ DATA_DIR: target }));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('is not a Herald backup');
    // A backup made with HERALD_SECRET_KEY needs that key to be restored.
    const key = Buffer.alloc(32, 7).toString('base64');
    const withKey = path.join(root, 'with-key.herald-backup');
    const made = await runCli(['backup', '--out', withKey], childEnv({ DATA_DIR: source(), HERALD_SECRET_KEY: key }));
    expect(made.code).toBe(0);
    expect(made.stderr).toContain('The secret key comes from HERALD_SECRET_KEY and is not in the backup');
    const keyless = await runCli(['restore', withKey], childEnv({ DATA_DIR: target }));
    expect(keyless.code).toBe(1);
    expect(keyless.stderr).toContain('set HERALD_SECRET_KEY to that key to restore it');
    expect(await fs.stat(target).catch(() => undefined)).toBeUndefined();

    // A restore that was killed leaves its note, and nothing opens that folder until it is gone.
    const interrupted = path.join(root, 'interrupted');
    await fs.mkdir(interrupted);
    await fs.writeFile(path.join(interrupted, 'RESTORE-INCOMPLETE'), 'Remove everything in it and run the restore again.\n');
    const opened = await runCli(['token:create', '--email', ADMIN.email], childEnv({ DATA_DIR: interrupted }));
    expect(opened.code).toBe(1);
    expect(opened.stderr).toContain(`A restore into ${interrupted} did not finish`);
    const started = runHerald('src/server/main.ts', [], childEnv({ DATA_DIR: interrupted, PORT: String(await freePort()) }));
    expect(await started.exited).toBe(1);
    expect(started.output()).toContain('did not finish');

    const usage = await runCli(['restore'], childEnv({ DATA_DIR: target }));
    expect(usage.code).toBe(1);
    expect(usage.stderr).toContain('restore takes one backup file.');
  });
});

describe('backup and restore, external database (DATABASE_URL)', { timeout: 300_000 }, () => {
  it('restores into an empty database: every table equals its source; a database not empty is refused untouched', async () => {
    const sourceUrl = await newDatabase('source');
    const targetUrl = await newDatabase('target');
    const sourceEnv = childEnv({ DATABASE_URL: sourceUrl, DATA_DIR: path.join(root, 'external-source') });
    const seeded = await runCli(['demo:seed'], sourceEnv);
    expect(seeded.code).toBe(0);
    const file = path.join(root, 'external.herald-backup');
    const backedUp = await runCli(['backup', '--out', file], sourceEnv);
    expect(backedUp.code).toBe(0);
    expect((await runCli(['backup', '--out', file], sourceEnv)).stderr).toContain('already exists');

    const targetEnv = childEnv({ DATABASE_URL: targetUrl, DATA_DIR: path.join(root, 'external-target') });
    const result = await runCli(['restore', file], targetEnv);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);

    const read = async (url: string) => {
      const db = new pg.Client({ connectionString: url });
      await db.connect();
      try {
        return await tablesOf(db);
      } finally {
        await db.end();
      }
    };
    const copied = await read(targetUrl);
    expect(copied).toEqual(await read(sourceUrl));
    expect(copied.messages!.rows).toBeGreaterThan(0);
    expect(await fs.readFile(path.join(root, 'external-target', 'secret.key'), 'utf8')).toBe(
      await fs.readFile(path.join(root, 'external-source', 'secret.key'), 'utf8'),
    );
    // The copy works: its demo user signs in with a token made on it.
    expect((await runCli(['token:create', '--email', 'demo@herald.test'], targetEnv)).code).toBe(0);

    const again = await runCli(['restore', file], targetEnv);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('The database is not empty');
    const after = await read(targetUrl);
    expect(after.messages).toEqual(copied.messages);
    expect(Object.keys(after).sort()).toEqual(Object.keys(copied).sort());
  });
});

describe('upgrades', { timeout: 120_000 }, () => {
  it('refuses to start code older than its database, with a clear message; logs the migrations it applies', async () => {
    const url = await newDatabase('newer');
    const env = childEnv({ DATABASE_URL: url, DATA_DIR: path.join(root, 'newer'), PORT: String(await freePort()), LOG_LEVEL: 'info' });
    // A first start applies every migration, and says so.
    const first = runHerald('src/server/main.ts', ['--role', 'worker'], env);
    await vi.waitFor(() => expect(first.output()).toContain('Herald worker'), { timeout: 60_000, interval: 200 });
    expect(first.output()).toMatch(/database: applied migration 0001_foundation\.sql/);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    // The database now has a migration this code does not know, as after an upgrade by a newer Herald.
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    await db.query("INSERT INTO schema_migrations (name) VALUES ('9999_from_a_newer_herald.sql')");
    await db.end();

    const older = runHerald('src/server/main.ts', [], env);
    const outcome = await Promise.race([older.exited, new Promise((resolve) => setTimeout(() => resolve('still running after 60 s'), 60_000))]);
    older.child.kill('SIGTERM');
    expect(outcome).toBe(1);
    expect(older.output()).toContain('The database schema is newer than this Herald: it has migration 9999_from_a_newer_herald.sql');
    const cli = await runCli(['token:create', '--email', 'nobody@backup.test'], env);
    expect(cli.code).toBe(1);
    expect(cli.stderr).toContain('The database schema is newer than this Herald');

    // Its backup can be made, and is refused by this code's restore.
    const file = path.join(root, 'newer.herald-backup');
    expect((await runCli(['backup', '--out', file], env)).code).toBe(0);
    const refused = await runCli(['restore', file], childEnv({ DATA_DIR: path.join(root, 'from-newer') }));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('This backup comes from a newer Herald');
  });
});

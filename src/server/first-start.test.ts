/**
 * Several processes started at once on one empty database (issue 22, point 7), as a scaled-out
 * installation's first start does: two `--role all` and one `--role api`, each with its own DATA_DIR,
 * on a fresh database of the test run's PostgreSQL. Every one must come up and stay up; between them
 * they make one team and one admin; the generated password is in exactly one process's
 * DATA_DIR/initial-admin.txt (mode 0600), signs in, and appears in no process's output.
 *
 * Seen red: with createFirstAdmin's old catch (only an e-mail taken meant "another process made it"),
 * a process that lost the race exited at start ("The team name has already been taken"); without any
 * catch, with "The email has already been taken".
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { withDatabaseName } from './db/client';
import { childEnv, freePort, onServer, signIn, runHerald, waitForHealthy, type HeraldProcess } from './testing/processes';

const databaseName = `herald_first_${randomBytes(6).toString('hex')}`;
let root: string;
const processes: Array<{ herald: HeraldProcess; port: number; dataDir: string }> = [];

beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'herald-first-start-'));
  await onServer(inject('databaseUrl'), `CREATE DATABASE ${databaseName}`);
});
afterAll(async () => {
  for (const { herald } of processes) {
    herald.child.kill('SIGTERM');
    await herald.exited;
  }
  await fs.rm(root, { recursive: true, force: true });
  await onServer(inject('databaseUrl'), `DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
});

describe('a first start of several processes at once', { timeout: 180_000 }, () => {
  it('brings every process up, with one team, one admin and one password file between them', async () => {
    const databaseUrl = withDatabaseName(inject('databaseUrl'), databaseName);
    const secret = randomBytes(32).toString('base64');
    for (const [index, role] of (['all', 'all', 'api'] as const).entries()) {
      const port = await freePort();
      const dataDir = path.join(root, `process-${index}`);
      const env = childEnv({ DATABASE_URL: databaseUrl, DATA_DIR: dataDir, PORT: String(port), HERALD_SECRET_KEY: secret, LOG_LEVEL: 'info' });
      processes.push({ herald: runHerald('src/server/main.ts', ['--role', role], env), port, dataDir });
    }
    for (const { herald, port } of processes) await waitForHealthy(port, herald);
    // Still up a moment later: none of them failed after its port opened.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    for (const { herald } of processes) expect(herald.child.exitCode, herald.output()).toBeNull();

    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    const counts = await db.query<{ users: number; teams: number }>(
      `SELECT (SELECT count(*)::int FROM users) AS users, (SELECT count(*)::int FROM teams) AS teams`,
    );
    await db.end();
    expect(counts.rows[0]).toEqual({ users: 1, teams: 1 });

    const files: string[] = [];
    for (const { dataDir } of processes) {
      const file = path.join(dataDir, 'initial-admin.txt');
      if (
        await fs.stat(file).then(
          () => true,
          () => false,
        )
      )
        files.push(file);
    }
    expect(files).toHaveLength(1);
    expect((await fs.stat(files[0]!)).mode & 0o777).toBe(0o600);
    const password = /password: +(\S+)/.exec(await fs.readFile(files[0]!, 'utf8'))![1]!;
    for (const { herald } of processes) expect(herald.output()).not.toContain(password);
    const api = await signIn(processes[2]!.port, 'admin@herald.local', password);
    expect((await api('GET', '/users/me')).data.email).toBe('admin@herald.local');
  });
});

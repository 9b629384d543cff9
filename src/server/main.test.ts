import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childEnv, freePort, runCli, runHerald, waitForHealthy, type HeraldProcess } from './testing/processes';

// The service as `npm start` runs it: its own embedded PostgreSQL in DATA_DIR, a real port.
// Seen red: with the generated password printed as before (the output held it, and no file was written).
let dataDir: string;
let port: number;
let env: NodeJS.ProcessEnv;
let adminPassword: string;

const url = (route: string) => `http://localhost:${port}${route}`;
const start = () => runHerald('src/server/main.ts', [], env);

async function login(email: string, password: string): Promise<number> {
  const response = await fetch(url('/api/2.0/auth/login'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  return response.status;
}

function postmasterPid(): Promise<number | undefined> {
  return fs.readFile(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').then(
    (content) => Number(content.split('\n')[0]),
    () => undefined,
  );
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'herald-start-'));
  await fs.chmod(dataDir, 0o755);
  port = await freePort();
  env = childEnv({ DATA_DIR: dataDir, PORT: String(port) });
});
afterAll(async () => {
  const pid = await postmasterPid();
  if (pid && alive(pid)) process.kill(pid, 'SIGINT');
  await fs.rm(dataDir, { recursive: true, force: true });
});

describe('npm start', { timeout: 180_000 }, () => {
  let herald: HeraldProcess;

  it('starts on an empty data folder, writes the first password to a file only its owner reads, says where, and serves health', async () => {
    herald = start();
    await waitForHealthy(port, herald);
    const file = path.join(dataDir, 'initial-admin.txt');
    const written = /e-mail: +(\S+)\npassword: +(\S+)/.exec(await fs.readFile(file, 'utf8'));
    expect(written?.[1]).toBe('admin@herald.local');
    adminPassword = written![2]!;
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
    // The output (a journal, a container's log) names the file, never the password.
    expect(herald.output()).toContain(`password: in ${file}`);
    expect(herald.output()).not.toContain(adminPassword);
    expect(await login('admin@herald.local', adminPassword)).toBe(200);
    expect(await (await fetch(url('/healthz'))).json()).toEqual({ status: 'ok' });
  });

  it('lets the CLI create a user while it runs: one JSON object on stdout, a token that works', async () => {
    const result = await runCli(['user:create', '--email', 'ops@herald.test', '--password', 'ops-password-1', '--team', 'Ops'], env);
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const created = JSON.parse(lines[0]!);
    expect(Object.keys(created).sort()).toEqual(['team_uuid', 'token', 'user_uuid']);
    const me = await fetch(url('/api/2.0/users/me'), { headers: { authorization: `Bearer ${created.token}` } });
    expect(me.status).toBe(200);
    expect((await me.json()).data.current_team.name).toBe('Ops');
  });

  it('refuses a second Herald on the same data folder', async () => {
    const second = runHerald('src/server/main.ts', [], { ...env, PORT: String(await freePort()) });
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain('Herald is already running with the data folder');
    expect((await fetch(url('/healthz'))).status).toBe(200);
  });

  it('survives kill -9: the next start adopts the orphaned database and keeps the data', async () => {
    const orphan = await postmasterPid();
    herald.child.kill('SIGKILL');
    await herald.exited;
    expect(orphan && alive(orphan)).toBe(true);

    herald = start();
    await waitForHealthy(port, herald);
    expect(herald.output()).not.toContain('password:');
    expect(await login('ops@herald.test', 'ops-password-1')).toBe(200);
  });

  it('stops cleanly on SIGTERM, database included', async () => {
    const pid = await postmasterPid();
    herald.child.kill('SIGTERM');
    expect(await herald.exited).toBe(0);
    expect(alive(pid!)).toBe(false);
  });

  it('starts again after a stale postmaster.pid (the machine died)', async () => {
    await fs.writeFile(path.join(dataDir, 'postgres', 'postmaster.pid'), `999999\n${path.join(dataDir, 'postgres')}\n0\n5432\n`);
    herald = start();
    await waitForHealthy(port, herald);
    expect(await login('admin@herald.local', adminPassword)).toBe(200);
    herald.child.kill('SIGINT');
    expect(await herald.exited).toBe(0);
  });

  it('lets the CLI work while the service is stopped', async () => {
    const result = await runCli(['token:create', '--email', 'ops@herald.test', '--name', 'offline'], env);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).token).toMatch(/^hrld_/);
    expect(await postmasterPid()).toBeUndefined();
  });

  it('says so when the port is taken', async () => {
    const blocker = net.createServer().listen(port, 'localhost');
    await new Promise((resolve) => blocker.once('listening', resolve));
    const blocked = start();
    expect(await blocked.exited).toBe(1);
    expect(blocked.output()).toContain(`Port ${port} is in use`);
    blocker.close();
  });
});

describe('CLI', { timeout: 60_000 }, () => {
  it('reports a bad command or missing flag on stderr with exit codes 2 and 1', async () => {
    const unknown = await runCli(['user:delete'], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Unknown command user:delete');
    const missing = await runCli(['team:create'], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('--name is required.');
    expect(missing.stdout).toBe('');
  });
});

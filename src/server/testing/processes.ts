import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { formatTimestamp } from '../lib/time';

/** Environment for a child Herald: the embedded database unless `extra` names one — never the test run's DATABASE_URL. */
export function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  return { ...env, ...extra };
}

export type HeraldProcess = { child: ChildProcess; output(): string; exited: Promise<number | null> };

/** The processes whose working directory is inside `dir` (a Herald started there, npm and a shell before it, and its embedded database, whose working directory is its data folder). */
export async function processesIn(dir: string): Promise<Array<{ pid: number; command: string }>> {
  const found: Array<{ pid: number; command: string }> = [];
  for (const entry of await fs.readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const cwd = await fs.readlink(`/proc/${entry}/cwd`).catch(() => '');
    if (cwd !== dir && !cwd.startsWith(`${dir}/`)) continue;
    const command = (await fs.readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '')).replaceAll('\0', ' ').trim();
    found.push({ pid: Number(entry), command });
  }
  return found;
}

/** Runs a TypeScript entry point of Herald in a new Node process (through tsx). */
export function runHerald(entry: string, args: string[], env: NodeJS.ProcessEnv): HeraldProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', entry, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/** Stops the Herald processes still running, in the order given (SIGTERM, then their exit); absent ones are skipped. */
export async function stopHeralds(...processes: Array<HeraldProcess | undefined>): Promise<void> {
  for (const herald of processes) {
    if (!herald || herald.child.exitCode !== null) continue;
    herald.child.kill('SIGTERM');
    await herald.exited;
  }
}

/**
 * A Herald to crash: its own data folder, port and first admin (`admin@{name}.test`), started and
 * killed with SIGKILL at the test's moment, then started again on the same data. `settings` are its
 * environment (a quick engine tick and lease, say).
 */
export type CrashableHerald = {
  dataDir: string;
  port: number;
  env: NodeJS.ProcessEnv;
  /** Starts it and waits until it is healthy. */
  start(): Promise<void>;
  /** Kills it with SIGKILL and waits for its end. */
  kill(): Promise<void>;
  /** Kills it with SIGKILL, waits for its end, and starts it again. */
  crashAndRestart(): Promise<void>;
  /** A client of its API, signed in as its first admin. */
  signIn(): Promise<ApiCall>;
  /** A client of its embedded database (while it runs). */
  database(): Promise<pg.Client>;
  /** Stops it (SIGTERM) and removes its data folder. */
  dispose(): Promise<void>;
};

export async function crashableHerald(name: string, settings: Record<string, string>): Promise<CrashableHerald> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), `herald-${name}-`));
  await fs.chmod(dataDir, 0o755);
  const port = await freePort();
  const email = `admin@${name}.test`;
  const password = `${name}-password-1`;
  const env = childEnv({ DATA_DIR: dataDir, PORT: String(port), HERALD_ADMIN_EMAIL: email, HERALD_ADMIN_PASSWORD: password, ...settings });
  let herald: HeraldProcess | undefined;
  const start = async () => {
    herald = runHerald('src/server/main.ts', [], env);
    await waitForHealthy(port, herald);
  };
  const kill = async () => {
    herald?.child.kill('SIGKILL');
    await herald?.exited;
  };
  return {
    dataDir,
    port,
    env,
    start,
    kill,
    async crashAndRestart() {
      await kill();
      await start();
    },
    signIn: () => signIn(port, email, password),
    database: () => embeddedDatabase(dataDir),
    async dispose() {
      await stopHeralds(herald);
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Runs a CLI command to its end: its exit code, stdout and stderr apart. */
export async function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/cli/main.ts', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { code, stdout, stderr };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Polls until `/healthz` answers 200 or the process ends. */
export async function waitForHealthy(port: number, process: HeraldProcess, timeoutMs = 90_000): Promise<void> {
  let exited = false;
  void process.exited.then(() => (exited = true));
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !exited) {
    const ok = await fetch(`http://localhost:${port}/healthz`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`Herald did not become healthy on port ${port}:\n${process.output()}`);
}

/** What `signIn` gives: a call of the running service's API; the JSON answer, or an error naming any non-2xx. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read the JSON answers field by field
export type ApiCall = (method: string, route: string, body?: unknown) => Promise<any>;

/** Signs in to a Herald process on `port` with a password: the bearer token of the session. */
export async function signInToken(port: number, email: string, password: string): Promise<string> {
  const login = await fetch(`http://localhost:${port}/api/2.0/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (!login.ok) throw new Error(`sign-in as ${email} answered ${login.status}`);
  return (await login.json()).data.token;
}

/** Signs in to a Herald process on `port` with a password and returns a client of its API under /api/2.0. */
export async function signIn(port: number, email: string, password: string): Promise<ApiCall> {
  const token = await signInToken(port, email, password);
  return async (method, route, body) => {
    const response = await fetch(`http://localhost:${port}/api/2.0${route}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = response.status === 204 || response.status === 202 ? undefined : await response.json();
    if (!response.ok) throw new Error(`${method} ${route} answered ${response.status}: ${JSON.stringify(json)}`);
    return json;
  };
}

/** A client of the embedded PostgreSQL a Herald process runs in `dataDir` (its port from postmaster.pid). */
export async function embeddedDatabase(dataDir: string): Promise<pg.Client> {
  const pid = await fs.readFile(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8');
  const password = await fs.readFile(path.join(dataDir, 'postgres.password'), 'utf8');
  const client = new pg.Client({ host: '127.0.0.1', port: Number(pid.split('\n')[3]), user: 'postgres', password, database: 'postgres' });
  await client.connect();
  return client;
}

/**
 * A campaign due in a second, through the API of a running Herald: a template greeting
 * `{{first_name}}`, and a group of `recipients` UK numbers from 07700 `firstNumber` on; `extra` fields
 * of the campaign's body added (a throttled one). Returns its uuid.
 */
export async function campaignDueNow(
  api: ApiCall,
  options: { name: string; recipients: number; firstNumber: number; extra?: Record<string, unknown> },
): Promise<string> {
  const template = (await api('POST', '/templates/', { name: options.name, body: 'Hi {{first_name}}', sender: 'Herald' })).data.uuid;
  const group = (await api('POST', '/contact-groups/', { name: `${options.name} recipients` })).data.uuid;
  const contacts = Array.from({ length: options.recipients }, (_, i) => ({
    phone_number: `07700${String(options.firstNumber + i)}`,
    custom_fields: { first_name: `N${i}` },
  }));
  await api('PUT', `/contact-groups/${group}/add-contacts`, { contacts });
  const now = Date.now();
  const campaign = await api('POST', '/campaigns/', {
    name: options.name,
    sender: 'Herald',
    scheduled_send_date: formatTimestamp(new Date(now + 1000), 'Europe/London'),
    expiry_date: formatTimestamp(new Date(now + 3_600_000), 'Europe/London'),
    included_contact_groups: [group],
    template_uuid: template,
    ...options.extra,
  });
  return campaign.data.uuid;
}

/** Runs one statement on a PostgreSQL server as its admin (`CREATE DATABASE …` for a test's own database, and its `DROP`). */
export async function onServer(connectionString: string, statement: string): Promise<pg.QueryResult> {
  const admin = new pg.Client({ connectionString });
  await admin.connect();
  try {
    return await admin.query(statement);
  } finally {
    await admin.end();
  }
}

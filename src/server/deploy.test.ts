/**
 * Deploy (issue 22, point 6), as an operator does it: a copy of the package installed for production
 * (`npm ci --omit=dev`: no test or lint tooling at all), started with `npm start`. It builds the
 * dashboard, serves it and the API; then SIGTERM to the npm process (what systemd or a container
 * runtime sends) stops Herald and its embedded PostgreSQL, leaving no process behind.
 *
 * Counted from outside: every process whose working directory is inside the copy (npm, Node, the
 * PostgreSQL server and its workers), read from /proc before and after the signal.
 *
 * Seen red: with vite a dev dependency, the production start failed (npx: "missing packages
 * vite@8.3.8"); with the start script running `tsx` (which starts Node as a child of its own) without
 * `exec`, SIGTERM to npm did not stop everything.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childEnv, freePort, processesIn, signIn, waitForHealthy, type HeraldProcess } from './testing/processes';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** What a production checkout needs; tests and tooling come along but cannot run without dev dependencies. */
const SHIPPED = ['package.json', 'package-lock.json', 'index.html', 'vite.config.ts', 'postcss.config.cjs', 'tsconfig.json', 'src', 'scripts', 'public'];

let copy: string;

/** Runs a command in `cwd` to its end; rejects with its output when it fails. */
function run(command: string, args: string[], cwd: string, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: childEnv({}), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(output);
      else reject(new Error(`${command} ${args.join(' ')} exited with ${code}:\n${output}`));
    });
  });
}

beforeAll(async () => {
  copy = await fs.mkdtemp(path.join(os.tmpdir(), 'herald-deploy-'));
  await fs.chmod(copy, 0o755); // the embedded database runs as its own user when started by root
  for (const name of SHIPPED)
    await fs.cp(path.join(ROOT, name), path.join(copy, name), {
      recursive: true,
      filter: (source) => !source.includes(`${path.sep}node_modules`) && !source.endsWith('.test.ts') && !source.endsWith('.test.tsx'),
    });
  await run('npm', ['ci', '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund'], copy, 480_000);
}, 540_000);

afterAll(async () => {
  for (const { pid } of await processesIn(copy)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  await fs.rm(copy, { recursive: true, force: true });
});

describe('a production install', () => {
  it('has none of the dev dependencies, and npm start serves the dashboard and the API; SIGTERM to npm stops everything', async () => {
    // Really a production install: no test runner, no type checker.
    for (const tool of ['vitest', 'typescript', '@playwright/test'])
      expect(
        await fs.stat(path.join(copy, 'node_modules', tool)).then(
          () => true,
          () => false,
        ),
        tool,
      ).toBe(false);

    const port = await freePort();
    const dataDir = path.join(copy, 'data');
    const child = spawn('npm', ['start'], {
      cwd: copy,
      env: childEnv({
        PORT: String(port),
        DATA_DIR: dataDir,
        PUBLIC_URL: `http://localhost:${port}`,
        HERALD_ADMIN_EMAIL: 'ops@herald.test',
        HERALD_ADMIN_PASSWORD: 'deploy-password-1',
      }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const herald: HeraldProcess = { child, output: () => output, exited };
    await waitForHealthy(port, herald, 300_000);

    const page = await fetch(`http://localhost:${port}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>Herald</title>');
    const api = await signIn(port, 'ops@herald.test', 'deploy-password-1');
    expect((await api('GET', '/users/me')).data.email).toBe('ops@herald.test');

    const running = await processesIn(copy);
    expect(
      running.some((p) => p.command.includes('src/server/main.ts')),
      JSON.stringify(running),
    ).toBe(true);
    expect(
      running.some((p) => p.command.includes('postgres')),
      JSON.stringify(running),
    ).toBe(true);

    child.kill('SIGTERM');
    expect(await exited, output).toBe(0);
    // Everything it started is gone (PostgreSQL's workers leave with their server).
    let left = await processesIn(copy);
    for (let attempt = 0; attempt < 100 && left.length > 0; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      left = await processesIn(copy);
    }
    expect(left, output).toEqual([]);
    const answered = await fetch(`http://localhost:${port}/healthz`).then(
      () => true,
      () => false,
    );
    expect(answered).toBe(false);
  }, 420_000);
});

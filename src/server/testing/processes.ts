import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';

/** Environment for a child Herald: the embedded database unless `extra` names one — never the test run's DATABASE_URL. */
export function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  return { ...env, ...extra };
}

export type HeraldProcess = { child: ChildProcess; output(): string; exited: Promise<number | null> };

/** Runs a TypeScript entry point of Herald in a new Node process (through tsx). */
export function runHerald(entry: string, args: string[], env: NodeJS.ProcessEnv): HeraldProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', entry, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
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

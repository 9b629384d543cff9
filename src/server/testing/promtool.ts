import { spawn } from 'node:child_process';

/**
 * Runs Prometheus's `promtool` (Debian's `prometheus` package; `npm test` installs it through
 * scripts/ensure-promtool.mjs) to its end, `input` on its standard input. A missing promtool fails
 * the test that needs it, saying how to install it: never a skipped check.
 */
export function promtool(args: string[], input?: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('promtool', args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'ENOENT'
          ? new Error('promtool is missing: run "node scripts/ensure-promtool.mjs" as root, or "sudo apt-get install -y prometheus".')
          : error,
      ),
    );
    child.on('close', (code) => resolve({ code, output }));
    child.stdin.end(input ?? '');
  });
}

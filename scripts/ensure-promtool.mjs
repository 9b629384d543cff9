// `npm test` runs this first: the alert rules (docs/prometheus) and a real /metrics scrape are checked with
// Prometheus's promtool, which Debian ships in its `prometheus` package.
import { spawnSync } from 'node:child_process';

const found = spawnSync('promtool', ['--version'], { stdio: 'ignore' });
if (found.error || found.status !== 0) {
  if (process.getuid?.() !== 0) {
    console.error('promtool is missing: install it with "sudo apt-get install -y prometheus", then run the tests again.');
    process.exit(1);
  }
  console.error("Installing Prometheus's promtool from Debian for the alert and metrics tests…");
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update'], ['install', '-y', '--no-install-recommends', 'prometheus']]) {
    const result = spawnSync('apt-get', args, { stdio: 'inherit', env });
    if (result.status !== 0) process.exit(result.status ?? 1);
  }
}

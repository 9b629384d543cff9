// `npm test` runs this first: the dashboard's end-to-end tests drive Debian's Chromium.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

const CHROMIUM = '/usr/bin/chromium';

if (!fs.existsSync(CHROMIUM)) {
  if (process.getuid?.() !== 0) {
    console.error(`${CHROMIUM} is missing: install it with "sudo apt-get install -y chromium", then run the tests again.`);
    process.exit(1);
  }
  console.error('Installing Chromium from Debian for the end-to-end tests…');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update'], ['install', '-y', '--no-install-recommends', 'chromium']]) {
    const result = spawnSync('apt-get', args, { stdio: 'inherit', env });
    if (result.status !== 0) process.exit(result.status ?? 1);
  }
}

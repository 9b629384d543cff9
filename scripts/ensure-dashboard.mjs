// `npm start` runs this first: build the dashboard when dist/app is missing or older than its sources.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const built = 'dist/app/index.html';

function newest(entry) {
  const stat = fs.statSync(entry, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...fs.readdirSync(entry).map((name) => newest(path.join(entry, name))));
}

const builtAt = fs.statSync(built, { throwIfNoEntry: false })?.mtimeMs ?? 0;
const sourcesAt = Math.max(...['src/app', 'src/shared', 'public', 'index.html', 'vite.config.ts', 'package-lock.json'].map(newest));
if (builtAt < sourcesAt) {
  console.error(builtAt === 0 ? 'Building the dashboard (first start)…' : 'Dashboard sources changed: rebuilding…');
  const result = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
  process.exit(result.status ?? 1);
}

// The dashboard's size budget (issue #9), checked by `npm test` after `npm run build`: the initial
// JavaScript — the entry and every chunk it imports statically, all of which the first paint loads —
// at most 170 kB gzip, and every route chunk (a lazily imported page) at most 60 kB gzip. Read from
// the build's manifest, so the check is exact and the same on every machine.
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const OUT_DIR = 'dist/app';
const INITIAL_BUDGET = 170_000;
const ROUTE_BUDGET = 60_000;

const manifestPath = path.join(OUT_DIR, '.vite', 'manifest.json');
if (!fs.existsSync(manifestPath)) {
  console.error(`${manifestPath} is missing: run 'npm run build' first.`);
  process.exit(1);
}
const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8'));
const gzipSize = (file) => gzipSync(fs.readFileSync(path.join(OUT_DIR, file)), { level: 9 }).length;
const kB = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;
/** A chunk's file and those of everything it imports statically, transitively. */
const closure = (key, files = new Set()) => {
  const chunk = manifest[key];
  if (!chunk || files.has(chunk.file)) return files;
  files.add(chunk.file);
  for (const imported of chunk.imports ?? []) closure(imported, files);
  return files;
};

const failures = [];
const initial = [...new Set(Object.keys(manifest).filter((key) => manifest[key].isEntry).flatMap((key) => [...closure(key)]))].filter((file) => file.endsWith('.js'));
const initialSize = initial.reduce((sum, file) => sum + gzipSize(file), 0);
console.log(`initial JavaScript: ${kB(initialSize)} gzip in ${initial.length} files (budget ${kB(INITIAL_BUDGET)})`);
if (initialSize > INITIAL_BUDGET) failures.push(`the initial JavaScript is ${kB(initialSize)} gzip, over ${kB(INITIAL_BUDGET)}`);

const routes = Object.keys(manifest).filter((key) => manifest[key].isDynamicEntry && key.startsWith('src/app/routes/'));
if (routes.length === 0) failures.push('no lazily loaded route: route-level code splitting is gone');
let largest = { key: '', size: 0 };
for (const key of routes) {
  const size = gzipSize(manifest[key].file);
  if (size > largest.size) largest = { key, size };
  if (size > ROUTE_BUDGET) failures.push(`${key} is ${kB(size)} gzip, over ${kB(ROUTE_BUDGET)}`);
}
console.log(`route chunks: ${routes.length}, the largest ${largest.key} at ${kB(largest.size)} gzip (budget ${kB(ROUTE_BUDGET)} each)`);

if (failures.length > 0) {
  console.error(`The dashboard is over its size budget:\n- ${failures.join('\n- ')}`);
  process.exit(1);
}

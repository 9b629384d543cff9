/**
 * The dashboard's size as the first paint and each page load it, read from the build's manifest
 * (gzip level 9, as the budget counts it): the initial JavaScript is the entry and every chunk it
 * imports statically; a route chunk is a lazily imported page. Exact and the same on every machine.
 */
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

export const INITIAL_BUDGET_BYTES = 170_000;
export const ROUTE_BUDGET_BYTES = 60_000;

type ManifestChunk = { file: string; imports?: string[]; isEntry?: boolean; isDynamicEntry?: boolean };

export type BundleSize = {
  initial: { bytes: number; files: string[] };
  routes: Array<{ key: string; bytes: number }>;
};

export function measureBundle(outDir = 'dist/app'): BundleSize {
  const manifestPath = path.join(outDir, '.vite', 'manifest.json');
  if (!fs.existsSync(manifestPath)) throw new Error(`${manifestPath} is missing: run 'npm run build' first.`);
  const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as Record<string, ManifestChunk>;
  const gzipSize = (file: string) => gzipSync(fs.readFileSync(path.join(outDir, file)), { level: 9 }).length;
  /** A chunk's file and those of everything it imports statically, transitively. */
  const closure = (key: string, files = new Set<string>()): Set<string> => {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return files;
    files.add(chunk.file);
    for (const imported of chunk.imports ?? []) closure(imported, files);
    return files;
  };
  const entries = Object.keys(manifest).filter((key) => manifest[key]!.isEntry);
  const files = [...new Set(entries.flatMap((key) => [...closure(key)]))].filter((file) => file.endsWith('.js'));
  const routes = Object.keys(manifest)
    .filter((key) => manifest[key]!.isDynamicEntry && key.startsWith('src/app/routes/'))
    .map((key) => ({ key, bytes: gzipSize(manifest[key]!.file) }))
    .sort((a, b) => b.bytes - a.bytes);
  return { initial: { bytes: files.reduce((sum, file) => sum + gzipSize(file), 0), files }, routes };
}

import fs from 'node:fs';
import path from 'node:path';

/**
 * Import cycles among the project's own files (src, bench, e2e, scripts), as the files each passes
 * through, starting from its first file in name order. `types: true` counts `import type` too (as
 * `npm run lint` does: a cycle of types is still two files that cannot be read apart); without it,
 * only imports that exist at run time.
 */
export function importCycles(root: string, options: { folders?: string[]; types?: boolean } = {}): string[][] {
  const folders = options.folders ?? ['src', 'bench', 'e2e', 'scripts'];
  const files = folders.flatMap((folder) => sourceFiles(path.join(root, folder)));
  const known = new Set(files);
  const edges = new Map(files.map((file) => [file, importsOf(file, known, options.types === true)]));
  const cycles = new Map<string, string[]>();
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of edges.get(file) ?? []) {
      if (state.get(next) === 'open') {
        const cycle = stack.slice(stack.indexOf(next));
        const first = cycle.indexOf([...cycle].sort()[0]!);
        const rotated = [...cycle.slice(first), ...cycle.slice(0, first)].map((name) => path.relative(root, name));
        cycles.set(rotated.join(' → '), rotated);
      } else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of [...files].sort()) if (!state.has(file)) visit(file);
  return [...cycles.values()];
}

function sourceFiles(folder: string): string[] {
  if (!fs.existsSync(folder)) return [];
  return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'gen' ? [] : sourceFiles(full);
    return /\.(ts|tsx|mts|js|mjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** The project files a file imports at run time (relative specifiers only: packages cannot cycle back). */
function importsOf(file: string, known: Set<string>, types: boolean): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const found: string[] = [];
  const statement = /^\s*(import|export)\s+(type\s+)?([^'";]*?\sfrom\s+)?['"](\.[^'"]+)['"]/gm;
  for (const match of text.matchAll(statement)) {
    if (match[2] && !types) continue; // import type / export type
    // `import { type A, type B } from` is type-only too.
    const names = match[3]?.match(/\{([^}]*)\}/)?.[1];
    if (!types && names && match[3] && !/^\s*\w+\s*,/.test(match[3]) && names.split(',').every((name) => name.trim() === '' || name.trim().startsWith('type ')))
      continue;
    const target = resolve(path.dirname(file), match[4]!, known);
    if (target) found.push(target);
  }
  return found;
}

function resolve(from: string, specifier: string, known: Set<string>): string | undefined {
  const base = path.resolve(from, specifier);
  const candidates = [
    base,
    ...['.ts', '.tsx', '.mts', '.js', '.mjs'].map((ext) => base + ext),
    ...['index.ts', 'index.tsx'].map((name) => path.join(base, name)),
  ];
  // `./x.js` written for ESM may name `./x.ts`.
  if (/\.m?js$/.test(base)) candidates.push(base.replace(/\.m?js$/, '.ts'));
  return candidates.find((candidate) => known.has(candidate));
}

const invokedDirectly = process.argv[1] !== undefined && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname);
if (invokedDirectly) {
  const cycles = importCycles(process.cwd(), { types: true });
  for (const cycle of cycles) console.error(`import cycle: ${[...cycle, cycle[0]].join(' → ')}`);
  if (cycles.length > 0) process.exit(1);
  console.log('no import cycles');
}

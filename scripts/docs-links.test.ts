// A newcomer who clones the repository finds every document it links to (docs/ARCHITECTURE.md,
// issue 17), and nothing in it points at design documents kept outside it (`../shared/`).
//
// Seen red: a link `[x](nope.md)` added to docs/interface.md failed the link test, naming the file
// and the link; so did README.md linking `docs/architecture.md` after the rename to ARCHITECTURE.md
// (links are checked against the repository's own file names, so case counts even on a file system
// that ignores it). Two scratch files, not yet tracked, failed the second test: a Markdown file and a
// source comment, each naming a document in the folder outside the repository. The code's imports of
// src/shared (`from '../../shared/contract'`) pass. With the four undone, the tests pass.
//
// Every file or folder a document names in backticks (`src/server/...`, `engine/store/claims.ts`,
// `scripts/...`, `migrations/*.sql`) exists: a short path resolves to any file or folder of the
// repository whose path ends with it. Seen red: docs/engine.md naming `engine/store/claimz.ts` failed
// naming the document and the path, and so did ARCHITECTURE.md's `<name>.handlers.ts` (a pattern that
// matches no file); with both undone it passes.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const SELF = 'scripts/docs-links.test.ts';

/** The files a clone gets, and new ones not yet committed (ignored ones, such as dist/, left out). */
const FILES = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: ROOT, encoding: 'utf8' })
  .split('\0')
  .filter((file) => file !== '' && fs.existsSync(path.join(ROOT, file)));
const FILE_SET = new Set(FILES);
const DIRECTORIES = new Set(
  FILES.flatMap((file) =>
    file
      .split('/')
      .slice(0, -1)
      .map((_, i, parts) => parts.slice(0, i + 1).join('/')),
  ),
);

const DOCUMENTS = FILES.filter((file) => ['README.md', 'BENCHMARKS.md', 'SECURITY.md'].includes(file) || /^docs\/.+\.md$/.test(file));

/** Targets of inline links and images (`[text](target "title")`) and of reference definitions (`[label]: target`). */
function linkTargets(markdown: string): string[] {
  const text = markdown
    .replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '') // fenced code
    .replace(/`[^`\n]*`/g, ''); // inline code
  const targets: string[] = [];
  for (const match of text.matchAll(/\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+"[^"]*")?\s*\)/g)) targets.push(match[1]!.replace(/^<|>$/g, ''));
  for (const match of text.matchAll(/^\s{0,3}\[[^\]]+\]:\s*(\S+)/gm)) targets.push(match[1]!.replace(/^<|>$/g, ''));
  return targets;
}

const isExternal = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//');

/** The repository path a relative link leads to, or null when it leaves the repository. */
function resolveLink(document: string, target: string): string | null {
  const bare = decodeURI(target.replace(/[#?].*$/, ''));
  const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(document), bare)).replace(/\/$/, '');
  return resolved.startsWith('../') || resolved === '..' ? null : resolved;
}

const isTextFile = (file: string) =>
  file !== SELF && file !== 'openapi.json' && !file.startsWith('src/app/api/gen/') && !/\.(png|jpe?g|gif|webp|ico|woff2?|ttf|pdf|zip|gz)$/i.test(file);

/**
 * A `../shared/…` that is not an import is a pointer to the design documents outside the repository
 * unless it leads, from that file's folder, to something inside the repository.
 */
function pointsOutside(file: string, reference: string): boolean {
  const resolved = path.posix
    .normalize(path.posix.join(path.posix.dirname(file), reference))
    .replace(/[.,:;)]+$/, '')
    .replace(/\/$/, '');
  if (resolved.startsWith('../')) return true;
  const candidates = [resolved, ...['.ts', '.tsx', '.js', '.mjs', '/index.ts'].map((suffix) => resolved + suffix)];
  return !candidates.some((candidate) => FILE_SET.has(candidate) || DIRECTORIES.has(candidate));
}

/** What precedes a module specifier: `from '`, `import('`, `vi.mock('`, `require('`. */
const IMPORT_BEFORE = /(?:\bfrom\s*|\b(?:import|require|vi\.mock)\(\s*)['"]$/;

/** A backticked path that names nothing in the repository on purpose, with the reason. */
const EXAMPLE_PATHS = new Map([
  ['herald-api.d.ts', "docs/api.md: the file an integrator's openapi-typescript writes, outside Herald"],
  ['herald-example.ts', 'docs/api.md: where an integrator saves the example the page shows'],
  ['prometheus.yml', "docs/operations.md: the operator's Prometheus configuration"],
]);

const SOURCE_EXTENSION = /\.(ts|tsx|mts|mjs|cjs|js|json|md|sql|css|yaml|yml|sh|html)$/;
const FOLDER_NAMES = new Set([...DIRECTORIES].map((directory) => directory.split('/').at(-1)!));

/** Backticked spans that look like a path of the repository (not URLs, MIME types, DATA_DIR's files or host paths). */
function namedPaths(markdown: string): string[] {
  const text = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
  const paths: string[] = [];
  for (const match of text.matchAll(/`([^`\n]+)`/g)) {
    const span = match[1]!.replace(/^\.\//, '');
    if (/[\s:=,@…{]/.test(span) || span.startsWith('/') || /^[A-Z][A-Z0-9_]*\//.test(span)) continue;
    const first = span.split('/')[0]!;
    if (SOURCE_EXTENSION.test(span) || (span.includes('/') && (FOLDER_NAMES.has(first) || FILE_SET.has(first)))) paths.push(span);
  }
  return paths;
}

/** Whether a named path (or a pattern with `<name>` and `*`) is a file or folder of the repository, or ends one's path. */
function exists(document: string, named: string): boolean {
  const bare = named.replace(/\/$/, '');
  const pattern = new RegExp(
    `(^|/)${bare
      .split(/(<[^>]+>|\*)/)
      .map((part, i) => (i % 2 === 1 ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('')}$`,
  );
  const relative = path.posix.normalize(path.posix.join(path.posix.dirname(document), bare));
  return (
    FILE_SET.has(relative) || DIRECTORIES.has(relative) || FILES.some((file) => pattern.test(file)) || [...DIRECTORIES].some((folder) => pattern.test(folder))
  );
}

describe('documented paths', () => {
  it('finds the paths it checks, short and long', () => {
    const named = namedPaths(fs.readFileSync(path.join(ROOT, 'docs/ARCHITECTURE.md'), 'utf8'));
    expect(named).toEqual(expect.arrayContaining(['src/server/testing', 'http/auth.ts', 'db/schema.ts', 'scripts/lint-rules.test.ts', 'migrations/*.sql']));
    expect(named).not.toContain('/api/2.0');
  });

  it('names only files and folders that exist, in README.md, BENCHMARKS.md, SECURITY.md and docs/', () => {
    const missing: string[] = [];
    for (const document of DOCUMENTS)
      for (const named of namedPaths(fs.readFileSync(path.join(ROOT, document), 'utf8')))
        if (!EXAMPLE_PATHS.has(named) && !exists(document, named)) missing.push(`${document}: \`${named}\``);
    expect([...new Set(missing)]).toEqual([]);
    const named = new Set(DOCUMENTS.flatMap((document) => namedPaths(fs.readFileSync(path.join(ROOT, document), 'utf8'))));
    expect(
      [...EXAMPLE_PATHS.keys()].filter((example) => !named.has(example)),
      'allowed examples no document names any more',
    ).toEqual([]);
  });
});

describe('documentation links', () => {
  it('finds the documents it checks', () => {
    expect(DOCUMENTS).toEqual(expect.arrayContaining(['README.md', 'docs/ARCHITECTURE.md', 'docs/interface.md', 'docs/api-conventions.md', 'docs/engine.md']));
  });

  it('resolves every relative link of README.md, BENCHMARKS.md, SECURITY.md and docs/ to a file of the repository', () => {
    const broken: string[] = [];
    for (const document of DOCUMENTS) {
      for (const target of linkTargets(fs.readFileSync(path.join(ROOT, document), 'utf8'))) {
        if (isExternal(target) || target.startsWith('#')) continue;
        const resolved = resolveLink(document, target);
        if (resolved === null || !(FILE_SET.has(resolved) || DIRECTORIES.has(resolved))) broken.push(`${document}: (${target})`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('has no file pointing at ../shared/, the design documents outside the repository', () => {
    const outside: string[] = [];
    for (const file of FILES.filter(isTextFile)) {
      const content = fs.readFileSync(path.join(ROOT, file));
      if (content.includes(0)) continue; // binary
      const lines = content.toString('utf8').split('\n');
      lines.forEach((line, index) => {
        for (const match of line.matchAll(/(?:\.\.\/)+shared\/[\w./-]*/g)) {
          // A module specifier is the code importing src/shared (the type check resolves those).
          if (IMPORT_BEFORE.test(line.slice(0, match.index))) continue;
          if (pointsOutside(file, match[0])) outside.push(`${file}:${index + 1}: ${match[0]}`);
        }
        if (line.includes('/work/shared')) outside.push(`${file}:${index + 1}: /work/shared`);
      });
    }
    expect(outside).toEqual([]);
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importCycles } from './import-cycles';

// `npm run lint` fails on any import cycle of the project's files, type imports included. This test
// gives the check files with and without cycles; it went red when the check skipped type imports
// (the first case) and when it stopped following `./x.js` specifiers (the second).
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-cycles-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

function tree(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(root, 'tree-'));
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

describe('import cycles', () => {
  it('finds a cycle made only of type imports', () => {
    const dir = tree({
      'src/a.ts': "import type { B } from './b';\nexport type A = B;\n",
      'src/b.ts': "import type { A } from './a';\nexport type B = { a?: A };\n",
    });
    expect(importCycles(dir, { types: true })).toEqual([['src/a.ts', 'src/b.ts']]);
  });

  it('finds a longer cycle through folders and .js specifiers, once', () => {
    const dir = tree({
      'src/x/one.ts': "import { two } from '../y/two.js';\nexport const one = () => two;\n",
      'src/y/two.ts': "export { three as two } from './three';\n",
      'src/y/three.ts': "import { one } from '../x/one';\nexport const three = () => one;\n",
    });
    expect(importCycles(dir, { types: true })).toEqual([['src/x/one.ts', 'src/y/two.ts', 'src/y/three.ts']]);
  });

  it('finds nothing in a tree that only imports downwards', () => {
    const dir = tree({
      'src/main.ts': "import { a } from './lib/a';\nimport type { B } from './lib/b';\nexport const main = (b: B) => a(b);\n",
      'src/lib/a.ts': "import type { B } from './b';\nexport const a = (b: B) => b;\n",
      'src/lib/b.ts': 'export type B = number;\n',
    });
    expect(importCycles(dir, { types: true })).toEqual([]);
  });

  it('finds none in Herald itself', () => {
    expect(importCycles(path.resolve(__dirname, '..'), { types: true })).toEqual([]);
  });
});

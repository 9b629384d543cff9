/**
 * The SMS gateway port is the one real gateways need (issue 33, point 9): nothing outside
 * gateways/sms/ knows the simulator's `recall` or `fence`. The engine hands over with an attempt
 * token and asks a gateway that can tell what it took (`taken`); that the simulator orders
 * hand-overs by the token (its fences) is its own business. Allowed besides: db/schema.ts (the
 * description of every table, the simulator's included), migrations (not .ts) and tests.
 *
 * Seen red: with engine.ts asking `gateway.recall` again (the port's old name), this test failed
 * naming engine.ts (and the typecheck too).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SERVER = join(__dirname, '..', '..');
const OWNER = join('gateways', 'sms');
const ALLOWED = new Set([join('db', 'schema.ts')]);
const WORDS = /\b(?:recall|fence)\b/i;

function sources(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe("the simulator's recall and fences", () => {
  it('are named only in gateways/sms/', () => {
    const files = sources(SERVER).map((path) => relative(SERVER, path));
    const naming = files.filter((file) => WORDS.test(readFileSync(join(SERVER, file), 'utf8')));
    expect(naming.filter((file) => !file.startsWith(OWNER + '/') && !ALLOWED.has(file))).toEqual([]);
    // The scan sees what it looks for: the simulator does name them.
    expect(naming).toContain(join(OWNER, 'simulator-ledger.ts'));
  });
});

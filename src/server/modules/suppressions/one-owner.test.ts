/**
 * Opt-outs have one owner (issue 33): no server code but the suppressions module names the
 * suppression list's storage in SQL or in a check of a group's role — the history table
 * `opt_out_events` and the role `'optouts'` of the team's default_optouts group. Everyone else
 * calls the `Suppressions` interface, or composes suppressions.sql.ts's statements (the engine).
 * Allowed besides: db/schema.ts (the description of every table), migrations (not .ts) and tests,
 * which count rows as the outside world sees them.
 *
 * Seen red: with the engine's claim given back its own lookup of default_optouts (the inline
 * `… AND g.system_role = 'optouts'` statement, then in engine/store/claims.ts, now store/opt-outs.ts), this test failed naming
 * that file.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SERVER = join(__dirname, '..', '..');
const OWNER = join('modules', 'suppressions');
const ALLOWED = new Set([join('db', 'schema.ts')]);

/** SQL that reads or writes the history, and the list's role, in any spelling of a check. */
const STORAGE = [/\b(?:from|into|update|join|table)\s+opt_out_events\b/i, /'optouts'/];

function sources(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('the suppression list', () => {
  it('is named in SQL only by its own module', () => {
    const files = sources(SERVER).map((path) => relative(SERVER, path));
    const owners = files.filter((file) => STORAGE.some((pattern) => pattern.test(readFileSync(join(SERVER, file), 'utf8'))));
    expect(owners.filter((file) => !file.startsWith(OWNER + '/') && !ALLOWED.has(file))).toEqual([]);
    // The scan sees what it looks for: the module itself does name the storage.
    expect(owners.filter((file) => file.startsWith(OWNER + '/')).sort()).toEqual([
      join(OWNER, 'suppressions.repository.ts'),
      join(OWNER, 'suppressions.service.ts'),
      join(OWNER, 'suppressions.sql.ts'),
    ]);
  });
});

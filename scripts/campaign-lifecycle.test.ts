// A campaign's lifecycle has one owner (issue 33): src/server/modules/campaigns/lifecycle.ts declares
// its states and transitions, docs/engine.md shows that declaration, and no other file of the service
// writes the columns that hold a campaign's state.
//
// Seen red: the stop's UPDATE (stopped_at, status, next_sequence) put back into campaigns.repository.ts
// failed the scan, naming the file and the columns; a row of the transitions table edited by hand in
// docs/engine.md, and a transition added to CAMPAIGN_TRANSITIONS without `npm run docs:lifecycle`,
// each failed the document test. With both undone, the tests pass.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CAMPAIGN_STATES, CAMPAIGN_TRANSITIONS, campaignLifecycle, lifecycleTables } from '../src/server/modules/campaigns/lifecycle';
import { documentedTables, ENGINE_DOC } from './gen-lifecycle-docs';

const ROOT = path.resolve(import.meta.dirname, '..');
const OWNER = 'src/server/modules/campaigns/lifecycle.ts';

/** The columns that hold a campaign's state: only the owner writes them. */
const STATE_COLUMNS = [
  'status',
  'is_draft',
  'approval_status',
  'approval_requested_by',
  'approval_requested_at',
  'approval_decided_by',
  'approval_decided_at',
  'approval_comment',
  'approval_recipients',
  'approval_notice',
  'manually_paused',
  'resumed_at',
  'stopped_at',
  'stopped_by',
  'stop_swept',
  'expired_at',
  'started_sending_at',
  'finished_sending_at',
  'ab_winner',
  'ab_decided_by',
  'ab_decided_at',
];
const camel = (column: string) => column.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

/**
 * The state columns a source text writes to `campaigns`: in SQL (`UPDATE campaigns … SET col =`,
 * `INSERT INTO campaigns (col, …)`) and through Drizzle (`.update(campaigns).set({ col: … })`,
 * `.insert(campaigns).values({ col: … })`).
 */
function stateWrites(source: string): string[] {
  const found = new Set<string>();
  for (const match of source.matchAll(/\bUPDATE\s+campaigns\b(?:\s+(?!SET\b)\w+)?\s+SET\b/gi)) {
    // The assignments: from SET to the statement's WHERE, FROM or RETURNING.
    const rest = source.slice(match.index + match[0].length, match.index + match[0].length + 2000).replace(/--[^\n]*/g, ''); // SQL comments out
    const assignments = rest.slice(0, rest.search(/\b(WHERE|FROM|RETURNING)\b|$/i));
    for (const assigned of `,${assignments}`.matchAll(/,\s*([a-z_]+)\s*=(?!=)/gi)) {
      const column = assigned[1]!.toLowerCase();
      if (STATE_COLUMNS.includes(column)) found.add(column);
    }
  }
  for (const match of source.matchAll(/\bINSERT\s+INTO\s+campaigns\s*\(([^)]*)\)/gi)) {
    for (const column of match[1]!.split(',').map((c) => c.trim().toLowerCase())) if (STATE_COLUMNS.includes(column)) found.add(column);
  }
  for (const match of source.matchAll(/\.(?:update|insert)\(\s*campaigns\s*\)[\s\S]{0,300}?\.(?:set|values)\(\s*\{([^}]*)\}/g)) {
    for (const column of STATE_COLUMNS) if (new RegExp(`\\b${camel(column)}\\s*:`).test(match[1]!)) found.add(column);
  }
  return [...found].sort();
}

/**
 * The service's source files, but the owner's. Left out: tests and src/server/testing, whose fixtures
 * write campaigns as the engine leaves them (a sent campaign of a million messages in one statement),
 * and the migrations, which are history (the SQL files are the database's truth, never edited).
 */
function serviceFiles(): string[] {
  return execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z', 'src/server'], { cwd: ROOT, encoding: 'utf8' })
    .split('\0')
    .filter((file) => /\.ts$/.test(file) && !/\.test\.ts$/.test(file) && !file.startsWith('src/server/testing/') && file !== OWNER)
    .filter((file) => fs.existsSync(path.join(ROOT, file)));
}

describe('the campaign lifecycle has one owner', () => {
  it('recognises a write of a state column in SQL and through Drizzle, and not a read or a counter', () => {
    const stop = `
      UPDATE campaigns
         SET stopped_at = \${now}, stopped_by = \${userId}, updated_at = \${now}, audience_after = NULL,
             -- a comment between two assignments
             status = CASE WHEN status = 0 THEN 2 ELSE status END
       WHERE id = \${id} AND status IN (0, 1)`;
    expect(stateWrites(stop)).toEqual(['status', 'stopped_at', 'stopped_by']);
    expect(stateWrites('UPDATE campaigns c SET status = 2, finished_sending_at = now() WHERE c.status = 1')).toEqual(['finished_sending_at', 'status']);
    expect(stateWrites('INSERT INTO campaigns (team_id, name, is_draft) VALUES (1, 2, true)')).toEqual(['is_draft']);
    expect(stateWrites('await db.update(campaigns).set({ name, manuallyPaused: true }).where(eq(campaigns.id, id))')).toEqual(['manually_paused']);
    expect(stateWrites('UPDATE campaigns SET unsent_count = unsent_count + 1, next_sequence = message_count + 1 WHERE id = 1 AND status = 1')).toEqual([]);
    expect(stateWrites("UPDATE messages SET status = 'failed' WHERE campaign_id = 1")).toEqual([]);
    expect(stateWrites('SELECT id FROM campaigns WHERE status = 0 AND stopped_at IS NULL')).toEqual([]);
  });

  it(`lets no file of the service but ${OWNER} write a campaign's state`, () => {
    const writers = serviceFiles()
      .map((file) => ({ file, columns: stateWrites(fs.readFileSync(path.join(ROOT, file), 'utf8')) }))
      .filter((writer) => writer.columns.length > 0);
    expect(writers).toEqual([]);
    // The owner itself is seen by the scan (so an empty list above is not a scan that finds nothing).
    expect(stateWrites(fs.readFileSync(path.join(ROOT, OWNER), 'utf8'))).toContain('status');
  });

  it('declares each transition between declared states, written by one of its functions, and uses every function', () => {
    const states = new Set(CAMPAIGN_STATES.map((s) => s.state));
    for (const transition of CAMPAIGN_TRANSITIONS) {
      for (const from of transition.from === 'new' ? [] : transition.from) expect(states).toContain(from);
      expect(states).toContain(transition.to);
      expect(typeof campaignLifecycle[transition.by]).toBe('function');
    }
    expect(new Set(CAMPAIGN_TRANSITIONS.map((t) => t.by))).toEqual(new Set(Object.keys(campaignLifecycle)));
    // Every state can be reached.
    for (const state of states) expect(CAMPAIGN_TRANSITIONS.some((t) => t.to === state)).toBe(true);
  });

  it('shows in docs/engine.md the states and transitions it declares (npm run docs:lifecycle writes them)', () => {
    expect(documentedTables(fs.readFileSync(ENGINE_DOC, 'utf8'))).toBe(lifecycleTables());
  });
});

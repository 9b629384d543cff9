/**
 * `arrayParam` writes PostgreSQL array literals by hand: every value must come back from the
 * database exactly as it went in — quotes, backslashes, commas, braces, the word NULL, empty
 * strings, line breaks, non-Latin text — and null must stay null. Shown able to fail: with the
 * escaping of `"` and `\` removed, the round trip of those values went red (PostgreSQL refused the
 * literal, or read a different string).
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app';
import { arrayParam } from './arrays';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('arrayParam', () => {
  it('carries any text through unchanged, and null as null', async () => {
    const values = [
      'plain',
      '',
      'NULL',
      'null',
      'a,b',
      '{braces}',
      'say "hi"',
      'back\\slash',
      '\\"',
      'line\nbreak\ttab',
      ' spaced ',
      'Grüße 你好 🙂',
      "it's",
      null,
    ];
    const { rows } = await t.database.db.execute<{ value: string | null; n: number }>(
      sql`SELECT value, n::int FROM unnest(${arrayParam(values)}::text[]) WITH ORDINALITY AS u(value, n) ORDER BY n`,
    );
    expect(rows.map((row) => row.value)).toEqual(values);
  });

  it('carries numbers, big integers and booleans, and an empty list', async () => {
    const { rows } = await t.database.db.execute<{ ids: string[]; flags: boolean[]; none: string[] }>(sql`
      SELECT ${arrayParam([1, 9007199254740993n, -3])}::bigint[]::text[] AS ids, ${arrayParam([true, false, null])}::boolean[] AS flags, ${arrayParam([])}::text[] AS none`);
    expect(rows[0]).toEqual({ ids: ['1', '9007199254740993', '-3'], flags: [true, false, null], none: [] });
  });
});

/**
 * docs/events.md's table of events names the fields their schemas have (issue 33, point 5): for every
 * event type a row, and its `data` column, as far as it spells a shape out (`campaign {uuid, name}`,
 * `messages [{…}]`, bare names), has exactly the fields of the type's zod schema in
 * src/shared/contract/events.ts at each level it names.
 *
 * Seen red: with `rows_total` renamed in the import schema (the import.finished row named a field the
 * schema lacked, and the reverse), and with the `report.ready` row left out of the table.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { EVENT_SCHEMAS, EVENT_TYPES } from '../src/shared/contract';

/** Field names, each with the fields the table names inside it (null: named without them). */
type Fields = Map<string, Fields | null>;

const ROOT = path.resolve(import.meta.dirname, '..');
const DOC = fs.readFileSync(path.join(ROOT, 'docs/events.md'), 'utf8');

/** Reads `a, b {c, d}, e [{f, g}]` into fields. */
function parseFields(text: string): Fields {
  let at = 0;
  const list = (): Fields => {
    const fields: Fields = new Map();
    for (;;) {
      while (text[at] === ' ' || text[at] === ',') at++;
      const name = /^[a-z_]+/.exec(text.slice(at))?.[0];
      if (!name) return fields;
      at += name.length;
      while (text[at] === ' ') at++;
      let inner: Fields | null = null;
      if (text.startsWith('{', at) || text.startsWith('[{', at)) {
        const array = text[at] === '[';
        at += array ? 2 : 1;
        inner = list();
        at += array ? 2 : 1; // `}` or `}]`
      }
      fields.set(name, inner);
    }
  };
  return list();
}

const hasField = (fields: Fields, name: string): boolean => [...fields].some(([key, inner]) => key === name || (inner !== null && hasField(inner, name)));

/** The table's `data` fields of each event type: a row's shapes, or "the same" as the row above; names already in the shape are mentions. */
function documentedFields(): Map<string, Fields> {
  const table = /^\| type \| when \| `data` \|\n\|[-|]+\|\n((?:\|.*\|\n)+)/m.exec(DOC);
  expect(table, 'the table of events in docs/events.md').not.toBeNull();
  const byType = new Map<string, Fields>();
  let previous: Fields = new Map();
  for (const row of table![1]!.trim().split('\n')) {
    const [types, , data] = row
      .slice(1, -1)
      .split('|')
      .map((cell) => cell.trim());
    let fields: Fields = new Map();
    if (data!.startsWith('the same')) fields = previous;
    else
      for (const [, code] of data!.matchAll(/`([^`]+)`/g)) {
        if (!/^[a-z_]+(\s*(\{.*\}|\[\{.*\}\]))?$/.test(code!)) continue;
        for (const [name, inner] of parseFields(code!)) if (inner !== null || !hasField(fields, name)) fields.set(name, inner);
      }
    previous = fields;
    for (const [, type] of types!.matchAll(/`([^`]+)`/g)) byType.set(type!, fields);
  }
  return byType;
}

/** The object a field's schema holds, through null, optional and arrays; undefined for a scalar. */
function objectOf(schema: z.ZodType): z.ZodObject | undefined {
  const def = schema._zod.def as { type: string; innerType?: z.ZodType; element?: z.ZodType };
  if (def.type === 'object') return schema as z.ZodObject;
  if (def.type === 'nullable' || def.type === 'optional') return objectOf(def.innerType!);
  if (def.type === 'array') return objectOf(def.element!);
  return undefined;
}

/** Where the documented fields and the schema's differ, as `path: documented … / schema …`. */
function differences(documented: Fields, schema: z.ZodObject, at: string): string[] {
  const names = Object.keys(schema.shape).sort();
  const written = [...documented.keys()].sort();
  const found = names.join(',') === written.join(',') ? [] : [`${at}: documented {${written.join(', ')}}, schema {${names.join(', ')}}`];
  for (const [name, inner] of documented) {
    const field = schema.shape[name] as z.ZodType | undefined;
    const object = field && objectOf(field);
    if (inner === null || !field) continue;
    if (!object) found.push(`${at}.${name}: documented with fields, a scalar in the schema`);
    else found.push(...differences(inner, object, `${at}.${name}`));
  }
  return found;
}

describe('docs/events.md and the event schemas', () => {
  const documented = documentedFields();

  it('has a row for every event type', () => {
    expect([...documented.keys()].sort()).toEqual([...EVENT_TYPES].sort());
  });

  it.each(EVENT_TYPES.map((type) => [type]))('names the fields of %s’s data as its schema has them', (type) => {
    const data = EVENT_SCHEMAS[type].shape.data as z.ZodObject;
    expect(differences(documented.get(type) ?? new Map(), data, 'data')).toEqual([]);
  });
});

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describedCatalog, drizzleColumn, drizzleTable, readCatalog, type CatalogTable } from '../testing/database-catalog';
import { createTestApp, type TestApp } from '../testing/test-app';
import * as schema from './schema';

// The database after every migration, compared both ways with what describes it: src/server/db/schema.ts
// (every table, column, type, nullability, default, primary key, single-column unique constraint and
// foreign key) and the table list of docs/ARCHITECTURE.md. A failure names the table or column and
// says what to add, change or remove (for a new table, its whole description in schema.ts's style).
//
// Seen red: with `approvalNotice` removed from `campaigns` in schema.ts, the schema test failed with
// "campaigns.approval_notice is in the database but not in src/server/db/schema.ts: add to `campaigns`
// approvalNotice: text('approval_notice'),"; with the row of `simulator_fences` removed from
// ARCHITECTURE.md's table list, the documentation test failed naming it.
const ROOT = path.resolve(import.meta.dirname, '../../..');
const ARCHITECTURE = 'docs/ARCHITECTURE.md';

let t: TestApp;
let database: CatalogTable[];

beforeAll(async () => {
  t = await createTestApp();
  database = await readCatalog(t.database.pool);
});
afterAll(() => t.close());

const SCHEMA = 'src/server/db/schema.ts';

function compareColumns(actual: CatalogTable, described: CatalogTable): string[] {
  const differences: string[] = [];
  const exportName = actual.name.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
  for (const column of actual.columns) {
    const mine = described.columns.find((candidate) => candidate.name === column.name);
    const line = drizzleColumn(actual, column);
    if (!mine) {
      differences.push(`${actual.name}.${column.name} is in the database but not in ${SCHEMA}: add to \`${exportName}\`\n  ${line}`);
      continue;
    }
    const unlike = (['type', 'notNull', 'default', 'identity'] as const)
      .filter((field) => mine[field] !== column[field])
      .map((field) => `${field}: ${JSON.stringify(mine[field])} described, ${JSON.stringify(column[field])} in the database`);
    if (unlike.length > 0) differences.push(`${actual.name}.${column.name} differs (${unlike.join('; ')}): describe it as\n  ${line}`);
  }
  for (const column of described.columns)
    if (!actual.columns.some((candidate) => candidate.name === column.name))
      differences.push(`${actual.name}.${column.name} is described in ${SCHEMA} but the database has no such column: remove it from \`${exportName}\``);
  return differences;
}

function compareKeys(actual: CatalogTable, described: CatalogTable): string[] {
  const differences: string[] = [];
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  if (!same(described.primaryKey, actual.primaryKey))
    differences.push(`${actual.name}: primary key (${described.primaryKey.join(', ')}) described, (${actual.primaryKey.join(', ')}) in the database`);
  if (!same([...described.unique].sort(), [...actual.unique].sort()))
    differences.push(
      `${actual.name}: unique columns [${[...described.unique].sort().join(', ')}] described, [${[...actual.unique].sort().join(', ')}] in the database`,
    );
  const spell = (key: CatalogTable['foreignKeys'][number]) => `${key.column} → ${key.table}.${key.references} on delete ${key.onDelete}`;
  const mine = described.foreignKeys.map(spell).sort();
  const theirs = actual.foreignKeys.map(spell).sort();
  for (const key of theirs.filter((key) => !mine.includes(key)))
    differences.push(`${actual.name}: foreign key ${key} is in the database but not described in ${SCHEMA}`);
  for (const key of mine.filter((key) => !theirs.includes(key)))
    differences.push(`${actual.name}: foreign key ${key} is described in ${SCHEMA} but not in the database`);
  return differences;
}

describe(SCHEMA, () => {
  it('describes every table of the migrated database, and no other', () => {
    const described = describedCatalog(schema).map((table) => table.name);
    const differences = [
      ...database
        .filter((table) => !described.includes(table.name))
        .map((table) => `table ${table.name} is in the database but not in ${SCHEMA}: add\n${drizzleTable(table)}`),
      ...described
        .filter((name) => !database.some((table) => table.name === name))
        .map((name) => `table ${name} is described in ${SCHEMA} but the migrations create no such table: remove it`),
    ];
    expect(differences, differences.join('\n\n')).toEqual([]);
    expect(new Set(described).size, 'a table is described twice').toBe(described.length);
  });

  it('describes every column as the database has it (type, nullability, default), and its keys', () => {
    const described = describedCatalog(schema);
    const differences = database.flatMap((actual) => {
      const mine = described.find((table) => table.name === actual.name);
      return mine ? [...compareColumns(actual, mine), ...compareKeys(actual, mine)] : [];
    });
    expect(differences, differences.join('\n\n')).toEqual([]);
  });
});

/** The rows of the table under ARCHITECTURE.md's `### Tables` heading: `| \`name\` | what it holds |`. */
function documentedTables(markdown: string): Array<{ name: string; purpose: string }> {
  const section = /^### Tables\n([\s\S]*?)(?=^#{1,3} )/m.exec(`${markdown}\n# end`)?.[1] ?? '';
  return section
    .split('\n')
    .map((line) => /^\|\s*`([a-z0-9_]+)`\s*\|(.*)\|\s*$/.exec(line))
    .filter((match) => match !== null)
    .map((match) => ({ name: match[1]!, purpose: match[2]!.trim() }));
}

describe(`${ARCHITECTURE}'s table list`, () => {
  it('names every table of the migrated database, each once with what it holds, and no other', () => {
    const documented = documentedTables(fs.readFileSync(path.join(ROOT, ARCHITECTURE), 'utf8'));
    const names = documented.map((row) => row.name);
    const differences = [
      ...database
        .filter((table) => !names.includes(table.name))
        .map((table) => `table ${table.name} is in the database: add its row to the list (| \`${table.name}\` | area | what it holds |)`),
      ...names
        .filter((name) => !database.some((table) => table.name === name))
        .map((name) => `table ${name} is listed but the migrations create no such table: remove its row`),
      ...names.filter((name, index) => names.indexOf(name) !== index).map((name) => `table ${name} is listed twice`),
      ...documented.filter((row) => row.purpose === '').map((row) => `table ${row.name} is listed without what it holds`),
    ];
    expect(differences, differences.join('\n')).toEqual([]);
  });
});

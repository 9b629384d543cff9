import { is, SQL } from 'drizzle-orm';
import { getTableConfig, PgDialect, PgTable } from 'drizzle-orm/pg-core';
import type pg from 'pg';

// What a database's tables are, read from pg_catalog, and what src/server/db/schema.ts says they are,
// in one shape, so schema.test.ts can compare the two and print the Drizzle lines that are missing.

export type CatalogColumn = {
  name: string;
  /** As format_type prints it: `bigint`, `text[]`, `numeric(12,5)`, `timestamp with time zone`. */
  type: string;
  notNull: boolean;
  /** The default expression without its casts (`'EUR'`, `now()`, `nextval('send_batch_tokens')`), or null. */
  default: string | null;
  identity: 'always' | 'by default' | null;
};

export type CatalogForeignKey = { column: string; table: string; references: string; onDelete: string };

export type CatalogTable = {
  name: string;
  columns: CatalogColumn[];
  primaryKey: string[];
  /** Single-column unique constraints (unique indexes, partial or on expressions, are the migrations' alone). */
  unique: string[];
  foreignKeys: CatalogForeignKey[];
};

/** `'x'::text` → `'x'`, `'{}'::text[]` → `'{}'`, `nextval('s'::regclass)` → `nextval('s')`; JSON literals re-spelled. */
export function normalDefault(expression: string | null): string | null {
  if (expression === null) return null;
  const bare = expression.replace(/::[a-z_]+(\[\])?/g, '');
  const literal = /^'((?:[^']|'')*)'$/.exec(bare);
  if (literal && /^[[{]/.test(literal[1]!)) {
    try {
      return `'${JSON.stringify(JSON.parse(literal[1]!.replace(/''/g, "'")))}'`;
    } catch {
      return bare; // a text array literal such as '{}' that is not JSON
    }
  }
  return bare;
}

const ON_DELETE: Record<string, string> = { a: 'no action', r: 'restrict', c: 'cascade', n: 'set null', d: 'set default' };

/** Every table of the connection's schema (current_schema()), as PostgreSQL has it. */
export async function readCatalog(pool: pg.Pool): Promise<CatalogTable[]> {
  const columns = await pool.query<{ table: string; name: string; type: string; not_null: boolean; default: string | null; identity: string }>(`
    SELECT c.relname AS table, a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull AS not_null,
           pg_get_expr(d.adbin, d.adrelid) AS default, a.attidentity AS identity
      FROM pg_class c
      JOIN pg_namespace n ON n.oid = c.relnamespace
      JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
      LEFT JOIN pg_attrdef d ON d.adrelid = c.oid AND d.adnum = a.attnum
     WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p')
     ORDER BY c.relname, a.attnum`);
  const constraints = await pool.query<{
    table: string;
    kind: string;
    columns: string[];
    references: string | null;
    foreign_column: string | null;
    on_delete: string;
  }>(`
    SELECT c.relname AS table, k.contype AS kind,
           ARRAY(SELECT a.attname::text FROM unnest(k.conkey) WITH ORDINALITY u(attnum, i)
                   JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = u.attnum ORDER BY u.i) AS columns,
           f.relname AS references,
           (SELECT a.attname FROM pg_attribute a WHERE a.attrelid = k.confrelid AND a.attnum = k.confkey[1]) AS foreign_column,
           k.confdeltype AS on_delete
      FROM pg_constraint k
      JOIN pg_class c ON c.oid = k.conrelid
      JOIN pg_namespace n ON n.oid = c.relnamespace
      LEFT JOIN pg_class f ON f.oid = k.confrelid
     WHERE n.nspname = current_schema() AND k.contype IN ('p', 'u', 'f')
     ORDER BY c.relname, k.conname`);
  const tables = new Map<string, CatalogTable>();
  for (const row of columns.rows) {
    const table = tables.get(row.table) ?? { name: row.table, columns: [], primaryKey: [], unique: [], foreignKeys: [] };
    tables.set(row.table, table);
    table.columns.push({
      name: row.name,
      type: row.type,
      notNull: row.not_null,
      default: normalDefault(row.default),
      identity: row.identity === 'a' ? 'always' : row.identity === 'd' ? 'by default' : null,
    });
  }
  for (const row of constraints.rows) {
    const table = tables.get(row.table);
    if (!table) continue;
    if (row.kind === 'p') table.primaryKey = row.columns;
    else if (row.kind === 'u' && row.columns.length === 1) table.unique.push(row.columns[0]!);
    else if (row.kind === 'f')
      table.foreignKeys.push({ column: row.columns.join(', '), table: row.references!, references: row.foreign_column!, onDelete: ON_DELETE[row.on_delete]! });
  }
  return [...tables.values()];
}

const dialect = new PgDialect();

function describedDefault(value: unknown): string | null {
  if (value === undefined) return null;
  if (is(value, SQL)) return normalDefault(dialect.sqlToQuery(value).sql);
  if (typeof value === 'string') return `'${value.replace(/'/g, "''")}'`;
  if (typeof value === 'object' && value !== null) return `'${JSON.stringify(value)}'`;
  return String(value);
}

/** The tables a schema module (src/server/db/schema.ts) describes, in the catalog's shape. */
export function describedCatalog(schema: Record<string, unknown>): CatalogTable[] {
  return Object.values(schema)
    .filter((value): value is PgTable => is(value, PgTable))
    .map((value) => {
      const config = getTableConfig(value);
      const composite = config.primaryKeys[0]?.columns.map((column) => column.name);
      return {
        name: config.name,
        columns: config.columns.map((column) => ({
          name: column.name,
          type: column.getSQLType().replace(/,\s+/g, ','),
          notNull: column.notNull,
          default: describedDefault(column.default),
          identity: column.generatedIdentity ? (column.generatedIdentity.type === 'always' ? 'always' : 'by default') : null,
        })),
        primaryKey: composite ?? config.columns.filter((column) => column.primary).map((column) => column.name),
        unique: [
          ...config.columns.filter((column) => column.isUnique).map((column) => column.name),
          ...config.uniqueConstraints.filter((unique) => unique.columns.length === 1).map((unique) => unique.columns[0]!.name),
        ],
        foreignKeys: config.foreignKeys.map((key) => {
          const reference = key.reference();
          return {
            column: reference.columns.map((column) => column.name).join(', '),
            table: getTableConfig(reference.foreignTable).name,
            references: reference.foreignColumns[0]!.name,
            onDelete: key.onDelete ?? 'no action',
          };
        }),
      };
    });
}

const camel = (name: string) => name.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());

/** One column's description in schema.ts's style: `teamId: bigint('team_id', { mode: 'number' }).notNull()…,`. */
export function drizzleColumn(table: CatalogTable, column: CatalogColumn): string {
  const name = `'${column.name}'`;
  const builders: Record<string, string> = {
    bigint: `bigint(${name}, { mode: 'number' })`,
    integer: `integer(${name})`,
    smallint: `smallint(${name})`,
    text: `text(${name})`,
    boolean: `boolean(${name})`,
    uuid: `uuid(${name})`,
    bytea: `bytea(${name})`,
    jsonb: `jsonb(${name})`,
    'timestamp with time zone': `moment(${name})`,
  };
  const element = column.type.replace(/\[\]$/, '');
  const numeric = /^numeric\((\d+),(\d+)\)$/.exec(column.type);
  let line = numeric
    ? `numeric(${name}, { precision: ${numeric[1]}, scale: ${numeric[2]} })`
    : (builders[element] ?? `/* ${column.type}: no builder in schema.ts yet */ customType(${name})`) + (element !== column.type ? '.array()' : '');
  const single = table.primaryKey.length === 1 && table.primaryKey[0] === column.name;
  if (single && column.identity === 'always' && column.name === 'id' && element === 'bigint') return `id: id(),`;
  if (single) line += '.primaryKey()';
  if (column.identity) line += column.identity === 'always' ? '.generatedAlwaysAsIdentity()' : '.generatedByDefaultAsIdentity()';
  if (column.notNull && !single) line += '.notNull()';
  if (column.default === 'now()') line += '.defaultNow()';
  else if (column.default === 'gen_random_uuid()') line += '.defaultRandom()';
  else if (column.default !== null && /^(-?\d+|true|false)$/.test(column.default)) line += `.default(${column.default})`;
  else if (column.default !== null && element === 'jsonb') line += `.default(${column.default.slice(1, -1)})`;
  else if (column.default !== null && element === 'text' && element === column.type && /^'.*'$/s.test(column.default))
    line += `.default('${column.default.slice(1, -1).replace(/''/g, "'").replace(/[\\']/g, '\\$&')}')`;
  else if (column.default !== null) line += `.default(sql\`${column.default}\`)`;
  if (table.unique.includes(column.name)) line += '.unique()';
  const key = table.foreignKeys.find((foreign) => foreign.column === column.name);
  if (key) {
    const target = `${key.table === table.name ? '(): AnyPgColumn' : '()'} => ${camel(key.table)}.${camel(key.references)}`;
    line += `.references(${target}${key.onDelete === 'no action' ? '' : `, { onDelete: '${key.onDelete}' }`})`;
  }
  return `${camel(column.name)}: ${line},`;
}

/** A whole table's description in schema.ts's style, to paste into it. */
export function drizzleTable(table: CatalogTable): string {
  const columns = table.columns.map((column) => `  ${drizzleColumn(table, column)}`).join('\n');
  const composite =
    table.primaryKey.length > 1 ? `,\n  (table) => [primaryKey({ columns: [${table.primaryKey.map((column) => `table.${camel(column)}`).join(', ')}] })]` : '';
  return `export const ${camel(table.name)} = pgTable('${table.name}', {\n${columns}\n}${composite});`;
}

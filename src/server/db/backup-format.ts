import { createHash } from 'node:crypto';
import { finished } from 'node:stream/promises';
import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { z } from 'zod';

/**
 * The backup file (`cli backup`): gzip around a stream of frames, each a type byte, a 32-bit
 * big-endian length and that many bytes. In order:
 *   M  the manifest (JSON, BackupManifestSchema): schema version, tables and their columns, the key;
 *   per table, parents before children:  T {"name"}  D… (its rows as COPY text)  E;
 *   per file of DATA_DIR:                 F {"name"}  D… (its bytes)               E;
 *   Z  the summary (JSON, BackupSummarySchema): each table's row count and checksum at the
 *      snapshot, the sequences' values. A file without it is incomplete and is refused.
 */
export const BACKUP_MAGIC = Buffer.from('HERALD-BACKUP\n');
export const BACKUP_FORMAT = 1;
/** Rows are framed in chunks of about this size. */
export const FRAME_BYTES = 256 * 1024;

export const BackupManifestSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  created_at: z.string(),
  postgres_version: z.string(),
  /** schema_migrations at the snapshot, in order: the last is the schema version. */
  migrations: z.array(z.string()),
  tables: z.array(z.object({ name: z.string(), columns: z.array(z.string()) })),
  /** Where the secret key was: DATA_DIR/secret.key (then it is in the file), HERALD_SECRET_KEY (not in the file), or none yet. */
  secret_key: z.object({ source: z.enum(['file', 'environment', 'none']), fingerprint: z.string().nullable() }),
});
export type BackupManifest = z.infer<typeof BackupManifestSchema>;

export const BackupSummarySchema = z.object({
  tables: z.array(z.object({ name: z.string(), rows: z.number().int(), checksum: z.string() })),
  sequences: z.array(z.object({ name: z.string(), last_value: z.string(), is_called: z.boolean() })),
  files: z.array(z.string()),
});
export type BackupSummary = z.infer<typeof BackupSummarySchema>;

export type Frame = { type: string; payload: Buffer };

export function frame(type: string, payload: Buffer | string | object): Buffer {
  const body = Buffer.isBuffer(payload) ? payload : Buffer.from(typeof payload === 'string' ? payload : JSON.stringify(payload));
  const head = Buffer.alloc(5);
  head.write(type, 0, 1, 'latin1');
  head.writeUInt32BE(body.length, 1);
  return Buffer.concat([head, body]);
}

/** The frames of a decompressed backup stream, after its magic; throws on a cut or foreign one. */
export async function* readFrames(input: AsyncIterable<Buffer>): AsyncGenerator<Frame> {
  const chunks: Buffer[] = [];
  let length = 0;
  let magicSeen = false;
  const take = (n: number): Buffer => {
    const all = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, length);
    chunks.length = 0;
    if (all.length > n) chunks.push(all.subarray(n));
    length = all.length - n;
    return all.subarray(0, n);
  };
  const peekHead = (): Buffer => (chunks[0]!.length >= 5 ? chunks[0]! : Buffer.concat(chunks, length));
  for await (const chunk of input) {
    chunks.push(chunk);
    length += chunk.length;
    if (!magicSeen) {
      if (length < BACKUP_MAGIC.length) continue;
      if (!take(BACKUP_MAGIC.length).equals(BACKUP_MAGIC)) throw new BackupFileError('is not a Herald backup');
      magicSeen = true;
    }
    while (length >= 5) {
      const head = peekHead();
      const size = head.readUInt32BE(1);
      if (length < 5 + size) break;
      const whole = take(5 + size);
      yield { type: String.fromCharCode(whole[0]!), payload: whole.subarray(5) };
    }
  }
  if (!magicSeen) throw new BackupFileError('is not a Herald backup');
  if (length > 0) throw new BackupFileError('is cut short (incomplete)');
}

/** A backup file that cannot be used as it is. */
export class BackupFileError extends Error {}

export const quoteIdent = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/**
 * Session settings that fix how values are written as text (COPY and `row::text`), so a checksum
 * taken at the backup and one taken after the restore read the same bytes for the same rows.
 */
export async function fixTextOutput(client: pg.Client): Promise<void> {
  await client.query(
    "SET TimeZone = 'UTC'; SET DateStyle = 'ISO, YMD'; SET IntervalStyle = 'postgres'; SET extra_float_digits = 1; SET bytea_output = 'hex'; SET client_encoding = 'UTF8'",
  );
}

/**
 * A table's checksum: md5 of its rows' md5s (of `row::text`), one a line, sorted in C order. The
 * same in SQL, as a test may compute it:
 *   SELECT md5(coalesce(string_agg(h || E'\n', '' ORDER BY h COLLATE "C"), '')) FROM (SELECT md5(t::text) AS h FROM tbl t) s
 */
export async function tableChecksum(client: pg.Client, table: string): Promise<{ rows: number; checksum: string }> {
  const hash = createHash('md5');
  let rows = 0;
  const stream = client.query(copyTo(`COPY (SELECT md5(t::text) FROM ${quoteIdent(table)} t ORDER BY md5(t::text) COLLATE "C") TO STDOUT`));
  const done = finished(stream);
  done.catch(() => undefined); // met below, or by the loop's own failure
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    hash.update(chunk);
    for (const byte of chunk) if (byte === 10) rows++;
  }
  await done;
  return { rows, checksum: hash.digest('hex') };
}

/** The tables of the current schema (partitions aside), each with the columns that hold data (generated ones aside). */
export async function schemaTables(client: pg.Client): Promise<Array<{ name: string; columns: string[] }>> {
  const { rows } = await client.query<{ name: string; columns: string[] }>(
    `SELECT c.relname AS name, array_agg(a.attname::text ORDER BY a.attnum) AS columns
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
      WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND NOT c.relispartition
      GROUP BY c.relname`,
  );
  const edges = await client.query<{ child: string; parent: string }>(
    `SELECT DISTINCT child.relname AS child, parent.relname AS parent
       FROM pg_constraint k
       JOIN pg_class child ON child.oid = k.conrelid JOIN pg_class parent ON parent.oid = k.confrelid
       JOIN pg_namespace n ON n.oid = child.relnamespace
      WHERE k.contype = 'f' AND n.nspname = current_schema() AND k.conrelid <> k.confrelid`,
  );
  return parentsFirst(rows, edges.rows);
}

/** Tables ordered so that each comes after the tables its foreign keys name (then by name). */
function parentsFirst<T extends { name: string }>(tables: T[], edges: Array<{ child: string; parent: string }>): T[] {
  const remaining = new Map(tables.map((t) => [t.name, t]));
  const parents = new Map<string, Set<string>>();
  for (const { child, parent } of edges) {
    if (!remaining.has(child) || !remaining.has(parent)) continue;
    parents.set(child, (parents.get(child) ?? new Set()).add(parent));
  }
  const ordered: T[] = [];
  while (remaining.size > 0) {
    const ready = [...remaining.keys()].filter((name) => [...(parents.get(name) ?? [])].every((p) => !remaining.has(p))).sort();
    if (ready.length === 0) throw new Error(`The tables ${[...remaining.keys()].join(', ')} name each other in a cycle of foreign keys.`);
    for (const name of ready) {
      ordered.push(remaining.get(name)!);
      remaining.delete(name);
    }
  }
  return ordered;
}

export async function schemaSequences(client: pg.Client): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relkind = 'S' ORDER BY 1`,
  );
  return rows.map((r) => r.name);
}

export const keyFingerprint = (key: Buffer): string => createHash('sha256').update(key).digest('hex').slice(0, 16);

import fs from 'node:fs/promises';
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import type { Config } from '../config';
import {
  BACKUP_FORMAT,
  BACKUP_MAGIC,
  FRAME_BYTES,
  fixTextOutput,
  frame,
  keyFingerprint,
  quoteIdent,
  schemaSequences,
  schemaTables,
  tableChecksum,
  type BackupManifest,
  type BackupSummary,
} from './backup-format';
import { startEmbeddedPostgres } from './embedded';
import { MIGRATION_LOCK } from './migrate';
import { checkRestoreFinished } from './restore-marker';

export type BackupResult = {
  file: string;
  bytes: number;
  schema_version: string | null;
  tables: number;
  rows: number;
  secret_key: BackupManifest['secret_key']['source'];
  files: number;
};

/** Files of DATA_DIR a backup carries besides the database: the secret key (report CSVs are rows of the database). */
const dataDirFiles = (withKey: boolean): string[] => (withKey ? ['secret.key'] : []);

/** The server a backup or restore talks to, as the schema's owner: DATABASE_MIGRATION_URL (else DATABASE_URL), or the embedded one of DATA_DIR (borrowed when it runs). */
export async function databaseUrlOf(config: Config, options: { mustExist: boolean }): Promise<{ url: string; stop(): Promise<void> }> {
  if (config.databaseUrl) return { url: config.databaseMigrationUrl ?? config.databaseUrl, stop: async () => undefined };
  if (options.mustExist) {
    const version = path.join(config.dataDir, 'postgres', 'PG_VERSION');
    if (!(await fs.stat(version).catch(() => undefined))) throw new Error(`There is no Herald database in DATA_DIR (${config.dataDir}): nothing to back up.`);
  }
  const server = await startEmbeddedPostgres(config.dataDir, { borrow: true });
  return { url: server.url, stop: () => server.stop() };
}

/**
 * Writes a backup of Herald's database and of what DATA_DIR holds that matters to `out`, online:
 * every table is read in one REPEATABLE READ READ ONLY transaction (one snapshot, as of its first
 * read), with COPY. The file appears under its name only once complete (written beside it first).
 */
export async function backup(config: Config, out: string): Promise<BackupResult> {
  const file = path.resolve(out);
  if (await fs.stat(file).catch(() => undefined)) throw new Error(`${file} already exists: choose another name, or remove it first.`);
  if (!(await fs.stat(path.dirname(file)).catch(() => undefined))?.isDirectory()) throw new Error(`The folder ${path.dirname(file)} does not exist.`);
  await checkRestoreFinished(config.dataDir);
  const partial = `${file}.partial-${process.pid}`;
  const server = await databaseUrlOf(config, { mustExist: true });
  const client = new pg.Client({ connectionString: server.url });
  let result: BackupResult | undefined;
  try {
    await client.connect();
    await fixTextOutput(client);
    // No migration runs while the snapshot is read (they take this lock exclusively); taken before
    // the transaction, so the snapshot follows a migration that was under way.
    await client.query('SELECT pg_advisory_lock_shared($1)', [MIGRATION_LOCK]);
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    // The first query takes the snapshot every later read sees.
    const hasMigrations = (await client.query("SELECT to_regclass('schema_migrations') IS NOT NULL AS present")).rows[0].present as boolean;
    if (!hasMigrations) throw new Error('The database holds no Herald schema (no schema_migrations table): nothing to back up.');
    const migrations = (await client.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name')).rows.map((r) => r.name);
    const tables = await schemaTables(client);
    const version = (await client.query<{ server_version: string }>('SHOW server_version')).rows[0]!.server_version;

    let key: { source: 'file' | 'environment' | 'none'; fingerprint: string | null };
    if (config.secretKey) key = { source: 'environment', fingerprint: keyFingerprint(Buffer.from(config.secretKey, 'base64')) };
    else {
      const text = await fs.readFile(path.join(config.dataDir, 'secret.key'), 'utf8').catch(() => undefined);
      key = text ? { source: 'file', fingerprint: keyFingerprint(Buffer.from(text.trim(), 'base64')) } : { source: 'none', fingerprint: null };
    }
    if (key.source === 'environment') {
      process.stderr.write('The secret key comes from HERALD_SECRET_KEY and is not in the backup: keep it with the backup; restore needs the same one.\n');
    }
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      created_at: new Date().toISOString(),
      postgres_version: version,
      migrations,
      tables,
      secret_key: key,
    };
    const summary: BackupSummary = { tables: [], sequences: [], files: [] };

    async function* frames(): AsyncGenerator<Buffer> {
      yield BACKUP_MAGIC;
      yield frame('M', manifest);
      for (const table of tables) {
        yield frame('T', { name: table.name });
        const columns = table.columns.map(quoteIdent).join(', ');
        const stream = client.query(copyTo(`COPY ${quoteIdent(table.name)} (${columns}) TO STDOUT`));
        let pending: Buffer[] = [];
        let size = 0;
        for await (const chunk of stream as AsyncIterable<Buffer>) {
          pending.push(chunk);
          size += chunk.length;
          if (size >= FRAME_BYTES) {
            yield frame('D', Buffer.concat(pending, size));
            pending = [];
            size = 0;
          }
        }
        if (size > 0) yield frame('D', Buffer.concat(pending, size));
        yield frame('E', '');
        summary.tables.push({ name: table.name, ...(await tableChecksum(client, table.name)) });
      }
      // Sequences are not part of a snapshot: read now, they are at least what the rows read used.
      for (const name of await schemaSequences(client)) {
        const row = (await client.query<{ last_value: string; is_called: boolean }>(`SELECT last_value::text, is_called FROM ${quoteIdent(name)}`)).rows[0]!;
        summary.sequences.push({ name, ...row });
      }
      await client.query('COMMIT');
      await client.query('SELECT pg_advisory_unlock_shared($1)', [MIGRATION_LOCK]);
      for (const name of dataDirFiles(key.source === 'file')) {
        const content = await fs.readFile(path.join(config.dataDir, name)).catch(() => undefined);
        if (content === undefined) continue; // removed meanwhile
        yield frame('F', { name });
        for (let at = 0; at < content.length; at += FRAME_BYTES) yield frame('D', content.subarray(at, at + FRAME_BYTES));
        yield frame('E', '');
        summary.files.push(name);
      }
      yield frame('Z', summary);
    }

    await pipeline(frames, createGzip(), createWriteStream(partial, { mode: 0o600, flags: 'wx' }));
    await fs.rename(partial, file);
    result = {
      file,
      bytes: (await fs.stat(file)).size,
      schema_version: migrations.at(-1) ?? null,
      tables: summary.tables.length,
      rows: summary.tables.reduce((sum, t) => sum + t.rows, 0),
      secret_key: key.source,
      files: summary.files.length,
    };
  } finally {
    if (!result) await fs.rm(partial, { force: true });
    await client.end().catch(() => undefined);
    await server.stop();
  }
  return result;
}

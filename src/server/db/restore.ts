import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { finished, pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { Config } from '../config';
import {
  BackupFileError,
  BackupManifestSchema,
  BackupSummarySchema,
  fixTextOutput,
  keyFingerprint,
  quoteIdent,
  readFrames,
  schemaSequences,
  schemaTables,
  tableChecksum,
  type BackupManifest,
  type BackupSummary,
  type Frame,
} from './backup-format';
import { startEmbeddedPostgres } from './embedded';
import { MIGRATION_LOCK, migrationFiles, readMigration } from './migrate';
import { RESTORE_MARKER } from './restore-marker';

export type RestoreResult = {
  file: string;
  schema_version: string | null;
  tables: number;
  rows: number;
  sequences: number;
  files: number;
  /** Every table's row count and checksum equal those taken at the backup's snapshot. */
  verified: true;
};

/** The frames of a backup file, one at a time; a damaged or cut file is a BackupFileError naming it. */
function openBackup(file: string): { next(): Promise<Frame>; close(): void } {
  const gunzip = createGunzip();
  const input = createReadStream(file);
  pipeline(input, gunzip).catch(() => undefined);
  const frames = readFrames(gunzip)[Symbol.asyncIterator]();
  return {
    async next() {
      try {
        const result = await frames.next();
        if (result.done) throw new BackupFileError('is cut short (incomplete)');
        return result.value;
      } catch (error) {
        if (error instanceof BackupFileError) throw new BackupFileError(`${file} ${error.message}.`);
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'Z_DATA_ERROR' || code === 'Z_BUF_ERROR' || code === 'Z_STREAM_ERROR')
          throw new BackupFileError(`${file} is not a Herald backup, or is damaged (${(error as Error).message}).`);
        throw error;
      }
    },
    close: () => input.destroy(),
  };
}

const json = (frame: Frame): unknown => JSON.parse(frame.payload.toString('utf8'));

/** Whether a folder is missing (undefined), empty ([]), or what it holds. */
const entriesOf = (dir: string): Promise<string[] | undefined> =>
  fs.readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });

/**
 * What Herald keeps in DATA_DIR. Anything else there is not Herald's and is left alone: under the
 * documented service (docs/deploy.md) DATA_DIR is the service user's home, where npm keeps `.npm`.
 */
const HERALD_ENTRIES = new Set(['postgres', 'postgres.password', 'secret.key', 'herald.pid', 'initial-admin.txt', 'outbox', 'reports', RESTORE_MARKER]);

/** Checks the backup's key against the one this Herald would use, before anything is written. */
async function checkSecretKey(config: Config, manifest: BackupManifest): Promise<void> {
  const { source, fingerprint } = manifest.secret_key;
  const configured = config.secretKey ? keyFingerprint(Buffer.from(config.secretKey, 'base64')) : undefined;
  if (source === 'environment' && configured !== fingerprint) {
    throw new Error(
      `This backup was made with the secret key in HERALD_SECRET_KEY (fingerprint ${fingerprint}), which the backup does not hold: set HERALD_SECRET_KEY to that key to restore it.`,
    );
  }
  if (source === 'file' && configured !== undefined && configured !== fingerprint) {
    throw new Error(
      'HERALD_SECRET_KEY is set to another key than the one in the backup: unset it (the restore puts the backup key in DATA_DIR/secret.key) or set it to that key.',
    );
  }
  const existing = await fs.readFile(path.join(config.dataDir, 'secret.key'), 'utf8').catch(() => undefined);
  if (source === 'file' && existing !== undefined && keyFingerprint(Buffer.from(existing.trim(), 'base64')) !== fingerprint) {
    throw new Error(`${path.join(config.dataDir, 'secret.key')} holds another key than the backup: move it away first.`);
  }
}

/**
 * Restores a backup (backup.ts) into a DATA_DIR holding nothing of Herald's (embedded database) or an empty database
 * (DATABASE_URL), in one transaction: the schema is migrated to the backup's version, every table
 * loaded with COPY (parents first, triggers off so counters are not counted twice), the sequences
 * set, and each table's row count and checksum compared with the snapshot's before COMMIT. A
 * failure leaves nothing behind: the transaction rolls back, and an embedded DATA_DIR is emptied.
 */
export async function restore(config: Config, file: string): Promise<RestoreResult> {
  const source = path.resolve(file);
  if (!(await fs.stat(source).catch(() => undefined))?.isFile()) throw new Error(`${source} is not a file.`);
  const backupFile = openBackup(source);
  try {
    const head = await backupFile.next();
    if (head.type !== 'M') throw new BackupFileError(`${source} is not a Herald backup (no manifest).`);
    const parsed = BackupManifestSchema.safeParse(json(head));
    if (!parsed.success) throw new BackupFileError(`${source} is a backup this Herald cannot read (another format version?).`);
    const manifest = parsed.data;
    const known = new Set(await migrationFiles());
    const unknown = manifest.migrations.filter((name) => !known.has(name));
    if (unknown.length > 0) {
      throw new Error(`This backup comes from a newer Herald (its schema has ${unknown.join(', ')}): restore it with that version or a newer one.`);
    }
    await checkSecretKey(config, manifest);
    return await (config.databaseUrl
      ? restoreExternal(config, config.databaseMigrationUrl ?? config.databaseUrl, source, manifest, backupFile)
      : restoreEmbedded(config, source, manifest, backupFile));
  } finally {
    backupFile.close();
  }
}

async function restoreEmbedded(config: Config, source: string, manifest: BackupManifest, backupFile: ReturnType<typeof openBackup>): Promise<RestoreResult> {
  const dataDir = config.dataDir;
  const entries = await entriesOf(dataDir);
  const herald = (entries ?? []).filter((name) => HERALD_ENTRIES.has(name));
  if (herald.length > 0) {
    throw new Error(
      `DATA_DIR (${dataDir}) is not empty (it holds ${herald.slice(0, 5).join(', ')}${herald.length > 5 ? ', …' : ''}): restore only into an empty or new data folder.`,
    );
  }
  await fs.mkdir(dataDir, { recursive: true });
  await fs.writeFile(path.join(dataDir, RESTORE_MARKER), `Remove everything in ${dataDir} and run the restore again.\n`);
  let server: Awaited<ReturnType<typeof startEmbeddedPostgres>> | undefined;
  try {
    server = await startEmbeddedPostgres(dataDir);
    const result = await load(config, server.url, source, manifest, backupFile);
    await server.stop();
    await fs.rm(path.join(dataDir, RESTORE_MARKER));
    return result;
  } catch (error) {
    await server?.stop().catch(() => undefined);
    // The folder held nothing of Herald's, or was not there: put it back that way (what was not Herald's stays).
    const undo = entries
      ? fs
          .readdir(dataDir)
          .then((names) =>
            Promise.all(names.filter((name) => !entries.includes(name)).map((name) => fs.rm(path.join(dataDir, name), { recursive: true, force: true }))),
          )
      : fs.rm(dataDir, { recursive: true, force: true });
    const undone = await undo.then(
      () => true,
      () => false,
    );
    if (!undone)
      throw new Error(`${(error as Error).message}\nThe restore failed and could not clean up: remove everything in ${dataDir} before trying again.`, {
        cause: error,
      });
    throw error;
  }
}

async function restoreExternal(
  config: Config,
  url: string,
  source: string,
  manifest: BackupManifest,
  backupFile: ReturnType<typeof openBackup>,
): Promise<RestoreResult> {
  await fs.mkdir(config.dataDir, { recursive: true });
  await fs.writeFile(
    path.join(config.dataDir, RESTORE_MARKER),
    'The database was left as it was (the restore runs in one transaction): remove this file and run the restore again.\n',
  );
  try {
    return await load(config, url, source, manifest, backupFile);
  } finally {
    // Done or rolled back: either way nothing is half-done (only a killed restore leaves the note).
    await fs.rm(path.join(config.dataDir, RESTORE_MARKER), { force: true });
  }
}

/** The restore proper, in one transaction on `url`; files of DATA_DIR are staged and put in place after COMMIT. */
async function load(config: Config, url: string, source: string, manifest: BackupManifest, backupFile: ReturnType<typeof openBackup>): Promise<RestoreResult> {
  const client = new pg.Client({ connectionString: url });
  const staging = path.join(config.dataDir, `.restore-${process.pid}`);
  try {
    await client.connect();
    await fixTextOutput(client);
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    const present = await client.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f') ORDER BY 1 LIMIT 5`,
    );
    if (present.rows.length > 0) {
      throw new Error(`The database is not empty (it holds ${present.rows.map((r) => r.name).join(', ')}…): restore only into an empty database.`);
    }

    // The schema at the backup's version.
    await client.query('CREATE TABLE schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
    for (const name of manifest.migrations) {
      await client.query(await readMigration(name));
      await client.query('INSERT INTO schema_migrations (name) VALUES ($1)', [name]);
    }
    const tables = await schemaTables(client);
    const describe = (list: Array<{ name: string; columns: string[] }>) => list.map((t) => `${t.name}(${t.columns.join(',')})`).sort();
    if (describe(tables).join(' ') !== describe(manifest.tables).join(' ')) {
      throw new BackupFileError(`${source} does not match the schema of its own version ${manifest.migrations.at(-1)}: its tables or columns differ.`);
    }
    const tableNames = tables.map((t) => quoteIdent(t.name));
    for (const name of tableNames) await client.query(`ALTER TABLE ${name} DISABLE TRIGGER USER`);
    // Migrations may have written rows (defaults); the backup's rows replace them.
    await client.query(`TRUNCATE ${tableNames.join(', ')}`);

    // The rows, then the files, then the summary.
    const loaded = new Set<string>();
    const received: string[] = [];
    let summary: BackupSummary | undefined;
    await fs.mkdir(staging, { recursive: true, mode: 0o700 });
    for (let frame = await backupFile.next(); ; frame = await backupFile.next()) {
      if (frame.type === 'T') {
        const name = (json(frame) as { name: string }).name;
        const table = manifest.tables.find((t) => t.name === name);
        if (!table || loaded.has(name)) throw new BackupFileError(`${source} is damaged: an unexpected table ${name}.`);
        const copy = client.query(copyFrom(`COPY ${quoteIdent(name)} (${table.columns.map(quoteIdent).join(', ')}) FROM STDIN`));
        const done = finished(copy);
        done.catch(() => undefined);
        try {
          for (frame = await backupFile.next(); frame.type === 'D'; frame = await backupFile.next()) {
            if (!copy.write(frame.payload)) await Promise.race([new Promise<void>((resolve) => copy.once('drain', () => resolve())), done]);
          }
          if (frame.type !== 'E') throw new BackupFileError(`${source} is damaged: table ${name} does not end.`);
        } catch (error) {
          // Ends the COPY on the server (CopyFail), so the connection can roll back.
          copy.destroy(error as Error);
          await done.catch(() => undefined);
          throw error;
        }
        copy.end();
        await done.catch((error: Error) => {
          throw new Error(`Loading table ${name} failed: ${error.message}`, { cause: error });
        });
        loaded.add(name);
      } else if (frame.type === 'F') {
        const name = (json(frame) as { name: string }).name;
        if (name !== 'secret.key') throw new BackupFileError(`${source} is damaged: an unexpected file ${name}.`);
        const target = path.join(staging, name);
        await fs.mkdir(path.dirname(target), { recursive: true });
        const out: WriteStream = createWriteStream(target, { mode: 0o600 });
        for (frame = await backupFile.next(); frame.type === 'D'; frame = await backupFile.next()) {
          if (!out.write(frame.payload)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
        }
        if (frame.type !== 'E') throw new BackupFileError(`${source} is damaged: file ${name} does not end.`);
        out.end();
        await finished(out);
        received.push(name);
      } else if (frame.type === 'Z') {
        const parsed = BackupSummarySchema.safeParse(json(frame));
        if (!parsed.success) throw new BackupFileError(`${source} is damaged: its summary cannot be read.`);
        summary = parsed.data;
        break;
      } else {
        throw new BackupFileError(`${source} is damaged: an unexpected frame ${JSON.stringify(frame.type)}.`);
      }
    }
    const missing = tables.filter((t) => !loaded.has(t.name)).map((t) => t.name);
    if (missing.length > 0) throw new BackupFileError(`${source} is incomplete: it has no rows for ${missing.join(', ')}.`);

    // The sequences, as they were.
    const sequences = await schemaSequences(client);
    const backedUp = new Map(summary.sequences.map((s) => [s.name, s]));
    if ([...backedUp.keys()].sort().join() !== sequences.join()) throw new BackupFileError(`${source} does not match its schema: its sequences differ.`);
    for (const name of sequences) {
      const { last_value, is_called } = backedUp.get(name)!;
      await client.query('SELECT setval($1::regclass, $2::bigint, $3)', [quoteIdent(name), last_value, is_called]);
    }
    for (const name of tableNames) await client.query(`ALTER TABLE ${name} ENABLE TRIGGER USER`);

    // Proof: every table as it was at the snapshot, or no restore.
    const differences: string[] = [];
    for (const expected of summary.tables) {
      if (!loaded.has(expected.name)) differences.push(`${expected.name}: not in the backup`);
      const actual = await tableChecksum(client, expected.name);
      if (actual.rows !== expected.rows || actual.checksum !== expected.checksum) {
        differences.push(`${expected.name}: ${actual.rows} rows (checksum ${actual.checksum}) where the snapshot had ${expected.rows} (${expected.checksum})`);
      }
    }
    const unchecked = tables.filter((t) => !summary.tables.some((s) => s.name === t.name)).map((t) => t.name);
    if (unchecked.length > 0) differences.push(`no checksum for ${unchecked.join(', ')}`);
    for (const name of sequences) {
      const row = (await client.query<{ last_value: string; is_called: boolean }>(`SELECT last_value::text, is_called FROM ${quoteIdent(name)}`)).rows[0]!;
      const expected = backedUp.get(name)!;
      if (row.last_value !== expected.last_value || row.is_called !== expected.is_called)
        differences.push(`sequence ${name}: ${row.last_value} where the backup had ${expected.last_value}`);
    }
    const filesMissing = summary.files.filter((name) => !received.includes(name));
    if (filesMissing.length > 0) differences.push(`files missing: ${filesMissing.join(', ')}`);
    if (differences.length > 0) throw new Error(`The restored database does not equal the backup, so nothing was restored:\n  ${differences.join('\n  ')}`);
    await client.query('COMMIT');

    for (const name of received) {
      await fs.mkdir(path.dirname(path.join(config.dataDir, name)), { recursive: true });
      await fs.rename(path.join(staging, name), path.join(config.dataDir, name));
    }
    return {
      file: source,
      schema_version: manifest.migrations.at(-1) ?? null,
      tables: summary.tables.length,
      rows: summary.tables.reduce((sum, t) => sum + t.rows, 0),
      sequences: sequences.length,
      files: received.length,
      verified: true,
    };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    await client.end().catch(() => undefined);
    await fs.rm(staging, { recursive: true, force: true });
  }
}

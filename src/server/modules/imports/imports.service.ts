import type { Readable } from 'node:stream';
import { drizzle } from 'drizzle-orm/node-postgres';
import { isSupportedCountry } from 'libphonenumber-js';
import { IMPORT_MAX_BYTES, type ContactImport, type ImportOptionsQuery, type ImportPreview } from '../../../shared/contract/imports';
import type { Database, Db, Tx } from '../../db/client';
import type { PageWindow } from '../../db/pages';
import * as schema from '../../db/schema';
import type { AuthContext } from '../../http/auth';
import { ConflictError, NotFoundError, ValidationError } from '../../lib/errors';
import { formatTimestamp, type Clock } from '../../lib/time';
import type { AuditTrail } from '../audit/audit-trail';
import type { ContactGroupsRepository } from '../contact-groups/contact-groups.repository';
import type { ContactsRepository } from '../contacts/contacts.repository';
import type { Suppressions } from '../suppressions/suppressions.service';
import { csvLine } from '../../lib/csv';
import { ImportFileError, openImportFile, previewImportFile, previewRows, type CheckedRow, type FileFormat, type ImportOptions } from './import-file';
import { delimiterName } from './sniff';
import { createImportsRepository, type ContactImportRow, type ImportBatch, type ImportsRepository } from './imports.repository';

// Rows per staging statement: large enough that round trips do not dominate, small enough that memory stays flat.
const BATCH_ROWS = 5_000;
const MODIFYING = 'The group is being imported into or changed; try again when that has finished.';
const SERVER_FAILURE = 'The import failed on the server; the group is unchanged. Import the file again.';
export const INTERRUPTED = 'The import was interrupted by a restart; import the file again.';
const nothingImported = (rows: number) =>
  rows === 0
    ? 'Nothing was imported: the file has no rows after its header.'
    : `Nothing was imported: none of the ${rows === 1 ? 'row' : `${rows} rows`} of the file could be, as the error report says.`;

export type CsvUpload = {
  body: Readable;
  bytesTotal: number | null;
  fileName: string | null;
  format?: FileFormat;
  options?: ImportOptionsQuery;
  /** An empty cell clears the field of a contact the group has (otherwise the contact keeps its value). */
  emptyCellsClear?: boolean;
};

/** How many rows the preview shows. */
const PREVIEW_ROWS = 20;

const emptyBatch = (): ImportBatch => ({
  rows: { rowNumbers: [], phoneNumbers: [], customFields: [], consents: [] },
  errors: { rowNumbers: [], values: [], reasons: [] },
  progress: { bytesReceived: 0, rowsTotal: 0, rowsValid: 0, rowsInvalid: 0 },
});

export function createImportsService(deps: {
  database: Pick<Database, 'pool'>;
  audit: AuditTrail;
  imports: ImportsRepository;
  contacts: Pick<ContactsRepository, 'lockGroup' | 'adjustGroup'>;
  contactGroups: Pick<ContactGroupsRepository, 'find'>;
  suppressions: Pick<Suppressions, 'isList' | 'recordImport' | 'countAmong' | 'listOf' | 'add'>;
  clock: Clock;
  /** The country the team's national numbers are read in (team settings, else DEFAULT_COUNTRY). */
  countryOf: (teamId: number) => Promise<string>;
  config: { publicUrl: string; appTimezone: string };
}) {
  const link = (rel: string, uri: string) => ({ rel, uri: `${deps.config.publicUrl}/api/2.0/contact-imports/${uri}` });
  const percent = (row: ContactImportRow): number | null => {
    if (row.status === 'completed') return 100;
    if (row.status === 'merging') return 99;
    if (row.status === 'failed' || !row.bytesTotal) return null;
    return Math.min(99, Math.floor((100 * row.bytesReceived) / row.bytesTotal));
  };

  const present = (row: ContactImportRow): ContactImport => ({
    uuid: row.uuid,
    contact_group_uuid: row.groupUuid,
    status: row.status,
    file_name: row.fileName,
    bytes_total: row.bytesTotal,
    bytes_received: row.bytesReceived,
    percent: percent(row),
    rows_total: row.rowsTotal,
    rows_valid: row.rowsValid,
    rows_invalid: row.rowsInvalid,
    contacts_added: row.contactsAdded,
    contacts_updated: row.contactsUpdated,
    contacts_unchanged: row.contactsUnchanged,
    contacts_opted_out: row.contactsOptedOut,
    contacts_suppressed: row.contactsSuppressed,
    error: row.error,
    created_at: formatTimestamp(row.createdAt, deps.config.appTimezone),
    updated_at: formatTimestamp(row.updatedAt, deps.config.appTimezone),
    finished_at: formatTimestamp(row.finishedAt, deps.config.appTimezone),
    links: [link('self', row.uuid), link('errors', `${row.uuid}/errors`), link('errors.csv', `${row.uuid}/errors.csv`)],
  });

  const findGroup = async (auth: AuthContext, uuid: string) => {
    const group = await deps.contactGroups.find(auth.teamId, uuid);
    if (!group) throw new NotFoundError();
    return group;
  };

  const findImport = async (auth: AuthContext, uuid: string) => {
    const row = await deps.imports.find(auth.teamId, uuid);
    if (!row) throw new NotFoundError();
    return row;
  };

  /**
   * The import as it ended, recorded in the transaction that ends it: an import is a change of its
   * group (the request's resource), shown by what it did. Named `importContacts` also when called
   * outside a request.
   */
  const recorded = async (tx: Tx, auth: AuthContext, groupUuid: string, importId: number): Promise<ContactImport> => {
    const contactImport = present(await deps.imports.byId(importId, tx));
    await deps.audit.record(tx, auth, {
      action: 'importContacts',
      resourceType: 'contact_group',
      resourceUuid: groupUuid,
      after: contactImport,
      created: true,
    });
    return contactImport;
  };

  /** Reads the file into staging, batch by batch; one batch is written while the next is read. */
  async function receive(conn: Db, importId: number, batches: AsyncIterable<CheckedRow[]>, bytesRead: () => number) {
    const progress = { bytesReceived: 0, rowsTotal: 0, rowsValid: 0, rowsInvalid: 0 };
    let batch = emptyBatch();
    let writing: Promise<void> = Promise.resolve();
    const flush = async () => {
      await writing;
      batch.progress = { ...progress, bytesReceived: bytesRead() };
      writing = deps.imports.stage(conn, importId, batch);
      // Awaited before the next batch or at the end; until then a failure must not count as unhandled.
      writing.catch(() => undefined);
      batch = emptyBatch();
    };
    for await (const rows of batches) {
      for (const row of rows) {
        progress.rowsTotal += 1;
        if (row.ok) {
          progress.rowsValid += 1;
          batch.rows.rowNumbers.push(row.row);
          batch.rows.phoneNumbers.push(row.phoneNumber);
          batch.rows.customFields.push(row.customFields);
          batch.rows.consents.push(row.consent === null ? '' : row.consent ? 't' : 'f');
        } else {
          progress.rowsInvalid += 1;
          batch.errors.rowNumbers.push(row.row);
          batch.errors.values.push(row.value);
          batch.errors.reasons.push(row.reason);
        }
      }
      if (batch.rows.rowNumbers.length + batch.errors.rowNumbers.length >= BATCH_ROWS) await flush();
    }
    await flush();
    await writing;
    return progress;
  }

  /** The caller's options in the file reader's terms, the default country checked. */
  const readOptions = (options: ImportOptionsQuery = {}, teamCountry: string): ImportOptions & { defaultCountry: string } => {
    const defaultCountry = options.default_country ?? teamCountry;
    if (!isSupportedCountry(defaultCountry))
      throw ValidationError.field('default_country', `The default country ${defaultCountry} is not a country code Herald knows.`);
    return {
      delimiter: options.delimiter === undefined ? undefined : options.delimiter === 'tab' ? '\t' : options.delimiter,
      encoding: options.encoding,
      phoneColumn: options.phone_column,
      fields: options.fields,
      consentColumn: options.consent_column,
      sheet: options.sheet,
      defaultCountry,
    };
  };

  return {
    present,

    /** How the file would be imported, from its first part: nothing is written (the import wizard's first step). */
    async preview(auth: AuthContext, groupUuid: string, body: Readable, format: FileFormat, options?: ImportOptionsQuery): Promise<ImportPreview> {
      let read: ReturnType<typeof readOptions>;
      let group: Awaited<ReturnType<typeof findGroup>>;
      try {
        group = await findGroup(auth, groupUuid);
        read = readOptions(options, await deps.countryOf(auth.teamId));
      } catch (error) {
        body.resume();
        throw error;
      }
      const layout = await previewImportFile(body, format, { ...read, groupHeaders: group.headers });
      const { mapping } = layout;
      return {
        format: layout.format,
        encoding: layout.format === 'csv' ? layout.encoding : null,
        delimiter: layout.format === 'csv' ? delimiterName(layout.delimiter) : null,
        sheet: layout.format === 'xlsx' ? layout.sheet : null,
        default_country: read.defaultCountry,
        has_header: mapping.hasHeader,
        headers: mapping.hasHeader
          ? (layout.sample[0] ?? []).map((cell) => cell.trim())
          : Array.from({ length: mapping.width }, (_, index) => `column ${index + 1}`),
        phone_column: { position: mapping.phone.index + 1, header: mapping.phone.header, found_by: mapping.phone.found },
        columns: mapping.columns.map((column) => ({ position: column.index + 1, header: column.header, field: column.field })),
        ...(mapping.consent ? { consent_column: { position: mapping.consent.index + 1, header: mapping.consent.header } } : {}),
        rows: previewRows(layout, read.defaultCountry, PREVIEW_ROWS),
      };
    },

    /**
     * Imports a CSV into the group: streamed into staging, then merged in one transaction, so the
     * group gets the whole file or nothing. The import runs on one connection holding the
     * import's advisory lock, which tells recovery it is alive.
     */
    async importCsv(auth: AuthContext, groupUuid: string, upload: CsvUpload): Promise<ContactImport> {
      let read: ReturnType<typeof readOptions>;
      let group: Awaited<ReturnType<typeof findGroup>>;
      try {
        group = await findGroup(auth, groupUuid);
        read = readOptions(upload.options, await deps.countryOf(auth.teamId));
        if (read.consentColumn !== undefined && deps.suppressions.isList(group))
          throw ValidationError.field('consent_column', 'An import into default_optouts opts every number out: it takes no consent column.');
      } catch (error) {
        upload.body.resume();
        throw error;
      }
      const file = await openImportFile(upload.body, upload.format ?? 'csv', { ...read, groupHeaders: group.headers, maxBytes: IMPORT_MAX_BYTES });
      const client = await deps.database.pool.connect().catch((error: unknown) => {
        file.close();
        throw error;
      });
      const conn: Db = drizzle(client, { schema });
      let importId: number | undefined;
      let connectionBroken = false;
      try {
        const created = await conn.transaction(async (tx) => {
          if ((await deps.contacts.lockGroup(tx, group.id)).modifying) throw new ConflictError(MODIFYING);
          return deps.imports.start(tx, {
            teamId: auth.teamId,
            groupId: group.id,
            fileName: upload.fileName,
            headers: file.headers,
            bytesTotal: upload.bytesTotal,
          });
        });
        importId = created.id;
        const received = await receive(conn, created.id, file.rows, file.bytesRead);
        // Nothing to write is no success: the import ends failed, its error report saying why row by row.
        if (received.rowsValid === 0)
          return await conn.transaction(async (tx) => {
            await deps.imports.fail(tx, created.id, nothingImported(received.rowsTotal));
            return recorded(tx, auth, groupUuid, created.id);
          });
        await deps.imports.markMerging(conn, created.id);
        return await conn.transaction(async (tx) => {
          // The consent column: rows that said no are suppressed (default_optouts, source import) and
          // taken out of staging, so they are not imported as marketable; the list is locked first
          // (lower id than the group, as the inbound pipeline locks them).
          let suppressed = 0;
          if (file.layout.mapping.consent) {
            const listId = await deps.suppressions.listOf(auth.teamId, tx);
            await deps.contacts.lockGroup(tx, listId);
            const refused = await deps.imports.takeRefusals(tx, created.id);
            await deps.suppressions.add(tx, listId, { teamId: auth.teamId, source: 'import', userId: auth.userId }, refused, deps.clock.now());
            suppressed = refused.length;
            await deps.imports.recordConsents(tx, created.id, deps.clock.now());
          }
          // default_optouts is also written by STOP while Modifying: locked before the merge, and each
          // number new to it recorded as an opt-out (one INSERT … SELECT over the staged rows).
          if (deps.suppressions.isList(group)) {
            await deps.contacts.lockGroup(tx, group.id);
            await deps.suppressions.recordImport(tx, group.id, deps.imports.stagedNumbers(created.id), {
              teamId: auth.teamId,
              source: 'import',
              userId: auth.userId,
            });
          }
          const counts = await deps.imports.merge(tx, created.id, group.id, upload.emptyCellsClear ? file.headers : []);
          // Locked only now: the group is already Modifying, so nothing else writes its contacts; its headers may still be edited.
          const { headers } = await deps.contacts.lockGroup(tx, group.id);
          const known = new Set(headers.map((name) => name.toLowerCase()));
          const added = file.headers.filter((name) => !known.has(name.toLowerCase()));
          await deps.contacts.adjustGroup(tx, group.id, counts.added, added.length > 0 ? [...headers, ...added] : undefined);
          // Numbers of the file that are opted out are imported but flagged (an import into default_optouts is all opt-outs).
          const optedOut = deps.suppressions.isList(group) ? 0 : await deps.suppressions.countAmong(tx, auth.teamId, deps.imports.stagedNumbers(created.id));
          await deps.imports.complete(tx, created.id, group.id, { ...counts, optedOut, suppressed });
          return recorded(tx, auth, groupUuid, created.id);
        });
      } catch (error) {
        file.close();
        if (importId === undefined) throw error;
        const reason = error instanceof ImportFileError ? error.message : SERVER_FAILURE;
        try {
          await conn.transaction((tx) => deps.imports.fail(tx, importId!, reason));
        } catch {
          // The connection itself failed; its lock died with it, so recovery finishes the job if this cannot.
          connectionBroken = true;
          await drizzle(deps.database.pool, { schema })
            .transaction((tx) => deps.imports.fail(tx, importId!, reason))
            .catch(() => undefined);
        }
        throw error instanceof ImportFileError ? ValidationError.field('file', reason) : error;
      } finally {
        if (importId !== undefined && !connectionBroken) {
          await deps.imports.release(conn, importId).catch(() => {
            connectionBroken = true;
          });
        }
        // A broken connection (or one whose lock could not be released) is closed, not returned to the pool.
        client.release(connectionBroken || undefined);
      }
    },

    show: async (auth: AuthContext, uuid: string) => present(await findImport(auth, uuid)),

    async listOfGroup(auth: AuthContext, groupUuid: string, window: PageWindow) {
      const group = await findGroup(auth, groupUuid);
      const { rows, total } = await deps.imports.listOfGroup(group.id, window);
      return { items: rows.map(present), total };
    },

    async errors(auth: AuthContext, uuid: string, window: PageWindow) {
      const row = await findImport(auth, uuid);
      return { items: await deps.imports.errorsPage(row.id, window), total: row.rowsInvalid };
    },

    /** The error report as CSV lines, read from the database a page at a time as the client takes them. */
    async errorsCsv(auth: AuthContext, uuid: string): Promise<{ fileName: string; lines: AsyncIterable<string> }> {
      const row = await findImport(auth, uuid);
      async function* lines() {
        // The byte order mark makes spreadsheets read the file as UTF-8.
        yield '\uFEFF' + csvLine(['row', 'value', 'reason']);
        for (let after = 0; ;) {
          const page = await deps.imports.errorsAfter(row.id, after, BATCH_ROWS);
          if (page.length === 0) return;
          yield page.map((error) => csvLine([error.row, error.value, error.reason])).join('');
          after = page[page.length - 1]!.row;
        }
      }
      return { fileName: `import-${row.uuid}-errors.csv`, lines: lines() };
    },
  };
}
export type ImportsService = ReturnType<typeof createImportsService>;

/**
 * At start (and safe at any time, from any process): imports whose process stopped mid-way are
 * failed and their groups Ready again. Their groups were never touched: the merge is one transaction.
 */
export async function recoverInterruptedImports(db: Db, clock: Clock): Promise<number> {
  return db.transaction((tx) => createImportsRepository(db, clock).failOrphans(tx, INTERRUPTED));
}

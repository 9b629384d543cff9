import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, Tx } from '../../db/client';
import { countOf, readPage, type Page, type PageWindow } from '../../db/pages';
import { firstRowOf, MomentSchema, oneRowOf, rowsOf, type Conn } from '../../db/rows';
import type { Clock } from '../../lib/time';

const ContactImportRowSchema = z.object({
  id: z.number(),
  uuid: z.string(),
  groupId: z.number(),
  groupUuid: z.string(),
  status: z.enum(['receiving', 'merging', 'completed', 'failed']),
  fileName: z.string().nullable(),
  bytesTotal: z.number().nullable(),
  bytesReceived: z.number(),
  rowsTotal: z.number(),
  rowsValid: z.number(),
  rowsInvalid: z.number(),
  contactsAdded: z.number(),
  contactsUpdated: z.number(),
  contactsUnchanged: z.number(),
  contactsOptedOut: z.number(),
  contactsSuppressed: z.number(),
  error: z.string().nullable(),
  createdAt: MomentSchema,
  updatedAt: MomentSchema,
  finishedAt: MomentSchema.nullable(),
});
export type ContactImportRow = z.output<typeof ContactImportRowSchema>;
export type ImportStatus = ContactImportRow['status'];

/** One batch of a file: valid rows to stage, rows left out, and the progress after it. */
export type ImportBatch = {
  /** `consents`: each row's consent column, 't', 'f' or '' (no consent column). */
  rows: { rowNumbers: number[]; phoneNumbers: string[]; customFields: string[]; consents: string[] };
  errors: { rowNumbers: number[]; values: string[]; reasons: string[] };
  progress: { bytesReceived: number; rowsTotal: number; rowsValid: number; rowsInvalid: number };
};

const MergeCountsSchema = z.object({ added: z.number(), updated: z.number(), unchanged: z.number() });
export type MergeCounts = z.output<typeof MergeCountsSchema>;
const LeftOutRowSchema = z.object({ row: z.number(), value: z.string(), reason: z.string() });

// Session advisory locks (class, import id): held by the connection that runs an import, so a
// recovery pass can tell an import whose process died (lock free) from one under way elsewhere.
const IMPORT_LOCK_CLASS = 4_841_205;
const RECORD_SEPARATOR = '\u001e';

const COLUMNS = sql`i.id, i.uuid, i.contact_group_id AS "groupId", g.uuid AS "groupUuid", i.status, i.file_name AS "fileName",
  i.bytes_total AS "bytesTotal", i.bytes_received AS "bytesReceived", i.rows_total AS "rowsTotal", i.rows_valid AS "rowsValid",
  i.rows_invalid AS "rowsInvalid", i.contacts_added AS "contactsAdded", i.contacts_updated AS "contactsUpdated",
  i.contacts_unchanged AS "contactsUnchanged", i.contacts_opted_out AS "contactsOptedOut", i.contacts_suppressed AS "contactsSuppressed", i.error, i.created_at AS "createdAt", i.updated_at AS "updatedAt", i.finished_at AS "finishedAt"`;

export function createImportsRepository(db: Db, clock: Clock) {
  return {
    /** A new import, the group marked Modifying, and this connection's lock on the import; inside the caller's transaction. */
    async start(tx: Tx, input: { teamId: number; groupId: number; fileName: string | null; headers: string[]; bytesTotal: number | null }) {
      const now = clock.now();
      const created = await oneRowOf(
        tx,
        z.object({ id: z.number(), uuid: z.string() }),
        sql`
        INSERT INTO contact_imports (team_id, contact_group_id, file_name, headers, bytes_total, created_at, updated_at)
        VALUES (${input.teamId}, ${input.groupId}, ${input.fileName}, ${JSON.stringify(input.headers)}::jsonb, ${input.bytesTotal}, ${now}, ${now})
        RETURNING id, uuid`,
      );
      await tx.execute(sql`UPDATE contact_groups SET modifying_since = ${now} WHERE id = ${input.groupId}`);
      // Session-level: it outlives this transaction, and is released by `release` or when the connection dies.
      await tx.execute(sql`SELECT pg_advisory_lock(${IMPORT_LOCK_CLASS}, ${created.id}::int)`);
      return created;
    },

    async release(conn: Conn, importId: number): Promise<void> {
      await conn.execute(sql`SELECT pg_advisory_unlock(${IMPORT_LOCK_CLASS}, ${importId}::int)`);
    },

    /**
     * Stages valid rows, keeps the rows left out and moves the progress, in one round trip. The
     * valid rows go as three joined strings rather than arrays (a third of the time to send):
     * row numbers and E.164 digits hold no comma, and JSON text never holds a raw control
     * character such as the record separator U+001E (JSON.stringify escapes it).
     */
    async stage(conn: Conn, importId: number, batch: ImportBatch): Promise<void> {
      const { rows, errors, progress } = batch;
      await conn.execute(sql`
        WITH staged AS (
          INSERT INTO contact_import_rows (import_id, row_number, phone_number, custom_fields, consent)
          SELECT ${importId}, r::int, p, f::jsonb, NULLIF(c, '')::boolean
            FROM unnest(string_to_array(${rows.rowNumbers.join(',')}, ','), string_to_array(${rows.phoneNumbers.join(',')}, ','),
                        string_to_array(${rows.customFields.join(RECORD_SEPARATOR)}, ${RECORD_SEPARATOR}),
                        string_to_array(${rows.consents.join(',')}, ',')) AS t(r, p, f, c)
        ), left_out AS (
          INSERT INTO contact_import_errors (import_id, row_number, value, reason)
          SELECT ${importId}, r, v, why
            FROM unnest(${sql.param(errors.rowNumbers)}::int[], ${sql.param(errors.values)}::text[], ${sql.param(errors.reasons)}::text[]) AS t(r, v, why)
        )
        UPDATE contact_imports
           SET bytes_received = ${progress.bytesReceived}, rows_total = ${progress.rowsTotal}, rows_valid = ${progress.rowsValid},
               rows_invalid = ${progress.rowsInvalid}, updated_at = ${clock.now()}
         WHERE id = ${importId}`);
    },

    async markMerging(conn: Conn, importId: number): Promise<void> {
      await conn.execute(sql`UPDATE contact_imports SET status = 'merging', updated_at = ${clock.now()} WHERE id = ${importId}`);
    },

    /**
     * Staged rows into the group in one statement: one row per number, the row latest in the file
     * winning. Contacts the group has get the file's values over theirs: a field the row leaves
     * empty (an empty cell is no value) or the file has no column for keeps its value, unless
     * `cleared` names it (the file's fields, when its empty cells clear fields). They are updated
     * when their fields change (and otherwise left alone); the others are inserted. Both parts read
     * the group as it was before the statement,
     * and the group is locked and Modifying, so nothing else writes its contacts meanwhile. (An
     * INSERT … ON CONFLICT does the same at a fifth more of the cost, checking each row's
     * conflict on its own.)
     */
    async merge(tx: Tx, importId: number, groupId: number, cleared: string[] = []): Promise<MergeCounts> {
      // The sort of a large file fits in memory instead of spilling to disk.
      await tx.execute(sql`SET LOCAL work_mem = '128MB'`);
      const now = clock.now();
      const merged = sql`(c.custom_fields - ${sql.param(cleared)}::text[]) || l.custom_fields`;
      return oneRowOf(
        tx,
        MergeCountsSchema,
        sql`
        WITH latest AS MATERIALIZED (
          SELECT DISTINCT ON (phone_number) phone_number, custom_fields
            FROM contact_import_rows WHERE import_id = ${importId}
           ORDER BY phone_number, row_number DESC
        ), changed AS (
          UPDATE contacts c SET custom_fields = ${merged}, updated_at = ${now}
            FROM latest l
           WHERE c.contact_group_id = ${groupId} AND c.phone_number = l.phone_number AND c.custom_fields IS DISTINCT FROM ${merged}
          RETURNING 1
        ), added AS (
          INSERT INTO contacts (contact_group_id, phone_number, custom_fields, created_at, updated_at)
          SELECT ${groupId}, l.phone_number, l.custom_fields, ${now}, ${now} FROM latest l
           WHERE NOT EXISTS (SELECT 1 FROM contacts c WHERE c.contact_group_id = ${groupId} AND c.phone_number = l.phone_number)
          RETURNING 1
        ), counted AS (
          SELECT (SELECT count(*) FROM added)::int AS added, (SELECT count(*) FROM changed)::int AS updated
        )
        SELECT added, updated, ((SELECT count(*) FROM latest) - added - updated)::int AS unchanged FROM counted`,
      );
    },

    /** Completed with its counts; the group Ready again; the staged rows gone. */
    /** The staged file's numbers, as a statement (`phone_number`) others compose: the suppression list counts those it holds. */
    stagedNumbers: (importId: number): SQL => sql`SELECT phone_number FROM contact_import_rows WHERE import_id = ${importId}`,

    /**
     * The consent column's refusals, taken out of staging before the merge: the distinct numbers whose
     * latest row said no (a later row of the same number decides, as for its fields).
     */
    async takeRefusals(tx: Tx, importId: number): Promise<string[]> {
      const rows = await rowsOf(
        tx,
        z.object({ phoneNumber: z.string() }),
        sql`
        WITH latest AS (
          SELECT DISTINCT ON (phone_number) phone_number, consent FROM contact_import_rows
           WHERE import_id = ${importId} ORDER BY phone_number, row_number DESC
        ), refused AS (
          DELETE FROM contact_import_rows r USING latest l
           WHERE r.import_id = ${importId} AND r.phone_number = l.phone_number AND l.consent = false
          RETURNING r.phone_number
        )
        SELECT DISTINCT phone_number AS "phoneNumber" FROM refused ORDER BY 1`,
      );
      return rows.map((row) => row.phoneNumber);
    },

    /**
     * A consent record for each row whose consent column said yes, with the import, its file and the
     * row as evidence (docs/consent.md), in the merge's transaction.
     */
    async recordConsents(tx: Tx, importId: number, at: Date): Promise<void> {
      await tx.execute(sql`
        INSERT INTO consent_records (team_id, phone_number, source, at, text_shown, evidence)
        SELECT i.team_id, r.phone_number, 'import', ${at}, '',
               jsonb_strip_nulls(jsonb_build_object('import_uuid', i.uuid, 'file_name', i.file_name, 'row', r.row_number))
          FROM contact_import_rows r JOIN contact_imports i ON i.id = r.import_id
         WHERE r.import_id = ${importId} AND r.consent = true`);
    },

    async complete(tx: Tx, importId: number, groupId: number, counts: MergeCounts & { optedOut: number; suppressed?: number }): Promise<void> {
      await tx.execute(sql`
        UPDATE contact_imports
           SET status = 'completed', contacts_added = ${counts.added}, contacts_updated = ${counts.updated},
               contacts_unchanged = ${counts.unchanged}, contacts_opted_out = ${counts.optedOut}, contacts_suppressed = ${counts.suppressed ?? 0}, finished_at = ${clock.now()}, updated_at = ${clock.now()}
         WHERE id = ${importId}`);
      await tx.execute(sql`UPDATE contact_groups SET modifying_since = NULL WHERE id = ${groupId}`);
      await tx.execute(sql`DELETE FROM contact_import_rows WHERE import_id = ${importId}`);
    },

    /** Failed with a reason (unless it completed), the group Ready again, the staged rows gone: in the caller's transaction. */
    async fail(tx: Tx, importId: number, reason: string): Promise<void> {
      const failed = await firstRowOf(
        tx,
        z.object({ groupId: z.number() }),
        sql`
        UPDATE contact_imports SET status = 'failed', error = ${reason}, finished_at = ${clock.now()}, updated_at = ${clock.now()}
         WHERE id = ${importId} AND status IN ('receiving', 'merging')
        RETURNING contact_group_id AS "groupId"`,
      );
      if (failed) await tx.execute(sql`UPDATE contact_groups SET modifying_since = NULL WHERE id = ${failed.groupId}`);
      await tx.execute(sql`DELETE FROM contact_import_rows WHERE import_id = ${importId}`);
    },

    /**
     * Imports under way whose connection is gone (their process stopped): failed with `reason`,
     * their groups Ready again. Imports still held by a live connection are left alone. In the
     * caller's transaction (the advisory locks it tries are held until it ends).
     */
    async failOrphans(tx: Tx, reason: string): Promise<number> {
      const rows = await rowsOf(
        tx,
        z.object({ id: z.number(), groupId: z.number() }),
        sql`
        UPDATE contact_imports SET status = 'failed', error = ${reason}, finished_at = ${clock.now()}, updated_at = ${clock.now()}
         WHERE status IN ('receiving', 'merging') AND pg_try_advisory_xact_lock(${IMPORT_LOCK_CLASS}, id::int)
        RETURNING id, contact_group_id AS "groupId"`,
      );
      if (rows.length === 0) return 0;
      const importIds = rows.map((row) => row.id);
      await tx.execute(sql`
        UPDATE contact_groups g SET modifying_since = NULL
         WHERE g.id = ANY(${sql.param(rows.map((row) => row.groupId))}::bigint[])
           AND NOT EXISTS (SELECT 1 FROM contact_imports i WHERE i.contact_group_id = g.id AND i.status IN ('receiving', 'merging'))`);
      await tx.execute(sql`DELETE FROM contact_import_rows WHERE import_id = ANY(${sql.param(importIds)}::bigint[])`);
      return rows.length;
    },

    find: (teamId: number, uuid: string): Promise<ContactImportRow | undefined> =>
      firstRowOf(
        db,
        ContactImportRowSchema,
        sql`
        SELECT ${COLUMNS} FROM contact_imports i JOIN contact_groups g ON g.id = i.contact_group_id
         WHERE i.team_id = ${teamId} AND i.uuid = ${uuid}`,
      ),

    byId: (id: number, conn: Conn = db): Promise<ContactImportRow> =>
      oneRowOf(
        conn,
        ContactImportRowSchema,
        sql`
        SELECT ${COLUMNS} FROM contact_imports i JOIN contact_groups g ON g.id = i.contact_group_id WHERE i.id = ${id}`,
      ),

    /** A group's imports, newest first. */
    listOfGroup: (groupId: number, window: PageWindow): Promise<Page<ContactImportRow>> =>
      readPage({
        rows: rowsOf(
          db,
          ContactImportRowSchema,
          sql`
          SELECT ${COLUMNS} FROM contact_imports i JOIN contact_groups g ON g.id = i.contact_group_id
           WHERE i.contact_group_id = ${groupId} ORDER BY i.created_at DESC, i.id DESC LIMIT ${window.limit} OFFSET ${window.offset}`,
        ),
        count: () => countOf(db, sql`SELECT count(*)::int AS total FROM contact_imports WHERE contact_group_id = ${groupId}`),
      }),

    /** Rows left out after `afterRow`, in file order (a keyset page: constant cost however deep). */
    errorsAfter: (importId: number, afterRow: number, limit: number): Promise<Array<z.output<typeof LeftOutRowSchema>>> =>
      rowsOf(
        db,
        LeftOutRowSchema,
        sql`
        SELECT row_number AS row, value, reason FROM contact_import_errors
         WHERE import_id = ${importId} AND row_number > ${afterRow} ORDER BY row_number LIMIT ${limit}`,
      ),

    errorsPage: (importId: number, window: PageWindow): Promise<Array<z.output<typeof LeftOutRowSchema>>> =>
      rowsOf(
        db,
        LeftOutRowSchema,
        sql`
        SELECT row_number AS row, value, reason FROM contact_import_errors
         WHERE import_id = ${importId} ORDER BY row_number LIMIT ${window.limit} OFFSET ${window.offset}`,
      ),
  };
}
export type ImportsRepository = ReturnType<typeof createImportsRepository>;

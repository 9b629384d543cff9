import { z } from 'zod';
import { ResourceLinksSchema, TimestampSchema, UuidSchema } from './common';
import { optionalString } from './fields';

/** Largest CSV file an import accepts. */
export const IMPORT_MAX_BYTES = 1024 * 1024 * 1024;

export const ContactImportStatusSchema = z
  .enum(['receiving', 'merging', 'completed', 'failed'])
  .describe(
    'receiving: the file is being read and checked; merging: its rows are being written to the group in one transaction; completed; failed: nothing was written to the group (see `error`).',
  );

export const ContactImportSchema = z
  .object({
    uuid: UuidSchema,
    contact_group_uuid: UuidSchema.describe('The group the file is imported into.'),
    status: ContactImportStatusSchema,
    file_name: z.string().nullable().describe('Name given with `?file_name=`; null when none.'),
    bytes_total: z.number().int().nullable().describe('Size of the file (Content-Length); null when the client streamed it without one.'),
    bytes_received: z.number().int().describe('Bytes read and checked so far.'),
    percent: z
      .number()
      .int()
      .nullable()
      .describe(
        'Progress, 0 to 100, for a progress bar: bytes read of bytes_total while receiving, 99 while merging, 100 when completed; null when the size is unknown.',
      ),
    rows_total: z.number().int().describe('Data rows read so far (the header and blank rows not counted).'),
    rows_valid: z.number().int().describe('Rows with a valid phone number.'),
    rows_invalid: z.number().int().describe('Rows left out; each is in the error report.'),
    contacts_added: z.number().int().describe('Numbers that were not in the group (when completed).'),
    contacts_updated: z.number().int().describe('Numbers already in the group whose custom fields the file changed (when completed).'),
    contacts_unchanged: z.number().int().describe('Numbers already in the group with the same custom fields (when completed).'),
    error: z.string().nullable().describe('Why the import failed; null otherwise.'),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
    finished_at: TimestampSchema.describe('When it completed or failed; an empty string while under way.'),
    links: ResourceLinksSchema.describe('`self`, `errors` (JSON pages) and `errors.csv` (the report as CSV).'),
  })
  .meta({ id: 'ContactImport' });
export type ContactImport = z.infer<typeof ContactImportSchema>;

export const ContactImportErrorSchema = z
  .object({
    row: z.number().int().describe('Row in the file, the header being row 1.'),
    value: z.string().describe('The cell at fault as it was in the file (the phone number unless the reason names another column).'),
    reason: z.string().describe('Why the row was left out.'),
  })
  .meta({ id: 'ContactImportError' });
export type ContactImportError = z.infer<typeof ContactImportErrorSchema>;

export const ContactImportParamsSchema = z.object({ import_uuid: z.uuid().describe('Identifier of the import.') });

export const ImportContactsQuerySchema = z.object({
  file_name: optionalString('file name', 255).optional().describe('Name of the file, shown in the list of imports.'),
});

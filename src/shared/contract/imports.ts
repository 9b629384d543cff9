import { z } from 'zod';
import { ResourceLinksSchema, TimestampSchema, UuidSchema } from './common';
import { optionalString } from './fields';

/** Largest CSV file an import accepts. */
export const IMPORT_MAX_BYTES = 1024 * 1024 * 1024;

/** The Content-Type of an XLSX workbook (an import takes it besides text/csv). */
export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

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
    contacts_opted_out: z
      .number()
      .int()
      .describe(
        "Numbers of the file that are in the team's default_optouts (when completed): imported into the group, but no campaign sends to them while they stay opted out. 0 for an import into default_optouts itself.",
      ),
    contacts_suppressed: z
      .number()
      .int()
      .describe(
        "Herald extension. Numbers whose consent column said no (when completed): added to the team's default_optouts (source import), not imported into the group. 0 without a consent column.",
      ),
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

/** How the API names the delimiters it reads (`tab` for the tab character). */
export const IMPORT_DELIMITERS = [',', ';', 'tab', '|'] as const;
export type ImportDelimiter = (typeof IMPORT_DELIMITERS)[number];

const FieldsMappingSchema = z.record(
  z.string(),
  z.union([z.string({ error: 'Each field name must be a string, or null to leave the column out.' }), z.null()]),
  { error: 'The fields must map column headers to field names (or null to leave a column out).' },
);

/** How to read the file; each option overrides what the service would guess (all optional). */
export const ImportOptionsQuerySchema = z.object({
  delimiter: z
    .enum(IMPORT_DELIMITERS, { error: 'The delimiter must be one of , ; tab |.' })
    .optional()
    .describe('The delimiter between cells: `,` `;` `tab` or `|`. Guessed from the first lines when omitted.'),
  encoding: z
    .string({ error: 'The encoding must be a string.' })
    .regex(/^[A-Za-z0-9_.:-]{2,40}$/, 'The encoding must be a name such as utf-8 or windows-1252.')
    .optional()
    .describe(
      'The text encoding, e.g. `utf-8`, `windows-1252`, `utf-16le`. Guessed when omitted: a byte order mark, valid UTF-8, else a detector (Latin-1 read as Windows-1252).',
    ),
  phone_column: optionalString('phone column', 255)
    .optional()
    .describe(
      'The header of the column holding the phone numbers (any case), or its position from 1. When omitted: the column headed phone_number, mobile, phone, msisdn, cell, telephone, tel or number (any case, spaces or underscores), else the column whose cells are phone numbers.',
    ),
  fields: z
    .string({ error: 'The fields must be a JSON object.' })
    .max(10_000, 'The fields may not be greater than 10000 characters.')
    .transform((text, context) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        context.addIssue({ code: 'custom', message: 'The fields must be a JSON object, e.g. {"First Name":"first_name","Notes":null}.' });
        return z.NEVER;
      }
      const checked = FieldsMappingSchema.safeParse(parsed);
      if (!checked.success || Array.isArray(parsed)) {
        context.addIssue({ code: 'custom', message: checked.error?.issues[0]?.message ?? 'The fields must be a JSON object.' });
        return z.NEVER;
      }
      return checked.data;
    })
    .optional()
    .describe(
      'JSON object: column header → the custom field it fills, or null to leave the column out, e.g. `{"First Name":"first_name","Notes":null}`. Columns not named keep their guess: the group\'s spelling of a field it has, else the header in snake_case (`First Name` → `first_name`).',
    ),
  consent_column: optionalString('consent column', 255)
    .optional()
    .describe(
      'Herald extension. The header of the consent column ("Accepts SMS Marketing", any case), or its position from 1: each row says yes or no (also true/false, 1/0, y/n, any case). A yes row is imported with a consent record (docs/consent.md); a no row is suppressed (default_optouts, source import), not imported; any other value leaves the row out with an error. Not for an import into default_optouts.',
    ),
  sheet: optionalString('sheet', 255).optional().describe('XLSX: the name of the sheet to read (any case); the first sheet when omitted.'),
  default_country: z
    .string({ error: 'The default country must be a string.' })
    .regex(/^[A-Za-z]{2}$/, 'The default country must be a two-letter country code, e.g. GB.')
    .transform((code) => code.toUpperCase())
    .optional()
    .describe("Two-letter country code national numbers (without a country code) are read in; the team's default country (team settings) when omitted."),
});
export type ImportOptionsQuery = z.infer<typeof ImportOptionsQuerySchema>;

export const ImportContactsQuerySchema = ImportOptionsQuerySchema.extend({
  file_name: optionalString('file name', 255).optional().describe('Name of the file, shown in the list of imports.'),
  empty_cells_clear: z
    .enum(['true', 'false'], { error: 'The empty cells clear option must be true or false.' })
    .optional()
    .transform((value) => value === 'true')
    .describe(
      "Herald extension. For numbers the group already has: `true` makes an empty cell clear that field; by default (`false`) an empty cell leaves the contact's value as it is. Fields the file has no column for are always kept.",
    ),
});

export const ImportPreviewSchema = z
  .object({
    format: z.enum(['csv', 'xlsx']).describe('How the file is read: CSV text, or an XLSX workbook (by its Content-Type).'),
    encoding: z.string().nullable().describe('CSV: the encoding the file is read in; null for a workbook.'),
    delimiter: z.enum(IMPORT_DELIMITERS).nullable().describe('CSV: the delimiter the file is read with; null for a workbook.'),
    sheet: z.string().nullable().describe('XLSX: the sheet read; null for CSV.'),
    default_country: z.string().describe('The country national numbers are read in.'),
    has_header: z.boolean().describe('False when the first row is already a contact (a file of numbers without a header row).'),
    headers: z.array(z.string()).describe('The first row as read (for a file without a header: `column 1`, `column 2`…).'),
    phone_column: z
      .object({
        position: z.number().int().describe('Its position, from 1.'),
        header: z.string(),
        found_by: z.enum(['option', 'header', 'content']).describe('How it was found: named by `phone_column`, by its header, or by its cells.'),
      })
      .describe('The column holding the phone numbers.'),
    columns: z
      .array(
        z.object({
          position: z.number().int().describe('Its position, from 1.'),
          header: z.string(),
          field: z.string().nullable().describe('The custom field it fills; null when it is left out.'),
        }),
      )
      .describe('The other columns and what each becomes.'),
    consent_column: z
      .object({ position: z.number().int().describe('Its position, from 1.'), header: z.string() })
      .optional()
      .describe('Herald extension. The consent column named by `consent_column`; absent without one.'),
    rows: z
      .array(
        z.object({
          row: z.number().int().describe('Row in the file, the header being row 1.'),
          cells: z.array(z.string()),
          phone_number: z.string().nullable().describe('The number as it would be stored; null when the row would be left out.'),
          problem: z.string().nullable().describe('Why the row would be left out; null otherwise.'),
          warning: z
            .string()
            .nullable()
            .describe(
              'Herald extension. Something to check about the number: a landline (it cannot receive texts), or a national number that fits another country better than `default_country`; null otherwise.',
            ),
        }),
      )
      .describe('The first rows (at most 20) as they would be imported.'),
  })
  .meta({ id: 'ContactImportPreview' });
export type ImportPreview = z.infer<typeof ImportPreviewSchema>;

import type { Readable } from 'node:stream';
import { CsvError, parse, type Info } from 'csv-parse';
import { ContactGroupInputSchema, isStorableText } from '../../../shared/contract';
import { ValidationError } from '../../lib/errors';
import { normalizePhoneNumber } from '../../lib/phone-numbers';

// A record larger than this is a broken file (an unclosed quote swallowing the rest), and the
// parser would otherwise hold it all in memory.
const MAX_RECORD_BYTES = 1024 * 1024;
const MAX_VALUE_LENGTH = 1000;
const MAX_FIELDS = 50;
const LONE_SURROGATES = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** A problem with the file as a whole: the import fails and says why. */
export class ImportFileError extends Error {}

export type CheckedRow = { ok: true; row: number; phoneNumber: string; customFields: string } | { ok: false; row: number; value: string; reason: string };

export type ImportFile = {
  /** Custom-field names in column order, in the group's spelling when the group knew the name. */
  headers: string[];
  /** Bytes of the file read so far. */
  bytesRead(): number;
  /** Every data row after the header, checked; blank rows skipped. */
  rows: AsyncIterable<CheckedRow>;
  /** Stops reading (the rest of the upload is discarded). */
  close(): void;
};

type ParsedRecord = { record: string[]; info: Info };
type Columns = { width: number; phone: number; fields: Array<{ index: number; name: string }> };

/** What an error report may hold of a value: storable, and not unbounded. */
const reportable = (value: string) =>
  (isStorableText(value) ? value : value.replaceAll('\u0000', '\uFFFD').replace(LONE_SURROGATES, '\uFFFD')).slice(0, MAX_VALUE_LENGTH);

const csvProblem = (error: unknown) => (error instanceof CsvError ? new ImportFileError(`The file is not valid CSV: ${error.message}.`) : error);

/**
 * Opens an uploaded CSV: reads and checks the header (a ValidationError, before anything is
 * written, when it is unusable), then yields checked rows one at a time: memory stays constant.
 */
export async function openImportFile(body: Readable, options: { groupHeaders: string[]; defaultCountry: string; maxBytes: number }): Promise<ImportFile> {
  const parser = parse({ bom: true, info: true, skip_empty_lines: true, relax_column_count: true, relax_quotes: true, max_record_size: MAX_RECORD_BYTES });
  // A client that goes away mid-upload ends the stream without 'end': the import must fail, not complete.
  body.once('error', () => parser.destroy(new ImportFileError('The upload was interrupted before the end of the file.')));
  body.once('close', () => {
    if (!body.readableEnded) parser.destroy(new ImportFileError('The upload was interrupted before the end of the file.'));
  });
  body.pipe(parser);
  const records: AsyncIterator<ParsedRecord> = parser[Symbol.asyncIterator]();
  const close = () => {
    body.unpipe(parser);
    parser.destroy();
    body.resume();
  };

  let first: IteratorResult<ParsedRecord>;
  try {
    first = await records.next();
  } catch (error) {
    close();
    throw error instanceof CsvError || error instanceof ImportFileError ? ValidationError.field('file', (csvProblem(error) as Error).message) : error;
  }
  let columns: Columns;
  try {
    columns = readHeader(first.done ? undefined : first.value.record, options.groupHeaders);
  } catch (error) {
    close();
    throw error;
  }
  const headers = columns.fields.map((field) => field.name);
  let bytes = first.done ? 0 : first.value.info.bytes;

  async function* rows(): AsyncGenerator<CheckedRow> {
    try {
      for (let next = await records.next(); !next.done; next = await records.next()) {
        const { record, info } = next.value;
        bytes = info.bytes;
        if (bytes > options.maxBytes) throw new ImportFileError(`The file is larger than ${options.maxBytes / 1024 / 1024} MiB.`);
        if (record.every((cell) => cell.trim() === '')) continue;
        yield checkRow(record, info.records + info.empty_lines, columns, options.defaultCountry);
      }
    } catch (error) {
      throw csvProblem(error);
    }
  }

  return { headers, bytesRead: () => bytes, rows: rows(), close };
}

function readHeader(header: string[] | undefined, groupHeaders: string[]) {
  const fail = (message: string) => ValidationError.field('file', message);
  if (!header) throw fail('The file is empty; its first row must be the header: phone_number, then custom-field names.');
  const names = header.map((name) => name.trim());
  const phoneColumns = names.flatMap((name, index) => (name.toLowerCase() === 'phone_number' ? [index] : []));
  if (phoneColumns.length === 0) throw fail('The first row must be the header, with a phone_number column.');
  if (phoneColumns.length > 1) throw fail('The header has more than one phone_number column.');
  // A column without a name (a spreadsheet's trailing comma) carries nothing a template can use.
  const fields = names.flatMap((name, index) => (index !== phoneColumns[0] && name !== '' ? [{ index, name }] : []));
  const checked = ContactGroupInputSchema.shape.headers.safeParse(fields.map((field) => field.name));
  if (!checked.success) throw new ValidationError({ file: checked.error.issues.map((issue) => issue.message) });
  const known = new Map(groupHeaders.map((name) => [name.toLowerCase(), name]));
  const spelled = fields.map((field) => ({ index: field.index, name: known.get(field.name.toLowerCase()) ?? field.name }));
  const added = spelled.filter((field) => !known.has(field.name.toLowerCase())).length;
  if (groupHeaders.length + added > MAX_FIELDS) throw fail(`The group would have more than ${MAX_FIELDS} custom fields.`);
  return { width: names.length, phone: phoneColumns[0]!, fields: spelled };
}

function checkRow(record: string[], row: number, columns: Columns, defaultCountry: string): CheckedRow {
  const cell = record[columns.phone] ?? '';
  if (record.slice(columns.width).some((extra) => extra !== ''))
    return { ok: false, row, value: reportable(cell), reason: 'The row has more cells than the header has columns.' };
  const phone = normalizePhoneNumber(cell, defaultCountry);
  if (!phone.ok) return { ok: false, row, value: reportable(cell), reason: `The phone number ${phone.reason}.` };
  const fields: Record<string, string> = {};
  for (const { index, name } of columns.fields) {
    const value = record[index] ?? '';
    // An empty cell is no value: the template preview then says so, as for a contact without the field.
    if (value === '') continue;
    if (value.length > MAX_VALUE_LENGTH)
      return { ok: false, row, value: reportable(value), reason: `The ${name} value may not be greater than ${MAX_VALUE_LENGTH} characters.` };
    if (!isStorableText(value)) return { ok: false, row, value: reportable(value), reason: `The ${name} value contains characters that cannot be stored.` };
    fields[name] = value;
  }
  return { ok: true, row, phoneNumber: phone.number, customFields: JSON.stringify(fields) };
}

import type { Readable } from 'node:stream';
import type { Transform } from 'node:stream';
import { CsvError, parse } from 'csv-parse';
import { parse as parseSync } from 'csv-parse/sync';
import iconv from 'iconv-lite';
import { isStorableText } from '../../../shared/contract';
import { ValidationError } from '../../lib/errors';
import { normalizePhoneNumber } from '../../lib/phone-numbers';
import { numberWarning } from '../../lib/phone-warnings';
import { decodeSample, mapColumns, readWith, sniffDelimiter, sniffEncoding, type Delimiter, type Mapping } from './sniff';
import { WorkbookTooLargeError } from './workbook-limits';
import { xlsxRows, XlsxError, type SheetRow } from './xlsx-rows';

// A record larger than this is a broken file (an unclosed quote swallowing the rest), and the
// parser would otherwise hold it all in memory.
const MAX_RECORD_BYTES = 1024 * 1024;
const MAX_VALUE_LENGTH = 1000;
const LONE_SURROGATES = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/** How many bytes of the file are read first to guess its encoding, delimiter and columns. */
const SAMPLE_BYTES = 64 * 1024;
const PEEK_PATIENCE_MS = 1000;
const INTERRUPTED = 'The upload was interrupted before the end of the file.';

/** A problem with the file as a whole: the import fails and says why. */
export class ImportFileError extends Error {}

export type CheckedRow =
  { ok: true; row: number; phoneNumber: string; customFields: string; consent: boolean | null } | { ok: false; row: number; value: string; reason: string };

/** How a consent cell may say yes or no, any case: anything else is a row error, never a guess. */
const CONSENT_WORDS = new Map([
  ['yes', true],
  ['y', true],
  ['true', true],
  ['1', true],
  ['no', false],
  ['n', false],
  ['false', false],
  ['0', false],
]);

/** What the caller says about the file; each overrides a guess (docs/api-conventions.md, imports). */
export type ImportOptions = {
  delimiter?: Delimiter;
  /** An encoding iconv-lite knows (utf-8, windows-1252, iso-8859-15, utf-16le…). */
  encoding?: string;
  /** The phone column's header (any case) or its 1-based position. */
  phoneColumn?: string;
  /** Header → field name; null leaves the column out. */
  fields?: Record<string, string | null>;
  /** The consent column ("Accepts SMS Marketing": yes/no), by header or 1-based position. */
  consentColumn?: string;
  /** XLSX: the sheet to read (by name, any case); the first one otherwise. */
  sheet?: string;
};

export type FileFormat = 'csv' | 'xlsx';

/** What was read from the file's start: the guesses, and its first rows as they will be read (with their row numbers). */
export type FileLayout =
  | { format: 'csv'; encoding: string; delimiter: Delimiter; mapping: Mapping; sample: string[][]; rowNumbers?: undefined }
  | { format: 'xlsx'; sheet: string; mapping: Mapping; sample: string[][]; rowNumbers: number[] };

export type ImportFile = {
  /** Custom-field names in column order, in the group's spelling when the group knew the name. */
  headers: string[];
  /** How the file is read: encoding, delimiter, the phone column and what the others fill. */
  layout: FileLayout;
  /** Bytes of the file read so far. */
  bytesRead(): number;
  /** Every data row after the header, checked, a few thousand at a time; blank rows skipped. */
  rows: AsyncIterable<CheckedRow[]>;
  /** Stops reading (the rest of the upload is discarded). */
  close(): void;
};

type Columns = { width: number; phone: number; fields: Array<{ index: number; name: string }>; consent: number | null };
type FileContext = { groupHeaders: string[]; defaultCountry: string };

/** What an error report may hold of a value: storable, and not unbounded. */
const reportable = (value: string) =>
  (isStorableText(value) ? value : value.replaceAll('\u0000', '\uFFFD').replace(LONE_SURROGATES, '\uFFFD')).slice(0, MAX_VALUE_LENGTH);

const csvProblem = (error: unknown) => (error instanceof CsvError ? new ImportFileError(`The file is not valid CSV: ${error.message}.`) : error);

/**
 * Reads the start of the upload and pauses it there: `want` bytes, or 60 lines, or whatever has come
 * a second after the first line break (a client streaming slowly is not kept waiting); `complete`
 * when that was all of it. Its listeners are removed again, so the caller can pipe the rest.
 */
function peek(body: Readable, want: number): Promise<{ head: Buffer; complete: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let lineBreaks = 0;
    let timer: NodeJS.Timeout | undefined;
    const cleanup = () => {
      clearTimeout(timer);
      body.off('data', onData);
      body.off('end', onEnd);
      body.off('error', onError);
      body.off('close', onClose);
    };
    const finish = (complete: boolean) => {
      cleanup();
      if (!complete) body.pause();
      resolve({ head: Buffer.concat(chunks), complete });
    };
    const onData = (chunk: Buffer | string) => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      chunks.push(bytes);
      size += bytes.length;
      for (let at = bytes.indexOf(0x0a); at >= 0; at = bytes.indexOf(0x0a, at + 1)) lineBreaks += 1;
      if (size >= want || lineBreaks >= 60) return finish(false);
      if (lineBreaks > 0 && timer === undefined) timer = setTimeout(() => finish(false), PEEK_PATIENCE_MS);
    };
    const onEnd = () => finish(true);
    const onError = () => {
      cleanup();
      reject(new ImportFileError(INTERRUPTED));
    };
    const onClose = () => {
      if (body.readableEnded) return;
      cleanup();
      reject(new ImportFileError(INTERRUPTED));
    };
    body.on('data', onData);
    body.once('end', onEnd);
    body.once('error', onError);
    body.once('close', onClose);
  });
}

/** How many records are taken from the parser at once, at most. */
const RECORDS_AT_ONCE = 5000;

/**
 * The records the parser has ready (waiting for some when it has none), or null at the end of the
 * file. Taken synchronously, many at a time: an async iterator's promise per record costs as much
 * as parsing it.
 */
function readRecords(parser: Transform): Promise<string[][] | null> {
  const take = () => {
    const records: string[][] = [];
    for (let record = parser.read() as string[] | null; record !== null; record = parser.read() as string[] | null) {
      records.push(record);
      if (records.length >= RECORDS_AT_ONCE) break;
    }
    return records;
  };
  return new Promise((resolve, reject) => {
    if (parser.errored) return reject(parser.errored);
    const ready = take();
    if (ready.length > 0) return resolve(ready);
    if (parser.readableEnded) return resolve(null);
    const cleanup = () => {
      parser.off('readable', onReadable);
      parser.off('end', onEnd);
      parser.off('error', onError);
      parser.off('close', onClose);
    };
    const onReadable = () => {
      const records = take();
      if (records.length === 0) return;
      cleanup();
      resolve(records);
    };
    const onEnd = () => {
      cleanup();
      resolve(null);
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    // Destroyed without an error: never taken for the end of the file.
    const onClose = () => {
      cleanup();
      reject(parser.errored ?? new ImportFileError(INTERRUPTED));
    };
    parser.on('readable', onReadable);
    parser.once('end', onEnd);
    parser.once('error', onError);
    parser.once('close', onClose);
  });
}

/** The first rows of the sample, parsed as the whole file will be (an incomplete last line left out). */
function sampleRows(text: string, complete: boolean, delimiter: Delimiter): string[][] {
  const lastBreak = Math.max(text.lastIndexOf('\n'), text.lastIndexOf('\r'));
  const whole = complete || lastBreak < 0 ? text : text.slice(0, lastBreak + 1);
  try {
    return parseSync(whole, { delimiter, relax_column_count: true, relax_quotes: true, skip_empty_lines: true, to_line: 60 }) as string[][];
  } catch (error) {
    throw ValidationError.field('file', (csvProblem(error) as Error).message);
  }
}

const sameEncoding = (a: string, b: string) => a.toLowerCase().replace(/^utf-?8$/, 'utf-8') === b.toLowerCase().replace(/^utf-?8$/, 'utf-8');

/**
 * Reads the start of an upload and works out how to read it (encoding, delimiter, columns), the
 * caller's options first. A ValidationError, before anything is written, when no phone column is
 * found or an option names what the file does not have. The rest of the upload stays unread.
 */
async function readLayout(body: Readable, options: ImportOptions, context: FileContext) {
  const { head, complete } = await peek(body, SAMPLE_BYTES);
  const sniffed = sniffEncoding(head, complete);
  if (options.encoding !== undefined && !iconv.encodingExists(options.encoding))
    throw ValidationError.field('encoding', `The encoding ${options.encoding} is not one Herald can read (e.g. utf-8, windows-1252, iso-8859-15, utf-16le).`);
  const encoding =
    options.encoding === undefined
      ? sniffed
      : { name: options.encoding.toLowerCase(), bomLength: sameEncoding(sniffed.name, options.encoding) ? sniffed.bomLength : 0 };
  const text = decodeSample(head, encoding);
  if (text.trim() === '') throw ValidationError.field('file', 'The file is empty; its first row must be the header: phone_number, then custom-field names.');
  const delimiter = options.delimiter ?? sniffDelimiter(text);
  const rows = sampleRows(text, complete, delimiter);
  const [header = [], ...sample] = rows;
  const mapping = mapColumns(header, sample, context.groupHeaders, { ...options, defaultCountry: context.defaultCountry }, readWith(delimiter));
  const layout: FileLayout = { format: 'csv', encoding: sameEncoding(encoding.name, 'utf-8') ? 'utf-8' : encoding.name, delimiter, mapping, sample: rows };
  return { head, complete, layout };
}

/** How a file would be read, from its first part, for the import wizard: nothing is written, the rest is not read. */
export async function previewImportFile(body: Readable, format: FileFormat, options: ImportOptions & FileContext): Promise<FileLayout> {
  try {
    if (format === 'xlsx') {
      const { layout, rows } = await readSheetLayout(body, options);
      void rows.return(undefined);
      return layout;
    }
    return (await readLayout(body, options, options)).layout;
  } catch (error) {
    throw error instanceof ImportFileError ? ValidationError.field('file', error.message) : error;
  } finally {
    body.resume();
  }
}

/**
 * Opens an uploaded contacts file: reads its start to find its encoding, delimiter and columns (a
 * ValidationError, before anything is written, when it is unusable), then yields checked rows one
 * at a time: memory stays constant.
 */
export async function openImportFile(body: Readable, format: FileFormat, options: ImportOptions & FileContext & { maxBytes: number }): Promise<ImportFile> {
  if (format === 'xlsx') return openSheet(body, options);
  let opened: Awaited<ReturnType<typeof readLayout>>;
  try {
    opened = await readLayout(body, options, options);
  } catch (error) {
    body.resume();
    throw error instanceof ImportFileError ? ValidationError.field('file', error.message) : error;
  }
  const { head, complete, layout } = opened;

  // Empty lines come through as records (and are skipped below) so that counting records counts
  // the file's rows; csv-parse's own `info` would do it at twice the cost.
  const parser = parse({
    bom: true,
    delimiter: layout.delimiter,
    skip_empty_lines: false,
    relax_column_count: true,
    relax_quotes: true,
    max_record_size: MAX_RECORD_BYTES,
  });
  // Other encodings are decoded to text on the way (iconv-lite drops their byte order mark).
  const decoder = layout.encoding === 'utf-8' ? null : iconv.decodeStream(layout.encoding);
  const input: NodeJS.WritableStream = decoder ?? parser;
  if (decoder) decoder.pipe(parser);
  let bytes = head.length;
  // A client that goes away mid-upload ends the stream without 'end': the import must fail, not complete.
  body.once('error', () => parser.destroy(new ImportFileError(INTERRUPTED)));
  body.once('close', () => {
    if (!body.readableEnded) parser.destroy(new ImportFileError(INTERRUPTED));
  });
  body.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
  });
  input.write(head);
  if (complete) input.end();
  else body.pipe(input);
  const close = () => {
    body.unpipe(input);
    parser.destroy();
    body.resume();
  };

  const columns = columnsOf(layout.mapping);

  async function* rows(): AsyncGenerator<CheckedRow[]> {
    // The file's row number of the last record read (the header, when there is one, is row 1).
    let row = 0;
    // The header is not a contact; a file without one starts with its first contact.
    let skipHeader = layout.mapping.hasHeader;
    try {
      for (let records = await readRecords(parser); records !== null; records = await readRecords(parser)) {
        if (bytes > options.maxBytes) throw new ImportFileError(`The file is larger than ${options.maxBytes / 1024 / 1024} MiB.`);
        const checked: CheckedRow[] = [];
        for (const record of records) {
          row += 1;
          if (skipHeader) {
            skipHeader = false;
            continue;
          }
          if (record.every((cell) => cell.trim() === '')) continue;
          checked.push(checkRow(record, row, columns, options.defaultCountry));
        }
        if (checked.length > 0) yield checked;
      }
    } catch (error) {
      throw csvProblem(error);
    }
  }

  return { headers: columns.fields.map((field) => field.name), layout, bytesRead: () => bytes, rows: rows(), close };
}

const SHEET_SAMPLE_ROWS = 60;
/** A workbook's rows are handed on this many at a time. */
const SHEET_ROWS_AT_ONCE = 1000;

const sheetProblem = (error: unknown) =>
  error instanceof XlsxError
    ? new ImportFileError(`The file is not a workbook Herald can read: ${error.message}.`)
    : error instanceof WorkbookTooLargeError
      ? new ImportFileError(error.message)
      : error;

/** The first rows of a workbook's sheet and how they map; the row generator goes on after them. */
async function readSheetLayout(body: Readable, options: ImportOptions & FileContext) {
  const rows = xlsxRows(body, options.sheet);
  const head: SheetRow[] = [];
  try {
    for (let next = await rows.next(); !next.done; next = await rows.next()) {
      head.push(next.value);
      if (head.length >= SHEET_SAMPLE_ROWS) break;
    }
  } catch (error) {
    body.resume();
    const problem = sheetProblem(error);
    throw problem instanceof ImportFileError ? ValidationError.field('file', problem.message) : problem;
  }
  const [header, ...sample] = head;
  if (!header) throw ValidationError.field('file', 'The sheet is empty; its first row must be the header: a phone column, then custom-field names.');
  const sheet = header.sheet;
  const mapping = mapColumns(
    header.cells,
    sample.map((row) => row.cells),
    options.groupHeaders,
    { ...options, defaultCountry: options.defaultCountry },
    `in the sheet "${sheet}"`,
  );
  const layout: FileLayout = { format: 'xlsx', sheet, mapping, sample: head.map((row) => row.cells), rowNumbers: head.map((row) => row.row) };
  return { layout, head, rows };
}

/** An XLSX upload's rows, checked one at a time (the workbook is streamed). */
async function openSheet(body: Readable, options: ImportOptions & FileContext & { maxBytes: number }): Promise<ImportFile> {
  let bytes = 0;
  body.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
  });
  const { layout, head, rows: rest } = await readSheetLayout(body, options);
  const columns = columnsOf(layout.mapping);
  let closed = false;
  async function* rows(): AsyncGenerator<CheckedRow[]> {
    try {
      const all = async function* () {
        yield* head;
        for (let next = await rest.next(); !next.done; next = await rest.next()) yield next.value;
      };
      let skipHeader = layout.mapping.hasHeader;
      let checked: CheckedRow[] = [];
      for await (const { row, cells } of all()) {
        if (closed) return;
        if (bytes > options.maxBytes) throw new ImportFileError(`The file is larger than ${options.maxBytes / 1024 / 1024} MiB.`);
        if (skipHeader) {
          skipHeader = false;
          continue;
        }
        if (cells.every((cell) => cell.trim() === '')) continue;
        checked.push(checkRow(cells, row, columns, options.defaultCountry));
        if (checked.length >= SHEET_ROWS_AT_ONCE) {
          yield checked;
          checked = [];
        }
      }
      if (checked.length > 0) yield checked;
    } catch (error) {
      throw sheetProblem(error);
    }
  }
  const close = () => {
    closed = true;
    body.resume();
  };
  return { headers: columns.fields.map((field) => field.name), layout, bytesRead: () => bytes, rows: rows(), close };
}

const columnsOf = (mapping: Mapping): Columns => ({
  width: mapping.width,
  phone: mapping.phone.index,
  fields: mapping.columns.flatMap((column) => (column.field === null ? [] : [{ index: column.index, name: column.field }])),
  consent: mapping.consent?.index ?? null,
});

/** The first data rows of the sample as the import would take them: the number it would store, or why it would leave the row out. */
export function previewRows(layout: FileLayout, defaultCountry: string, count: number) {
  const columns = columnsOf(layout.mapping);
  const first = layout.mapping.hasHeader ? 1 : 0;
  return layout.sample.slice(first, first + count).map((cells, index) => {
    const row = layout.rowNumbers?.[index + first] ?? index + first + 1;
    const checked = checkRow(cells, row, columns, defaultCountry);
    const cell = cells[columns.phone] ?? '';
    return {
      row,
      cells,
      phone_number: checked.ok ? checked.phoneNumber : null,
      problem: checked.ok ? null : checked.reason,
      warning: cell.trim() === '' ? null : numberWarning(cell, defaultCountry),
    };
  });
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
  let consent: boolean | null = null;
  if (columns.consent !== null) {
    const value = record[columns.consent] ?? '';
    const said = CONSENT_WORDS.get(value.trim().toLowerCase());
    if (said === undefined) return { ok: false, row, value: reportable(value), reason: 'The consent must be yes or no (or true/false, 1/0, y/n).' };
    consent = said;
  }
  return { ok: true, row, phoneNumber: phone.number, customFields: JSON.stringify(fields), consent };
}

/**
 * The rows of one sheet of an XLSX workbook, streamed: exceljs reads the zip as it arrives and
 * hands over one row at a time (the shared strings are kept, the rows are not), so a workbook of
 * 100,000 rows is read in flat memory. What it keeps whole (the shared strings, a row) is bounded
 * by the limits of workbook-limits.ts, which watch the same bytes as they come. Cells become the text a person sees: numbers in full
 * (447700900123, not 4.477E+11), dates as `YYYY-MM-DD` (with the time when there is one), rich text
 * joined, a formula's result.
 */
import { PassThrough, type Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { ValidationError } from '../../lib/errors';
import { watchWorkbook, WorkbookTooLargeError, type WorkbookLimits } from './workbook-limits';

/** A row of the sheet read, with its number in the sheet and the sheet's name. */
export type SheetRow = { row: number; cells: string[]; sheet: string };

/** A cell's value as text. */
export function cellText(value: ExcelJS.CellValue | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value).toString() : String(value);
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) {
    const iso = value.toISOString();
    return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.slice(0, 19).replace('T', ' ');
  }
  if ('richText' in value) return value.richText.map((part) => part.text).join('');
  if ('formula' in value || 'sharedFormula' in value) return cellText((value as { result?: ExcelJS.CellValue }).result);
  if ('hyperlink' in value) return cellText((value as { text?: ExcelJS.CellValue }).text);
  if ('error' in value) return '';
  return '';
}

/**
 * The rows of the sheet named `sheet` (any case), else of the first sheet in the file. Rows with no
 * cell at all are skipped, as Excel keeps none for them; each row keeps its number in the sheet.
 */
export async function* xlsxRows(body: Readable, sheet: string | undefined, limits?: WorkbookLimits): AsyncGenerator<SheetRow> {
  // The upload goes to exceljs and to the watch together: piped to both, it flows as fast as the slower takes it.
  const watch = watchWorkbook(limits);
  const input = new PassThrough();
  body.pipe(input);
  body.pipe(watch.input);
  const stop = () => {
    body.unpipe(input);
    body.unpipe(watch.input);
    // exceljs's zip reader then sees the end of its input and gives up.
    if (!input.writableEnded) input.end();
  };
  // Every step of exceljs is raced with the watch: past a limit, its pending read is left behind.
  const guarded = <T>(step: Promise<T>) => Promise.race([step, watch.failed]);
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(input, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'cache',
    entries: 'ignore',
  });
  let found = false;
  const names: string[] = [];
  const worksheets = reader[Symbol.asyncIterator]();
  try {
    for (let next = await guarded(worksheets.next()); !next.done; next = await guarded(worksheets.next())) {
      const worksheet = next.value as ExcelJS.stream.xlsx.WorksheetReader & AsyncIterable<ExcelJS.Row>;
      const name = (worksheet as unknown as { name?: string }).name ?? '';
      names.push(name);
      const wanted = !found && (sheet === undefined || name.toLowerCase() === sheet.trim().toLowerCase());
      const rows = worksheet[Symbol.asyncIterator]();
      for (let row = await guarded(rows.next()); !row.done; row = await guarded(rows.next())) {
        // The other sheets are read through (the zip is one stream) but not kept.
        if (!wanted) continue;
        const values = row.value.values as ExcelJS.CellValue[];
        yield {
          row: row.value.number,
          sheet: name,
          cells: Array.from({ length: Math.max(0, values.length - 1) }, (_, index) => cellText(values[index + 1])),
        };
      }
      if (wanted) found = true;
    }
  } catch (error) {
    stop();
    if (error instanceof ValidationError || error instanceof WorkbookTooLargeError) throw error;
    throw new XlsxError(error instanceof Error ? error.message : String(error));
  } finally {
    // Left early (the caller had the rows it wanted): the rest of the upload is not read here.
    if (!body.readableEnded) stop();
  }
  if (!found)
    throw sheet === undefined
      ? new XlsxError('the workbook has no sheet')
      : ValidationError.field('sheet', `The workbook has no sheet "${sheet}"; its sheets are ${names.map((name) => `"${name}"`).join(', ')}.`);
}

/** A workbook that cannot be read. */
export class XlsxError extends Error {}

import { parse } from 'csv-parse/sync';
import { expect } from 'vitest';
import { neutralise } from '../lib/csv';

/** A report row as a page answers it. */
export type ReportPageRow = Record<string, string | number | null>;

/** A page's row as its CSV line reads back: the given columns only, each cell as the CSV writes it (formulas neutralised, null empty). */
export const csvCellsOf = (row: ReportPageRow, columns: readonly string[]): string[] =>
  columns.map((column) => {
    const value = row[column];
    return value === null || value === undefined ? '' : typeof value === 'string' ? neutralise(value) : String(value);
  });

/** A report's CSV parsed back (its byte-order mark dropped): the header and the records. */
export const csvRecordsOf = (text: string): { header: string[]; records: string[][] } => {
  const [header = [], ...records] = parse(text, { bom: true }) as string[][];
  return { header, records };
};

/** A report's NDJSON, each line parsed; every line ends with a line feed. */
export const ndjsonRowsOf = (text: string): ReportPageRow[] => {
  const lines = text.split('\n');
  expect(lines.pop()).toBe('');
  return lines.map((line) => JSON.parse(line) as ReportPageRow);
};

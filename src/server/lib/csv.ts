/**
 * CSV cells for spreadsheets (RFC 4180). A cell that a spreadsheet would read as a formula — it
 * begins with `=`, `+`, `-`, `@`, a tab, CR or LF — is neutralised with a leading apostrophe (OWASP
 * "CSV injection"), except a plain international phone number (`+` and digits), which stays as it is.
 */
const FORMULA_START = /^[=+\-@\t\r\n]/;
const PHONE_NUMBER = /^\+\d+$/;
const NEEDS_QUOTES = /[",\r\n]/;

/** The value as a spreadsheet shows it but never evaluates: a leading `'` where it would start a formula. */
export function neutralise(value: string): string {
  return FORMULA_START.test(value) && !PHONE_NUMBER.test(value) ? `'${value}` : value;
}

export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'string' ? neutralise(value) : String(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One CSV line (CRLF-terminated, as RFC 4180 has it). */
export function csvLine(cells: Array<string | number | null | undefined>): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/** The CSV line of a row object, its cells in `columns` order (no intermediate array: exports write millions). */
export function csvRow(row: Record<string, string | number | null | undefined>, columns: readonly string[]): string {
  let line = csvCell(row[columns[0]!]);
  for (let i = 1; i < columns.length; i++) line += `,${csvCell(row[columns[i]!])}`;
  return `${line}\r\n`;
}

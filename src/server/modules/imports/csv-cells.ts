// A spreadsheet runs a cell starting with one of these as a formula (CSV injection, OWASP).
const FORMULA_START = /^[=+\-@\t\r]/;
// A phone number in international form is data, not a formula; it stays readable.
const PLAIN_PHONE_NUMBER = /^\+\d+$/;

/** The value as a spreadsheet shows it but never evaluates: a leading `'` where it would start a formula. */
export function neutralise(value: string): string {
  return FORMULA_START.test(value) && !PLAIN_PHONE_NUMBER.test(value) ? `'${value}` : value;
}

/** One CSV line (RFC 4180 quoting), every text cell neutralised. */
export function csvLine(cells: ReadonlyArray<string | number>): string {
  return (
    cells
      .map((cell) => {
        const text = typeof cell === 'number' ? String(cell) : neutralise(cell);
        return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
      })
      .join(',') + '\r\n'
  );
}

import { z } from 'zod';
import { WebhookHeadersSchema } from '../../shared/contract';

/** One row of the headers editor; the API takes headers as an object of name to value. */
export interface HeaderRow {
  name: string;
  value: string;
}

/**
 * The headers editor's rows, checked one at a time by the service's rule (allowed names, refused
 * headers, no line breaks), each error placed on the half it is about; fully empty rows are ignored.
 */
export const HeaderRowsSchema = z.array(z.object({ name: z.string(), value: z.string() })).superRefine((rows, ctx) => {
  const seen = new Map<string, number>();
  rows.forEach((row, index) => {
    const name = row.name.trim();
    if (!name && !row.value) return;
    if (!name) {
      ctx.addIssue({ code: 'custom', path: [index, 'name'], message: 'The header needs a name.' });
      return;
    }
    const key = name.toLowerCase();
    if (seen.has(key)) ctx.addIssue({ code: 'custom', path: [index, 'name'], message: `${name} is already set above.` });
    seen.set(key, index);
    const checked = WebhookHeadersSchema.safeParse({ [name]: row.value });
    const [issue] = checked.success ? [] : checked.error.issues;
    const part = issue && 'params' in issue && issue.params?.part === 'value' ? 'value' : 'name';
    if (issue) ctx.addIssue({ code: 'custom', path: [index, part], message: issue.message });
  });
});

/** Rows that are left fully empty are ignored. */
export function headersFromRows(rows: readonly HeaderRow[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const row of rows) if (row.name.trim()) headers[row.name.trim()] = row.value;
  return headers;
}

export function rowsFromHeaders(headers: Record<string, string>): HeaderRow[] {
  return Object.entries(headers).map(([name, value]) => ({ name, value }));
}

export function sameHeaders(a: Record<string, string>, b: Record<string, string>): boolean {
  const names = Object.keys(a);
  return names.length === Object.keys(b).length && names.every((name) => Object.hasOwn(b, name) && b[name] === a[name]);
}

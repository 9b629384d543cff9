import { z } from 'zod';
import { WebhookHeadersSchema, WebhookInputSchema, type WebhookInput, type WebhookPatch } from '../../../shared/contract';

/** One row of the headers editor; the API takes headers as an object of name to value. */
export interface HeaderRow {
  name: string;
  value: string;
}

export const WebhookFormSchema = z
  .object({
    name: WebhookInputSchema.shape.name,
    url: WebhookInputSchema.shape.url,
    headers: z.array(z.object({ name: z.string(), value: z.string() })),
  })
  .superRefine(({ headers }, ctx) => {
    const seen = new Map<string, number>();
    headers.forEach((row, index) => {
      const name = row.name.trim();
      if (!name && !row.value) return;
      if (!name) {
        ctx.addIssue({ code: 'custom', path: ['headers', index, 'name'], message: 'The header needs a name.' });
        return;
      }
      const key = name.toLowerCase();
      if (seen.has(key)) ctx.addIssue({ code: 'custom', path: ['headers', index, 'name'], message: `${name} is already set above.` });
      seen.set(key, index);
      // The shared rule (allowed names, refused headers, no line breaks), one header at a time.
      const checked = WebhookHeadersSchema.safeParse({ [name]: row.value });
      const [issue] = checked.success ? [] : checked.error.issues;
      const part = issue && 'params' in issue && issue.params?.part === 'value' ? 'value' : 'name';
      if (issue) ctx.addIssue({ code: 'custom', path: ['headers', index, part], message: issue.message });
    });
  });
export type WebhookFormValues = z.infer<typeof WebhookFormSchema>;

/** Rows that are left fully empty are ignored. */
export function headersFromRows(rows: readonly HeaderRow[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const row of rows) if (row.name.trim()) headers[row.name.trim()] = row.value;
  return headers;
}

export function rowsFromHeaders(headers: Record<string, string>): HeaderRow[] {
  return Object.entries(headers).map(([name, value]) => ({ name, value }));
}

export function toWebhookInput(values: WebhookFormValues): WebhookInput {
  return { name: values.name, url: values.url, headers: headersFromRows(values.headers) };
}

function sameHeaders(a: Record<string, string>, b: Record<string, string>): boolean {
  const names = Object.keys(a);
  return names.length === Object.keys(b).length && names.every((name) => Object.hasOwn(b, name) && b[name] === a[name]);
}

/** Only what changed: the edit is a partial PUT, so untouched fields keep their stored values. */
export function webhookPatch(original: WebhookInput, edited: WebhookInput): WebhookPatch {
  const patch: WebhookPatch = {};
  if (edited.name !== original.name) patch.name = edited.name;
  if (edited.url !== original.url) patch.url = edited.url;
  if (!sameHeaders(edited.headers, original.headers)) patch.headers = edited.headers;
  return patch;
}

import { z } from 'zod';
import { WebhookInputSchema, type WebhookInput, type WebhookPatch } from '../../../shared/contract';
import { HeaderRowsSchema, headersFromRows, sameHeaders } from '../../lib/header-rows';

export const WebhookFormSchema = z.object({
  name: WebhookInputSchema.shape.name,
  url: WebhookInputSchema.shape.url,
  headers: HeaderRowsSchema,
});
export type WebhookFormValues = z.infer<typeof WebhookFormSchema>;

export function toWebhookInput(values: WebhookFormValues): WebhookInput {
  return { name: values.name, url: values.url, headers: headersFromRows(values.headers) };
}

/** Only what changed: the edit is a partial PUT, so untouched fields keep their stored values. */
export function webhookPatch(original: WebhookInput, edited: WebhookInput): WebhookPatch {
  const patch: WebhookPatch = {};
  if (edited.name !== original.name) patch.name = edited.name;
  if (edited.url !== original.url) patch.url = edited.url;
  if (!sameHeaders(edited.headers, original.headers)) patch.headers = edited.headers;
  return patch;
}

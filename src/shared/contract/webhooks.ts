import { z } from 'zod';
import { nameSearchQueryOf, ResourceLinksSchema, TimestampSchema, UuidSchema } from './common';
import { httpUrl, requiredString } from './fields';

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// Set by the HTTP client or by Herald's signature; a stored value would break or forge them.
export const FORBIDDEN_WEBHOOK_HEADERS = ['host', 'content-length', 'transfer-encoding', 'connection', 'webhook-id', 'webhook-timestamp', 'webhook-signature'];

export const WebhookHeadersSchema = z
  .record(z.string(), z.string({ error: 'Every header value must be a string.' }), { error: 'The headers must be an object of header names to values.' })
  .superRefine((headers, ctx) => {
    const names = Object.keys(headers);
    if (names.length > 50) ctx.addIssue({ code: 'custom', message: 'The headers may not have more than 50 entries.' });
    for (const name of names) {
      const value = headers[name]!;
      // `params.part`: which half of the header is wrong (the dashboard shows the error beside it).
      if (!HEADER_NAME.test(name)) ctx.addIssue({ code: 'custom', path: [name], params: { part: 'name' }, message: `"${name}" is not a valid header name.` });
      else if (FORBIDDEN_WEBHOOK_HEADERS.includes(name.toLowerCase()))
        ctx.addIssue({ code: 'custom', path: [name], params: { part: 'name' }, message: `The ${name} header is set by Herald and cannot be stored.` });
      if (/[\r\n\0]/.test(value))
        ctx.addIssue({ code: 'custom', path: [name], params: { part: 'value' }, message: `The value of ${name} may not contain line breaks.` });
      if (value.length > 4096)
        ctx.addIssue({ code: 'custom', path: [name], params: { part: 'value' }, message: `The value of ${name} may not be greater than 4096 characters.` });
    }
  })
  .describe(
    'Headers sent with every call, as name to value; `Host`, `Content-Length`, `Transfer-Encoding`, `Connection` and the signature headers are refused.',
  );

/** How stored custom headers are shown (they carry credentials). */
export const MASKED_HEADERS =
  'The custom headers, by name. Values are credentials: in full only in the answer that creates them; after that each is masked, `********` followed, for an admin with a full-scope token, by its last 4 characters when it has 12 or more. An edit that sends a masked value back as it was read keeps the stored value.';

export const WebhookInputSchema = z
  .object({
    name: requiredString('name', 255),
    url: httpUrl('url').describe('Absolute http or https URL Herald POSTs to.'),
    headers: WebhookHeadersSchema.default({}),
  })
  .describe('Body of create.');
export type WebhookInput = z.infer<typeof WebhookInputSchema>;

export const WebhookPatchSchema = z
  .object({
    name: requiredString('name', 255).optional(),
    url: httpUrl('url').optional(),
    headers: WebhookHeadersSchema.optional(),
  })
  .describe('Body of edit: any of the fields; the others keep their values.');
export type WebhookPatch = z.infer<typeof WebhookPatchSchema>;

export const WebhookSchema = z
  .object({
    uuid: UuidSchema,
    name: z.string(),
    url: z.string(),
    headers: z.record(z.string(), z.string()).describe(MASKED_HEADERS),
    links: ResourceLinksSchema,
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  })
  .meta({ id: 'Webhook' });
export type Webhook = z.infer<typeof WebhookSchema>;

export const WebhookWithSecretSchema = WebhookSchema.extend({
  secret: z.string().describe('Signing secret (`whsec_…`, Standard Webhooks), shown only when created or rotated.'),
}).meta({ id: 'WebhookWithSecret' });

export const WebhookParamsSchema = z.object({ webhook_uuid: z.uuid().describe('Identifier of the webhook.') });

export const WebhookListQuerySchema = nameSearchQueryOf('name');

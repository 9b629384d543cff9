import { z } from 'zod';
import { ResourceLinksSchema, TimestampSchema, UuidSchema } from './common';

/** Tracked links are `<url_base>/<code>`; codes have this many characters of this alphabet (base62). */
export const SHORT_CODE_LENGTH = 7;
export const SHORT_CODE_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Length of a short link on a domain whose links start with `urlBase` (what a `::NAME::` costs in a message). */
export function shortLinkLength(urlBase: string): number {
  return urlBase.length + 1 + SHORT_CODE_LENGTH;
}

const HOSTNAME = /^(?=.{4,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/;

export const VanityDomainInputSchema = z
  .object({
    domain: z
      .string({ error: (i) => (i.input === undefined ? 'The domain field is required.' : 'The domain must be a string.') })
      .trim()
      .toLowerCase()
      .regex(HOSTNAME, 'The domain must be a host name such as go.example.com (no scheme, port or path).')
      .describe('Host name whose DNS points at Herald, e.g. `go.example.com`; its links are `https://<domain>/<code>`.'),
  })
  .describe('A vanity domain for tracked links.');
export type VanityDomainInput = z.infer<typeof VanityDomainInputSchema>;

export const VanityDomainSchema = z
  .object({
    uuid: UuidSchema,
    domain: z.string().describe('Host name (for the service’s own domain: its host and the `/l` path).'),
    url_base: z.string().describe('What every short link on this domain starts with, e.g. `https://go.example.com`.'),
    is_default: z.boolean().describe('The service’s own link domain, which every team has; it cannot be edited or deleted.'),
    status: z.string().describe('`"1"`: active.'),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
    links: ResourceLinksSchema,
  })
  .meta({ id: 'VanityDomain' });
export type VanityDomain = z.infer<typeof VanityDomainSchema>;

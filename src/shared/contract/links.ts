import { z } from 'zod';
import { httpUrl, uuidField } from './fields';
import { TimestampSchema, UuidSchema } from './common';

/** `::NAME::` names: letters, digits, `_` and `-`, as the shorthand parser reads them. */
export const LINK_NAME = /^[A-Za-z0-9_-]{1,50}$/;

export const LinkInputSchema = z
  .object({
    vanity_domain_uuid: uuidField('vanity domain uuid').describe('Domain the short links are made on.'),
    template_uuid: uuidField('template uuid').describe('Template whose `::NAME::` shorthand this link resolves.'),
    name: z
      .string({ error: (i) => (i.input === undefined ? 'The name field is required.' : 'The name must be a string.') })
      .trim()
      .regex(LINK_NAME, 'The name may only contain letters, digits, _ and - (at most 50), as in ::NAME::.')
      .describe('The shorthand name: `::NAME::` in the body.'),
    destination: httpUrl('destination').describe('Where the short link sends the recipient (absolute http or https URL).'),
  })
  .describe('A tracked link of a template.');
export type LinkInput = z.infer<typeof LinkInputSchema>;

export const LinkSchema = z
  .object({
    id: z.number().int(),
    uuid: UuidSchema,
    vanity_domain_id: z.number().int(),
    template_id: z.number().int(),
    vanity_domain_uuid: UuidSchema,
    template_uuid: UuidSchema,
    name: z.string().describe('The shorthand name.'),
    destination: z.string().describe('Destination URL.'),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  })
  .meta({ id: 'Link' });
export type Link = z.infer<typeof LinkSchema>;

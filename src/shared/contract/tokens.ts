import { z } from 'zod';
import { TimestampSchema, UuidSchema } from './common';
import { isStorableText, unstorableMessage } from './fields';

export const TOKEN_PREFIX = 'hrld_';

export const ApiTokenInputSchema = z
  .object({
    name: z
      .string({ error: (i) => (i.input === undefined ? 'The name field is required.' : 'The name must be a string.') })
      .trim()
      .min(1, 'The name field is required.')
      .max(100, 'The name may not be greater than 100 characters.')
      .refine(isStorableText, unstorableMessage('name'))
      .describe('What the token is for, to recognise it later.'),
  })
  .describe('The new token.');
export type ApiTokenInput = z.infer<typeof ApiTokenInputSchema>;

export const ApiTokenSchema = z
  .object({
    uuid: UuidSchema,
    name: z.string(),
    hint: z.string().describe('The first characters of the token, to recognise it; the token itself is never shown again.'),
    last_used_at: TimestampSchema,
    created_at: TimestampSchema,
  })
  .meta({ id: 'ApiToken' });
export type ApiToken = z.infer<typeof ApiTokenSchema>;

export const CreatedApiTokenSchema = ApiTokenSchema.extend({
  token: z.string().describe(`The secret (prefix \`${TOKEN_PREFIX}\`), shown this once only.`),
}).meta({ id: 'CreatedApiToken' });

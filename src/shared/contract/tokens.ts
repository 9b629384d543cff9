import { z } from 'zod';
import { timestampField } from './campaigns';
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
    scope: z
      .enum(['full', 'read_only'], { error: 'The scope must be full or read_only.' })
      .default('full')
      .describe('`read_only`: every request but a GET is refused with 403. `full` (the default): whatever the user may do.'),
    expires_at: timestampField('expires at')
      .nullable()
      .optional()
      .describe('When the token stops working, `YYYY-MM-DD HH:MM:SS` in the service time zone; never when absent or null.'),
  })
  .describe('The new token. It acts in the team the request is made in, and keeps that team whatever its user does later.');
export type ApiTokenInput = z.infer<typeof ApiTokenInputSchema>;

export const ApiTokenSchema = z
  .object({
    uuid: UuidSchema,
    name: z.string(),
    hint: z.string().describe('The first characters of the token, to recognise it; the token itself is never shown again.'),
    team_uuid: UuidSchema.describe('The team the token acts in, fixed when it was made.'),
    scope: z.enum(['full', 'read_only']).describe('`read_only`: only GET requests are answered.'),
    expires_at: TimestampSchema.describe('When the token stops working; empty when it does not expire.'),
    last_used_at: TimestampSchema,
    created_at: TimestampSchema,
  })
  .meta({ id: 'ApiToken' });
export type ApiToken = z.infer<typeof ApiTokenSchema>;

export const CreatedApiTokenSchema = ApiTokenSchema.extend({
  token: z.string().describe(`The secret (prefix \`${TOKEN_PREFIX}\`), shown this once only.`),
}).meta({ id: 'CreatedApiToken' });

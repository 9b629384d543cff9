import { z } from 'zod';
import { nameSearchQueryOf, ResourceLinksSchema, TimestampSchema, UuidSchema } from './common';

export const SENDER_MIN = 3;
export const SENDER_MAX = 11;
export const SENDER_LENGTH_MESSAGE = `The sender must be between ${SENDER_MIN} and ${SENDER_MAX} characters.`;
export const SENDER_CHARACTERS_MESSAGE = 'The sender may only contain letters, digits, spaces and . - _ &.';

/** An originator a handset shows: 3 to 11 characters (docs/interface.md §2.6, §8), plain letters and digits so every network carries it. */
export const SenderNameSchema = z
  .string({ error: (issue) => (issue.input === undefined ? 'The sender field is required.' : 'The sender must be a string.') })
  .trim()
  .min(SENDER_MIN, SENDER_LENGTH_MESSAGE)
  .max(SENDER_MAX, SENDER_LENGTH_MESSAGE)
  .regex(/^[A-Za-z0-9 .\-_&]*$/, SENDER_CHARACTERS_MESSAGE)
  .describe(`The name handsets show as originator: ${SENDER_MIN} to ${SENDER_MAX} characters of letters, digits, spaces and . - _ &.`);

export const SenderInputSchema = z.object({ sender: SenderNameSchema }).describe('Body of create and edit.');
export type SenderInput = z.infer<typeof SenderInputSchema>;

export const SenderSchema = z
  .object({
    uuid: UuidSchema,
    team_id: z.literal('').describe('Always an empty string (as the original service returns it).'),
    sender: z.string().describe('The originator name.'),
    status: z.string().describe('`"1"`: active.'),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
    links: ResourceLinksSchema,
  })
  .meta({ id: 'Sender' });
export type Sender = z.infer<typeof SenderSchema>;

export const SenderListQuerySchema = nameSearchQueryOf('sender text');

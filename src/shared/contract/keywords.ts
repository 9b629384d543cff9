import { z } from 'zod';
import { nameSearchQueryOf, ResourceLinksSchema, TimestampSchema, UuidSchema } from './common';
import { optionalString, requiredBoolean, uuidList } from './fields';

/** Words that opt a number out on any short code; no keyword may take them. */
export const OPT_OUT_WORDS = ['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT'];
/** Words that opt a number back in (out of default_optouts); no keyword may take them. */
export const OPT_IN_WORDS = ['START', 'UNSTOP'];
/** Words answered with the team's help reply; no keyword may take them. */
export const HELP_WORDS = ['HELP'];

/**
 * What a message does when its first word is one of the built-in words (they come before any
 * keyword, so one team's keyword cannot take HELP or START away from every team on the shared short code).
 */
export function builtInWordOf(firstWord: string | undefined): 'opt_out' | 'opt_in' | 'help' | null {
  const word = firstWord?.toUpperCase();
  if (word === undefined) return null;
  if (OPT_OUT_WORDS.includes(word)) return 'opt_out';
  if (OPT_IN_WORDS.includes(word)) return 'opt_in';
  if (HELP_WORDS.includes(word)) return 'help';
  return null;
}

export const KeywordWordSchema = z
  .string({ error: (i) => (i.input === undefined ? 'The keyword field is required.' : 'The keyword must be a string.') })
  .trim()
  .regex(/^[\p{L}\p{N}]{1,30}$/u, 'The keyword must be one word of letters and digits (at most 30).')
  .refine((word) => !OPT_OUT_WORDS.includes(word.toUpperCase()), 'The keyword is reserved for opt-outs (STOP, STOPALL, UNSUBSCRIBE, CANCEL, END, QUIT).')
  .refine(
    (word) => ![...OPT_IN_WORDS, ...HELP_WORDS].includes(word.toUpperCase()),
    "The keyword is reserved: START and UNSTOP opt a number back in, HELP answers with the team's help reply (team settings).",
  )
  .describe('One word matched, case-insensitively, as a whole word in inbound messages; unique across the service.');

const keywordFields = {
  keyword: KeywordWordSchema,
  message: optionalString('message', 1600).describe('Reply sent to the number that texted the keyword; empty for none.'),
  help: optionalString('help', 255).describe('Tooltip help text.'),
  add_contact_to_group: requiredBoolean('add contact to group').describe('Add the number to `contact_groups_uuid`.'),
  call_webhook: requiredBoolean('call webhook').describe('Call the webhooks of `webhooks_uuid`.'),
  contact_groups_uuid: uuidList('contact groups uuid').describe('Contact groups of the team the number is added to.'),
  webhooks_uuid: uuidList('webhooks uuid').describe('Webhooks of the team that are called.'),
};

/** An enabled option needs at least one target (docs/interface.md §2.4). */
function requireTargets(
  keyword: Partial<{ add_contact_to_group: boolean; call_webhook: boolean; contact_groups_uuid: string[]; webhooks_uuid: string[] }>,
  ctx: z.RefinementCtx,
) {
  if (keyword.add_contact_to_group && (keyword.contact_groups_uuid ?? []).length === 0)
    ctx.addIssue({ code: 'custom', path: ['contact_groups_uuid'], message: 'The contact groups uuid field is required when add contact to group is true.' });
  if (keyword.call_webhook && (keyword.webhooks_uuid ?? []).length === 0)
    ctx.addIssue({ code: 'custom', path: ['webhooks_uuid'], message: 'The webhooks uuid field is required when call webhook is true.' });
}

export const KeywordInputSchema = z
  .object({
    ...keywordFields,
    message: keywordFields.message.default(''),
    help: keywordFields.help.default(''),
    add_contact_to_group: keywordFields.add_contact_to_group.default(false),
    call_webhook: keywordFields.call_webhook.default(false),
    contact_groups_uuid: keywordFields.contact_groups_uuid.default([]),
    webhooks_uuid: keywordFields.webhooks_uuid.default([]),
  })
  .superRefine(requireTargets)
  .describe('Body of create.');
export type KeywordInput = z.infer<typeof KeywordInputSchema>;

export const KeywordPatchSchema = z
  .object({
    keyword: keywordFields.keyword.optional(),
    message: keywordFields.message.optional(),
    help: keywordFields.help.optional(),
    add_contact_to_group: keywordFields.add_contact_to_group.optional(),
    call_webhook: keywordFields.call_webhook.optional(),
    contact_groups_uuid: keywordFields.contact_groups_uuid.optional(),
    webhooks_uuid: keywordFields.webhooks_uuid.optional(),
  })
  .describe('Body of edit: the fields of create; any may change, the others keep their values.');
export type KeywordPatch = z.infer<typeof KeywordPatchSchema>;

export const KeywordSchema = z
  .object({
    uuid: UuidSchema,
    keyword: z.string(),
    message: z.string(),
    help: z.string(),
    status: z.string().describe('`"1"`: active.'),
    add_contact_to_group: z.boolean(),
    contact_groups_uuid: z.array(z.string()),
    call_webhook: z.boolean().describe('As stored (the original answers false on create and edit; Herald does not).'),
    webhooks_uuid: z.array(z.string()),
    links: ResourceLinksSchema,
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  })
  .meta({ id: 'Keyword' });
export type Keyword = z.infer<typeof KeywordSchema>;

export const KeywordParamsSchema = z.object({ keyword_uuid: z.uuid().describe('Identifier of the keyword.') });
export { requireTargets as requireKeywordTargets };

export const KeywordListQuerySchema = nameSearchQueryOf('keyword');

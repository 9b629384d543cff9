import { z } from 'zod';
import { nameSearchQueryOf, TimestampSchema, UuidSchema } from './common';
import { isStorableText, requiredString, unstorableMessage, uuidField, uuidList } from './fields';
import { LinkSchema } from './links';
import { SenderNameSchema } from './senders';

export const TEMPLATE_BODY_MAX = 1600;

/** Characters as a person counts them (code points), not UTF-16 units. */
export const characterCount = (text: string): number => {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
};

export const TemplateBodySchema = z
  .string({ error: (i) => (i.input === undefined ? 'The body field is required.' : 'The body must be a string.') })
  .refine((body) => body.trim().length > 0, 'The body field is required.')
  .refine((body) => characterCount(body) <= TEMPLATE_BODY_MAX, `The body may not be greater than ${TEMPLATE_BODY_MAX} characters.`)
  .describe(`Message text with \`{{field}}\` and \`::NAME::\` shorthands; at most ${TEMPLATE_BODY_MAX} characters.`);

export const TemplateInputSchema = z
  .object({
    name: requiredString('name', 255).describe('Name shown in lists and pickers.'),
    body: TemplateBodySchema,
    sender: SenderNameSchema,
    force_utf8: z
      .boolean({ error: 'The force utf8 must be true or false.' })
      .optional()
      .describe(
        'When true, what cannot be carried as text is removed from the body (lone surrogates, U+FFFD, non-characters, control characters other than line breaks).',
      ),
  })
  .superRefine((input, ctx) => {
    if (!input.force_utf8 && typeof input.body === 'string' && !isStorableText(input.body))
      ctx.addIssue({ code: 'custom', path: ['body'], message: `${unstorableMessage('body')} Remove them, or send force_utf8 to have them removed.` });
  })
  .describe('Body of create and edit.');
export type TemplateInput = z.infer<typeof TemplateInputSchema>;

export const TemplateSchema = z
  .object({
    uuid: UuidSchema,
    name: z.string(),
    body: z.string().describe('Static text plus shorthands.'),
    links: z.array(LinkSchema).describe('Links of the template that the body uses (`::NAME::`); empty when it uses none.'),
    is_locked: z.boolean().describe('True while a campaign that uses the template is sending; edits are then refused with 423.'),
    sender: z.string(),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  })
  .meta({ id: 'Template' });
export type Template = z.infer<typeof TemplateSchema>;

export const TemplatePreviewSchema = TemplateSchema.extend({
  phone_number: z.string().describe('The contact whose fields filled the body; empty when no contact was used.'),
  warnings: z.array(z.string()).describe('Shorthands that will be sent as a blank space (no such link or field).'),
}).meta({ id: 'TemplatePreview' });

export const TemplatePreviewQuerySchema = z.object({
  phone_number: z.string().max(32).optional().describe('A contact of the team whose fields fill the preview.'),
});

export const EncodingRequestSchema = z
  .object({
    body: z
      .string({ error: (i) => (i.input === undefined ? 'The body field is required.' : 'The body must be a string.') })
      .max(10_000, 'The body may not be greater than 10000 characters.')
      .describe('Text to measure, shorthands included.'),
    template_uuid: uuidField('template uuid')
      .optional()
      .describe("When given, `::NAME::` is checked against this template's links and counted at its short-link length."),
    contact_groups: uuidList('contact groups')
      .max(50, 'At most 50 contact groups.')
      .optional()
      .describe('Herald extension. Groups to measure the body against: `audience` then gives the range of SMS parts their recipients would get.'),
  })
  .describe('Text to classify.');

export const EncodingSchema = z
  .object({
    encoding: z.enum(['GSM_7BIT', 'GSM_7BIT_EX', 'UTF16']).describe('GSM 03.38 basic set; with its extension table; or UTF-16 (UCS-2).'),
    length: z.number().int().describe('Septets (GSM) or UTF-16 units, counting shorthands as they will be sent.'),
    segments: z.number().int().describe('Parts the message is sent in.'),
    per_segment: z.number().int().describe('Capacity of each part: 160/153 for GSM, 70/67 for UTF-16.'),
    warnings: z.array(z.string()).describe('Shorthands that will be sent as a blank space.'),
    audience: z
      .object({
        recipients: z.number().int().describe('Distinct recipients of the groups (less default_optouts).'),
        segments: z.object({ min: z.number().int(), typical: z.number().int(), max: z.number().int() }),
      })
      .nullable()
      .optional()
      .describe('Herald extension. With `contact_groups`: the SMS parts per message over their recipients, after personalisation.'),
  })
  .meta({ id: 'Encoding' });
export type Encoding = z.infer<typeof EncodingSchema>;

export const TemplateParamsSchema = z.object({ template_uuid: z.uuid().describe('Identifier of the template.') });

export const TemplateListQuerySchema = nameSearchQueryOf('name');

/**
 * Starter templates (issue 35, point 5; Herald extension): a small library a marketer begins a
 * template from. Each ends with the usual opt-out wording and gives every field a fallback, so it
 * never sends a gap.
 */
export const STARTER_OPT_OUT = 'Reply STOP to opt out.';
export const TEMPLATE_STARTERS = [
  {
    key: 'welcome',
    name: 'Welcome',
    description: 'Greets a new subscriber.',
    body: `Welcome to {{shop_name|our shop}}, {{first_name|there}}! Thanks for signing up: we will text you our news and offers now and then. ${STARTER_OPT_OUT}`,
  },
  {
    key: 'sale',
    name: 'Sale',
    description: 'Announces a sale and when it ends.',
    body: `Hi {{first_name|there}}, our sale is on: {{discount|20%}} off until {{sale_end|Sunday}}. Don't miss out! ${STARTER_OPT_OUT}`,
  },
  {
    key: 'back_in_stock',
    name: 'Back in stock',
    description: 'Tells a customer that a product they wanted is available again.',
    body: `Good news, {{first_name|there}}: {{product|the item you wanted}} is back in stock. Get it before it goes again! ${STARTER_OPT_OUT}`,
  },
  {
    key: 'abandoned_cart',
    name: 'Abandoned cart',
    description: 'Reminds a customer of what they left in their cart.',
    body: `Hi {{first_name|there}}, you left {{product|something}} in your cart at {{shop_name|our shop}}. We saved it for you. ${STARTER_OPT_OUT}`,
  },
  {
    key: 'review_request',
    name: 'Review request',
    description: 'Asks a customer to review a recent order.',
    body: `Hi {{first_name|there}}, thanks for your order from {{shop_name|us}}! How did we do? We would love your review. ${STARTER_OPT_OUT}`,
  },
] as const;

export const TemplateStarterSchema = z
  .object({
    key: z.string().describe('Stable identifier: welcome, sale, back_in_stock, abandoned_cart or review_request.'),
    name: z.string(),
    description: z.string(),
    body: z.string().describe('The body to start from: fields with fallbacks, ending with "Reply STOP to opt out."'),
  })
  .meta({ id: 'TemplateStarter' });
export type TemplateStarter = z.infer<typeof TemplateStarterSchema>;

import { z } from 'zod';
import { timestampField } from './campaigns';
import { PageLinksSchema, PageMetaSchema, SEARCH_MAX, TimestampSchema, UuidSchema } from './common';
import { isStorableText, requiredString, typeError, unstorableMessage, uuidField } from './fields';

/** A conversation's states (docs/inbox.md): a snoozed one whose time has passed reads as open. */
export const CONVERSATION_STATUSES = ['open', 'closed', 'snoozed'] as const;
export type ConversationStatus = (typeof CONVERSATION_STATUSES)[number];

/** The `assignee` filter's words besides a member's uuid. */
export const ASSIGNEE_ME = 'me';
export const ASSIGNEE_NONE = 'none';

/** The longest inbox reply: ten concatenated segments of GSM text, as a template's body allows. */
export const INBOX_REPLY_MAX = 1600;

export const ConversationListQuerySchema = z.object({
  status: z
    .enum(CONVERSATION_STATUSES, { error: 'The status must be one of open, closed or snoozed.' })
    .optional()
    .describe('Only conversations in this state (a snooze that has ended counts as open).'),
  assignee: z
    .string()
    .refine(
      (value) =>
        value === ASSIGNEE_ME || value === ASSIGNEE_NONE || /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/.test(value),
      'The assignee must be a member’s uuid, me or none.',
    )
    .optional()
    .describe('A member’s uuid; `me`: assigned to the caller; `none`: assigned to no one.'),
  unread: z
    .enum(['true', 'false'], { error: 'The unread must be true or false.' })
    .optional()
    .describe('`true`: only conversations with a message from the number not yet read by the team; `false`: only read ones.'),
  search: z
    .string()
    .max(SEARCH_MAX, `The search may not be greater than ${SEARCH_MAX} characters.`)
    .refine(isStorableText, unstorableMessage('search'))
    .optional()
    .describe(
      `Digits the number contains, or text the contact's name or a message of the conversation contains, ignoring case; at most ${SEARCH_MAX} characters.`,
    ),
});
export type ConversationListQuery = z.infer<typeof ConversationListQuerySchema>;

/** A phone number as a person writes it: an optional `+`, then 6 to 15 digits with spaces, dashes, dots or brackets between. */
const PHONE_NUMBER_PATH = /^\+?[\d\s().-]+$/;
const digitsIn = (text: string) => text.replace(/\D/g, '').length;

export const ConversationPhoneParamsSchema = z.object({
  phone_number: z
    .string()
    // Anything else names no conversation: 404 before the body is read (the house answer for an unknown path).
    .refine((text) => PHONE_NUMBER_PATH.test(text) && digitsIn(text) >= 6 && digitsIn(text) <= 15, 'The phone number is not a phone number.')
    .describe('The number, in any form an import reads: international (`+44…`, `0044…`, `44…`) or national in the team’s country.'),
});

const MemberRefSchema = z.object({ uuid: UuidSchema, name: z.string(), email: z.string() }).meta({ id: 'MemberRef' });

/** What a message sent outside a campaign is (`outbound_replies.kind`), and the states it passes through. */
export const OUTBOUND_MESSAGE_KINDS = ['keyword_reply', 'inbox_reply', 'flow', 'confirmation'] as const;
export const OUTBOUND_MESSAGE_STATUSES = ['queued', 'submitted', 'delivered', 'undelivered', 'failed', 'unsent'] as const;
/** A conversation's messages: inbound, a campaign's or a test send's, or one of the kinds above. */
export const CONVERSATION_MESSAGE_KINDS = ['inbound', 'campaign', 'test', ...OUTBOUND_MESSAGE_KINDS] as const;

export const ConversationMessageSchema = z
  .object({
    direction: z.enum(['inbound', 'outbound']),
    body: z.string(),
    status: z
      .string()
      .describe(
        'Inbound: `received`. A campaign message: queued, submitted, delivered, failed or unsent. Any other outbound message: queued, submitted, delivered, undelivered, failed or unsent.',
      ),
    created_at: TimestampSchema.describe('When it arrived, was sent (a campaign message: handed over) or was queued.'),
    kind: z
      .enum(CONVERSATION_MESSAGE_KINDS)
      .describe('`campaign`: a campaign’s message; `test`: a test send’s; the others: the kind of message sent outside a campaign.'),
    campaign_uuid: z.string().nullable().describe('The campaign (or test send) it belongs to.'),
    author: MemberRefSchema.nullable().describe('The member who wrote an inbox reply.'),
  })
  .meta({ id: 'ConversationMessage' });
export type ConversationMessage = z.infer<typeof ConversationMessageSchema>;

export const ConversationSchema = z
  .object({
    phone_number: z.string().describe('E.164 digits without `+`.'),
    name: z.string().describe('The contact’s `name`, or `first_name` and `last_name`, from the team’s groups; empty when none.'),
    status: z.enum(CONVERSATION_STATUSES),
    assignee: MemberRefSchema.nullable(),
    snoozed_until: TimestampSchema.describe('While snoozed: when it reopens by itself; else empty.'),
    unread: z.boolean().describe('A message from the number arrived after the team last read the conversation.'),
    opted_out: z.boolean().describe('The number is on the team’s suppression list: it cannot be replied to.'),
    last_activity_at: TimestampSchema.describe('The latest message from the number or inbox reply to it; empty when there was none.'),
    last_message: z
      .object({ direction: z.enum(['inbound', 'outbound']), body: z.string(), created_at: TimestampSchema })
      .nullable()
      .describe('The latest message from the number or inbox reply to it.'),
  })
  .meta({ id: 'Conversation' });
export type Conversation = z.infer<typeof ConversationSchema>;

/** The thread: a page of messages (newest last) and, beside it, the conversation's state. */
export const ConversationThreadSchema = z
  .object({
    data: z.array(ConversationMessageSchema).describe('The page’s messages, oldest first (newest last). Page 1 holds the newest ones; page 2 the ones before.'),
    links: PageLinksSchema,
    meta: PageMetaSchema,
    conversation: ConversationSchema,
  })
  .meta({ id: 'ConversationThread' });

export const ConversationReplyInputSchema = z
  .object({
    body: requiredString('body', INBOX_REPLY_MAX).describe('The text sent, as it is (no shorthands).'),
  })
  .describe('A one-off reply to the number.');

export const ConversationUpdateSchema = z
  .object({
    status: z.enum(CONVERSATION_STATUSES, { error: 'The status must be one of open, closed or snoozed.' }).optional(),
    assignee_uuid: uuidField('assignee uuid').nullable().optional().describe('A member of the team; null: no one.'),
    snoozed_until: timestampField('snoozed until')
      .nullable()
      .optional()
      .describe('Required with status `snoozed` (in the future); when the conversation reopens by itself.'),
  })
  .describe('Any of status, assignee_uuid and snoozed_until; the fields left out keep their values.');
export type ConversationUpdate = z.infer<typeof ConversationUpdateSchema>;

export const SavedReplyInputSchema = z
  .object({
    name: requiredString('name', 100).describe('Shown in the composer’s picker.'),
    body: requiredString('body', INBOX_REPLY_MAX),
  })
  .describe('Body of create and edit.');
export type SavedReplyInput = z.infer<typeof SavedReplyInputSchema>;

export const SavedReplyPatchSchema = z
  .object({
    name: requiredString('name', 100).optional(),
    body: z
      .string({ error: typeError('body', 'a string') })
      .pipe(requiredString('body', INBOX_REPLY_MAX))
      .optional(),
  })
  .describe('Any of name and body; the fields left out keep their values.');

export const SavedReplySchema = z
  .object({ uuid: UuidSchema, name: z.string(), body: z.string(), created_at: TimestampSchema, updated_at: TimestampSchema })
  .meta({ id: 'SavedReply' });
export type SavedReply = z.infer<typeof SavedReplySchema>;

export const SavedReplyParamsSchema = z.object({ saved_reply_uuid: z.string().describe('Identifier (UUID) of the saved reply.') });

import { z } from 'zod';
import { SEARCH_MAX, TimestampSchema } from './common';
import { isStorableText, unstorableMessage } from './fields';
import { ConsentRecordSchema, OptInRequestStateSchema } from './consent';
import { OUTBOUND_MESSAGE_KINDS, OUTBOUND_MESSAGE_STATUSES } from './conversations';
import { FlowRunSchema } from './flows';
import { OptOutEventSchema } from './opt-outs';
import { ReportConnectionSchema } from './reports';

/** How many of each kind of record a contact's page shows (the export has them all). */
export const CONTACT_DETAIL_CAP = 100;

export const ContactDirectoryQuerySchema = z.object({
  search: z
    .string()
    .max(SEARCH_MAX, `The search may not be greater than ${SEARCH_MAX} characters.`)
    // A NUL or half an emoji cannot be compared in PostgreSQL: refused, not a 500.
    .refine(isStorableText, unstorableMessage('search'))
    .optional()
    .describe(
      `Digits the number contains (spaces, \`+\`, \`-\` and brackets are ignored), or text a custom field's value contains, ignoring case (\`%\`, \`_\` and the backslash match themselves); at most ${SEARCH_MAX} characters. Omitted or empty: every number.`,
    ),
});

const GroupRefSchema = z.object({ uuid: z.string(), name: z.string() });
const CampaignRefSchema = z.object({ uuid: z.string(), name: z.string() });

export const DirectoryContactSchema = z
  .object({
    phone_number: z.string().describe('E.164 digits without `+`.'),
    groups: z.array(GroupRefSchema).describe("The team's groups the number is in (default_optouts included), by name."),
  })
  .meta({ id: 'DirectoryContact' });
export type DirectoryContact = z.infer<typeof DirectoryContactSchema>;

export const ContactPhoneParamsSchema = z.object({
  phone_number: z
    .string()
    .describe('A phone number in any form an import reads: international (`+44…`, `0044…`, `44…`) or national in DEFAULT_COUNTRY (`07…`).'),
});

const ContactGroupMembershipSchema = GroupRefSchema.extend({
  custom_fields: z.record(z.string(), z.string()),
  added_at: TimestampSchema,
});

const ContactMessageSchema = z.object({
  campaign: CampaignRefSchema,
  status: z.enum(['queued', 'submitted', 'delivered', 'failed', 'unsent']),
  reason: z
    .string()
    .nullable()
    .describe(
      'Why it failed or was not sent, when it was not delivered: for a message one of the team’s SMS connections carried, the provider’s error code (e.g. Twilio `21610`).',
    ),
  sent_at: TimestampSchema.describe('When it was handed to the gateway; `""` if it never was.'),
  delivered_at: TimestampSchema.describe('When its delivery receipt came; `""` unless delivered.'),
  connection: ReportConnectionSchema.nullable()
    .optional()
    .describe(
      'Herald extension. The team’s SMS connection that carried it (or refused it for the recipient); null when that connection has been deleted since. Present only on messages a connection carried: absent for those sent through the installation’s gateway.',
    ),
  provider_message_id: z
    .string()
    .nullable()
    .optional()
    .describe('Herald extension. The provider’s own id for the message; null when the provider refused it. Present only with `connection`.'),
});

const ContactClickSchema = z.object({
  campaign: CampaignRefSchema,
  link_name: z.string(),
  clicked_at: TimestampSchema,
  is_bot: z.boolean().describe("A link-preview bot (a chat app fetching the page), not a person's tap."),
});

const ContactInboundSchema = z.object({
  uuid: z.string(),
  body: z.string(),
  keyword: z.string().nullable().describe('The keyword it matched, if any.'),
  opted_out: z.boolean().describe('It was an opt-out word.'),
  received_at: TimestampSchema,
});

const listOf = <T extends z.ZodType>(item: T, what: string) =>
  z.object({ total: z.number().int().describe(`How many ${what} there are in all.`), items: z.array(item).describe('Newest first.') });

export const ContactDetailSchema = z
  .object({
    phone_number: z.string().describe('E.164 digits without `+`.'),
    opted_out: z.boolean().describe("The number is in the team's default_optouts: no campaign sends to it."),
    groups: z.array(ContactGroupMembershipSchema).describe('The groups the number is in, with its custom fields in each.'),
    messages: listOf(ContactMessageSchema, "messages of the team's campaigns went to the number").describe(`At most ${CONTACT_DETAIL_CAP} items.`),
    clicks: listOf(ContactClickSchema, 'clicks on tracked links of those messages').describe(`At most ${CONTACT_DETAIL_CAP} items.`),
    inbound_messages: listOf(ContactInboundSchema, 'messages the number sent the team').describe(`At most ${CONTACT_DETAIL_CAP} items.`),
    opt_out_events: listOf(OptOutEventSchema, 'opt-outs and opt-ins of the number').describe(`At most ${CONTACT_DETAIL_CAP} items.`),
    opt_in_request: OptInRequestStateSchema.nullable().describe(
      'Herald extension. Its latest double opt-in request (pending: waiting for YES); null when it was never asked. Its consent records: GET /contacts/{phone_number}/consent.',
    ),
  })
  .meta({ id: 'ContactDetail' });
export type ContactDetail = z.infer<typeof ContactDetailSchema>;

export const ContactExportSchema = z
  .object({
    phone_number: z.string(),
    exported_at: TimestampSchema,
    opted_out: z.boolean(),
    groups: z.array(ContactGroupMembershipSchema),
    messages: z.array(
      ContactMessageSchema.extend({
        body: z.string().nullable().describe('The text as sent (null before it was written).'),
        custom_fields: z.record(z.string(), z.string()).describe('The fields the message was written with.'),
      }),
    ),
    clicks: z.array(
      ContactClickSchema.extend({
        user_agent: z.string().nullable(),
        ip: z.string().nullable(),
        device_type: z.string().nullable(),
        os_version: z.string().nullable(),
        browser_version: z.string().nullable(),
      }),
    ),
    inbound_messages: z.array(ContactInboundSchema),
    replies: z
      .array(
        z.object({
          body: z.string(),
          kind: z.enum(OUTBOUND_MESSAGE_KINDS),
          status: z.enum(OUTBOUND_MESSAGE_STATUSES),
          created_at: TimestampSchema,
          clicks: z
            .array(
              ContactClickSchema.omit({ campaign: true }).extend({
                user_agent: z.string().nullable(),
                ip: z.string().nullable(),
                device_type: z.string().nullable(),
                os_version: z.string().nullable(),
                browser_version: z.string().nullable(),
              }),
            )
            .describe('Clicks on the tracked links of the message (a flow’s), newest first; empty for the other kinds.'),
        }),
      )
      .describe(
        "Messages sent to the number outside campaigns: keyword replies (STOP, START, HELP, keywords), the inbox's replies, flows' messages and double opt-in confirmations (`kind`).",
      ),
    opt_out_events: z.array(OptOutEventSchema),
    consent_records: z.array(ConsentRecordSchema).describe('Every consent the number gave the team, oldest first.'),
    opt_in_requests: z
      .array(
        OptInRequestStateSchema.extend({
          uuid: z.string(),
          text_shown: z.string(),
          evidence: z.record(z.string(), z.unknown()),
        }),
      )
      .describe('Every double opt-in request to the number, oldest first.'),
    flow_runs: z
      .array(FlowRunSchema.extend({ fields: z.record(z.string(), z.unknown()).describe('The fields the run was started with (an API start).') }))
      .describe("Every run of the team's flows for the number, oldest first, with its history."),
  })
  .meta({ id: 'ContactExport', description: 'Everything Herald holds about the number for the team, complete (nothing capped).' });
export type ContactExport = z.infer<typeof ContactExportSchema>;

export const ContactErasureSchema = z
  .object({
    erased_as: z
      .string()
      .describe(
        'The random token (`erased-` and 16 hex digits) that now stands in for the number in messages, clicks, inbound messages, replies, flow runs and the opt-out history.',
      ),
    groups_left: z.number().int().describe('Groups the number was removed from (default_optouts not counted).'),
    messages_anonymised: z.number().int(),
    clicks_anonymised: z.number().int(),
    inbound_anonymised: z.number().int(),
    replies_anonymised: z.number().int(),
    flow_runs_anonymised: z
      .number()
      .int()
      .describe('Flow runs of the number, which keep their history with the token for the number and no fields; an active one was ended (`erased`).'),
    opt_out_events_anonymised: z.number().int(),
    kept_as_opt_out: z.boolean().describe('The number was opted out and stays in default_optouts, bare (no custom fields), so that it is never texted again.'),
  })
  .meta({ id: 'ContactErasure' });
export type ContactErasure = z.infer<typeof ContactErasureSchema>;

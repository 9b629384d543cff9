import { z } from 'zod';
import { nameSearchQueryOf, TimestampSchema, UuidSchema } from './common';

/** The six reports of a campaign (docs/interface.md §4.1), in the order the dashboard shows them. */
export const REPORT_TYPES = ['delivery', 'alt_delivery', 'recipient', 'sent', 'unsent', 'clicks'] as const;
export const ReportTypeSchema = z.enum(REPORT_TYPES).describe('One of `clicks`, `delivery`, `alt_delivery`, `recipient`, `sent`, `unsent`.');
export type ReportType = z.infer<typeof ReportTypeSchema>;

const text = (description: string) => z.string().describe(description);
const reportTime = (description: string) => z.string().describe(`${description} \`YYYY-MM-DD HH:MM:SS\` (APP_TIMEZONE); empty when not yet.`);
const STATUS =
  '`Success` (delivered), `Pending` (not yet delivered), `Failed` (refused, failed, or not sent to a number that opted out), or `Expired` (no receipt, or not sent, before the expiry date).';
const FIELD_NAMES = 'Custom field names of the recipient, comma-separated, in the order of the group’s headers.';
const FIELD_VALUES = 'The values of `FieldNames`, comma-separated, by position.';

export const ClicksReportRowSchema = z
  .object({
    Phone_Number: text('Number of the recipient who clicked.'),
    Link_Name: text('Name of the link (the `::NAME::` shorthand).'),
    Link_Destination: text('Where the link led.'),
    Clicked_At: reportTime('When.'),
    User_Agent: text('The browser’s user agent; empty when none was sent.'),
    Device_Type: text('`mobile`, `tablet`, `desktop`… or `bot` for a link-preview fetch; empty when unknown.'),
    OS_Version: text('Operating system and version; empty when unknown.'),
    Browser_Version: text('Browser and version; empty when unknown.'),
  })
  .meta({ id: 'ClicksReportRow', description: 'One per click, in the order the clicks came.' });

/** Why a message was not delivered, beside the spec's columns of the delivery reports (not in the CSV). */
const failureReason = z
  .string()
  .nullable()
  .describe(
    'Herald extension (not in the CSV). Why the message was not delivered, as the engine stored it: the carrier’s refusal or receipt (an SMPP status such as `ESME_RINVDSTADR` or `UNDELIV err:001`, or the provider’s error code, e.g. Twilio `21610`, for a message an SMS connection carried), `no_route` (no route of the team covers its country), `Expired` (no receipt before the expiry), `in_doubt` (its hand-over was interrupted), or why it was never sent (`pending`, `opted_out`, `stopped`, `quiet_hours`, `local_time`, `frequency_cap`); null when delivered or still pending, or when the gateway gave no reason.',
  );

/**
 * The SMS connection that carried a message and the provider's id for it (issue 34): present only on
 * the rows of messages one of the team's connections carried, so a team sending through the
 * installation's gateway sees the rows as before.
 */
export const ReportConnectionSchema = z
  .object({
    uuid: UuidSchema,
    name: z.string(),
    provider: z.string().describe('`twilio`, `vonage`, `infobip`, `plivo`, `telnyx`, `sinch`, `smpp` or `simulator`.'),
  })
  .meta({ id: 'ReportConnection', description: 'An SMS connection of the team, as a report row names it.' });
const carriedBy = {
  connection: ReportConnectionSchema.nullable()
    .optional()
    .describe(
      'Herald extension (not in the CSV). The team’s SMS connection that carried the message (or refused it for the recipient); null when that connection has been deleted since. Present only on messages a connection carried: absent for those sent through the installation’s gateway.',
    ),
  provider_message_id: z
    .string()
    .nullable()
    .optional()
    .describe(
      'Herald extension (not in the CSV). The provider’s own id for the message (Twilio’s `SM…`, Vonage’s `message-id`…); null when the provider refused it. Present only with `connection`. On a failed row `failure_reason` is then the provider’s error code (e.g. Twilio `21610`).',
    ),
};

const DeliveryReportColumnsSchema = z.object({
  SMS_ID: text('Identifier of the message (its client reference at the gateway).'),
  Sender: text('Sender the handset showed.'),
  Recipient: text('Number of the recipient.'),
  Message_Copy: text('The message as sent, shorthands resolved; empty when it was never sent.'),
  Status: text(STATUS),
  Expiry_Date: text('The campaign’s expiry date, ISO 8601 with a numeric offset (`YYYY-MM-DDTHH:MM:SS+hhmm`).'),
});

export const DeliveryReportRowSchema = DeliveryReportColumnsSchema.extend({
  failure_reason: failureReason,
  sent_at: reportTime('Herald extension (not in the CSV). When the gateway took the message:'),
  delivered_at: reportTime('Herald extension (not in the CSV). When its delivery receipt came:'),
  variant: z
    .string()
    .nullable()
    .optional()
    .describe(
      'Herald extension (not in the CSV). The A/B test variant the message carried (docs/ab-tests.md). Present only on the rows of a campaign with an A/B test, so other campaigns’ rows are as before.',
    ),
  ...carriedBy,
}).meta({
  id: 'DeliveryReportRow',
  description:
    'One per message, in the campaign’s order. The keys in capitals are the CSV’s columns; `failure_reason`, `sent_at`, `delivered_at` and, for a message one of the team’s SMS connections carried, `connection` and `provider_message_id` are Herald extensions that the CSV does not carry.',
});

const AltDeliveryReportColumnsSchema = z.object({
  MessageId: text('Identifier of the message.'),
  Mobile: text('Number of the recipient.'),
  FieldNames: text(FIELD_NAMES),
  FieldValues: text(FIELD_VALUES),
  MessageSent: reportTime('When the gateway took the message.'),
  MessageUpdate: reportTime('When the message last changed status (receipt, refusal or expiry).'),
  Status: text(STATUS),
});

export const AltDeliveryReportRowSchema = AltDeliveryReportColumnsSchema.extend({ failure_reason: failureReason, ...carriedBy }).meta({
  id: 'AltDeliveryReportRow',
  description:
    'One per message, in the campaign’s order. The keys in capitals are the CSV’s columns; `failure_reason` and, for a message one of the team’s SMS connections carried, `connection` and `provider_message_id` are Herald extensions that the CSV does not carry.',
});

export const RecipientReportRowSchema = z
  .object({
    Phone_Number: text('Number of the recipient.'),
    Group_Name: text('The included contact group the recipient was taken from; empty for a send-test.'),
    Group_Description: z.string().nullable().describe('That group’s description; null when it has none.'),
    Field_Names: text(FIELD_NAMES),
    Field_Values: text(FIELD_VALUES),
  })
  .meta({ id: 'RecipientReportRow', description: 'One per recipient, in the campaign’s order.' });

export const SentReportRowSchema = z
  .object({
    MessageId: text('Identifier of the campaign send (the campaign’s uuid).'),
    Brand: text('Sender of the campaign.'),
    SentOn: reportTime('When sending started.'),
    RecipientCount: z.number().int().describe('Messages the send was made of.'),
    TemplateApiId: text('Identifier (uuid) of the template.'),
    TemplateName: text('Name of the template.'),
    Message: text('The template body, link shorthands unresolved.'),
  })
  .meta({ id: 'SentReportRow', description: 'One per campaign send (none before sending starts).' });

export const UnsentReportRowSchema = z
  .object({
    MessageId: text('Identifier of the message.'),
    Mobile: text('Number of the recipient.'),
    FieldNames: text(FIELD_NAMES),
    FieldValues: text(FIELD_VALUES),
    Reason: text(
      '`pending`: the campaign expired before it was sent; `opted_out`: the number opted out (default_optouts) after sending began; `stopped`: someone stopped the campaign first; `quiet_hours`: quiet hours in the recipient’s zone lasted past the expiry; `local_time`: its zone’s local send time was missed or came after the expiry; `frequency_cap`: the number had already had the team’s frequency cap of marketing messages within its window; `invalid_number`: the number cannot receive an SMS (a reason of the interface; Herald checks numbers as contacts are written, so its own sending does not write it, but a report may hold it).',
    ),
  })
  .meta({
    id: 'UnsentReportRow',
    description: 'One per message not sent: the campaign expired or was stopped first, the number opted out meanwhile, or quiet hours lasted past the expiry.',
  });

/** The JSON row of each report: the CSV's columns, and for the delivery reports the extensions beside them. */
export const REPORT_ROW_SCHEMAS = {
  clicks: ClicksReportRowSchema,
  delivery: DeliveryReportRowSchema,
  alt_delivery: AltDeliveryReportRowSchema,
  recipient: RecipientReportRowSchema,
  sent: SentReportRowSchema,
  unsent: UnsentReportRowSchema,
} as const satisfies Record<ReportType, z.ZodType>;

/** The CSV row of each report: exactly the interface's columns (docs/interface.md §2.7), no extension. */
const REPORT_COLUMN_SCHEMAS = {
  ...REPORT_ROW_SCHEMAS,
  delivery: DeliveryReportColumnsSchema,
  alt_delivery: AltDeliveryReportColumnsSchema,
} as const satisfies Record<ReportType, z.ZodObject>;

export type ReportRow<T extends ReportType> = z.infer<(typeof REPORT_ROW_SCHEMAS)[T]>;
/** A row as the CSV has it: the columns only. */
export type ReportCsvRow<T extends ReportType> = z.infer<(typeof REPORT_COLUMN_SCHEMAS)[T]>;
export type ClicksReportRow = ReportRow<'clicks'>;
export type DeliveryReportRow = ReportRow<'delivery'>;
export type AltDeliveryReportRow = ReportRow<'alt_delivery'>;
export type RecipientReportRow = ReportRow<'recipient'>;
export type SentReportRow = ReportRow<'sent'>;
export type UnsentReportRow = ReportRow<'unsent'>;

/** The CSV header row of each report: the columns' keys in order (JSON keys equal the CSV headers). */
export const REPORT_COLUMNS = Object.fromEntries(REPORT_TYPES.map((type) => [type, Object.keys(REPORT_COLUMN_SCHEMAS[type].shape)])) as {
  [T in ReportType]: Array<keyof ReportCsvRow<T> & string>;
};

/**
 * How a whole report is streamed (`GET /reporting/{uuid}/{type}.{format}`): the CSV the report
 * e-mail carries, or NDJSON, one JSON row (as a report page has it) a line.
 */
export const REPORT_FORMATS = ['csv', 'ndjson'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** The delivery reports' `Status` values, and what `?status=` picks. */
export const DELIVERY_STATUSES = ['Success', 'Pending', 'Failed', 'Expired'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];
/** The unsent report's `Reason` values, and what `?reason=` picks: every reason the report can hold (`invalid_number` is the interface's). */
export const UNSENT_REASONS = ['pending', 'opted_out', 'stopped', 'quiet_hours', 'invalid_number', 'local_time', 'frequency_cap'] as const;
export type UnsentReason = (typeof UNSENT_REASONS)[number];

/** The longest number search: E.164 has at most 15 digits, with room for spaces and brackets. */
export const NUMBER_SEARCH_MAX = 32;
const NUMBER_SEARCH_MESSAGE = 'The search must be digits of a phone number (spaces, +, - and brackets are ignored).';

/** `search` of a report page: digits the recipient's number contains; separators dropped, anything else 422. */
const numberSearch = z
  .string({ error: NUMBER_SEARCH_MESSAGE })
  .max(NUMBER_SEARCH_MAX, `The search may not be greater than ${NUMBER_SEARCH_MAX} characters.`)
  .transform((value) => value.replace(/[\s+\-().]/g, ''))
  .refine((digits) => /^\d*$/.test(digits), NUMBER_SEARCH_MESSAGE)
  .transform((digits) => digits || undefined)
  .optional()
  .describe(
    `Herald extension. Only rows whose recipient's number contains these digits (spaces, \`+\`, \`-\`, dots and brackets are ignored; anything else is 422); at most ${NUMBER_SEARCH_MAX} characters. Omitted or empty: every row.`,
  );

const statusFilter = z
  .enum(DELIVERY_STATUSES, { error: 'The status must be Success, Pending, Failed or Expired.' })
  .optional()
  .describe('Herald extension. Only rows with this `Status` (`Success`, `Pending`, `Failed` or `Expired`).');

const reasonFilter = z
  .enum(UNSENT_REASONS, { error: 'The reason must be pending, opted_out, stopped, quiet_hours, invalid_number, local_time or frequency_cap.' })
  .optional()
  .describe(
    'Herald extension. Only rows with this `Reason` (`pending`, `opted_out`, `stopped`, `quiet_hours`, `invalid_number`, `local_time` or `frequency_cap`).',
  );

/** The filters each report page takes beside `page` and `per_page` (none for `sent`: it has one row). */
export const REPORT_FILTER_SCHEMAS = {
  delivery: z.object({ status: statusFilter, search: numberSearch }),
  alt_delivery: z.object({ status: statusFilter, search: numberSearch }),
  recipient: z.object({ search: numberSearch }),
  sent: z.object({}),
  unsent: z.object({ reason: reasonFilter, search: numberSearch }),
  clicks: z.object({ search: numberSearch }),
} as const satisfies Record<ReportType, z.ZodObject>;

/** A report page's filters, as the service reads them (the search already reduced to its digits). */
export type ReportFilters = { status?: DeliveryStatus; reason?: UnsentReason; search?: string };

/**
 * A report's filters in words, as the report e-mail and the dashboard name them: "Status Failed, number
 * containing 7700"; undefined without any (the whole report).
 */
export function reportFiltersInWords(filters: ReportFilters): string | undefined {
  const words = [
    filters.status && `Status ${filters.status}`,
    filters.reason && `Reason ${filters.reason}`,
    filters.search && `number containing ${filters.search}`,
  ].filter(Boolean);
  return words.length === 0 ? undefined : words.join(', ');
}

const rate = (what: string) => z.number().nullable().describe(`${what}, from 0 to 1 (not rounded); null when the campaign has delivered nothing yet.`);

const reportSummaryShape = {
  campaign_uuid: UuidSchema,
  name: z.string(),
  sender: z.string(),
  status: z.number().int().describe('0 pending, 1 sending, 2 sent.'),
  started_sending_at: TimestampSchema,
  finished_sending_at: TimestampSchema,
  messages: z.number().int().describe('Messages written: the rows of the delivery report.'),
  sent: z.number().int().describe('Messages the gateway took: submitted, delivered or failed (as on the campaign page).'),
  delivered: z.number().int().describe('Rows of the delivery report whose `Status` is `Success`.'),
  failed: z.number().int().describe('Rows whose `Status` is `Failed`: refused, failed, or not sent (opted out, stopped, quiet hours).'),
  expired: z.number().int().describe('Rows whose `Status` is `Expired`: no receipt, or not sent, before the expiry.'),
  pending: z.number().int().describe('Rows whose `Status` is `Pending`: queued or awaiting a receipt.'),
  unsent: z.number().int().describe('Rows of the unsent report: messages never sent (the delivery report shows them `Failed` or `Expired`).'),
  clicks_total: z.number().int().describe('Rows of the clicks report.'),
  clicks_human: z.number().int().describe('Clicks by people: those whose `Device_Type` is not `bot`.'),
  clicks_bot: z.number().int().describe('Link-preview fetches (a chat app showing the link): `Device_Type` `bot`.'),
  unique_human_clickers: z.number().int().describe('Recipients who clicked at least once as a person (one message per recipient).'),
  delivery_rate: z.number().nullable().describe('`delivered` ÷ `sent` (what the gateway took), from 0 to 1 (not rounded); null while nothing was sent.'),
  click_rate: rate('`unique_human_clickers` ÷ `delivered`'),
  opt_outs: z
    .number()
    .int()
    .describe('Opt-outs this campaign led to: numbers that opted out while it was the last campaign they received from the team (the opt-out history).'),
  opt_out_rate: rate('`opt_outs` ÷ `delivered`'),
};

export const CampaignReportSummarySchema = z.object(reportSummaryShape).meta({
  id: 'CampaignReportSummary',
  description:
    'Herald extension. What a campaign’s reports add up to. `delivered`, `failed`, `expired` and `pending` count the delivery report’s rows by `Status` (they add up to `messages`, and each equals the total of `?status=`); clicks are split between people and link-preview bots.',
});
export type CampaignReportSummary = z.infer<typeof CampaignReportSummarySchema>;

export const CampaignReportListItemSchema = CampaignReportSummarySchema.omit({ failed: true, expired: true }).meta({
  id: 'CampaignReportListItem',
  description:
    'Herald extension. A campaign’s report summary as a list has it: without `failed` and `expired`, whose split is counted over the campaign’s messages (one campaign’s summary has them).',
});
export type CampaignReportListItem = z.infer<typeof CampaignReportListItemSchema>;

export const ReportSummariesQuerySchema = nameSearchQueryOf('name');

export const REPORT_JOB_STATUSES = ['queued', 'writing', 'mailing', 'sent', 'failed'] as const;

export const ReportJobFiltersSchema = z
  .object({
    status: z.enum(DELIVERY_STATUSES).optional(),
    reason: z.enum(UNSENT_REASONS).optional(),
    search: z.string().optional().describe('The digits the recipient’s number contains.'),
  })
  .meta({
    id: 'ReportJobFilters',
    description: 'Herald extension. The filters the report was asked for with (those of its page: `status`, `reason`, `search`); empty for the whole report.',
  });
export type ReportJobFilters = z.infer<typeof ReportJobFiltersSchema>;

export const ReportJobSchema = z
  .object({
    uuid: UuidSchema,
    campaign_uuid: UuidSchema,
    campaign_name: z.string(),
    type: ReportTypeSchema,
    filters: ReportJobFiltersSchema,
    status: z
      .enum(REPORT_JOB_STATUSES)
      .describe('`queued`, `writing` (the CSV), `mailing` (written; the e-mail is retried until the mail server takes it), `sent`, or `failed` (see `error`).'),
    email: z.string().describe('Where the link is sent: the requesting user’s address.'),
    row_count: z.number().int().nullable().describe('Rows in the CSV, once written (those that match `filters`).'),
    error: z.string().nullable().describe('Why the last attempt failed, if it did.'),
    download_url: z.string().nullable().describe('The signed link (the one e-mailed), once the CSV is written; null after it expired.'),
    link_expires_at: TimestampSchema.describe('When the signed link stops working (7 days after it was made); empty until then.'),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  })
  .meta({ id: 'ReportJob', description: 'A report asked for by e-mail, and what became of it.' });
export type ReportJob = z.infer<typeof ReportJobSchema>;

export const ReportParamsSchema = z.object({ campaign_uuid: z.uuid().describe('Identifier of the campaign.') });
export const ReportDownloadParamsSchema = z.object({ job_uuid: z.uuid().describe('Identifier of the report job.') });
export const ReportDownloadQuerySchema = z.object({
  expires: z.string().describe('Unix time (seconds) the link is valid until.'),
  signature: z.string().describe('The service’s signature of the job and `expires`.'),
});

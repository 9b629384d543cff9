import { z } from 'zod';
import { TimestampSchema, UuidSchema } from './common';

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

export const DeliveryReportRowSchema = z
  .object({
    SMS_ID: text('Identifier of the message (its client reference at the gateway).'),
    Sender: text('Sender the handset showed.'),
    Recipient: text('Number of the recipient.'),
    Message_Copy: text('The message as sent, shorthands resolved; empty when it was never sent.'),
    Status: text(STATUS),
    Expiry_Date: text('The campaign’s expiry date, ISO 8601 with a numeric offset (`YYYY-MM-DDTHH:MM:SS+hhmm`).'),
  })
  .meta({ id: 'DeliveryReportRow', description: 'One per message, in the campaign’s order.' });

export const AltDeliveryReportRowSchema = z
  .object({
    MessageId: text('Identifier of the message.'),
    Mobile: text('Number of the recipient.'),
    FieldNames: text(FIELD_NAMES),
    FieldValues: text(FIELD_VALUES),
    MessageSent: reportTime('When the gateway took the message.'),
    MessageUpdate: reportTime('When the message last changed status (receipt, refusal or expiry).'),
    Status: text(STATUS),
  })
  .meta({ id: 'AltDeliveryReportRow', description: 'One per message, in the campaign’s order.' });

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
      '`pending`: the campaign expired before it was sent; `opted_out`: the number opted out (default_optouts) after sending began; `stopped`: someone stopped the campaign first; `quiet_hours`: quiet hours in the recipient’s zone lasted past the expiry.',
    ),
  })
  .meta({
    id: 'UnsentReportRow',
    description: 'One per message not sent: the campaign expired or was stopped first, the number opted out meanwhile, or quiet hours lasted past the expiry.',
  });

export const REPORT_ROW_SCHEMAS = {
  clicks: ClicksReportRowSchema,
  delivery: DeliveryReportRowSchema,
  alt_delivery: AltDeliveryReportRowSchema,
  recipient: RecipientReportRowSchema,
  sent: SentReportRowSchema,
  unsent: UnsentReportRowSchema,
} as const satisfies Record<ReportType, z.ZodType>;

export type ReportRow<T extends ReportType> = z.infer<(typeof REPORT_ROW_SCHEMAS)[T]>;
export type ClicksReportRow = ReportRow<'clicks'>;
export type DeliveryReportRow = ReportRow<'delivery'>;
export type AltDeliveryReportRow = ReportRow<'alt_delivery'>;
export type RecipientReportRow = ReportRow<'recipient'>;
export type SentReportRow = ReportRow<'sent'>;
export type UnsentReportRow = ReportRow<'unsent'>;

/** The CSV header row of each report: the row's keys in order (JSON keys equal the CSV headers). */
export const REPORT_COLUMNS = Object.fromEntries(REPORT_TYPES.map((type) => [type, Object.keys(REPORT_ROW_SCHEMAS[type].shape)])) as {
  [T in ReportType]: Array<keyof ReportRow<T> & string>;
};

export const REPORT_JOB_STATUSES = ['queued', 'writing', 'mailing', 'sent', 'failed'] as const;

export const ReportJobSchema = z
  .object({
    uuid: UuidSchema,
    campaign_uuid: UuidSchema,
    campaign_name: z.string(),
    type: ReportTypeSchema,
    status: z
      .enum(REPORT_JOB_STATUSES)
      .describe('`queued`, `writing` (the CSV), `mailing` (written; the e-mail is retried until the mail server takes it), `sent`, or `failed` (see `error`).'),
    email: z.string().describe('Where the link is sent: the requesting user’s address.'),
    row_count: z.number().int().nullable().describe('Rows in the CSV, once written.'),
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

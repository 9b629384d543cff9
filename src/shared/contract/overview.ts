import { z } from 'zod';
import { ContactImportStatusSchema } from './imports';
import { REPORT_JOB_STATUSES, ReportTypeSchema } from './reports';
import { TimestampSchema, UuidSchema } from './common';
import { RevenueSchema } from './conversions';

/** The longest period the overview reads at once. */
export const OVERVIEW_MAX_DAYS = 366;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const day = (description: string) =>
  z
    .string()
    .regex(DAY, 'Use the form YYYY-MM-DD.')
    .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value), 'Not a date.')
    .describe(description);

export const OverviewQuerySchema = z.object({
  from: day('First day of the period, `YYYY-MM-DD`, in APP_TIMEZONE. Default: 29 days before `to`.').optional(),
  to: day('Last day of the period, `YYYY-MM-DD`, in APP_TIMEZONE. Default: today.').optional(),
});
export type OverviewQuery = z.infer<typeof OverviewQuerySchema>;

const count = (description: string) => z.number().int().describe(description);
const rate = (description: string) => z.number().nullable().describe(`${description} Between 0 and 1; null when there is nothing to divide by.`);

export const OverviewTotalsSchema = z
  .object({
    sent: count('Messages handed to the gateway (submitted, or refused by it) in the period.'),
    delivered: count('Messages whose receipt said delivered in the period.'),
    delivered_rate: rate('Delivered ÷ sent.'),
    failed: count(
      'Messages that failed in the period (refused, failed, or no receipt before the expiry). Messages never sent are not failed: they are `unsent`.',
    ),
    unsent: count('Messages never sent in the period (the campaign expired or was stopped first, the number opted out, quiet hours); not counted in `failed`.'),
    human_clicks: count('Clicks on tracked links by people (link-preview bots left out).'),
    unique_human_clicks: count('Recipients who clicked at least once (people, not bots): each counted on the day of their first click.'),
    click_rate: rate('Unique human clicks ÷ delivered.'),
    opt_outs: count('Numbers that opted out in the period, however they did it.'),
    campaign_opt_outs: count('Herald extension. Of `opt_outs`, those that followed one of the team’s campaigns (by keyword): the numerator of `opt_out_rate`.'),
    opt_out_rate: rate('Opt-outs that followed a campaign (by keyword, `campaign_opt_outs`) ÷ delivered.'),
    inbound_messages: count('Messages the team received in the period.'),
    sms_parts: count('SMS parts handed to the gateway in the period (a long message is several).'),
    estimated_cost: z.number().nullable().describe('SMS parts × the team’s price per part; null when the team has set no price.'),
    currency: z.string().describe('Currency of `estimated_cost` and `revenue` (ISO 4217): the team’s.'),
    failovers: count(
      'Herald extension. Times a message left one of the team’s SMS connections for the next one of its route, after a transient or account error (`message.failed_over` events), in the period. Absent for a team that has no SMS connection and had no failover in the period.',
    ).optional(),
    orders: count(
      "Herald extension. Orders placed in the period and credited to one of the team's campaigns, in the team's currency (`currency`). The revenue fields are absent while the team has recorded no conversion.",
    ).optional(),
    revenue: z.number().optional().describe("Herald extension. Their total, in the team's currency."),
    revenue_other: z
      .array(RevenueSchema)
      .optional()
      .describe("Herald extension. Credited orders of the period in other currencies than the team's, by currency: shown apart, never converted."),
  })
  .meta({ id: 'OverviewTotals' });

export const OverviewDaySchema = z
  .object({
    date: z.string().describe('`YYYY-MM-DD` in APP_TIMEZONE.'),
    sent: z.number().int(),
    delivered: z.number().int(),
    failed: z.number().int(),
  })
  .meta({ id: 'OverviewDay' });

const campaignRef = {
  uuid: UuidSchema,
  name: z.string(),
};

export const OverviewSendingSchema = z
  .object({
    ...campaignRef,
    recipients: count('Messages the campaign is made of.'),
    processed: count('Of those, messages that left the queue (sent, failed or never sent).'),
    delivered: count('Delivered so far.'),
    percent: z.number().int().describe('Processed ÷ recipients, 0–100.'),
    started_at: TimestampSchema,
    paused: z.boolean().describe('Paused by hand (`toggle-paused-status`).'),
  })
  .meta({ id: 'OverviewSendingCampaign' });

export const OverviewScheduledSchema = z
  .object({
    ...campaignRef,
    send_at: TimestampSchema,
    recipients: z
      .number()
      .int()
      .nullable()
      .describe('Contacts of its included groups now (before excluded groups and opt-outs are taken out); null when it has no group.'),
  })
  .meta({ id: 'OverviewScheduledCampaign' });

export const OverviewApprovalSchema = z
  .object({
    ...campaignRef,
    send_at: TimestampSchema,
    requested_at: TimestampSchema,
    requested_by: z.string().nullable().describe('Name of the member who asked; null when unknown.'),
  })
  .meta({ id: 'OverviewApprovalRequest' });

export const OverviewImportSchema = z
  .object({
    uuid: UuidSchema,
    contact_group_uuid: UuidSchema,
    contact_group_name: z.string(),
    file_name: z.string().nullable(),
    status: ContactImportStatusSchema,
    rows_total: z.number().int(),
    contacts_added: z.number().int(),
    created_at: TimestampSchema,
  })
  .meta({ id: 'OverviewImport' });

export const OverviewReportJobSchema = z
  .object({
    uuid: UuidSchema,
    campaign_uuid: UuidSchema,
    campaign_name: z.string(),
    type: ReportTypeSchema,
    status: z.enum(REPORT_JOB_STATUSES),
    created_at: TimestampSchema,
  })
  .meta({ id: 'OverviewReportJob' });

export const OverviewSchema = z
  .object({
    from: z.string().describe('First day of the period, `YYYY-MM-DD`.'),
    to: z.string().describe('Last day of the period, `YYYY-MM-DD`.'),
    time_zone: z.string().describe('The zone the days are in (APP_TIMEZONE).'),
    totals: OverviewTotalsSchema,
    days: z.array(OverviewDaySchema).describe('Every day of the period in order, days without messages included.'),
    sending_now: z.array(OverviewSendingSchema).describe('Campaigns sending now, oldest start first (at most 10).'),
    scheduled: z
      .array(OverviewScheduledSchema)
      .describe('The next campaigns due to send, soonest first (at most 5; drafts and campaigns awaiting approval left out).'),
    awaiting_approval: z.array(OverviewApprovalSchema).describe('Campaigns waiting for an admin’s approval, oldest request first (at most 10).'),
    recent_imports: z.array(OverviewImportSchema).describe('The team’s latest contact imports (at most 5).'),
    recent_report_jobs: z.array(OverviewReportJobSchema).describe('Reports you asked for by e-mail in this team, newest first (at most 5).'),
  })
  .meta({ id: 'Overview', description: 'How the team’s messaging is doing over a period, and what is under way.' });
export type Overview = z.infer<typeof OverviewSchema>;

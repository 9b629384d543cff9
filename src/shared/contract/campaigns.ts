import { z } from 'zod';
import { RFC3339_PATTERN, TIMESTAMP_PATTERN } from '../time/local-timestamps';
import { nameSearchQueryOf, TimestampSchema, UuidSchema } from './common';
import { isStorableText, requiredString, unstorableMessage, uuidField, uuidList } from './fields';
import { CustomFieldsSchema } from './contact-groups';
import { SenderNameSchema } from './senders';
import { FrequencyCapSchema, QuietHoursSchema } from './members';
import { CampaignSegmentRevenueSchema, RevenueSchema } from './conversions';

export const MAX_PAUSES = 50;

/** A request timestamp: `YYYY-MM-DD HH:MM:SS` in the service's zone (APP_TIMEZONE). */
export const timestampField = (label: string) =>
  z
    .string({ error: (i) => (i.input === undefined ? `The ${label} field is required.` : `The ${label} must be a string.`) })
    .refine(
      (text) => TIMESTAMP_PATTERN.test(text) || RFC3339_PATTERN.test(text),
      `The ${label} must be a date and time of the form YYYY-MM-DD HH:MM:SS, or RFC 3339 with an offset (2026-11-24T09:00:00Z).`,
    )
    .describe(
      '`YYYY-MM-DD HH:MM:SS` in the service time zone (APP_TIMEZONE), or (a Herald extension) RFC 3339 with its offset, such as `2026-11-24T09:00:00Z`; answers always use the first form.',
    );

export const PauseInputSchema = z.object({
  start_at: timestampField('start at'),
  end_at: timestampField('end at'),
});
export type PauseInput = z.infer<typeof PauseInputSchema>;

/** What an A/B test decides on (docs/ab-tests.md). */
export const AB_TEST_METRICS = ['human_click_rate', 'conversion_rate', 'revenue_per_recipient'] as const;
export type AbTestMetric = (typeof AB_TEST_METRICS)[number];

const wholeNumber = (label: string, min: number, max: number) =>
  z
    .number({ error: `The ${label} must be a whole number.` })
    .int(`The ${label} must be a whole number.`)
    .min(min, `The ${label} must be between ${min} and ${max}.`)
    .max(max, `The ${label} must be between ${min} and ${max}.`);

export const VariantInputSchema = z
  .object({
    name: requiredString('variant name', 50).describe('Unique within the campaign; reports and the page show it.'),
    template_uuid: uuidField('variant template uuid').describe("The team's template this variant sends."),
    sender: SenderNameSchema.optional().describe("The variant's sender; the campaign's when absent."),
  })
  .describe('Herald extension. One variant of an A/B test.');
export type VariantInput = z.infer<typeof VariantInputSchema>;

export const AbTestInputSchema = z
  .object({
    test_share: wholeNumber('test share', 1, 99).default(20).describe('Percent of the audience that gets the test, split evenly between the variants.'),
    metric: z
      .enum(AB_TEST_METRICS, { error: 'The metric must be human_click_rate, conversion_rate or revenue_per_recipient.' })
      .default('human_click_rate')
      .describe('What decides the winner.'),
    decide_after_minutes: wholeNumber('decide after minutes', 1, 10_080)
      .default(120)
      .describe('The test window, counted in sending time only (not planned pauses, pauses by hand or quiet hours).'),
    min_recipients_per_variant: wholeNumber('min recipients per variant', 1, 1_000_000)
      .default(500)
      .describe('Each variant is tested on at least this many recipients when the audience allows.'),
  })
  .describe('Herald extension. An A/B test’s settings.');
export type AbTestInput = z.infer<typeof AbTestInputSchema>;

const campaignFields = {
  name: requiredString('name', 255).describe('Name shown in lists.'),
  sender: SenderNameSchema,
  scheduled_send_date: timestampField('scheduled send date'),
  expiry_date: timestampField('expiry date').describe('After it, messages not yet sent are unsent and those without a receipt failed.'),
  template_uuid: uuidField('template uuid').describe("The team's template whose content is sent."),
};

export const CampaignInputSchema = z
  .object({
    ...campaignFields,
    included_contact_groups: uuidList('included contact groups').describe(
      'Groups the campaign sends to. Required (at least one) unless `included_segments` names a segment.',
    ),
    excluded_contact_groups: uuidList('excluded contact groups').default([]).describe('Groups whose numbers are skipped (default_optouts always is).'),
    included_segments: uuidList('included segments')
      .optional()
      .describe(
        'Herald extension (issue 35). Segments whose numbers the campaign also sends to (with their fields merged over the team’s groups); absent: none. The recipients are fixed when sending starts.',
      ),
    excluded_segments: uuidList('excluded segments').optional().describe('Herald extension (issue 35). Segments whose numbers are skipped; absent: none.'),
    throttled: z
      .boolean({ error: 'The throttled must be true or false.' })
      .optional()
      .describe('Spread the sending between the send date and `scheduled_finish_date`.'),
    scheduled_finish_date: timestampField('scheduled finish date').optional().describe('Throttled campaigns: when the last message should go.'),
    pauses: z
      .array(PauseInputSchema, { error: 'The pauses must be a list.' })
      .max(MAX_PAUSES, `A campaign may not have more than ${MAX_PAUSES} pauses.`)
      .optional()
      .describe('Throttled campaigns: periods in which nothing is sent.'),
    manually_paused: z
      .boolean({ error: 'The manually paused must be true or false.' })
      .optional()
      .describe('Edit only: true stops a throttled campaign until set to false.'),
    is_draft: z
      .boolean({ error: 'The is draft must be true or false.' })
      .optional()
      .describe(
        'Herald extension. A draft is never sent, whatever its send date, and may be saved with personalisation gaps; false schedules it. Create: false when absent; edit: unchanged when absent.',
      ),
    ignore_quiet_hours: z
      .boolean({ error: 'The ignore quiet hours must be true or false.' })
      .optional()
      .describe(
        "Herald extension. true sends through the team's quiet hours (admins only: 403 otherwise). Create: false when absent; edit: unchanged when absent.",
      ),
    variants: z
      .array(VariantInputSchema, { error: 'The variants must be a list.' })
      .refine((list) => list.length === 0 || (list.length >= 2 && list.length <= 4), 'A campaign has 2 to 4 variants (or none).')
      .optional()
      .describe(
        'Herald extension (A/B test, docs/ab-tests.md). 2 to 4 messages tested on a share of the audience; the winner goes to the rest. The first variant is the campaign itself: `template_uuid` must be its template. Create: none when absent; edit: unchanged when absent, `[]` removes them.',
      ),
    ab_test: AbTestInputSchema.optional().describe('Herald extension. The A/B test settings (with `variants`; the defaults when absent).'),
    local_time: z
      .boolean({ error: 'The local time must be true or false.' })
      .optional()
      .describe(
        "Herald extension. true sends each message at the scheduled wall-clock time in its recipient's zone (from the number, as quiet hours): the campaign starts when that time comes in the earliest zone (UTC+14) and each message waits for its own zone's; one whose moment comes after the expiry is unsent (`local_time`). Not with `throttled`. Create: false when absent; edit: unchanged when absent.",
      ),
  })
  // A campaign needs recipients: at least one included group, or (issue 35) an included segment.
  .superRefine((input, context) => {
    if (input.included_contact_groups.length === 0 && (input.included_segments ?? []).length === 0)
      context.addIssue({ code: 'custom', path: ['included_contact_groups'], message: 'The included contact groups field is required.' });
  })
  .describe('Body of create and edit (the same body for normal and throttled campaigns).');
export type CampaignInput = z.infer<typeof CampaignInputSchema>;

export const SendTestInputSchema = z
  .object({
    ...campaignFields,
    contact_number: z
      .string({ error: (i) => (i.input === undefined ? 'The contact number field is required.' : 'The contact number must be a string.') })
      .max(32, 'The contact number may not be greater than 32 characters.')
      .describe('The one number the test is sent to.'),
    custom_fields: CustomFieldsSchema.optional().describe('The recipient’s custom fields; without them the message has no personalisation.'),
  })
  .describe('A one-recipient campaign.');
export type SendTestInput = z.infer<typeof SendTestInputSchema>;

export const PauseSchema = z
  .object({
    uuid: UuidSchema,
    campaign_uuid: UuidSchema,
    start_at: TimestampSchema,
    end_at: TimestampSchema,
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  })
  .meta({ id: 'Pause' });

export const UserRefSchema = z.object({ uuid: UuidSchema, name: z.string() }).meta({ id: 'UserRef' });

export const ApprovalSchema = z
  .object({
    status: z
      .enum(['not_required', 'pending', 'approved', 'rejected'])
      .describe('`pending`: waiting for an admin; the campaign does not start, even once its send time has passed, until it is `approved`.'),
    requested_by: UserRefSchema.nullable().describe('Who created or last edited the campaign, asking for approval.'),
    requested_at: TimestampSchema.describe('When they asked (the creation or last edit).'),
    decided_by: UserRefSchema.nullable().describe('The admin who approved or rejected it.'),
    decided_at: TimestampSchema,
    comment: z.string().describe("The deciding admin's comment; empty when none."),
    recipients: z
      .number()
      .int()
      .nullable()
      .describe(
        'The recipients the approval covers, counted when it was given; null unless `approved`. A campaign whose audience has grown past it when sending starts waits for approval again.',
      ),
    notice: z
      .string()
      .describe(
        'Why the campaign waits for approval again: its audience, counted when sending was to start, reached the threshold and no approval covered that many. Empty when none.',
      ),
  })
  .meta({
    id: 'Approval',
    description:
      "Herald extension. Campaigns with at least the team's `approval_threshold` recipients need another admin's approval before they start; an edit asks again, and so does an audience that has grown past the approval when sending starts.",
  });
export type Approval = z.infer<typeof ApprovalSchema>;

export const ApprovalDecisionSchema = z
  .object({
    comment: z
      .string({ error: 'The comment must be a string.' })
      .trim()
      .max(1000, 'The comment may not be greater than 1000 characters.')
      .refine(isStorableText, unstorableMessage('comment'))
      .optional()
      .describe('Why, for the requester.'),
  })
  .describe("An admin's decision on a campaign waiting for approval.");
export type ApprovalDecision = z.infer<typeof ApprovalDecisionSchema>;

export const VariantResultSchema = z
  .object({
    name: z.string(),
    recipients: z.number().int().describe('Messages written with this variant.'),
    sent: z.number().int().describe('Handed to the carrier and not failed (submitted or delivered).'),
    delivered: z.number().int(),
    human_clicks: z.number().int().describe('Recipients who clicked a tracked link as a person (bots left out), each once.'),
    conversions: z.number().int().describe('Orders credited to its messages (conversions).'),
    revenue: z.number().describe('Their value, added up as given.'),
    metric_value: z.number().describe('The test metric: `human_clicks` / `sent`, `conversions` / `recipients` or `revenue` / `recipients`.'),
    probability_best: z
      .number()
      .nullable()
      .describe(
        'The probability that this variant is the best (docs/ab-tests.md: Beta posteriors, or a normal approximation for revenue, 20,000 draws); null before the test.',
      ),
  })
  .meta({ id: 'VariantResult' });
export type VariantResult = z.infer<typeof VariantResultSchema>;

export const AbTestSchema = z
  .object({
    test_share: z.number().int(),
    metric: z.enum(AB_TEST_METRICS),
    decide_after_minutes: z.number().int(),
    min_recipients_per_variant: z.number().int(),
    status: z
      .enum(['testing', 'deciding', 'decided'])
      .describe(
        '`testing` until the window has passed (and before the start), `deciding` once it has and the decision is due, `decided` once a winner is chosen.',
      ),
    winner: z.string().nullable().describe('The winning variant’s name.'),
    decided_by: z
      .enum(['auto', 'manual', 'not_significant'])
      .nullable()
      .describe(
        '`auto`: its probability of being best reached 0.90; `manual`: picked by a person; `not_significant`: no variant reached 0.90, so the first won.',
      ),
    probability: z.number().nullable().describe("The winner's probability of being best when it was decided."),
    decided_at: TimestampSchema,
    sending_minutes: z.number().describe('Sending time counted towards the window so far.'),
    results: z.array(VariantResultSchema).describe('One per variant, in order (frozen at the decision for the test share; the figures go on growing).'),
  })
  .meta({ id: 'AbTest', description: 'Herald extension. An A/B test’s settings, state and figures per variant (docs/ab-tests.md).' });
export type AbTest = z.infer<typeof AbTestSchema>;

export const AbTestWinnerInputSchema = z
  .object({ variant: requiredString('variant', 50).describe('The name of the variant that wins.') })
  .describe('Herald extension. Picks the winner of an A/B test by hand, before it is decided.');

export const CampaignSchema = z
  .object({
    uuid: UuidSchema,
    team_uuid: UuidSchema,
    name: z.string(),
    sender: z.string(),
    scheduled_send_date: TimestampSchema,
    expiry_date: TimestampSchema,
    status: z.number().int().describe('0 pending, 1 sending, 2 sent.'),
    throttled: z.boolean(),
    included_contact_groups: z.array(z.string()),
    excluded_contact_groups: z.array(z.string()),
    included_segments: z.array(z.string()).describe('Herald extension (issue 35): the segments the campaign sends to, in the order given.'),
    excluded_segments: z.array(z.string()).describe('Herald extension (issue 35): the segments whose numbers it skips.'),
    template_uuid: UuidSchema,
    started_sending_at: TimestampSchema,
    finished_sending_at: TimestampSchema,
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
    scheduled_finish_date: TimestampSchema.describe('Throttled campaigns; "" otherwise.'),
    manually_paused: z.boolean().nullable().describe('Throttled campaigns: null until toggled.'),
    pauses: z.array(PauseSchema),
    is_test: z.boolean().describe('Made by send-test (one recipient).'),
    is_locked: z.boolean().describe('True once the send time is past or while it sends: edits are then refused with 423.'),
    approval: ApprovalSchema,
    is_draft: z.boolean().describe('Herald extension. A draft is never sent; scheduling it is an edit with `is_draft: false`.'),
    ignore_quiet_hours: z.boolean().describe("Herald extension. Sends through the team's quiet hours (set by an admin)."),
    local_time: z
      .boolean()
      .describe(
        "Herald extension. Sends at `scheduled_send_date`'s wall-clock time in each recipient's zone; the campaign starts (and is locked) when that time comes in the earliest zone (UTC+14).",
      ),
    stopped_at: TimestampSchema.describe('Herald extension. When someone stopped the campaign (`PUT …/stop`); "" otherwise.'),
    stopped_by: UserRefSchema.nullable().describe('Herald extension. Who stopped it.'),
    expired_at: TimestampSchema.describe(
      'Herald extension. When the engine expired the campaign: what was still queued then became unsent (`pending`); "" otherwise. A campaign that expired before it started sent nothing.',
    ),
    paused_until: TimestampSchema.describe(
      'Herald extension. While a sending campaign is inside one of its planned `pauses`: when sending resumes (the end of that pause, or of the pauses that follow it without a gap); "" otherwise.',
    ),
    variants: z
      .array(z.object({ name: z.string(), template_uuid: UuidSchema, sender: z.string().describe('"" when it uses the campaign’s.') }))
      .describe('Herald extension. The A/B test’s variants in order (the first is the campaign’s own template); empty without a test.'),
    ab_test: AbTestSchema.nullable().describe('Herald extension. The A/B test; null without variants.'),
  })
  .meta({ id: 'Campaign' });
export type Campaign = z.infer<typeof CampaignSchema>;

export const CampaignSummarySchema = z
  .object({
    recipients: z
      .number()
      .int()
      .describe(
        'Before sending: the distinct numbers the groups reach now (included minus excluded minus default_optouts). Once sending: the messages written.',
      ),
    queued: z.number().int(),
    submitted: z.number().int(),
    delivered: z.number().int(),
    failed: z.number().int(),
    unsent: z.number().int(),
    clicks: z.number().int().describe('Every click on the campaign’s tracked links, link-preview fetches by chat apps (bots) included.'),
    human_clicks: z.number().int().describe('Herald extension. Of `clicks`, those made by people: the figure the overview and the dashboard show.'),
    bot_clicks: z.number().int().describe('Herald extension. Of `clicks`, link-preview fetches by chat apps (`Device_Type` `bot` in the clicks report).'),
    in_doubt: z
      .number()
      .int()
      .describe(
        'Herald extension. Messages whose hand-over to the carrier was interrupted (a crash, a lost connection), so it is not known whether they went: failed with reason `in_doubt`, or sent again, as SMS_IN_DOUBT says. 0 unless something went wrong.',
      ),
    opt_outs: z
      .number()
      .int()
      .describe(
        'Herald extension. Opt-outs this campaign led to: numbers that opted out (STOP, or by hand) while it was the last campaign they received from the team.',
      ),
    held_for_quiet_hours: z
      .number()
      .int()
      .describe(
        "Herald extension. Of the queued messages, those held now because it is quiet hours in their recipient's zone: they go when quiet hours end there. 0 when none is held.",
      ),
    // Revenue (issue 35): present once the team has recorded a conversion (docs/conversions.md).
    currency: z.string().optional().describe("Herald extension. The team's currency (ISO 4217): that of `revenue`. Present with the revenue fields."),
    orders: z
      .number()
      .int()
      .optional()
      .describe(
        "Herald extension. Orders credited to this campaign (a click or a delivery within the team's windows) in the team's currency. The revenue fields are absent while the team has recorded no conversion.",
      ),
    revenue: z.number().optional().describe("Herald extension. Their total, in the team's currency."),
    revenue_per_recipient: z
      .number()
      .nullable()
      .optional()
      .describe('Herald extension. `revenue` ÷ `recipients` (4 decimals); null when there are no recipients.'),
    revenue_other: z
      .array(RevenueSchema)
      .optional()
      .describe("Herald extension. Orders credited to this campaign in other currencies than the team's, by currency: shown apart, never converted."),
    segments: z
      .array(CampaignSegmentRevenueSchema)
      .optional()
      .describe(
        'Herald extension. Once a campaign with included segments has started: the revenue fields per included segment, in its order, over the recipients each segment brought when the list was fixed (a recipient in two segments counts in both; one its groups alone brought, in none). Absent with the other revenue fields, and for a campaign without included segments.',
      ),
    variants: z
      .array(VariantResultSchema)
      .optional()
      .describe('Herald extension. With an A/B test: the figures per variant (the test, then the winner’s share of the rest); absent otherwise.'),
  })
  .meta({ id: 'CampaignSummary' });

export const CampaignParamsSchema = z.object({ campaign_uuid: z.uuid().describe('Identifier of the campaign.') });
export const CampaignListQuerySchema = z.object({
  status: z.coerce
    .number({ error: 'The status must be 0, 1 or 2.' })
    .int('The status must be 0, 1 or 2.')
    .min(0, 'The status must be 0, 1 or 2.')
    .max(2, 'The status must be 0, 1 or 2.')
    .optional()
    .describe('Only campaigns in this status.'),
  approval: z
    .enum(['not_required', 'pending', 'approved', 'rejected'], { error: 'The approval must be not_required, pending, approved or rejected.' })
    .optional()
    .describe('Herald extension. Only campaigns whose approval is in this state (`pending`: what waits for an admin).'),
  template_uuid: z
    .uuid({ error: 'The template uuid must be a UUID.' })
    .optional()
    .describe('Herald extension. Only campaigns of this template (the template editor names the scheduled ones an edit changes).'),
  include_tests: z
    .enum(['true', 'false'], { error: 'The include tests must be true or false.' })
    .optional()
    .transform((value) => value === 'true')
    .describe('Herald extension. true lists test campaigns too (send-test and test sends); they are left out otherwise.'),
  scheduled_from: timestampField('scheduled from')
    .optional()
    .describe(
      'Herald extension. Only campaigns whose `scheduled_send_date` is at or after this (the calendar page): `YYYY-MM-DD HH:MM:SS` in the service zone, or RFC 3339.',
    ),
  scheduled_to: timestampField('scheduled to')
    .optional()
    .describe('Herald extension. Only campaigns whose `scheduled_send_date` is before this: `YYYY-MM-DD HH:MM:SS` in the service zone, or RFC 3339.'),
  ...nameSearchQueryOf('name').shape,
});

const GroupRefSchema = z.object({ uuid: UuidSchema, name: z.string() }).meta({ id: 'GroupRef' });

export const FieldCoverageSchema = z
  .object({
    field: z.string().describe('The field as the template writes it (`first_name` of `{{first_name}}`).'),
    fallback: z.boolean().describe('Every use of the field has a fallback (`{{first_name|there}}`): no recipient can get a gap.'),
    missing: z.number().int().describe('Recipients whose value is missing or empty: they get the fallback, or a gap.'),
    groups_without: z.array(GroupRefSchema).describe('Included groups that have no such field at all.'),
    conflicting: z
      .number()
      .int()
      .optional()
      .describe(
        'Recipients in several included groups whose groups hold different non-empty values for the field: they get the value of the group listed first in `included_contact_groups`.',
      ),
    blocking: z
      .boolean()
      .describe('No included group has the field and it has no fallback: the campaign cannot be scheduled (422) until the template or the groups change.'),
  })
  .meta({ id: 'FieldCoverage', description: 'Herald extension. How well the audience fills one `{{field}}` of the template.' });
export type FieldCoverage = z.infer<typeof FieldCoverageSchema>;

export const CampaignRoutingSchema = z
  .object({
    connections: z
      .array(
        z.object({
          uuid: UuidSchema.describe('The SMS connection.'),
          name: z.string(),
          provider: z.string(),
          messages: z.number().int().describe('Recipients whose route tries this connection first (it is their first enabled connection).'),
          cost: z
            .object({ amount: z.number(), currency: z.string() })
            .nullable()
            .describe(
              "Those messages' SMS parts (at the campaign's average parts per message) × the connection's `price_per_segment` for each recipient's country (else its `*`), else the team's price; null when some of them have no price.",
            ),
        }),
      )
      .describe('Most messages first.'),
    no_route: z.number().int().describe('Recipients no route covers (or whose route has no enabled connection): they will fail with reason `no_route`.'),
  })
  .meta({
    id: 'CampaignRouting',
    description:
      "Herald extension. Where the messages are expected to go, per SMS connection, by each recipient's country and the team's routes (docs/providers.md, Routes). Failovers may move some to the next connection of their route.",
  });
export type CampaignRouting = z.infer<typeof CampaignRoutingSchema>;

export const CampaignReviewSchema = z
  .object({
    recipients: z
      .object({
        included: z.number().int().describe('Contacts in the included groups, counted once per group they are in.'),
        duplicates: z.number().int().describe('Of those, numbers in more than one included group: counted once.'),
        excluded: z.number().int().describe('Distinct numbers left out because an excluded group has them.'),
        opted_out: z.number().int().describe('Distinct numbers left out because they opted out (default_optouts).'),
        total: z.number().int().describe('Who gets a message: included − duplicates − excluded − opted out.'),
        conflicting: z
          .number()
          .int()
          .optional()
          .describe(
            "Of those, recipients whose included groups hold different non-empty values for a field the template uses (counted once however many fields): the group listed first wins. A recipient's fields are merged over its groups: a non-empty value beats an empty or missing one.",
          ),
      })
      .describe('Who the campaign reaches now (the groups may change until it starts).'),
    segments: z
      .object({
        min: z.number().int(),
        typical: z.number().int().describe('What most recipients get (the median).'),
        max: z.number().int(),
      })
      .describe('SMS parts per message after personalisation and short links, over the real audience; all 0 without recipients.'),
    total_parts: z.number().int().describe('SMS parts of the whole campaign: what the carrier bills.'),
    cost: z
      .object({ amount: z.number(), currency: z.string() })
      .nullable()
      .describe("`total_parts` × the team's `price_per_segment`; null when the team has no price set."),
    routing: CampaignRoutingSchema.optional().describe(
      'Herald extension. Per SMS connection, the messages expected to go through it and their estimated cost; left out for a team without connections (it sends through the installation’s gateway).',
    ),
    starts_at: TimestampSchema.describe('When the first message leaves: the send time, or now for a send time past.'),
    finishes_at: TimestampSchema.describe(
      "When the last should leave: a throttled campaign's finish date; otherwise the recipients at the gateway's rate, past quiet hours in each recipient's zone.",
    ),
    local_time: z
      .object({
        send_time: z.string().describe("The wall-clock time each recipient's zone sends at (`YYYY-MM-DD HH:MM:SS`)."),
        first_at: TimestampSchema.describe('When the first zone\'s moment comes (the service\'s zone); "" when no zone is reached before the expiry.'),
        last_at: TimestampSchema.describe("When the last zone's moment before the expiry comes (the service's zone)."),
        zones: z
          .array(
            z.object({
              zone: z.string().describe("The recipients' time zone (from their number, as quiet hours)."),
              recipients: z.number().int(),
              send_at: TimestampSchema.describe("When that zone's messages go (the service's zone)."),
              after_expiry: z.boolean().describe('Its moment comes at or after the expiry: its recipients will be unsent (`local_time`).'),
            }),
          )
          .describe('Every zone of the audience, earliest first.'),
      })
      .optional()
      .describe(
        "Herald extension. A campaign sent at each recipient's local time (`local_time`): the span from the first zone to the last; left out otherwise.",
      ),
    quiet_hours: QuietHoursSchema.nullable().describe("The team's quiet hours that apply to this campaign; null when off or ignored by it."),
    quiet_periods: z
      .array(z.object({ start_at: TimestampSchema, end_at: TimestampSchema }))
      .describe(
        "Periods between the start and the finish in which quiet hours hold some recipients, in their own zones (those of every zone of the audience, merged); times in the service's zone.",
      ),
    quiet_zones: z
      .array(
        z.object({
          zone: z.string().describe("The recipients' time zone (from their number: its country, or its area code in the United States, Canada and Australia)."),
          recipients: z.number().int().describe('Recipients in that zone.'),
          held_at_start: z.boolean().describe('It is quiet hours there when the campaign starts: they wait for them to end.'),
          periods: z
            .array(z.object({ start_at: TimestampSchema, end_at: TimestampSchema }))
            .describe("That zone's quiet periods between the start and the finish; times in the service's zone."),
        }),
      )
      .describe('Herald extension. The zones of the audience that quiet hours hold while the campaign sends, most recipients first; empty when none.'),
    frequency_cap: FrequencyCapSchema.optional().describe("Herald extension. The team's frequency cap; left out when the team has none."),
    frequency_capped: z
      .number()
      .int()
      .optional()
      .describe(
        "Herald extension. Recipients the team's frequency cap would skip if the campaign were sent now: they have had the cap's number of marketing messages within its window (this campaign's own messages not counted). Their messages are written but left unsent (`frequency_cap`); they stay in `recipients.total`. The engine counts again at each message, so the figure can grow while a campaign waits or sends. Left out when the team has no cap.",
      ),
    ab_test: z
      .object({
        variants: z
          .array(z.object({ name: z.string(), test_recipients: z.number().int().describe('Recipients who get this variant in the test.') }))
          .describe('In order; the first is the campaign’s own template.'),
        rest: z.number().int().describe('Recipients who get the winner once the test is decided (0 when the audience is too small to hold any back).'),
        metric: z.enum(AB_TEST_METRICS),
        decide_after_minutes: z.number().int(),
      })
      .optional()
      .describe('Herald extension. With an A/B test: how the audience counted now would be split (docs/ab-tests.md).'),
    coverage: z.array(FieldCoverageSchema).describe('One per `{{field}}` of the template, in order of appearance.'),
    approval_required: z.boolean().describe("The team's approval threshold asks for another admin's approval before it starts."),
    confirm_threshold: z.number().int().describe("The team's confirm threshold."),
    confirm_required: z.boolean().describe('The dashboard asks to type `recipients.total` before scheduling (total ≥ confirm threshold).'),
    test_sends: z
      .array(
        z.object({
          uuid: UuidSchema.describe('The test campaign.'),
          phone_number: z.string(),
          status: z.string().describe('Its message: queued, submitted, delivered, failed or unsent.'),
          created_at: TimestampSchema,
        }),
      )
      .describe('Test sends made from this campaign, newest first (empty for a preview).'),
  })
  .meta({
    id: 'CampaignReview',
    description: 'Herald extension. What a campaign will do, computed from the real audience, before it is scheduled: the review step of the dashboard.',
  });
export type CampaignReview = z.infer<typeof CampaignReviewSchema>;

export const TestSendInputSchema = z
  .object({
    phone_numbers: z
      .array(z.string({ error: 'Each phone number must be a string.' }).max(32, 'A phone number may not be greater than 32 characters.'), {
        error: 'The phone numbers must be a list.',
      })
      .max(10, 'A test goes to at most 10 numbers.')
      .optional()
      .describe("Where the test goes; the caller's own number (profile) when absent or empty."),
    contact_phone_number: z
      .string({ error: 'The contact phone number must be a string.' })
      .max(32, 'The contact phone number may not be greater than 32 characters.')
      .optional()
      .describe("A recipient of the campaign whose fields personalise the test; without one the test's fields are empty (fallbacks show)."),
  })
  .describe('Herald extension. A test of a campaign, sent now to a few numbers.');
export type TestSendInput = z.infer<typeof TestSendInputSchema>;

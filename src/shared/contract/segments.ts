import { z } from 'zod';
import { PHONE_COUNTRIES } from '../phone/phone-countries';
import { nameSearchQueryOf, ResourceLinksSchema, TimestampSchema, UuidSchema } from './common';
import { optionalString, requiredString, typeError, uuidField } from './fields';

/**
 * Segments (issue 35): a team's contacts picked by conditions over their fields, groups, country and
 * behaviour, evaluated live whenever they are read. The condition shapes are the contract.
 */

/** At most this many conditions in a segment, and in one group of conditions. */
export const SEGMENT_MAX_CONDITIONS = 20;
/** The longest window of days a condition may look back or ahead. */
export const SEGMENT_MAX_DAYS = 3650;

export const SEGMENT_MATCHES = ['all', 'any'] as const;
export type SegmentMatch = (typeof SEGMENT_MATCHES)[number];

export const FIELD_OPS = [
  'equals',
  'not_equals',
  'contains',
  'is_empty',
  'is_not_empty',
  'gt',
  'lt',
  'before',
  'after',
  'within_last_days',
  'within_next_days',
  'anniversary_within_days',
] as const;
export type FieldOp = (typeof FIELD_OPS)[number];
/** Ops that take no value. */
export const VALUELESS_FIELD_OPS: ReadonlySet<FieldOp> = new Set(['is_empty', 'is_not_empty']);
/** Ops whose value is a number (`gt`, `lt`) or a count of days (the rest of these). */
export const NUMBER_FIELD_OPS: ReadonlySet<FieldOp> = new Set(['gt', 'lt']);
export const DAYS_FIELD_OPS: ReadonlySet<FieldOp> = new Set(['within_last_days', 'within_next_days', 'anniversary_within_days']);
/** Ops whose value is a date `YYYY-MM-DD`. */
export const DATE_FIELD_OPS: ReadonlySet<FieldOp> = new Set(['before', 'after']);

export const SEGMENT_EVENTS = ['received', 'delivered', 'clicked', 'not_clicked', 'failed', 'replied', 'opted_in', 'converted'] as const;
export type SegmentEvent = (typeof SEGMENT_EVENTS)[number];

/**
 * Herald extension: which failures a `failed` condition counts. `carrier`: the carrier or provider
 * refused it or its receipt said so; `expired`: no receipt before the expiry; `in_doubt`: its
 * hand-over was interrupted; `no_route`: no route of the team covered its country. Left out: any.
 */
export const FAILURE_CLASSES = ['carrier', 'expired', 'in_doubt', 'no_route'] as const;
export type FailureClass = (typeof FAILURE_CLASSES)[number];

const COUNTRY_CODES: ReadonlySet<string> = new Set(PHONE_COUNTRIES);
const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** A real day `YYYY-MM-DD` (Date.parse takes 2026-02-30 as 2 March: the day must read back the same). */
const isCalendarDate = (value: string): boolean => {
  if (!DATE.test(value)) return false;
  const moment = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(moment.getTime()) && moment.getUTCFullYear() >= 1 && moment.toISOString().slice(0, 10) === value;
};

const daysSchema = (label: string) =>
  z
    .number({ error: typeError(label, 'a whole number of days') })
    .int(`The ${label} must be a whole number of days.`)
    .min(1, `The ${label} must be at least 1.`)
    .max(SEGMENT_MAX_DAYS, `The ${label} may not be greater than ${SEGMENT_MAX_DAYS}.`);

export const FieldConditionSchema = z
  .object({
    type: z.literal('field'),
    field: requiredString('field', 64).describe('The contact field (custom field name, any case).'),
    op: z.enum(FIELD_OPS, { error: `The op must be one of ${FIELD_OPS.join(', ')}.` }),
    value: z
      .union([z.string().max(1000, 'The value may not be greater than 1000 characters.'), z.number()], { error: 'The value must be a string or a number.' })
      .optional()
      .describe(
        '`equals`, `not_equals`, `contains`: text (case-insensitive); `gt`, `lt`: a number; `before`, `after`: a date `YYYY-MM-DD`; `within_last_days`, `within_next_days`, `anniversary_within_days`: a number of days; none for `is_empty`, `is_not_empty`.',
      ),
  })
  .superRefine((condition, context) => {
    const { op, value } = condition;
    const issue = (message: string) => context.addIssue({ code: 'custom', path: ['value'], message });
    if (VALUELESS_FIELD_OPS.has(op)) {
      if (value !== undefined && value !== '') issue(`The value must be left out for ${op}.`);
    } else if (value === undefined || value === '') issue(`The value field is required for ${op}.`);
    else if (NUMBER_FIELD_OPS.has(op)) {
      if (!Number.isFinite(typeof value === 'number' ? value : Number(value.trim())) || (typeof value === 'string' && value.trim() === ''))
        issue(`The value must be a number for ${op}.`);
    } else if (DAYS_FIELD_OPS.has(op)) {
      const days = typeof value === 'number' ? value : Number(value);
      if (!Number.isInteger(days) || days < 1 || days > SEGMENT_MAX_DAYS)
        issue(`The value must be a whole number of days from 1 to ${SEGMENT_MAX_DAYS} for ${op}.`);
    } else if (DATE_FIELD_OPS.has(op)) {
      if (typeof value !== 'string' || !isCalendarDate(value)) issue(`The value must be a date YYYY-MM-DD for ${op}.`);
    }
  })
  .describe('A contact field compared with a value.');

export const GroupConditionSchema = z
  .object({
    type: z.literal('group'),
    op: z.enum(['in', 'not_in'], { error: 'The op must be in or not_in.' }),
    group_uuid: uuidField('group'),
  })
  .describe('Membership of one of the team’s contact groups.');

export const CountryConditionSchema = z
  .object({
    type: z.literal('country'),
    op: z.enum(['in', 'not_in'], { error: 'The op must be in or not_in.' }),
    values: z
      .array(
        z
          .string({ error: typeError('country', 'a string') })
          .refine((code) => COUNTRY_CODES.has(code), 'Each country must be an ISO 3166 alpha-2 code in capitals (GB).'),
        { error: typeError('values', 'a list') },
      )
      .min(1, 'The values may not be empty.')
      .max(250, 'The values may not have more than 250 items.'),
  })
  .describe('The country of the number (from its calling code and prefix).');

export const EventConditionSchema = z
  .object({
    type: z.literal('event'),
    event: z.enum(SEGMENT_EVENTS, { error: `The event must be one of ${SEGMENT_EVENTS.join(', ')}.` }),
    campaign_uuid: uuidField('campaign')
      .optional()
      .describe('Only this campaign’s messages (received, delivered, clicked, not_clicked, failed, converted); left out: any.'),
    within_days: daysSchema('within_days').optional().describe('Only within the last N days; left out: ever.'),
    value_gt: z
      .number({ error: typeError('value_gt', 'a number') })
      .min(0, 'The value_gt must be at least 0.')
      .optional()
      .describe('`converted` only: a conversion worth more than this (in any currency).'),
    reason_class: z
      .enum(FAILURE_CLASSES, { error: `The reason_class must be one of ${FAILURE_CLASSES.join(', ')}.` })
      .optional()
      .describe('Herald extension, `failed` only: which failures count (carrier, expired, in_doubt, no_route); left out: any.'),
  })
  .superRefine((condition, context) => {
    if (condition.value_gt !== undefined && condition.event !== 'converted')
      context.addIssue({ code: 'custom', path: ['value_gt'], message: 'The value_gt applies to the converted event only.' });
    if (condition.reason_class !== undefined && condition.event !== 'failed')
      context.addIssue({ code: 'custom', path: ['reason_class'], message: 'The reason_class applies to the failed event only.' });
    if (condition.campaign_uuid !== undefined && (condition.event === 'replied' || condition.event === 'opted_in'))
      context.addIssue({ code: 'custom', path: ['campaign_uuid'], message: `The campaign_uuid does not apply to the ${condition.event} event.` });
  })
  .describe(
    'What the number did: received a campaign, was delivered, clicked a tracked link as a person (not a bot), did not click, failed, replied (sent an inbound message), opted in, or converted.',
  );

const LEAF_TYPES = 'field, group, country or event';
export const LeafConditionSchema = z.discriminatedUnion('type', [FieldConditionSchema, GroupConditionSchema, CountryConditionSchema, EventConditionSchema], {
  error: `Each condition must be an object whose type is ${LEAF_TYPES} (or group_of_conditions at the top level).`,
});
export type LeafCondition = z.infer<typeof LeafConditionSchema>;

export const GroupOfConditionsSchema = z
  .object({
    type: z.literal('group_of_conditions'),
    match: z.enum(SEGMENT_MATCHES, { error: 'The match must be all or any.' }),
    conditions: z
      .array(LeafConditionSchema, { error: typeError('conditions', 'a list') })
      .min(1, 'The conditions of a group may not be empty.')
      .max(SEGMENT_MAX_CONDITIONS, `The conditions of a group may not have more than ${SEGMENT_MAX_CONDITIONS} items.`),
  })
  .describe('Conditions nested one level, with their own match.');

export const ConditionSchema = z.discriminatedUnion(
  'type',
  [FieldConditionSchema, GroupConditionSchema, CountryConditionSchema, EventConditionSchema, GroupOfConditionsSchema],
  {
    error: `Each condition must be an object whose type is ${LEAF_TYPES} or group_of_conditions.`,
  },
);
export type Condition = z.infer<typeof ConditionSchema>;

export const SegmentInputSchema = z
  .object({
    name: requiredString('name', 255),
    description: optionalString('description', 1000).optional(),
    match: z.enum(SEGMENT_MATCHES, { error: 'The match must be all or any.' }),
    conditions: z
      .array(ConditionSchema, { error: typeError('conditions', 'a list') })
      .min(1, 'The conditions may not be empty.')
      .max(SEGMENT_MAX_CONDITIONS, `The conditions may not have more than ${SEGMENT_MAX_CONDITIONS} items.`),
  })
  // No component id: the OpenAPI input registry names the input form of `Segment` SegmentInput (house style: inputs inline).
  .describe('A segment as it is created or edited.');
export type SegmentInput = z.infer<typeof SegmentInputSchema>;

export const SegmentSchema = z
  .object({
    uuid: UuidSchema,
    name: z.string(),
    description: z.string(),
    match: z.enum(SEGMENT_MATCHES),
    conditions: z.array(ConditionSchema),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
    links: ResourceLinksSchema,
  })
  .meta({ id: 'Segment' });
export type Segment = z.infer<typeof SegmentSchema>;

export const SegmentCountSchema = z.object({ count: z.number().int().describe('How many of the team’s numbers match now.') }).meta({ id: 'SegmentCount' });

export const SegmentParamsSchema = z.object({ segment_uuid: z.uuid().describe('Identifier of the segment.') });

export const SegmentListQuerySchema = nameSearchQueryOf('name');

/**
 * Herald extension: the body of `POST /segments/count`, a segment not yet saved (the builder's live
 * count): a SegmentInput whose name may be left out.
 */
export const SegmentCountInputSchema = SegmentInputSchema.extend({ name: optionalString('name', 255).optional() });
export type SegmentCountInput = z.infer<typeof SegmentCountInputSchema>;

export const SegmentContactSchema = z
  .object({
    phone_number: z.string().describe('E.164 digits without `+`.'),
    custom_fields: z
      .record(z.string(), z.string())
      .describe('The number’s fields merged over the team’s groups that hold it (oldest group first; a non-empty value beats an empty one).'),
    country: z.string().nullable().describe('ISO 3166 alpha-2 country of the number, from its calling code and prefix; null when it names none.'),
  })
  .meta({ id: 'SegmentContact' });
export type SegmentContact = z.infer<typeof SegmentContactSchema>;

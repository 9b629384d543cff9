import { z } from 'zod';
import { nameSearchQueryOf, ResourceLinksSchema, TimestampSchema, UuidSchema } from './common';
import { httpUrl, requiredBoolean, requiredString, typeError, uuidField } from './fields';
import { ConditionSchema } from './segments';
import { SenderNameSchema } from './senders';

/**
 * Flows (issue 36, point 2): automations that start for one number (a keyword, joining a group, an
 * API call…) and walk it through steps: send a template, wait, branch, add to or remove from a
 * group, call a webhook, end. The shapes of `trigger` and `steps` are the contract; Herald adds a
 * stable `id` and `stats` to each step and the `reentry` setting (docs/flows.md).
 */

/** At most this many steps in a flow, counting those inside branches. */
export const FLOW_MAX_STEPS = 100;
/** The longest a wait may last, in minutes (a year). */
export const FLOW_MAX_WAIT_MINUTES = 525_600;
/** The longest a wait lasts in a test run (the dashboard's "test with my number"), in minutes. */
export const FLOW_TEST_WAIT_MINUTES = 1;

const TIME_OF_DAY = /^([01]\d|2[0-3]):[0-5]\d$/;
const timeOfDay = (label: string) =>
  z.string({ error: typeError(label, 'a string') }).regex(TIME_OF_DAY, `The ${label} must be a time of day HH:MM (24 hours).`);

export const FLOW_TRIGGER_TYPES = ['keyword', 'group_joined', 'segment_entered', 'conversion', 'anniversary', 'api'] as const;
export type FlowTriggerType = (typeof FLOW_TRIGGER_TYPES)[number];

export const FlowTriggerSchema = z
  .discriminatedUnion(
    'type',
    [
      z.object({ type: z.literal('keyword'), keyword_uuid: uuidField('keyword') }).describe('A number texts the team’s keyword.'),
      z.object({ type: z.literal('group_joined'), group_uuid: uuidField('group') }).describe('A number is added to the team’s contact group, in any way.'),
      z
        .object({ type: z.literal('segment_entered'), segment_uuid: uuidField('segment') })
        .describe('A number enters the team’s segment (looked at every minute; those in it when the flow starts looking did not enter).'),
      z.object({ type: z.literal('conversion') }).describe('A conversion is recorded for a number (the order’s, else that of the message it is credited to).'),
      z
        .object({
          type: z.literal('anniversary'),
          field: requiredString('field', 64).describe('A date field of the contact (`YYYY-MM-DD`).'),
          at: timeOfDay('at').describe('The time of day, in the team’s zone.'),
        })
        .describe('The anniversary of a date field (`YYYY-MM-DD`), once that day at a time of day in the team’s zone.'),
      z.object({ type: z.literal('api') }).describe('Only `POST /flows/{uuid}/runs` starts it.'),
    ],
    { error: `The trigger must be an object whose type is one of ${FLOW_TRIGGER_TYPES.join(', ')}.` },
  )
  .meta({ id: 'FlowTrigger' });
export type FlowTrigger = z.infer<typeof FlowTriggerSchema>;

/**
 * Herald extension, valid in a flow's branch only: what the number did with the run's last message
 * (the last one its send steps queued, or since the run started when it has sent none).
 * `replied`: the number sent the team a message since; `clicked`: a person (not a link-preview bot)
 * clicked a tracked link of it (docs/flows.md).
 */
export const LastMessageConditionSchema = z
  .object({
    type: z.literal('last_message'),
    event: z.enum(['clicked', 'replied'], { error: 'The event must be clicked or replied.' }),
  })
  .describe('Herald extension (flows only): the number clicked the run’s last message’s link, or replied since it was sent.');

/** Herald extension, valid in a flow's branch only: the number is (or is not) in one of the team's segments now. */
export const SegmentMembershipConditionSchema = z
  .object({
    type: z.literal('segment'),
    op: z.enum(['in', 'not_in'], { error: 'The op must be in or not_in.' }),
    segment_uuid: uuidField('segment'),
  })
  .describe('Herald extension (flows only): membership of one of the team’s segments, evaluated when the run reaches the branch.');

const CONDITION_TYPES = 'field, group, country, event, group_of_conditions, last_message or segment';
/** A branch's condition: any segment condition (segments.ts), or the two kinds only flows know. */
export const FlowConditionSchema = z
  .discriminatedUnion('type', [...ConditionSchema.options, LastMessageConditionSchema, SegmentMembershipConditionSchema], {
    error: `The condition must be an object whose type is ${CONDITION_TYPES}.`,
  })
  .meta({ id: 'FlowCondition' });
export type FlowCondition = z.infer<typeof FlowConditionSchema>;

export const FlowStepStatsSchema = z
  .object({
    entered: z.number().int().describe('Runs that reached the step.'),
    sent: z.number().int().describe('Send steps: messages queued (not failed or unsent); 0 for other steps.'),
    clicked: z
      .number()
      .int()
      .describe(
        'Send steps: runs whose message at this step a person clicked (a tracked link of it, at least once; link-preview bots’ fetches are not clicks); 0 for other steps.',
      ),
    exited: z.number().int().describe('Runs that ended early at this step (opted out, flow disabled, step removed).'),
  })
  .meta({ id: 'FlowStepStats' });
export type FlowStepStats = z.infer<typeof FlowStepStatsSchema>;

const STEP_ID = /^[A-Za-z0-9_-]{1,64}$/;
const stepCommon = {
  id: z
    .string({ error: typeError('id', 'a string') })
    .regex(STEP_ID, 'The id must be 1 to 64 letters, digits, _ or -.')
    .optional()
    .describe('Herald extension: the step’s stable identifier, assigned by Herald; send it back on PUT to keep the step’s counts and history.'),
  stats: FlowStepStatsSchema.optional().describe('Herald extension, in answers only (ignored in requests): the step’s counts.'),
};

export const FLOW_STEP_TYPES = ['send', 'wait', 'branch', 'add_to_group', 'remove_from_group', 'webhook', 'end'] as const;
export type FlowStepType = (typeof FLOW_STEP_TYPES)[number];

const SendStepSchema = z
  .object({
    ...stepCommon,
    type: z.literal('send'),
    template_uuid: uuidField('template'),
    sender: SenderNameSchema.optional().describe('The sender name; left out: the template’s, else the team’s route.'),
    transactional: requiredBoolean('transactional').optional().describe('True: not marketing (frequency caps skip it). Left out: false.'),
  })
  .describe('Send a template, rendered with the contact’s fields (deferred past quiet hours).');

const WaitStepSchema = z
  .object({
    ...stepCommon,
    type: z.literal('wait'),
    minutes: z
      .number({ error: typeError('minutes', 'a whole number') })
      .int('The minutes must be a whole number.')
      .min(1, 'The minutes must be at least 1.')
      .max(FLOW_MAX_WAIT_MINUTES, `The minutes may not be greater than ${FLOW_MAX_WAIT_MINUTES}.`)
      .optional(),
    until_time: timeOfDay('until time').optional().describe('Wait until this time of day (HH:MM) in the recipient’s zone.'),
  })
  .superRefine((step, context) => {
    if ((step.minutes === undefined) === (step.until_time === undefined))
      context.addIssue({ code: 'custom', path: ['minutes'], message: 'A wait needs exactly one of minutes and until_time.' });
  })
  .describe('Wait a number of minutes, or until a time of day in the recipient’s zone.');

const GroupStepSchema = z
  .object({ ...stepCommon, type: z.enum(['add_to_group', 'remove_from_group']), group_uuid: uuidField('group') })
  .describe('Add the number to, or remove it from, one of the team’s contact groups.');

const WebhookStepSchema = z
  .object({ ...stepCommon, type: z.literal('webhook'), url: httpUrl('url') })
  .describe('POST the run to a URL, once, signed with the flow’s signing secret (Standard Webhooks).');

const EndStepSchema = z.object({ ...stepCommon, type: z.literal('end') }).describe('End the run.');

export type FlowStep =
  | z.infer<typeof SendStepSchema>
  | z.infer<typeof WaitStepSchema>
  | z.infer<typeof GroupStepSchema>
  | z.infer<typeof WebhookStepSchema>
  | z.infer<typeof EndStepSchema>
  | {
      id?: string;
      stats?: FlowStepStats;
      type: 'branch';
      condition: FlowCondition;
      then: FlowStep[];
      else: FlowStep[];
    };

const stepsOf = (label: string): z.ZodType<FlowStep[]> =>
  z
    .array(
      z.lazy(() => FlowStepSchema),
      { error: typeError(label, 'a list') },
    )
    .max(FLOW_MAX_STEPS, `The ${label} may not have more than ${FLOW_MAX_STEPS} items.`);

const BranchStepSchema = z
  .object({
    ...stepCommon,
    type: z.literal('branch'),
    condition: FlowConditionSchema,
    then: stepsOf('then').default([]),
    else: stepsOf('else').default([]),
  })
  .describe('Go on with `then` when the condition holds for the number, else with `else`; then with the steps after the branch.');

const STEP_TYPES = FLOW_STEP_TYPES.join(', ');
/** One step; `branch` holds steps of its own. */
export const FlowStepSchema: z.ZodType<FlowStep> = z
  .discriminatedUnion('type', [SendStepSchema, WaitStepSchema, BranchStepSchema, GroupStepSchema, WebhookStepSchema, EndStepSchema], {
    error: `Each step must be an object whose type is one of ${STEP_TYPES}.`,
  })
  .meta({ id: 'FlowStep' }) as z.ZodType<FlowStep>;

/** Every step of `steps`, branches' included, depth first (the order of the dashboard's editor). */
export function allSteps(steps: readonly FlowStep[]): FlowStep[] {
  return steps.flatMap((step) => (step.type === 'branch' ? [step, ...allSteps(step.then), ...allSteps(step.else)] : [step]));
}

export const FLOW_REENTRY = ['after_end', 'never'] as const;
export type FlowReentry = (typeof FLOW_REENTRY)[number];

const flowFields = {
  name: requiredString('name', 255),
  trigger: FlowTriggerSchema,
  steps: stepsOf('steps'),
  enabled: requiredBoolean('enabled'),
  reentry: z
    .enum(FLOW_REENTRY, { error: 'The reentry must be after_end or never.' })
    .describe('Herald extension: `after_end` (the default) lets a number run the flow again once its run has ended; `never`: once per number.'),
};

const checkSteps = (flow: { steps?: FlowStep[] }, context: z.RefinementCtx) => {
  const steps = allSteps(flow.steps ?? []);
  if (steps.length > FLOW_MAX_STEPS)
    context.addIssue({ code: 'custom', path: ['steps'], message: `A flow may not have more than ${FLOW_MAX_STEPS} steps, counting those in branches.` });
  const seen = new Set<string>();
  for (const step of steps) {
    if (step.id === undefined) continue;
    if (seen.has(step.id)) context.addIssue({ code: 'custom', path: ['steps'], message: `The step id ${step.id} is used twice.` });
    seen.add(step.id);
  }
};

export const FlowInputSchema = z
  .object({ ...flowFields, enabled: flowFields.enabled.default(false), reentry: flowFields.reentry.default('after_end') })
  .superRefine(checkSteps)
  .describe('Body of create.');
export type FlowInput = z.infer<typeof FlowInputSchema>;

export const FlowPatchSchema = z
  .object({
    name: flowFields.name.optional(),
    trigger: flowFields.trigger.optional(),
    steps: flowFields.steps.optional(),
    enabled: flowFields.enabled.optional(),
    reentry: flowFields.reentry.optional(),
  })
  .superRefine(checkSteps)
  .describe('Body of edit: any field may change, the others keep their values. Steps sent back with their `id` keep their counts and history.');
export type FlowPatch = z.infer<typeof FlowPatchSchema>;

export const FlowRunCountsSchema = z.object({ active: z.number().int(), completed: z.number().int(), exited: z.number().int() });

export const FlowSchema = z
  .object({
    uuid: UuidSchema,
    name: z.string(),
    trigger: FlowTriggerSchema,
    steps: z.array(FlowStepSchema).describe('Each step with its `id` and `stats`.'),
    enabled: z.boolean(),
    reentry: z.enum(FLOW_REENTRY),
    runs: FlowRunCountsSchema.describe('Herald extension: the flow’s runs by state.'),
    signing_secret: z
      .string()
      .optional()
      .describe('Herald extension: the secret that signs the flow’s webhook calls (`whsec_…`, Standard Webhooks), shown only when the flow is created.'),
    links: ResourceLinksSchema,
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  })
  .meta({ id: 'Flow' });
export type Flow = z.infer<typeof FlowSchema>;

export const FlowParamsSchema = z.object({ flow_uuid: z.uuid().describe('Identifier of the flow.') });
export const FlowListQuerySchema = nameSearchQueryOf('name');

export const FLOW_RUN_STATES = ['active', 'completed', 'exited'] as const;
export type FlowRunState = (typeof FLOW_RUN_STATES)[number];

export const FlowRunInputSchema = z
  .object({
    phone_number: requiredString('phone_number', 32).describe('The number, international or national in the team’s country.'),
    fields: z
      .record(z.string(), z.string().max(1000, 'Each field may not be greater than 1000 characters.'), { error: typeError('fields', 'an object of strings') })
      .optional()
      .describe('Fields for the run’s messages, over the contact’s own.'),
    test: requiredBoolean('test')
      .optional()
      .describe(
        'Herald extension: true starts a test run (the dashboard’s "test with my number"), even of a disabled flow and whatever the re-entry setting or an ordinary run of the number: each wait lasts at most a minute, its messages are not marketing (frequency caps neither count nor skip them) and go through quiet hours, it replaces the number’s active test run of the flow, and it counts in neither the steps’ `stats` nor the flow’s `runs`. As a campaign’s test, only to the members’ own numbers and the team’s test numbers unless an admin starts it. Left out: false, an ordinary run.',
      ),
  })
  .describe('Body of start a run.');
export type FlowRunInput = z.infer<typeof FlowRunInputSchema>;

export const FlowRunStepSchema = z
  .object({
    step_id: z.string(),
    type: z.enum(FLOW_STEP_TYPES),
    entered_at: TimestampSchema,
    done_at: TimestampSchema.describe('Empty while the run is at the step.'),
    outcome: z
      .string()
      .nullable()
      .describe(
        'What the step did: sent, waited, then, else, added, removed, webhook_called, ended; or why the run left it: opted_out, flow_disabled, step_removed, erased, replaced (a test run).',
      ),
  })
  .meta({ id: 'FlowRunStep' });

export const FlowRunSchema = z
  .object({
    uuid: UuidSchema,
    flow: z.object({ uuid: UuidSchema, name: z.string() }),
    phone_number: z.string(),
    state: z.enum(FLOW_RUN_STATES),
    exit_reason: z
      .string()
      .nullable()
      .describe(
        'Why an exited run ended: opted_out, flow_disabled, step_removed, erased (the contact was erased), or (a test run) replaced by a newer test run.',
      ),
    step_id: z.string().nullable().describe('The step the run is at (null before its first step and once it ended).'),
    next_due_at: TimestampSchema.describe('When the run next moves; empty once it ended.'),
    trigger: z.enum(FLOW_TRIGGER_TYPES).describe('What started it.'),
    test: z.boolean().describe('Herald extension: a test run (waits shortened, not counted in the flow’s stats and runs).'),
    started_at: TimestampSchema,
    ended_at: TimestampSchema,
    history: z.array(FlowRunStepSchema).describe('Each step the run entered, in order.'),
  })
  .meta({ id: 'FlowRun' });
export type FlowRun = z.infer<typeof FlowRunSchema>;

export const FlowRunListQuerySchema = z.object({
  state: z.enum(FLOW_RUN_STATES, { error: 'The state must be active, completed or exited.' }).optional().describe('Only runs in this state.'),
});

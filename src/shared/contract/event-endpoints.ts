import { z } from 'zod';
import { ResourceLinksSchema, TimestampSchema, UuidSchema } from './common';
import { httpUrl, optionalString } from './fields';
import { MASKED_HEADERS, WebhookHeadersSchema } from './webhooks';

/** What an event endpoint can receive (docs/events.md says what each carries). */
export const EVENT_TYPES = [
  'message.submitted',
  'message.delivered',
  'message.failed',
  'message.unsent',
  'message.failed_over',
  'campaign.started',
  'campaign.paused',
  'campaign.resumed',
  'campaign.stopped',
  'campaign.finished',
  'contact.opted_out',
  'contact.opted_in',
  'inbound.received',
  'import.finished',
  'report.ready',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** The type of the call `POST …/test` makes; never sent otherwise. */
export const TEST_EVENT_TYPE = 'event_endpoint.test';

export const EventTypeSchema = z.enum(EVENT_TYPES, { error: `An event type must be one of ${EVENT_TYPES.join(', ')}.` });

const EventListSchema = z
  .array(EventTypeSchema, { error: 'The events must be a list of event types.' })
  .min(1, 'Choose at least one event.')
  .refine((events) => new Set(events).size === events.length, 'The events may not repeat.')
  .describe('The event types sent to the endpoint.');

const descriptionField = optionalString('description', 255);

export const EventEndpointInputSchema = z
  .object({
    url: httpUrl('url').describe('Absolute http or https URL Herald POSTs the events to.'),
    events: EventListSchema,
    headers: WebhookHeadersSchema.default({}),
    enabled: z.boolean({ error: 'enabled must be true or false.' }).default(true),
    description: descriptionField.default('').describe('What the endpoint is for, as shown in the dashboard.'),
  })
  .describe('Body of create.');
export type EventEndpointInput = z.infer<typeof EventEndpointInputSchema>;

export const EventEndpointPatchSchema = z
  .object({
    url: httpUrl('url').optional(),
    events: EventListSchema.optional(),
    headers: WebhookHeadersSchema.optional(),
    enabled: z.boolean({ error: 'enabled must be true or false.' }).optional(),
    description: descriptionField.optional(),
  })
  .describe('Body of edit: any of the fields; the others keep their values. Enabling an endpoint clears why it was disabled.');
export type EventEndpointPatch = z.infer<typeof EventEndpointPatchSchema>;

export const EventEndpointSchema = z
  .object({
    uuid: UuidSchema,
    url: z.string(),
    description: z.string(),
    events: z.array(EventTypeSchema),
    headers: z.record(z.string(), z.string()).describe(MASKED_HEADERS),
    enabled: z.boolean(),
    failing_since: TimestampSchema.describe('When calls began to fail (empty while they succeed); after 24 hours of failures the endpoint is disabled.'),
    disabled_reason: z.string().nullable().describe('Why Herald disabled the endpoint; null when it did not.'),
    links: ResourceLinksSchema,
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  })
  .meta({ id: 'EventEndpoint', description: 'A URL the team’s events are pushed to.' });
export type EventEndpoint = z.infer<typeof EventEndpointSchema>;

export const EventEndpointWithSecretSchema = EventEndpointSchema.extend({
  secret: z
    .string()
    .describe('Signing secret (`whsec_…`, Standard Webhooks), shown only when created or rotated. After a rotation the old one also signs for 24 hours.'),
}).meta({ id: 'EventEndpointWithSecret' });

export const EventEndpointParamsSchema = z.object({ endpoint_uuid: z.uuid().describe('Identifier of the event endpoint.') });
export const EventDeliveryParamsSchema = EventEndpointParamsSchema.extend({ delivery_uuid: z.uuid().describe('Identifier of the delivery.') });

export const EVENT_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export const EventDeliveryListQuerySchema = z.object({
  status: z.enum(EVENT_DELIVERY_STATUSES, { error: 'The status must be pending, delivered or failed.' }).optional().describe('Only deliveries in this status.'),
});

export const EventDeliverySchema = z
  .object({
    uuid: UuidSchema.describe('Also the call’s `webhook-id`: the same on every attempt, so a receiver can drop repeats.'),
    type: z.string().describe('The event type (`event_endpoint.test` for a test).'),
    status: z.enum(EVENT_DELIVERY_STATUSES).describe('`pending` (on its way or to be retried), `delivered` (a 2xx answer) or `failed` (given up).'),
    item_count: z.number().int().describe('Messages in the call for message events; 1 otherwise.'),
    attempts: z.number().int(),
    last_status_code: z.number().int().nullable().describe('HTTP status of the last answer; null when there was none.'),
    last_error: z.string().nullable().describe('Why the last attempt failed; null when it succeeded or none was made.'),
    next_attempt_at: TimestampSchema.describe('When it is tried next (empty unless pending).'),
    created_at: TimestampSchema,
    finished_at: TimestampSchema.describe('When it was delivered or given up (empty while pending).'),
  })
  .meta({ id: 'EventDelivery', description: 'One call’s worth of events for an endpoint, and what became of it.' });
export type EventDelivery = z.infer<typeof EventDeliverySchema>;

export const EventDeliveryAttemptSchema = z
  .object({
    status_code: z.number().int().nullable().describe('HTTP status of the answer; null when there was none.'),
    latency_ms: z.number().int(),
    error: z.string().nullable().describe('Why the attempt failed; null on a 2xx answer.'),
    created_at: TimestampSchema,
  })
  .meta({ id: 'EventDeliveryAttempt' });
export type EventDeliveryAttempt = z.infer<typeof EventDeliveryAttemptSchema>;

export const EventDeliveryDetailSchema = EventDeliverySchema.extend({
  payload: z
    .object({ type: z.string(), timestamp: z.string(), data: z.record(z.string(), z.unknown()) })
    .describe('The body POSTed (before signing): the event type, when it happened (RFC 3339, UTC) and its data.'),
  attempt_log: z.array(EventDeliveryAttemptSchema).describe('Every attempt, oldest first.'),
}).meta({ id: 'EventDeliveryDetail' });
export type EventDeliveryDetail = z.infer<typeof EventDeliveryDetailSchema>;

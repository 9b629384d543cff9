import { z } from 'zod';
import { TEST_EVENT_TYPE, type EventType } from './event-endpoints';
import { REPORT_TYPES, DELIVERY_STATUSES, UNSENT_REASONS } from './reports';

/*
 * The bodies Herald POSTs to event endpoints (docs/events.md): one schema per event type, the envelope
 * `{type, timestamp, data}` with that type's `data`. They are the truth about what a call carries: the
 * triggers of the database write the events (migrations 0034 and 0041), event-endpoints.test.ts parses
 * every body its receivers get with `EventPayloadSchema`, and the OpenAPI document publishes each as a webhook
 * (http/openapi.ts). Every object is strict: a field the schema does not name is an error, as is one
 * it names and the body lacks.
 */

/** Times in events: RFC 3339 in UTC with milliseconds, machine to machine (not the API's local form). */
const EventTimeSchema = z.iso.datetime({ precision: 3 }).describe('RFC 3339 in UTC, with milliseconds (`2026-06-01T09:06:00.000Z`).');
const uuid = (what: string) => z.uuid().describe(what);
const count = (what: string) => z.int().min(0).describe(what);

const EventCampaignRefSchema = z
  .strictObject({ uuid: uuid('Identifier of the campaign.'), name: z.string() })
  .meta({ id: 'EventCampaignRef', description: 'A campaign, by identifier and name.' });

// Messages -------------------------------------------------------------------------------------

/** The states a message event reports: `message.<status>`. */
type MessageStatus = 'submitted' | 'delivered' | 'failed' | 'unsent';

const messageOf = <S extends MessageStatus>(status: S) =>
  z.strictObject({
    uuid: uuid('Identifier of the message.'),
    phone_number: z.string().describe('The recipient: E.164 digits without `+`.'),
    status: z.literal(status),
    reason: z
      .string()
      .nullable()
      .describe(
        'Why it failed or was not sent: the gateway’s reason, `Expired`, `in_doubt` (handed over when a process died); for unsent `opted_out`, `pending` (expired), `stopped`, `quiet_hours`, `local_time` or `frequency_cap`. Null when there is none.',
      ),
    at: EventTimeSchema.describe('When it took this status: handed over (submitted), or its receipt or end (the others). RFC 3339, UTC.'),
  });

const messageEventData = <S extends MessageStatus>(status: S) =>
  z.strictObject({
    campaign: EventCampaignRefSchema,
    messages: z.array(messageOf(status)).min(1).describe('Up to `EVENT_BATCH_SIZE` (100) messages of the campaign, all of this status.'),
  });

/** A failover: a message left one of the team's SMS connections for the next one of its route. */
const FailoverConnectionSchema = z.strictObject({ uuid: uuid('Identifier of the SMS connection.'), name: z.string() });
const FailedOverEventDataSchema = z.strictObject({
  campaign: EventCampaignRefSchema,
  messages: z
    .array(
      z.strictObject({
        uuid: uuid('Identifier of the message.'),
        phone_number: z.string().describe('The recipient: E.164 digits without `+`.'),
        from_connection: FailoverConnectionSchema.describe('The connection that refused it for a transient or account error.'),
        to_connection: FailoverConnectionSchema.nullable().describe(
          'The next connection of its route, where it goes now; null when none is left (it waits for the next round).',
        ),
        reason: z.string().describe('The provider’s error, `code: message` (e.g. `503: Service Unavailable`, `20429: Too Many Requests`).'),
        at: EventTimeSchema.describe('When it failed over. RFC 3339, UTC.'),
      }),
    )
    .min(1)
    .describe('Up to `EVENT_BATCH_SIZE` (100) failovers of messages of the campaign.'),
});

// Campaigns ------------------------------------------------------------------------------------

const campaignEventData = <S extends z.ZodType<number>>(status: S) =>
  z.strictObject({
    campaign: z.strictObject({
      uuid: uuid('Identifier of the campaign.'),
      name: z.string(),
      status: status.describe('0 pending, 1 sending, 2 sent.'),
      recipients: count('The campaign’s recipients: its messages, or, of a large audience still being written beside the sending, the audience’s count.'),
      submitted: count('Messages handed to the gateway and awaiting a receipt.'),
      delivered: count('Messages delivered.'),
      failed: count('Messages that failed.'),
      unsent: count('Messages never sent.'),
    }),
  });
const ANY_CAMPAIGN_STATUS = z.literal([0, 1, 2]);

// Opt-outs, inbound messages, imports, reports ---------------------------------------------------

const OptOutEventDataSchema = z.strictObject({
  phone_number: z.string().describe('E.164 digits without `+`.'),
  source: z
    .enum(['keyword', 'import', 'dashboard', 'api', 'provider'])
    .describe(
      '`keyword`: the handset texted STOP (or a synonym), START or UNSTOP; `import`: a CSV import into default_optouts; `dashboard` or `api`: by hand; `provider`: an SMS provider reported the recipient opted out there (a status callback).',
    ),
  reason: z.string().nullable().describe('Why a number was taken out of default_optouts by hand, when given.'),
  campaign: EventCampaignRefSchema.nullable().describe('For an opt-out, the team’s campaign whose message last went to the number; null when none did.'),
  at: EventTimeSchema,
});

const InboundEventDataSchema = z.strictObject({
  inbound_message: z.strictObject({
    uuid: uuid('Identifier of the inbound message.'),
    from: z.string().describe('The sender’s number.'),
    body: z.string(),
    keyword: z.string().nullable().describe('The keyword it matched; null when it matched none.'),
    opted_out: z.boolean().describe('Whether it opted the sender out.'),
    received_at: EventTimeSchema,
  }),
});

const ImportEventDataSchema = z.strictObject({
  import: z.strictObject({
    uuid: uuid('Identifier of the import.'),
    status: z.enum(['completed', 'failed']),
    file_name: z.string().nullable(),
    contact_group: z.strictObject({ uuid: uuid('Identifier of the contact group.'), name: z.string() }),
    rows_total: count('Rows read.'),
    rows_valid: count('Rows with a valid number.'),
    rows_invalid: count('Rows refused.'),
    contacts_added: count('Contacts added to the group.'),
    contacts_updated: count('Contacts whose fields changed.'),
    contacts_unchanged: count('Contacts already there as they were.'),
    contacts_opted_out: count('Numbers of the file in the team’s default_optouts: imported like the others, left out of campaigns while they stay opted out.'),
    error: z.string().nullable().describe('Why it failed; null when it completed.'),
    finished_at: EventTimeSchema,
  }),
});

const ReportEventDataSchema = z.strictObject({
  report_job: z.strictObject({
    uuid: uuid('Identifier of the report job.'),
    type: z.enum(REPORT_TYPES),
    filters: z
      .strictObject({ status: z.enum(DELIVERY_STATUSES).optional(), reason: z.enum(UNSENT_REASONS).optional(), search: z.string().optional() })
      .describe('The filters it was asked with; `{}`: the whole report.'),
    row_count: count('Rows in the CSV.'),
    campaign: EventCampaignRefSchema,
    link_expires_at: EventTimeSchema.describe('When `download_url` stops working. RFC 3339, UTC.'),
    download_url: z.string().describe('The signed link to the CSV: no token needed.'),
  }),
});

const TestEventDataSchema = z.strictObject({
  endpoint: z.strictObject({ uuid: uuid('Identifier of the event endpoint.'), url: z.string() }),
  message: z.string(),
});

// The envelopes --------------------------------------------------------------------------------

/** When each type's call is made, in a few words (the summary of its webhook in the OpenAPI document). */
export const EVENT_SUMMARIES: Record<string, string> = {};

const envelopeOf = <T extends string, D extends z.ZodObject>(type: T, data: D, id: string, summary: string) => {
  EVENT_SUMMARIES[type] = summary;
  return z
    .strictObject({ type: z.literal(type), timestamp: EventTimeSchema.describe('When the event happened. RFC 3339, UTC.'), data })
    .meta({ id, description: `The body of a \`${type}\` call: ${summary.charAt(0).toLowerCase()}${summary.slice(1)}.` });
};

export const MessageSubmittedEventSchema = envelopeOf(
  'message.submitted',
  messageEventData('submitted'),
  'MessageSubmittedEvent',
  'Messages handed to the SMS gateway',
);
export const MessageDeliveredEventSchema = envelopeOf(
  'message.delivered',
  messageEventData('delivered'),
  'MessageDeliveredEvent',
  'Delivery receipts of messages',
);
export const MessageFailedEventSchema = envelopeOf(
  'message.failed',
  messageEventData('failed'),
  'MessageFailedEvent',
  'Messages refused by the gateway, failed by their receipt, or in doubt after a crash',
);
export const MessageUnsentEventSchema = envelopeOf(
  'message.unsent',
  messageEventData('unsent'),
  'MessageUnsentEvent',
  'Messages never sent: opted out, expired, stopped, or in quiet hours until the expiry',
);
export const MessageFailedOverEventSchema = envelopeOf(
  'message.failed_over',
  FailedOverEventDataSchema,
  'MessageFailedOverEvent',
  'Messages that left one of the team’s SMS connections for the next one of their route, after a transient or account error',
);
export const CampaignStartedEventSchema = envelopeOf('campaign.started', campaignEventData(z.literal(1)), 'CampaignStartedEvent', 'A campaign begins sending');
export const CampaignPausedEventSchema = envelopeOf(
  'campaign.paused',
  campaignEventData(ANY_CAMPAIGN_STATUS),
  'CampaignPausedEvent',
  'A person pauses a throttled campaign',
);
export const CampaignResumedEventSchema = envelopeOf(
  'campaign.resumed',
  campaignEventData(ANY_CAMPAIGN_STATUS),
  'CampaignResumedEvent',
  'A person resumes a throttled campaign',
);
export const CampaignStoppedEventSchema = envelopeOf(
  'campaign.stopped',
  campaignEventData(ANY_CAMPAIGN_STATUS),
  'CampaignStoppedEvent',
  'A person stops a campaign: the rest will not be sent',
);
export const CampaignFinishedEventSchema = envelopeOf(
  'campaign.finished',
  campaignEventData(z.literal(2)),
  'CampaignFinishedEvent',
  'Nothing more of a campaign will go (status 2): its final counts',
);
export const ContactOptedOutEventSchema = envelopeOf('contact.opted_out', OptOutEventDataSchema, 'ContactOptedOutEvent', 'A number opts out');
export const ContactOptedInEventSchema = envelopeOf('contact.opted_in', OptOutEventDataSchema, 'ContactOptedInEvent', 'A number opts back in');
export const InboundReceivedEventSchema = envelopeOf(
  'inbound.received',
  InboundEventDataSchema,
  'InboundReceivedEvent',
  'A message to one of the team’s keywords or numbers',
);
export const ImportFinishedEventSchema = envelopeOf('import.finished', ImportEventDataSchema, 'ImportFinishedEvent', 'A contact import completed or failed');
export const ReportReadyEventSchema = envelopeOf(
  'report.ready',
  ReportEventDataSchema,
  'ReportReadyEvent',
  'A report’s CSV is written (its e-mail may still be on the way)',
);
/** The call `POST /event-endpoints/{endpoint_uuid}/test` makes: at once, never retried, never sent otherwise. */
export const EventEndpointTestEventSchema = envelopeOf(
  TEST_EVENT_TYPE,
  TestEventDataSchema,
  'EventEndpointTestEvent',
  'A test call, made when an admin asks for one (`POST /event-endpoints/{endpoint_uuid}/test`) and never otherwise',
);

/** Each event type's body, by type (the test call's too). */
export const EVENT_SCHEMAS = {
  'message.submitted': MessageSubmittedEventSchema,
  'message.delivered': MessageDeliveredEventSchema,
  'message.failed': MessageFailedEventSchema,
  'message.unsent': MessageUnsentEventSchema,
  'message.failed_over': MessageFailedOverEventSchema,
  'campaign.started': CampaignStartedEventSchema,
  'campaign.paused': CampaignPausedEventSchema,
  'campaign.resumed': CampaignResumedEventSchema,
  'campaign.stopped': CampaignStoppedEventSchema,
  'campaign.finished': CampaignFinishedEventSchema,
  'contact.opted_out': ContactOptedOutEventSchema,
  'contact.opted_in': ContactOptedInEventSchema,
  'inbound.received': InboundReceivedEventSchema,
  'import.finished': ImportFinishedEventSchema,
  'report.ready': ReportReadyEventSchema,
  [TEST_EVENT_TYPE]: EventEndpointTestEventSchema,
} as const satisfies { [T in EventType | typeof TEST_EVENT_TYPE]: z.ZodObject<{ type: z.ZodLiteral<T>; timestamp: z.ZodType; data: z.ZodObject }> };

/** Any body an event endpoint receives, told apart by `type`. */
export const EventPayloadSchema = z.discriminatedUnion('type', [
  MessageSubmittedEventSchema,
  MessageDeliveredEventSchema,
  MessageFailedEventSchema,
  MessageUnsentEventSchema,
  MessageFailedOverEventSchema,
  CampaignStartedEventSchema,
  CampaignPausedEventSchema,
  CampaignResumedEventSchema,
  CampaignStoppedEventSchema,
  CampaignFinishedEventSchema,
  ContactOptedOutEventSchema,
  ContactOptedInEventSchema,
  InboundReceivedEventSchema,
  ImportFinishedEventSchema,
  ReportReadyEventSchema,
  EventEndpointTestEventSchema,
]);
export type EventPayload = z.infer<typeof EventPayloadSchema>;
export type EventPayloadOf<T extends EventPayload['type']> = Extract<EventPayload, { type: T }>;

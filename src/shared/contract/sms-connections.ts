import { z } from 'zod';
import { ResourceLinksSchema, TimestampSchema, UuidSchema } from './common';
import { isStorableText, requiredString, typeError, unstorableMessage } from './fields';
import { PHONE_COUNTRIES } from '../phone/phone-countries';

/** What a connection sends through (issue 34): six HTTP providers, an SMPP bind, or the simulator. */
export const SMS_CONNECTION_PROVIDERS = ['twilio', 'vonage', 'infobip', 'plivo', 'telnyx', 'sinch', 'smpp', 'simulator'] as const;
export type SmsConnectionProvider = (typeof SMS_CONNECTION_PROVIDERS)[number];

/**
 * The credential fields of each provider, by the contract's names (the HTTP adapters' own
 * `credentialFields`; a test keeps the two the same). All of them are required: the secrets that only
 * verify callbacks (`signature_secret`, `public_key`, `webhook_secret`) are what refuse forged ones.
 */
export const SMS_CONNECTION_CREDENTIALS: Record<SmsConnectionProvider, readonly string[]> = {
  twilio: ['account_sid', 'auth_token'],
  vonage: ['api_key', 'api_secret', 'signature_secret'],
  infobip: ['api_key'],
  plivo: ['auth_id', 'auth_token'],
  telnyx: ['api_key', 'public_key'],
  sinch: ['service_plan_id', 'api_token', 'webhook_secret'],
  smpp: ['url'],
  simulator: [],
};

export const SMS_CONNECTION_MAX_SENDERS = 100;

const ProviderSchema = z
  .enum(SMS_CONNECTION_PROVIDERS, { error: `The provider must be one of ${SMS_CONNECTION_PROVIDERS.join(', ')}.` })
  .describe('Where the connection sends: an HTTP provider, an SMPP bind (`smpp`) or the simulator.');

/** `scheme://host[:port]`: Herald appends each provider's documented path itself, so a path, query or credentials would be lost or leak. */
export const BaseUrlSchema = z
  .string({ error: typeError('base url', 'a string') })
  .trim()
  .max(255, 'The base url may not be greater than 255 characters.')
  .refine(isStorableText, unstorableMessage('base url'))
  .refine((value) => {
    if (value === '') return true;
    const match = /^(https?):\/\/([^/?#@\s]+)\/?$/i.exec(value);
    if (!match) return false;
    try {
      const url = new URL(value);
      return url.hostname.length > 0 && url.username === '' && url.password === '';
    } catch {
      return false;
    }
  }, 'The base url must be scheme://host[:port] only (http or https), with no path, query or credentials.')
  .describe("`scheme://host[:port]` of the provider's API; empty or left out: the provider's public API host.");

const SENDER_NUMBER = /^\+?[0-9]{3,15}$/;
const SENDER_ID = /^[A-Za-z0-9 .\-_&]{3,11}$/;

/** Whether `value` may be a connection's sender: a number (3 to 15 digits, optionally after +) or an alphanumeric ID (3 to 11 characters). */
export const isConnectionSender = (value: string): boolean => SENDER_NUMBER.test(value) || SENDER_ID.test(value);
const SENDER_RULE = 'a number (3 to 15 digits, optionally after +) or an ID of 3 to 11 letters, digits, spaces and . - _ &.';

/** One sender of a connection (and a route's sender, which must be one of its connections'). */
export const connectionSenderSchema = (label: string, must: string) =>
  z
    .string({ error: typeError(label, 'a string') })
    .trim()
    .refine(isConnectionSender, `${must} ${SENDER_RULE}`);

const SendersSchema = z
  .array(connectionSenderSchema('sender', 'Each sender must be'), { error: typeError('senders', 'a list') })
  .max(SMS_CONNECTION_MAX_SENDERS, `The senders may not have more than ${SMS_CONNECTION_MAX_SENDERS} items.`)
  .refine((senders) => new Set(senders).size === senders.length, 'The senders may not repeat.')
  .describe('The numbers or alphanumeric IDs the account may send from; the first is the default.');

const MaxPerSecondSchema = z
  .number({ error: typeError('max per second', 'an integer') })
  .int('The max per second must be an integer.')
  .min(1, 'The max per second must be at least 1.')
  .max(10_000, 'The max per second may not be greater than 10000.')
  .describe('At most this many messages a second through this connection (alongside SMS_RATE_LIMIT).');

const CredentialsSchema = z
  .record(
    z.string(),
    z
      .string({ error: 'Every credential must be a string.' })
      .max(4096, 'A credential may not be greater than 4096 characters.')
      .refine(isStorableText, 'A credential contains characters that cannot be stored.'),
    { error: 'The credentials must be an object of field names to values.' },
  )
  .describe(
    "The provider's credentials, by field name: twilio `account_sid`, `auth_token`; vonage `api_key`, `api_secret`, `signature_secret`; infobip `api_key`; plivo `auth_id`, `auth_token`; telnyx `api_key`, `public_key` (base64 Ed25519); sinch `service_plan_id`, `api_token`, `webhook_secret`; smpp `url` (`smpp://user:pass@host:port`, as SMS_GATEWAY); simulator none. Written, never read back.",
  );

const COUNTRY_CODES: ReadonlySet<string> = new Set(PHONE_COUNTRIES);
const PRICE_DECIMALS = 100_000;

/**
 * A connection's price for one SMS part by the recipient's country (`{"GB": 0.035, "*": 0.05}`),
 * with the team price's bounds: 0 to 1000, at most 5 decimals. A country left out (and no `*`) costs
 * the team price.
 */
export const PricePerSegmentSchema = z
  .record(
    z.string(),
    z
      .number({ error: 'Each price must be a number.' })
      .min(0, 'Each price must be at least 0.')
      .max(1000, 'A price may not be greater than 1000.')
      .refine((price) => Math.abs(Math.round(price * PRICE_DECIMALS) - price * PRICE_DECIMALS) < 1e-6, 'A price may have at most 5 decimals.'),
    { error: 'The price per segment must be an object of countries to prices, or null.' },
  )
  .superRefine((prices, context) => {
    for (const country of Object.keys(prices))
      if (country !== '*' && !COUNTRY_CODES.has(country))
        context.addIssue({
          code: 'custom',
          path: [country],
          message: `${JSON.stringify(country)} is not a country: use an ISO 3166 alpha-2 code in capitals (GB) or * for any.`,
        });
  })
  .nullable()
  .describe(
    'The price of one SMS part through this connection, by the recipient\'s country (ISO 3166 alpha-2, or `*` for any other): `{"GB": 0.035, "*": 0.05}`, in the team\'s currency. A country it does not price (or null) costs the team\'s `price_per_segment`. For the campaign review\'s estimate only.',
  );

export const SmsConnectionInputSchema = z
  .object({
    name: requiredString('name', 255),
    provider: ProviderSchema,
    base_url: BaseUrlSchema.optional(),
    credentials: CredentialsSchema.default({}),
    senders: SendersSchema.default([]),
    max_per_second: MaxPerSecondSchema.default(10),
    enabled: z.boolean({ error: typeError('enabled', 'true or false') }).default(true),
    price_per_segment: PricePerSegmentSchema.default(null),
  })
  .describe('Body of create. Every credential field of the provider is required.');
export type SmsConnectionInput = z.infer<typeof SmsConnectionInputSchema>;

export const SmsConnectionPatchSchema = z
  .object({
    name: requiredString('name', 255).optional(),
    base_url: BaseUrlSchema.optional(),
    credentials: CredentialsSchema.optional(),
    senders: SendersSchema.optional(),
    max_per_second: MaxPerSecondSchema.optional(),
    enabled: z.boolean({ error: typeError('enabled', 'true or false') }).optional(),
    price_per_segment: PricePerSegmentSchema.optional(),
  })
  .describe(
    'Body of edit: any of the fields; the others keep their values. `credentials` left out keeps them; the fields given replace theirs and the others are kept. The provider cannot change (make another connection).',
  );
export type SmsConnectionPatch = z.infer<typeof SmsConnectionPatchSchema>;

export const SMS_CONNECTION_CIRCUITS = ['closed', 'open', 'half_open'] as const;
export type SmsConnectionCircuit = (typeof SMS_CONNECTION_CIRCUITS)[number];

const OptionalTimestampSchema = z.string().nullable().describe('`YYYY-MM-DD HH:MM:SS` in the service time zone (APP_TIMEZONE); null when not set.');

export const SmsConnectionStateSchema = z
  .object({
    circuit: z
      .enum(SMS_CONNECTION_CIRCUITS)
      .describe(
        '`closed`: messages go through it; `open`: backed off after repeated failures, skipped until `open_until`; `half_open`: being probed again. `closed` when it has carried nothing yet.',
      ),
    open_until: OptionalTimestampSchema.describe('While open: when it will be probed again; otherwise null.'),
    last_error: z.string().nullable().describe('The last error the provider answered (or the failure to reach it), null when none.'),
    last_error_at: OptionalTimestampSchema.describe('When `last_error` happened, null when none.'),
    messages_today: z.number().int().describe('Messages sent through it today (UTC day).'),
    errors_today: z.number().int().describe('Sends that failed through it today (UTC day).'),
    failovers_today: z.number().int().describe('Messages that left it for the next connection of their route today (UTC day).'),
  })
  .meta({ id: 'SmsConnectionState', description: "What the router knows of a connection (read only): its circuit breaker and today's counts." });
export type SmsConnectionState = z.infer<typeof SmsConnectionStateSchema>;

export const SmsConnectionSchema = z
  .object({
    uuid: UuidSchema,
    name: z.string(),
    provider: ProviderSchema,
    base_url: z.string().describe("`scheme://host[:port]` Herald calls: the one set, else the provider's public API host (empty for smpp and simulator)."),
    credentials: z
      .record(z.string(), z.string())
      .describe('Each credential field with a masked hint only: `********` followed by its last 4 characters when it has 12 or more, else `********`.'),
    senders: z.array(z.string()),
    max_per_second: z.number().int(),
    enabled: z.boolean(),
    price_per_segment: z
      .record(z.string(), z.number())
      .nullable()
      .describe("The price of one SMS part by country (`*`: any other); null, or a country left out: the team's price."),
    status_callback_url: z
      .string()
      .describe(
        "Where the provider posts delivery statuses: PUBLIC_URL + `/api/2.0/sms-connections/{uuid}/status`. Herald passes it on every send where the provider takes one; paste it in the provider's console where it asks for a default. Each callback's signature is checked with the connection's credentials (a forged one is refused with 403). For Infobip, which signs nothing, it carries a secret `token` derived from the API key: keep the whole URL.",
      ),
    inbound_url: z
      .string()
      .describe(
        "Where the provider posts messages from handsets (paste it in its console for the connection's numbers): PUBLIC_URL + `/api/2.0/sms-connections/{uuid}/inbound`. A message there is the connection's team's: STOP opts the number out in that team. For Infobip it carries a secret `token`, as the status URL does.",
      ),
    state: SmsConnectionStateSchema,
    links: ResourceLinksSchema,
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  })
  .meta({ id: 'SmsConnection', description: "A team's account at an SMS provider (docs/providers.md, Connections)." });
export type SmsConnection = z.infer<typeof SmsConnectionSchema>;

export const SmsConnectionParamsSchema = z.object({ connection_uuid: z.uuid().describe('Identifier of the connection.') });

export const SmsConnectionTestInputSchema = z
  .object({
    phone_number: z
      .string({ error: typeError('phone number', 'a string') })
      .trim()
      .regex(/^\+?[0-9]{3,20}$/, 'The phone number must be digits, optionally after +.')
      .describe('Where to send the test message, in international form (`+447700900123`); the provider judges whether it can reach it.'),
  })
  .describe('Body of a test send.');
export type SmsConnectionTestInput = z.infer<typeof SmsConnectionTestInputSchema>;

export const SmsConnectionTestResultSchema = z
  .object({ provider_message_id: z.string().describe("The provider's id of the message it took.") })
  .meta({ id: 'SmsConnectionTestResult' });
export type SmsConnectionTestResult = z.infer<typeof SmsConnectionTestResultSchema>;

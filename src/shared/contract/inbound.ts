import { z } from 'zod';
import { TimestampSchema, UuidSchema } from './common';
import { isStorableText, unstorableMessage } from './fields';

export const InboundMessageInputSchema = z
  .object({
    from: z
      .string({ error: (i) => (i.input === undefined ? 'The from field is required.' : 'The from must be a string.') })
      .max(32, 'The from may not be greater than 32 characters.')
      .describe('Number the message came from.'),
    body: z
      .string({ error: (i) => (i.input === undefined ? 'The body field is required.' : 'The body must be a string.') })
      .min(1, 'The body field is required.')
      .max(1600, 'The body may not be greater than 1600 characters.')
      .refine(isStorableText, unstorableMessage('body'))
      .describe('Text of the message.'),
  })
  .describe("A message to run through the team's keywords as if it had arrived (the keyword tester).");

export const InboundActionSchema = z
  .object({
    type: z
      .enum(['opted_out', 'opted_in', 'added_to_group', 'webhook_called', 'reply_queued', 'opt_in_requested', 'opt_in_confirmed'])
      .describe(
        '`opted_in`: START or UNSTOP took the number out of default_optouts (ok false: it was not opted out, nothing changed). `opt_in_requested`: under double opt-in, a keyword sign-up from a number without consent joined nothing and the number was asked to reply YES. `opt_in_confirmed`: a YES confirmed the pending request (ok false: it had expired meanwhile).',
      ),
    description: z.string().describe('What happened, in a sentence.'),
    ok: z
      .boolean()
      .describe(
        'False when the action failed or did not happen (e.g. the webhook did not answer 2xx, an opted-out number was not added to a group, START from a number that was not opted out).',
      ),
    group_uuid: z.string().optional(),
    webhook_uuid: z.string().optional(),
    status_code: z.number().int().nullable().optional(),
    error: z.string().nullable().optional(),
  })
  .meta({ id: 'InboundAction' });
export type InboundAction = z.infer<typeof InboundActionSchema>;

export const InboundMessageSchema = z
  .object({
    uuid: UuidSchema,
    from: z.string().describe('E.164 digits without `+` when the number could be read.'),
    body: z.string(),
    source: z.enum(['gateway', 'api']).describe('`gateway`: received from the SMS gateway; `api`: injected with POST.'),
    keyword: z.object({ uuid: z.string().nullable(), keyword: z.string() }).nullable().describe('The keyword matched, if any.'),
    opted_out: z
      .boolean()
      .describe(
        'The message was an opt-out (it starts with STOP, STOPALL, UNSUBSCRIBE, CANCEL, END or QUIT), whether or not the number was already opted out.',
      ),
    actions: z.array(InboundActionSchema).describe('Everything the keyword pipeline did, in order.'),
    received_at: TimestampSchema,
  })
  .meta({ id: 'InboundMessage' });
export type InboundMessage = z.infer<typeof InboundMessageSchema>;

export const WebhookAttemptSchema = z
  .object({
    uuid: UuidSchema,
    event: z.string().describe('`keyword.received` or `webhook.test`.'),
    url: z.string(),
    status_code: z.number().int().nullable().describe('HTTP status of the answer; null when there was none.'),
    latency_ms: z.number().int(),
    error: z.string().nullable().describe('Why the call did not succeed; null on a 2xx answer.'),
    inbound_message_uuid: z.string().nullable(),
    created_at: TimestampSchema,
  })
  .meta({ id: 'WebhookAttempt' });
export type WebhookAttempt = z.infer<typeof WebhookAttemptSchema>;

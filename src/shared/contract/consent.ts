import { z } from 'zod';
import { TimestampSchema, UuidSchema } from './common';

/** Where a number's consent came from (issue 36's list). */
export const CONSENT_SOURCE_NAMES = ['keyword', 'form', 'import', 'api', 'checkout', 'dashboard'] as const;

export const ConsentRecordSchema = z
  .object({
    uuid: UuidSchema,
    source: z
      .enum(CONSENT_SOURCE_NAMES)
      .describe(
        '`keyword`: the number texted a keyword that added it to a group (under double opt-in: and replied YES); `form`: the hosted sign-up page; `import`: a file whose consent column said yes; `api`: added to a group with an API token; `checkout`: a shop order that accepted SMS marketing; `dashboard`: added to a group by a member.',
      ),
    at: TimestampSchema.describe('When the number agreed (under double opt-in: when it replied YES).'),
    text_shown: z
      .string()
      .describe(
        'What the team showed the number when it agreed (a keyword reply, the double opt-in request, the form’s consent text); empty when Herald showed nothing.',
      ),
    evidence: z
      .record(z.string(), z.unknown())
      .describe(
        'What proves it, only the keys that apply: `inbound_message_uuid` and `keyword_uuid` (a keyword), `confirmation_message_uuid` and `opt_in_request_uuid` (the YES of a double opt-in), `ip` and `user_agent` (a form), `import_uuid`, `file_name` and `row` (an import), `token_uuid` (an API token), `user_uuid` (a member), `order_id` (a checkout).',
      ),
  })
  .meta({ id: 'ConsentRecord' });
export type ConsentRecord = z.infer<typeof ConsentRecordSchema>;

export const OptInRequestStateSchema = z
  .object({
    state: z
      .enum(['pending', 'confirmed', 'expired'])
      .describe('pending: waiting for YES; confirmed: the number replied YES in time; expired: no YES within 48 hours, or STOP.'),
    source: z.enum(CONSENT_SOURCE_NAMES).describe('What asked: a keyword, or the sign-up page (`form`).'),
    requested_at: TimestampSchema.describe('When the number was last asked to reply YES (a second sign-up renews the request).'),
    expires_at: TimestampSchema.describe('When a pending request expires.'),
    decided_at: TimestampSchema.describe('When it was confirmed or expired; an empty string while pending.'),
  })
  .meta({
    id: 'OptInRequestState',
    description: "Herald extension. The number's latest double opt-in request (docs/consent.md).",
  });
export type OptInRequestState = z.infer<typeof OptInRequestStateSchema>;

import { z } from 'zod';
import { TimestampSchema, UuidSchema } from './common';
import { optionalString } from './fields';
import { timestampField } from './campaigns';

export const AuditChangeSchema = z
  .object({
    before: z.unknown().optional().describe('The value before; absent for a new resource. Long values read `(not shown)`.'),
    after: z.unknown().optional().describe('The value after; absent for a removed resource.'),
  })
  .meta({ id: 'AuditChange' });

export const AuditEventSchema = z
  .object({
    uuid: UuidSchema,
    created_at: TimestampSchema,
    actor: z
      .object({
        kind: z
          .enum(['user', 'token', 'anonymous'])
          .describe('`user`: a dashboard sign-in; `token`: an API token; `anonymous`: no one signed in (a failed sign-in).'),
        uuid: UuidSchema.nullable().describe("The user's identifier (a token's owner); null when anonymous."),
        name: z.string().describe("The user's name, the API token's name, or the address a failed sign-in gave."),
      })
      .meta({ id: 'AuditActor' }),
    action: z
      .string()
      .describe(
        'The operationId of the request (e.g. `updateCampaign`, `approveCampaign`, `createToken`), `login` or `loginFailed`; a refused edit (423) ends in `.refused`.',
      ),
    resource_type: z.string().describe('`campaign`, `template`, `member`, …; empty when none.'),
    resource_uuid: z.string().describe('The resource changed; empty when none.'),
    changes: z.record(z.string(), AuditChangeSchema).describe('The fields that changed, each with its value before and after (secrets are never recorded).'),
    ip: z.string().describe('The client address (behind a proxy: as TRUST_PROXY allows).'),
  })
  .meta({ id: 'AuditEvent' });
export type AuditEvent = z.infer<typeof AuditEventSchema>;

export const AuditQuerySchema = z.object({
  // A NUL or half an emoji cannot be compared in PostgreSQL: refused before the CSV's first line, not a stream cut off.
  actor: optionalString('actor', 200).optional().describe("A user's uuid, or part of an actor's name."),
  action: optionalString('action', 100).optional().describe('One action, exactly.'),
  resource_uuid: z.uuid('The resource uuid must be a valid UUID.').optional().describe('Events of one resource.'),
  from: timestampField('from').optional().describe('Events at or after this moment, `YYYY-MM-DD HH:MM:SS` in the service time zone.'),
  to: timestampField('to').optional().describe('Events before this moment.'),
});
export type AuditQuery = z.infer<typeof AuditQuerySchema>;

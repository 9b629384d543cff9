import { z } from 'zod';
import { TimestampSchema } from './common';

export const OptOutEventSchema = z
  .object({
    phone_number: z.string().describe('E.164 digits without `+`.'),
    kind: z.enum(['opt_out', 'opt_in']).describe('`opt_out`: the number entered default_optouts; `opt_in`: it left it.'),
    source: z
      .enum(['keyword', 'import', 'dashboard', 'api', 'provider'])
      .describe(
        '`keyword`: the handset texted STOP (or a synonym), START or UNSTOP; `import`: a CSV import into default_optouts; `dashboard` or `api`: by hand; `provider`: an SMS provider reported the recipient opted out there (a status callback).',
      ),
    campaign: z
      .object({ uuid: z.string(), name: z.string() })
      .nullable()
      .describe("For an opt-out: the team's campaign whose message last went to the number before it; null when none did (or for an opt-in)."),
    user: z.object({ uuid: z.string(), name: z.string() }).nullable().describe('Who made the change by hand or imported the file; null for a keyword.'),
    reason: z.string().nullable().describe('Why a number was taken out of default_optouts by hand, when given.'),
    created_at: TimestampSchema,
  })
  .meta({ id: 'OptOutEvent' });
export type OptOutEvent = z.infer<typeof OptOutEventSchema>;

export const OptOutEventQuerySchema = z.object({
  phone_number: z
    .string({ error: 'The phone number must be a string.' })
    .max(32, 'The phone number may not be greater than 32 characters.')
    .optional()
    .describe("One number's history (international, or national in DEFAULT_COUNTRY)."),
});

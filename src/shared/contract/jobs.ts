import { z } from 'zod';
import { TimestampSchema, UuidSchema } from './common';

/**
 * The team's queues of background work (Herald extension): report jobs, event deliveries and keyword
 * replies. Account e-mails are the installation's, not a team's: the metric `herald_jobs` counts them.
 */
export const JOB_QUEUES = ['report', 'event_delivery', 'reply'] as const;
export const JOB_STATES = ['queued', 'running', 'failed'] as const;

export const JobListQuerySchema = z.object({
  queue: z.enum(JOB_QUEUES, { error: 'The queue must be report, event_delivery or reply.' }).optional().describe('Only jobs of this queue.'),
  state: z.enum(JOB_STATES, { error: 'The state must be queued, running or failed.' }).optional().describe('Only jobs in this state.'),
});
export type JobListQuery = z.infer<typeof JobListQuerySchema>;

export const JobSchema = z
  .object({
    queue: z
      .enum(JOB_QUEUES)
      .describe('`report` (a report asked for by e-mail), `event_delivery` (a call to an event endpoint) or `reply` (a keyword reply the engine sends).'),
    uuid: UuidSchema.describe('The report job, event delivery or reply.'),
    state: z
      .enum(JOB_STATES)
      .describe(
        '`queued` (waiting to run, or for its retry), `running` (a worker holds it now) or `failed` (given up; failed event deliveries are kept 30 days).',
      ),
    attempts: z.number().int().describe('Attempts made so far (0 for a reply, which is not retried).'),
    last_error: z.string().nullable().describe('Why the last attempt failed; null when none did.'),
    next_attempt_at: TimestampSchema.describe('When a queued job is tried next (empty unless queued).'),
    created_at: TimestampSchema,
  })
  .meta({ id: 'Job', description: 'A piece of background work of the team, not yet done or given up.' });
export type Job = z.infer<typeof JobSchema>;

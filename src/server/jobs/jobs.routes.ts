import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorsOf, JobListQuerySchema, JobSchema, PageQuerySchema, pageOf, type Job } from '../../shared/contract';
import type { Db } from '../db/client';
import { callerOf } from '../http/auth';
import { pageEnvelope, pageWindow } from '../http/pagination';
import { formatTimestamp, type Clock } from '../lib/time';
import { listJobs, type JobRow } from './jobs.repository';

/** The admin list of the team's background jobs: queued, running and failed (docs/operations.md). */
export const jobsRoutes: FastifyPluginAsyncZod<{ db: Db; clock: Clock; publicUrl: string; appTimezone: string }> = async (app, deps) => {
  const present = (row: JobRow): Job => ({
    queue: row.queue,
    uuid: row.uuid,
    state: row.state,
    attempts: row.attempts,
    last_error: row.last_error,
    next_attempt_at: row.state === 'queued' ? formatTimestamp(row.next_attempt_at, deps.appTimezone) : '',
    created_at: formatTimestamp(row.created_at, deps.appTimezone),
  });

  app.get(
    '/jobs',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'listJobs',
        tags: ['Jobs'],
        summary: "The team's background jobs: queued, running and failed",
        description:
          'Herald extension, for admins. Report jobs, event deliveries and keyword replies not yet done, and those given up, newest first. Done jobs are not listed (see each report job and event delivery).',
        querystring: PageQuerySchema.extend(JobListQuerySchema.shape),
        response: { 200: pageOf(JobSchema), ...errorsOf(401, 403, 422) },
      },
    },
    async (request) => {
      const { teamId } = callerOf(request);
      const { queue, state } = request.query;
      const { rows, total } = await listJobs(deps.db, deps.clock.now(), teamId, { queue, state }, pageWindow(request.query));
      return pageEnvelope(request, deps.publicUrl, request.query, total, rows.map(present));
    },
  );
};

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { OverviewQuerySchema, OverviewSchema, dataOf, errorsOf } from '../../../shared/contract';
import { callerOf } from '../../http/auth';
import type { OverviewService } from './overview.service';

export const overviewRoutes: FastifyPluginAsyncZod<{ overview: OverviewService }> = async (app, { overview }) => {
  app.get(
    '/overview',
    {
      config: { access: 'read' },
      schema: {
        operationId: 'getOverview',
        tags: ['Overview'],
        summary: 'How the team’s messaging is doing over a period',
        description:
          'Herald extension (the dashboard’s home page). For the days `from`..`to` in APP_TIMEZONE (the last 30 days by default, at most 366): messages sent, delivered, failed and never sent, people’s clicks, opt-outs, inbound messages, SMS parts and their estimated cost, and the same per day; with the campaigns sending now, the next ones due, those awaiting approval, the latest imports and your latest report e-mails. Read from counters kept as messages move, so as fast at a million messages as at ten.',
        querystring: OverviewQuerySchema,
        response: { 200: dataOf(OverviewSchema), ...errorsOf(401, 422) },
      },
    },
    async (request) => ({ data: await overview.show(callerOf(request), request.query) }),
  );
};

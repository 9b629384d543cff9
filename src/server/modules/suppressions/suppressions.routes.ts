import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorsOf, OptOutEventQuerySchema, OptOutEventSchema, pageOf, OPT_OUT_EVENT_SORT, pageQueryOf } from '../../../shared/contract';
import { callerOf } from '../../http/auth';
import { pageEnvelope, pageWindow } from '../../http/pagination';
import type { Suppressions } from './suppressions.service';

export const suppressionsRoutes: FastifyPluginAsyncZod<{ suppressions: Suppressions; publicUrl: string }> = async (app, { suppressions, publicUrl }) => {
  app.get(
    '/opt-out-events',
    {
      config: { access: 'read', sharedRead: 'team' },
      schema: {
        operationId: 'listOptOutEvents',
        tags: ['Contact groups'],
        summary: "The team's opt-out history, newest first",
        description:
          'Herald extension. Every number that entered default_optouts (STOP and its synonyms, an import, a change by hand) or left it (START, UNSTOP, a removal by hand, with its reason), with the campaign an opt-out followed.',
        querystring: pageQueryOf(OPT_OUT_EVENT_SORT).extend(OptOutEventQuerySchema.shape),
        response: { 200: pageOf(OptOutEventSchema), ...errorsOf(401, 422) },
      },
    },
    async (request) => {
      const { items, total } = await suppressions.history(callerOf(request), request.query.phone_number, pageWindow(request.query));
      return pageEnvelope(request, publicUrl, request.query, total, items);
    },
  );
};

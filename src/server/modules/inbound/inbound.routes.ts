import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorsOf, InboundMessageInputSchema, InboundMessageSchema, dataOf, pageOf, INBOUND_MESSAGE_SORT, pageQueryOf } from '../../../shared/contract';
import { callerOf } from '../../http/auth';
import { pageEnvelope, pageWindow } from '../../http/pagination';
import type { InboundService } from './inbound.service';

export const inboundRoutes: FastifyPluginAsyncZod<{ inbound: InboundService; publicUrl: string }> = async (app, { inbound, publicUrl }) => {
  const tags = ['Inbound messages'];

  app.get(
    '/inbound-messages/',
    {
      config: { access: 'read', sharedRead: 'team' },
      schema: {
        operationId: 'listInboundMessages',
        tags,
        summary: "The team's received messages, newest first, with the keyword matched and the actions taken",
        querystring: pageQueryOf(INBOUND_MESSAGE_SORT),
        response: { 200: pageOf(InboundMessageSchema), ...errorsOf(401, 422) },
      },
    },
    async (request) => {
      const { items, total } = await inbound.list(callerOf(request), pageWindow(request.query));
      return pageEnvelope(request, publicUrl, request.query, total, items);
    },
  );

  app.post(
    '/inbound-messages/',
    {
      config: { access: 'edit' },
      schema: {
        operationId: 'receiveInboundMessage',
        tags,
        summary: 'Run a message through the keywords as if it had arrived',
        description:
          "Matched against the caller's team's keywords (case-insensitive whole word); the actions really happen: groups, webhooks, reply. Opt-out words add the number to default_optouts.",
        body: InboundMessageInputSchema,
        response: { 201: dataOf(InboundMessageSchema), ...errorsOf(401, 422) },
      },
    },
    async (request, reply) => reply.code(201).send({ data: await inbound.inject(callerOf(request), request.body) }),
  );
};

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorsOf, SenderListQuerySchema, SenderInputSchema, SenderSchema, dataOf, pageOf, SENDER_SORT, pageQueryOf } from '../../../shared/contract';
import { callerOf } from '../../http/auth';
import { pageEnvelope, pageWindow } from '../../http/pagination';
import type { SendersService } from './senders.service';

const params = z.object({ sender_uuid: z.uuid().describe('Identifier of the sender.') });

export const sendersRoutes: FastifyPluginAsyncZod<{ senders: SendersService; publicUrl: string }> = async (app, { senders, publicUrl }) => {
  const tags = ['Senders'];

  app.get(
    '/senders/',
    {
      config: { access: 'read', sharedRead: 'team' },
      schema: {
        operationId: 'listSenders',
        tags,
        summary: "List the team's senders, newest first",
        querystring: pageQueryOf(SENDER_SORT).extend(SenderListQuerySchema.shape),
        response: { 200: pageOf(SenderSchema), ...errorsOf(401, 422) },
      },
    },
    async (request) => {
      const { items, total } = await senders.list(callerOf(request), pageWindow(request.query), request.query.search);
      return pageEnvelope(request, publicUrl, request.query, total, items);
    },
  );

  app.post(
    '/senders/',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'createSender',
        tags,
        summary: 'Create a sender',
        description: '3 to 11 characters; unique within the team (422 otherwise).',
        body: SenderInputSchema,
        response: { 201: dataOf(SenderSchema), ...errorsOf(401, 422) },
      },
    },
    async (request, reply) => reply.code(201).send({ data: await senders.create(callerOf(request), request.body) }),
  );

  app.get(
    '/senders/:sender_uuid',
    {
      config: { access: 'read', sharedRead: 'team' },
      schema: {
        operationId: 'showSender',
        tags,
        summary: 'Show a sender',
        params,
        response: { 200: dataOf(SenderSchema), ...errorsOf(401, 404) },
      },
    },
    async (request) => ({ data: await senders.show(callerOf(request), request.params.sender_uuid) }),
  );

  app.put(
    '/senders/:sender_uuid',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'updateSender',
        tags,
        summary: 'Edit a sender',
        params,
        body: SenderInputSchema,
        response: { 200: dataOf(SenderSchema), ...errorsOf(401, 404, 422) },
      },
    },
    async (request) => ({ data: await senders.update(callerOf(request), request.params.sender_uuid, request.body) }),
  );

  app.delete(
    '/senders/:sender_uuid',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'deleteSender',
        tags,
        summary: 'Delete a sender',
        params,
        response: { 204: z.null().describe('Deleted.'), ...errorsOf(401, 404) },
      },
    },
    async (request, reply) => {
      await senders.delete(callerOf(request), request.params.sender_uuid);
      return reply.code(204).send(null);
    },
  );
};

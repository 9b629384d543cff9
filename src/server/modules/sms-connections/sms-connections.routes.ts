import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  dataOf,
  errorsOf,
  PageQuerySchema,
  pageOf,
  SmsConnectionInputSchema,
  SmsConnectionParamsSchema,
  SmsConnectionPatchSchema,
  SmsConnectionSchema,
  SmsConnectionTestInputSchema,
  SmsConnectionTestResultSchema,
} from '../../../shared/contract';
import { callerOf } from '../../http/auth';
import { pageEnvelope, pageWindow } from '../../http/pagination';
import type { SmsConnectionsService } from './sms-connections.service';

/** SMS connections (docs/providers.md, Connections): a team's provider accounts, for admins only (they hold credentials). */
export const smsConnectionsRoutes: FastifyPluginAsyncZod<{ smsConnections: SmsConnectionsService; publicUrl: string }> = async (
  app,
  { smsConnections, publicUrl },
) => {
  const tags = ['SMS connections'];

  app.get(
    '/sms-connections/',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'listSmsConnections',
        tags,
        summary: "List the team's SMS connections, newest first",
        querystring: PageQuerySchema,
        response: { 200: pageOf(SmsConnectionSchema), ...errorsOf(401, 403, 422) },
      },
    },
    async (request) => {
      const { items, total } = await smsConnections.list(callerOf(request), pageWindow(request.query));
      return pageEnvelope(request, publicUrl, request.query, total, items);
    },
  );

  app.post(
    '/sms-connections/',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'createSmsConnection',
        tags,
        summary: 'Connect an SMS provider account',
        description:
          'Every credential field of the provider is required (a missing one is named in the 422). The answer shows the credentials as masked hints only.',
        body: SmsConnectionInputSchema,
        response: { 201: dataOf(SmsConnectionSchema), ...errorsOf(401, 403, 422) },
      },
    },
    async (request, reply) => reply.code(201).send({ data: await smsConnections.create(callerOf(request), request.body) }),
  );

  app.get(
    '/sms-connections/:connection_uuid',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'showSmsConnection',
        tags,
        summary: 'Show an SMS connection',
        params: SmsConnectionParamsSchema,
        response: { 200: dataOf(SmsConnectionSchema), ...errorsOf(401, 403, 404) },
      },
    },
    async (request) => ({ data: await smsConnections.show(callerOf(request), request.params.connection_uuid) }),
  );

  app.put(
    '/sms-connections/:connection_uuid',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'updateSmsConnection',
        tags,
        summary: 'Edit an SMS connection',
        description:
          'Any of `name`, `base_url`, `credentials`, `senders`, `max_per_second`, `enabled`; the fields left out keep their values. Credential fields given replace theirs, the others are kept.',
        params: SmsConnectionParamsSchema,
        body: SmsConnectionPatchSchema,
        response: { 200: dataOf(SmsConnectionSchema), ...errorsOf(401, 403, 404, 422) },
      },
    },
    async (request) => ({ data: await smsConnections.update(callerOf(request), request.params.connection_uuid, request.body) }),
  );

  app.delete(
    '/sms-connections/:connection_uuid',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'deleteSmsConnection',
        tags,
        summary: 'Delete an SMS connection',
        description:
          'Refused with 409 while the connection is in use: a route names it, or a message or keyword reply is still on its way through it (submitted, its final status not in yet).',
        params: SmsConnectionParamsSchema,
        response: { 204: z.null().describe('Deleted.'), ...errorsOf(401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await smsConnections.delete(callerOf(request), request.params.connection_uuid);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/sms-connections/:connection_uuid/test',
    {
      config: { access: 'admin', rateLimit: { max: 10, bucket: 'sms-connection-test' } },
      schema: {
        operationId: 'testSmsConnection',
        tags,
        summary: 'Send a test message through this connection only',
        description:
          "One message from the connection's first sender, at once. A refusal the provider answered is 422 with its code and message (under `phone_number` for the recipient, `credentials` for the account); a provider that failed (throttled, 5xx) or did not answer is 502. HTTP providers only for now: smpp and simulator connections answer 422.",
        params: SmsConnectionParamsSchema,
        body: SmsConnectionTestInputSchema,
        response: { 200: dataOf(SmsConnectionTestResultSchema), ...errorsOf(401, 403, 404, 422, 429, 502) },
      },
    },
    async (request) => ({ data: await smsConnections.sendTest(callerOf(request), request.params.connection_uuid, request.body.phone_number) }),
  );
};

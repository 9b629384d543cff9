import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  errorsOf,
  PageQuerySchema,
  WebhookListQuerySchema,
  WebhookInputSchema,
  WebhookParamsSchema,
  WebhookPatchSchema,
  WebhookSchema,
  WebhookWithSecretSchema,
  WebhookAttemptSchema,
  dataOf,
  pageOf,
  WEBHOOK_SORT,
  pageQueryOf,
} from '../../../shared/contract';
import { callerOf } from '../../http/auth';
import { pageEnvelope, pageWindow } from '../../http/pagination';
import type { WebhooksService } from './webhooks.service';

export const webhooksRoutes: FastifyPluginAsyncZod<{ webhooks: WebhooksService; publicUrl: string }> = async (app, { webhooks, publicUrl }) => {
  const tags = ['Webhooks'];

  app.get(
    '/webhooks/',
    {
      config: { access: 'read', sharedRead: 'team' },
      schema: {
        operationId: 'listWebhooks',
        tags,
        summary: "List the team's webhooks, newest first",
        querystring: pageQueryOf(WEBHOOK_SORT).extend(WebhookListQuerySchema.shape),
        response: { 200: pageOf(WebhookSchema), ...errorsOf(401, 422) },
      },
    },
    async (request) => {
      const { items, total } = await webhooks.list(callerOf(request), pageWindow(request.query), request.query.search);
      return pageEnvelope(request, publicUrl, request.query, total, items);
    },
  );

  app.post(
    '/webhooks/',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'createWebhook',
        tags,
        summary: 'Create a webhook',
        description: 'The answer carries the signing secret (`secret`) this once.',
        body: WebhookInputSchema,
        response: { 201: dataOf(WebhookWithSecretSchema), ...errorsOf(401, 422) },
      },
    },
    async (request, reply) => reply.code(201).send({ data: await webhooks.create(callerOf(request), request.body) }),
  );

  app.get(
    '/webhooks/:webhook_uuid',
    {
      config: { access: 'read', sharedRead: 'team' },
      schema: {
        operationId: 'showWebhook',
        tags,
        summary: 'Show a webhook',
        params: WebhookParamsSchema,
        response: { 200: dataOf(WebhookSchema), ...errorsOf(401, 404) },
      },
    },
    async (request) => ({ data: await webhooks.show(callerOf(request), request.params.webhook_uuid) }),
  );

  app.put(
    '/webhooks/:webhook_uuid',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'updateWebhook',
        tags,
        summary: 'Edit a webhook',
        description: 'Any of `name`, `url`, `headers`; the fields left out keep their values.',
        params: WebhookParamsSchema,
        body: WebhookPatchSchema,
        response: { 200: dataOf(WebhookSchema), ...errorsOf(401, 404, 422) },
      },
    },
    async (request) => ({ data: await webhooks.update(callerOf(request), request.params.webhook_uuid, request.body) }),
  );

  app.post(
    '/webhooks/:webhook_uuid/rotate-secret',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'rotateWebhookSecret',
        tags,
        summary: 'Replace the signing secret',
        description: 'The old secret stops signing at once; the new one is returned this once.',
        params: WebhookParamsSchema,
        response: { 200: dataOf(WebhookWithSecretSchema), ...errorsOf(401, 404) },
      },
    },
    async (request) => ({ data: await webhooks.rotateSecret(callerOf(request), request.params.webhook_uuid) }),
  );

  app.post(
    '/webhooks/:webhook_uuid/test',
    {
      config: { access: 'admin', rateLimit: { max: 10, bucket: 'webhook-test' } },
      schema: {
        operationId: 'testWebhook',
        tags,
        summary: 'Send a test event',
        description: 'POSTs `{"event":"webhook.test",…}` signed like a real call, once, and answers with the logged attempt.',
        params: WebhookParamsSchema,
        response: { 200: dataOf(WebhookAttemptSchema), ...errorsOf(401, 404, 429) },
      },
    },
    async (request) => ({ data: await webhooks.sendTest(callerOf(request), request.params.webhook_uuid) }),
  );

  app.get(
    '/webhooks/:webhook_uuid/attempts',
    {
      config: { access: 'read', sharedRead: 'team' },
      schema: {
        operationId: 'listWebhookAttempts',
        tags,
        summary: 'Every call made to the webhook, newest first',
        params: WebhookParamsSchema,
        querystring: PageQuerySchema,
        response: { 200: pageOf(WebhookAttemptSchema), ...errorsOf(401, 404, 422) },
      },
    },
    async (request) => {
      const { items, total } = await webhooks.attempts(callerOf(request), request.params.webhook_uuid, pageWindow(request.query));
      return pageEnvelope(request, publicUrl, request.query, total, items);
    },
  );

  app.delete(
    '/webhooks/:webhook_uuid',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'deleteWebhook',
        tags,
        summary: 'Delete a webhook',
        description: 'Refused (409) while a keyword calls it.',
        params: WebhookParamsSchema,
        response: { 204: z.null().describe('Deleted.'), ...errorsOf(401, 404, 409) },
      },
    },
    async (request, reply) => {
      await webhooks.delete(callerOf(request), request.params.webhook_uuid);
      return reply.code(204).send(null);
    },
  );
};

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  dataOf,
  errorsOf,
  EventDeliveryDetailSchema,
  EventDeliveryListQuerySchema,
  EventDeliveryParamsSchema,
  EventDeliverySchema,
  EventEndpointInputSchema,
  EventEndpointParamsSchema,
  EventEndpointPatchSchema,
  EventEndpointSchema,
  EventEndpointWithSecretSchema,
  PageQuerySchema,
  pageOf,
} from '../../../shared/contract';
import { callerOf } from '../../http/auth';
import { pageEnvelope, pageWindow } from '../../http/pagination';
import type { EventEndpointsService } from './event-endpoints.service';

/** Event endpoints (docs/events.md): read by any member, set up by admins, like keyword webhooks. */
export const eventEndpointsRoutes: FastifyPluginAsyncZod<{ eventEndpoints: EventEndpointsService; publicUrl: string }> = async (
  app,
  { eventEndpoints, publicUrl },
) => {
  const tags = ['Event endpoints'];

  app.get(
    '/event-endpoints/',
    {
      config: { access: 'read', sharedRead: 'team' },
      schema: {
        operationId: 'listEventEndpoints',
        tags,
        summary: "List the team's event endpoints, newest first",
        querystring: PageQuerySchema,
        response: { 200: pageOf(EventEndpointSchema), ...errorsOf(401, 422) },
      },
    },
    async (request) => {
      const { items, total } = await eventEndpoints.list(callerOf(request), pageWindow(request.query));
      return pageEnvelope(request, publicUrl, request.query, total, items);
    },
  );

  app.post(
    '/event-endpoints/',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'createEventEndpoint',
        tags,
        summary: 'Register a URL to push events to',
        description: 'The answer carries the signing secret (`secret`) this once. Events that happen from now on are sent.',
        body: EventEndpointInputSchema,
        response: { 201: dataOf(EventEndpointWithSecretSchema), ...errorsOf(401, 422) },
      },
    },
    async (request, reply) => reply.code(201).send({ data: await eventEndpoints.create(callerOf(request), request.body) }),
  );

  app.get(
    '/event-endpoints/:endpoint_uuid',
    {
      config: { access: 'read', sharedRead: 'team' },
      schema: {
        operationId: 'showEventEndpoint',
        tags,
        summary: 'Show an event endpoint',
        params: EventEndpointParamsSchema,
        response: { 200: dataOf(EventEndpointSchema), ...errorsOf(401, 404) },
      },
    },
    async (request) => ({ data: await eventEndpoints.show(callerOf(request), request.params.endpoint_uuid) }),
  );

  app.put(
    '/event-endpoints/:endpoint_uuid',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'updateEventEndpoint',
        tags,
        summary: 'Edit an event endpoint',
        description: 'Any of `url`, `events`, `headers`, `enabled`, `description`; the fields left out keep their values.',
        params: EventEndpointParamsSchema,
        body: EventEndpointPatchSchema,
        response: { 200: dataOf(EventEndpointSchema), ...errorsOf(401, 404, 422) },
      },
    },
    async (request) => ({ data: await eventEndpoints.update(callerOf(request), request.params.endpoint_uuid, request.body) }),
  );

  app.delete(
    '/event-endpoints/:endpoint_uuid',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'deleteEventEndpoint',
        tags,
        summary: 'Delete an event endpoint',
        description: 'Its pending deliveries are dropped with it.',
        params: EventEndpointParamsSchema,
        response: { 204: z.null().describe('Deleted.'), ...errorsOf(401, 404) },
      },
    },
    async (request, reply) => {
      await eventEndpoints.delete(callerOf(request), request.params.endpoint_uuid);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/event-endpoints/:endpoint_uuid/rotate-secret',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'rotateEventEndpointSecret',
        tags,
        summary: 'Replace the signing secret',
        description: 'The new secret is returned this once. For 24 hours calls carry a signature by each, so the receiver can switch without losing a call.',
        params: EventEndpointParamsSchema,
        response: { 200: dataOf(EventEndpointWithSecretSchema), ...errorsOf(401, 404) },
      },
    },
    async (request) => ({ data: await eventEndpoints.rotateSecret(callerOf(request), request.params.endpoint_uuid) }),
  );

  app.post(
    '/event-endpoints/:endpoint_uuid/test',
    {
      config: { access: 'admin', rateLimit: { max: 10, bucket: 'event-endpoint-test' } },
      schema: {
        operationId: 'testEventEndpoint',
        tags,
        summary: 'Send a test event',
        description: 'POSTs an `event_endpoint.test` event signed like every other, once and at once, and answers with its delivery (never retried).',
        params: EventEndpointParamsSchema,
        response: { 200: dataOf(EventDeliveryDetailSchema), ...errorsOf(401, 404, 429) },
      },
    },
    async (request) => ({ data: await eventEndpoints.sendTest(callerOf(request), request.params.endpoint_uuid) }),
  );

  app.get(
    '/event-endpoints/:endpoint_uuid/deliveries',
    {
      config: { access: 'read', sharedRead: 'team' },
      schema: {
        operationId: 'listEventDeliveries',
        tags,
        summary: "The endpoint's deliveries, newest first",
        description: 'Delivered ones are kept 7 days, failed ones 30.',
        params: EventEndpointParamsSchema,
        querystring: PageQuerySchema.extend(EventDeliveryListQuerySchema.shape),
        response: { 200: pageOf(EventDeliverySchema), ...errorsOf(401, 404, 422) },
      },
    },
    async (request) => {
      const { items, total } = await eventEndpoints.deliveries(
        callerOf(request),
        request.params.endpoint_uuid,
        pageWindow(request.query),
        request.query.status,
      );
      return pageEnvelope(request, publicUrl, request.query, total, items);
    },
  );

  app.get(
    '/event-endpoints/:endpoint_uuid/deliveries/:delivery_uuid',
    {
      config: { access: 'read', sharedRead: 'team' },
      schema: {
        operationId: 'showEventDelivery',
        tags,
        summary: 'Show a delivery with its body and every attempt',
        params: EventDeliveryParamsSchema,
        response: { 200: dataOf(EventDeliveryDetailSchema), ...errorsOf(401, 404) },
      },
    },
    async (request) => ({ data: await eventEndpoints.delivery(callerOf(request), request.params.endpoint_uuid, request.params.delivery_uuid) }),
  );

  app.post(
    '/event-endpoints/:endpoint_uuid/deliveries/:delivery_uuid/redeliver',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'redeliverEvent',
        tags,
        summary: 'Send a delivery again',
        description: 'The same body and `webhook-id`, from now, with a fresh 24 hours of retries (once the endpoint is enabled).',
        params: EventDeliveryParamsSchema,
        response: { 202: dataOf(EventDeliverySchema), ...errorsOf(401, 404) },
      },
    },
    async (request, reply) =>
      reply.code(202).send({ data: await eventEndpoints.redeliver(callerOf(request), request.params.endpoint_uuid, request.params.delivery_uuid) }),
  );
};

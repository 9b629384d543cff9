import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  dataOf,
  errorsOf,
  PageQuerySchema,
  pageOf,
  ShopConnectionInputSchema,
  ShopConnectionParamsSchema,
  ShopConnectionPatchSchema,
  ShopConnectionSchema,
} from '../../../shared/contract';
import { callerOf } from '../../http/auth';
import { pageEnvelope, pageWindow } from '../../http/pagination';
import type { ShopConnectionsService } from './shop-connections.service';

/** Shop connections (docs/conversions.md): shops whose order webhooks record conversions, for admins only (they hold signing secrets). */
export const shopConnectionsRoutes: FastifyPluginAsyncZod<{ shopConnections: ShopConnectionsService; publicUrl: string }> = async (
  app,
  { shopConnections, publicUrl },
) => {
  const tags = ['Shop connections'];

  app.get(
    '/shop-connections/',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'listShopConnections',
        tags,
        summary: "List the team's shop connections, newest first",
        querystring: PageQuerySchema,
        response: { 200: pageOf(ShopConnectionSchema), ...errorsOf(401, 403, 422) },
      },
    },
    async (request) => {
      const { items, total } = await shopConnections.list(callerOf(request), pageWindow(request.query));
      return pageEnvelope(request, publicUrl, request.query, total, items);
    },
  );

  app.post(
    '/shop-connections/',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'createShopConnection',
        tags,
        summary: 'Connect a shop (Shopify or WooCommerce) whose new orders record conversions',
        description:
          "The answer's `webhook_url` is the address to give the shop's order webhook (Shopify `orders/create`, WooCommerce `order.created`); `secret` is what the shop signs with, shown from then on as a masked hint only.",
        body: ShopConnectionInputSchema,
        response: { 201: dataOf(ShopConnectionSchema), ...errorsOf(401, 403, 422) },
      },
    },
    async (request, reply) => reply.code(201).send({ data: await shopConnections.create(callerOf(request), request.body) }),
  );

  app.get(
    '/shop-connections/:shop_connection_uuid',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'showShopConnection',
        tags,
        summary: 'Show a shop connection',
        params: ShopConnectionParamsSchema,
        response: { 200: dataOf(ShopConnectionSchema), ...errorsOf(401, 403, 404) },
      },
    },
    async (request) => ({ data: await shopConnections.show(callerOf(request), request.params.shop_connection_uuid) }),
  );

  app.put(
    '/shop-connections/:shop_connection_uuid',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'updateShopConnection',
        tags,
        summary: 'Edit a shop connection',
        description: 'Any of `name`, `platform`, `secret`; the fields left out keep their values (a secret sent back as its hint keeps the stored one).',
        params: ShopConnectionParamsSchema,
        body: ShopConnectionPatchSchema,
        response: { 200: dataOf(ShopConnectionSchema), ...errorsOf(401, 403, 404, 422) },
      },
    },
    async (request) => ({ data: await shopConnections.update(callerOf(request), request.params.shop_connection_uuid, request.body) }),
  );

  app.delete(
    '/shop-connections/:shop_connection_uuid',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'deleteShopConnection',
        tags,
        summary: 'Delete a shop connection',
        description: 'Its webhook address answers 404 from then on; the conversions it recorded stay.',
        params: ShopConnectionParamsSchema,
        response: { 204: z.null().describe('Deleted.'), ...errorsOf(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await shopConnections.delete(callerOf(request), request.params.shop_connection_uuid);
      return reply.code(204).send(null);
    },
  );
};

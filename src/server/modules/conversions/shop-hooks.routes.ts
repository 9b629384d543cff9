import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ShopConnectionsService } from './shop-connections.service';

/**
 * `POST /hooks/shop/{connection_uuid}`: where a shop posts its new orders (docs/conversions.md).
 * Outside /api/2.0: no token and no per-address limit (a shop calls from a few addresses, for every
 * order); the signature over the request's exact bytes is the authentication. So this plugin reads
 * every body raw, whatever its type (Shopify and WooCommerce post JSON; WooCommerce's first ping is
 * form data), with parsers of its own; every other route keeps the app's. Not in the OpenAPI
 * document, which describes /api/2.0.
 */
export const shopHooksRoutes: FastifyPluginAsync<{ shopConnections: ShopConnectionsService }> = async (app, { shopConnections }) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  app.post<{ Params: { connection_uuid: string } }>(
    '/hooks/shop/:connection_uuid',
    { schema: { hide: true }, config: { access: 'public', notRateLimited: true } },
    async (request: FastifyRequest<{ Params: { connection_uuid: string } }>, reply) => {
      const headers: Record<string, string | undefined> = {};
      for (const [name, value] of Object.entries(request.headers)) headers[name] = Array.isArray(value) ? value.join(', ') : value;
      const answer = await shopConnections.receive(request.params.connection_uuid, {
        headers,
        rawBody: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
      });
      return reply.code(answer.statusCode).send(answer.body);
    },
  );
};

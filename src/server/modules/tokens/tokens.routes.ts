import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiTokenInputSchema, ApiTokenSchema, CreatedApiTokenSchema, errorsOf, dataOf, pageOf, TOKEN_SORT, pageQueryOf } from '../../../shared/contract';
import { callerOf } from '../../http/auth';
import { pageEnvelope, pageWindow } from '../../http/pagination';
import type { TokensService } from './tokens.service';

export const tokensRoutes: FastifyPluginAsyncZod<{ tokens: TokensService; publicUrl: string }> = async (app, { tokens, publicUrl }) => {
  const tags = ['API tokens'];

  app.get(
    '/tokens/',
    {
      config: { access: 'self' },
      schema: {
        operationId: 'listTokens',
        tags,
        summary: "List the caller's personal API tokens",
        querystring: pageQueryOf(TOKEN_SORT),
        response: { 200: pageOf(ApiTokenSchema), ...errorsOf(401, 422) },
      },
    },
    async (request) => {
      const { items, total } = await tokens.list(callerOf(request), pageWindow(request.query));
      return pageEnvelope(request, publicUrl, request.query, total, items);
    },
  );

  app.post(
    '/tokens/',
    {
      config: { access: 'self' },
      schema: {
        operationId: 'createToken',
        tags,
        summary: 'Create a personal API token',
        description: 'The token is returned in `token` this once; only its SHA-256 digest is stored.',
        body: ApiTokenInputSchema,
        response: { 201: dataOf(CreatedApiTokenSchema), ...errorsOf(401, 422) },
      },
    },
    async (request, reply) => reply.code(201).send({ data: await tokens.create(callerOf(request), request.body) }),
  );

  app.delete(
    '/tokens/:token_uuid',
    {
      config: { access: 'self' },
      schema: {
        operationId: 'revokeToken',
        tags,
        summary: 'Revoke a personal API token',
        description: 'Requests with the token are refused from this moment.',
        params: z.object({ token_uuid: z.uuid() }),
        response: { 204: z.null().describe('Revoked.'), ...errorsOf(401, 404) },
      },
    },
    async (request, reply) => {
      await tokens.revoke(callerOf(request), request.params.token_uuid);
      return reply.code(204).send(null);
    },
  );
};

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  errorsOf,
  KeywordInputSchema,
  KeywordParamsSchema,
  KeywordPatchSchema,
  KeywordSchema,
  KeywordListQuerySchema,
  dataOf,
  pageOf,
  KEYWORD_SORT,
  pageQueryOf,
} from '../../../shared/contract';
import { callerOf } from '../../http/auth';
import { pageEnvelope, pageWindow } from '../../http/pagination';
import type { KeywordsService } from './keywords.service';

export const keywordsRoutes: FastifyPluginAsyncZod<{ keywords: KeywordsService; publicUrl: string }> = async (app, { keywords, publicUrl }) => {
  const tags = ['Keywords'];

  app.get(
    '/keywords/',
    {
      config: { access: 'read', sharedRead: 'team' },
      schema: {
        operationId: 'listKeywords',
        tags,
        summary: "List the team's keywords, newest first",
        querystring: pageQueryOf(KEYWORD_SORT).extend(KeywordListQuerySchema.shape),
        response: { 200: pageOf(KeywordSchema), ...errorsOf(401, 422) },
      },
    },
    async (request) => {
      const { items, total } = await keywords.list(callerOf(request), pageWindow(request.query), request.query.search);
      return pageEnvelope(request, publicUrl, request.query, total, items);
    },
  );

  app.post(
    '/keywords/',
    {
      config: { access: 'edit' },
      schema: {
        operationId: 'createKeyword',
        tags,
        summary: 'Create a keyword',
        description:
          'Inbound messages arrive on one shared short code, so a keyword belongs to one team across the service (422 when taken). Every group and webhook uuid must be the team’s.',
        body: KeywordInputSchema,
        response: { 201: dataOf(KeywordSchema), ...errorsOf(401, 422) },
      },
    },
    async (request, reply) => reply.code(201).send({ data: await keywords.create(callerOf(request), request.body) }),
  );

  app.get(
    '/keywords/:keyword_uuid',
    {
      config: { access: 'read', sharedRead: 'team' },
      schema: {
        operationId: 'showKeyword',
        tags,
        summary: 'Show a keyword',
        params: KeywordParamsSchema,
        response: { 200: dataOf(KeywordSchema), ...errorsOf(401, 404) },
      },
    },
    async (request) => ({ data: await keywords.show(callerOf(request), request.params.keyword_uuid) }),
  );

  app.put(
    '/keywords/:keyword_uuid',
    {
      config: { access: 'edit' },
      schema: {
        operationId: 'updateKeyword',
        tags,
        summary: 'Edit a keyword',
        description: 'The fields of create; any may change, the others keep their values.',
        params: KeywordParamsSchema,
        body: KeywordPatchSchema,
        response: { 200: dataOf(KeywordSchema), ...errorsOf(401, 404, 422) },
      },
    },
    async (request) => ({ data: await keywords.update(callerOf(request), request.params.keyword_uuid, request.body) }),
  );

  app.delete(
    '/keywords/:keyword_uuid',
    {
      config: { access: 'edit' },
      schema: {
        operationId: 'deleteKeyword',
        tags,
        summary: 'Delete a keyword',
        params: KeywordParamsSchema,
        response: { 204: z.null().describe('Deleted.'), ...errorsOf(401, 404) },
      },
    },
    async (request, reply) => {
      await keywords.delete(callerOf(request), request.params.keyword_uuid);
      return reply.code(204).send(null);
    },
  );
};

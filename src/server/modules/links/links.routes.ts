import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorsOf, LinkInputSchema, LinkSchema, PageQuerySchema, dataOf, pageOf } from '../../../shared/contract';
import { callerOf } from '../../http/auth';
import { pageEnvelope, pageWindow } from '../../http/pagination';
import type { LinksService } from './links.service';

const params = z.object({ link_uuid: z.uuid().describe('Identifier of the link.') });
const listQuery = PageQuerySchema.extend({
  template_uuid: z.uuid({ error: 'The selected template uuid is invalid.' }).optional().describe('Only the links of this template.'),
});

export const linksRoutes: FastifyPluginAsyncZod<{ links: LinksService; publicUrl: string }> = async (app, { links, publicUrl }) => {
  const tags = ['Links'];

  app.get(
    '/links/',
    {
      config: { access: 'read', sharedRead: 'team' },
      schema: {
        operationId: 'listLinks',
        tags,
        summary: "List the team's tracked links, newest first",
        querystring: listQuery,
        response: { 200: pageOf(LinkSchema), ...errorsOf(401, 422) },
      },
    },
    async (request) => {
      const { items, total } = await links.list(callerOf(request), pageWindow(request.query), request.query.template_uuid);
      return pageEnvelope(request, publicUrl, request.query, total, items);
    },
  );

  app.post(
    '/links/',
    {
      config: { access: 'edit' },
      schema: {
        operationId: 'createLink',
        tags,
        summary: 'Create a tracked link of a template',
        description: '`::NAME::` in the template body becomes a short link on the vanity domain that redirects to `destination`.',
        body: LinkInputSchema,
        response: { 201: dataOf(LinkSchema), ...errorsOf(401, 422, 423) },
      },
    },
    async (request, reply) => reply.code(201).send({ data: await links.create(callerOf(request), request.body) }),
  );

  app.get(
    '/links/:link_uuid',
    {
      config: { access: 'read', sharedRead: 'team' },
      schema: {
        operationId: 'showLink',
        tags,
        summary: 'Show a link',
        params,
        response: { 200: dataOf(LinkSchema), ...errorsOf(401, 404) },
      },
    },
    async (request) => ({ data: await links.show(callerOf(request), request.params.link_uuid) }),
  );

  app.put(
    '/links/:link_uuid',
    {
      config: { access: 'edit' },
      schema: {
        operationId: 'updateLink',
        tags,
        summary: 'Edit a link',
        description: 'Refused with 423 while a campaign that uses its template is sending.',
        params,
        body: LinkInputSchema,
        response: { 200: dataOf(LinkSchema), ...errorsOf(401, 404, 422, 423) },
      },
    },
    async (request) => ({ data: await links.update(callerOf(request), request.params.link_uuid, request.body) }),
  );

  app.delete(
    '/links/:link_uuid',
    {
      config: { access: 'edit' },
      schema: {
        operationId: 'deleteLink',
        tags,
        summary: 'Delete a link',
        description: 'Refused with 423 while a campaign that uses its template is sending.',
        params,
        response: { 204: z.null().describe('Deleted.'), ...errorsOf(401, 404, 423) },
      },
    },
    async (request, reply) => {
      await links.delete(callerOf(request), request.params.link_uuid);
      return reply.code(204).send(null);
    },
  );
};

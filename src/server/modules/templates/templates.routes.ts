import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  EncodingRequestSchema,
  EncodingSchema,
  errorsOf,
  TemplateListQuerySchema,
  TemplateInputSchema,
  TemplateParamsSchema,
  TemplatePreviewQuerySchema,
  TemplatePreviewSchema,
  TemplateSchema,
  TemplateStarterSchema,
  TEMPLATE_STARTERS,
  dataOf,
  pageOf,
  TEMPLATE_SORT,
  pageQueryOf,
} from '../../../shared/contract';
import { callerOf } from '../../http/auth';
import { pageEnvelope, pageWindow } from '../../http/pagination';
import type { TemplatesService } from './templates.service';

export const templatesRoutes: FastifyPluginAsyncZod<{ templates: TemplatesService; publicUrl: string }> = async (app, { templates, publicUrl }) => {
  const tags = ['Templates'];

  app.get(
    '/templates/',
    {
      config: { access: 'read', sharedRead: 'team' },
      schema: {
        operationId: 'listTemplates',
        tags,
        summary: "List the team's templates, newest first",
        querystring: pageQueryOf(TEMPLATE_SORT).extend(TemplateListQuerySchema.shape),
        response: { 200: pageOf(TemplateSchema), ...errorsOf(401, 422) },
      },
    },
    async (request) => {
      const { items, total } = await templates.list(callerOf(request), pageWindow(request.query), request.query.search);
      return pageEnvelope(request, publicUrl, request.query, total, items);
    },
  );

  app.get(
    '/templates/starters',
    {
      config: { access: 'read' },
      schema: {
        operationId: 'listTemplateStarters',
        tags,
        summary: 'List the starter templates',
        description:
          'Herald extension. A small read-only library to begin a template from (welcome, sale, back in stock, abandoned cart, review request): each gives every field a fallback and ends with "Reply STOP to opt out." Not templates of the team: create one with its body.',
        response: { 200: dataOf(z.array(TemplateStarterSchema)), ...errorsOf(401) },
      },
    },
    async () => ({ data: TEMPLATE_STARTERS.map((starter) => ({ ...starter })) }),
  );

  app.post(
    '/templates/',
    {
      config: { access: 'edit' },
      schema: {
        operationId: 'createTemplate',
        tags,
        summary: 'Create a template',
        description:
          "The sender must be 3 to 11 characters, and for an editor one of the team's senders or 88440 (an admin's new sender joins the team's list); the body at most 1,600 characters.",
        body: TemplateInputSchema,
        response: { 201: dataOf(TemplateSchema), ...errorsOf(401, 422) },
      },
    },
    async (request, reply) => reply.code(201).send({ data: await templates.create(callerOf(request), request.body) }),
  );

  app.post(
    '/templates/encoding',
    {
      config: { access: 'read' },
      schema: {
        operationId: 'templateEncoding',
        tags,
        summary: 'Encoding, length and segments of a body',
        description: 'Counts the body as it will be sent: a tracked link at its short-link length, a custom field as one space.',
        body: EncodingRequestSchema,
        response: { 200: dataOf(EncodingSchema), ...errorsOf(401, 422) },
      },
    },
    async (request) => ({ data: await templates.encoding(callerOf(request), request.body) }),
  );

  app.get(
    '/templates/:template_uuid',
    {
      config: { access: 'read', sharedRead: 'team' },
      schema: {
        operationId: 'showTemplate',
        tags,
        summary: 'Show a template',
        params: TemplateParamsSchema,
        response: { 200: dataOf(TemplateSchema), ...errorsOf(401, 404) },
      },
    },
    async (request) => ({ data: await templates.show(callerOf(request), request.params.template_uuid) }),
  );

  app.get(
    '/templates/:template_uuid/preview',
    {
      config: { access: 'read', sharedRead: 'team' },
      schema: {
        operationId: 'previewTemplate',
        tags,
        summary: 'The body as a recipient reads it',
        description:
          'Link shorthands become short links; custom fields are filled from a contact; `warnings` lists shorthands that will be sent as a blank space.',
        params: TemplateParamsSchema,
        querystring: TemplatePreviewQuerySchema,
        response: { 200: dataOf(TemplatePreviewSchema), ...errorsOf(401, 404, 422) },
      },
    },
    async (request) => ({ data: await templates.preview(callerOf(request), request.params.template_uuid, request.query.phone_number) }),
  );

  app.put(
    '/templates/:template_uuid',
    {
      config: { access: 'edit' },
      schema: {
        operationId: 'updateTemplate',
        tags,
        summary: 'Edit a template',
        description: 'Refused with 423 while a campaign that uses the template is sending. The sender as on create.',
        params: TemplateParamsSchema,
        body: TemplateInputSchema,
        response: { 200: dataOf(TemplateSchema), ...errorsOf(401, 404, 422, 423) },
      },
    },
    async (request) => ({ data: await templates.update(callerOf(request), request.params.template_uuid, request.body) }),
  );

  app.delete(
    '/templates/:template_uuid',
    {
      config: { access: 'edit' },
      schema: {
        operationId: 'deleteTemplate',
        tags,
        summary: 'Delete a template',
        description: 'Refused with 409 while campaigns use the template.',
        params: TemplateParamsSchema,
        response: { 204: z.null().describe('Deleted.'), ...errorsOf(401, 404, 409) },
      },
    },
    async (request, reply) => {
      await templates.delete(callerOf(request), request.params.template_uuid);
      return reply.code(204).send(null);
    },
  );
};

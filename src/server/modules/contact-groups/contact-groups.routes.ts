import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ContactGroupInputSchema,
  ContactGroupParamsSchema,
  ContactGroupSchema,
  errorsOf,
  ContactGroupListQuerySchema,
  dataOf,
  pageOf,
  CONTACT_GROUP_SORT,
  pageQueryOf,
} from '../../../shared/contract';
import { callerOf } from '../../http/auth';
import { pageEnvelope, pageWindow } from '../../http/pagination';
import type { ContactGroupsService } from './contact-groups.service';

export const contactGroupsRoutes: FastifyPluginAsyncZod<{ contactGroups: ContactGroupsService; publicUrl: string }> = async (
  app,
  { contactGroups, publicUrl },
) => {
  const tags = ['Contact groups'];

  app.get(
    '/contact-groups/',
    {
      config: { access: 'read', sharedRead: 'team' },
      schema: {
        operationId: 'listContactGroups',
        tags,
        summary: "List the team's contact groups, newest first",
        querystring: pageQueryOf(CONTACT_GROUP_SORT).extend(ContactGroupListQuerySchema.shape),
        response: { 200: pageOf(ContactGroupSchema), ...errorsOf(401, 422) },
      },
    },
    async (request) => {
      const { items, total } = await contactGroups.list(callerOf(request), pageWindow(request.query), request.query.search);
      return pageEnvelope(request, publicUrl, request.query, total, items);
    },
  );

  app.post(
    '/contact-groups/',
    {
      config: { access: 'edit' },
      schema: {
        operationId: 'createContactGroup',
        tags,
        summary: 'Create a contact group',
        body: ContactGroupInputSchema,
        response: { 201: dataOf(ContactGroupSchema), ...errorsOf(401, 422) },
      },
    },
    async (request, reply) => reply.code(201).send({ data: await contactGroups.create(callerOf(request), request.body) }),
  );

  app.get(
    '/contact-groups/:contact_group_uuid',
    {
      config: { access: 'read', sharedRead: 'team' },
      schema: {
        operationId: 'showContactGroup',
        tags,
        summary: 'Show a contact group',
        params: ContactGroupParamsSchema,
        response: { 200: dataOf(ContactGroupSchema), ...errorsOf(401, 404) },
      },
    },
    async (request) => ({ data: await contactGroups.show(callerOf(request), request.params.contact_group_uuid) }),
  );

  app.put(
    '/contact-groups/:contact_group_uuid',
    {
      config: { access: 'edit' },
      schema: {
        operationId: 'updateContactGroup',
        tags,
        summary: 'Edit a contact group',
        description: 'default_optouts cannot be changed (409).',
        params: ContactGroupParamsSchema,
        body: ContactGroupInputSchema,
        response: { 200: dataOf(ContactGroupSchema), ...errorsOf(401, 404, 409, 422) },
      },
    },
    async (request) => ({ data: await contactGroups.update(callerOf(request), request.params.contact_group_uuid, request.body) }),
  );

  app.delete(
    '/contact-groups/:contact_group_uuid',
    {
      config: { access: 'edit' },
      schema: {
        operationId: 'deleteContactGroup',
        tags,
        summary: 'Delete a contact group and its contacts',
        description: 'Refused (409) for default_optouts and while a keyword adds numbers to the group.',
        params: ContactGroupParamsSchema,
        response: { 204: z.null().describe('Deleted.'), ...errorsOf(401, 404, 409) },
      },
    },
    async (request, reply) => {
      await contactGroups.delete(callerOf(request), request.params.contact_group_uuid);
      return reply.code(204).send(null);
    },
  );
};

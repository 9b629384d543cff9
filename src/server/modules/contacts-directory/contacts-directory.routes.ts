import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ContactDetailSchema,
  ContactDirectoryQuerySchema,
  ContactErasureSchema,
  ContactExportSchema,
  ContactPhoneParamsSchema,
  DirectoryContactSchema,
  dataOf,
  errorsOf,
  pageOf,
  DIRECTORY_CONTACT_SORT,
  pageQueryOf,
} from '../../../shared/contract';
import { callerOf } from '../../http/auth';
import { pageEnvelope, pageWindow } from '../../http/pagination';
import type { ContactsDirectoryService } from './contacts-directory.service';

export const contactsDirectoryRoutes: FastifyPluginAsyncZod<{ directory: ContactsDirectoryService; publicUrl: string }> = async (
  app,
  { directory, publicUrl },
) => {
  const tags = ['Contacts'];

  app.get(
    '/contacts',
    {
      config: { access: 'read', sharedRead: 'team' },
      schema: {
        operationId: 'searchContacts',
        tags,
        summary: "The team's contacts across its groups, one per number",
        description:
          "Herald extension. Every distinct number of the team's groups (default_optouts included), by number, with the groups it is in. `search`: digits the number contains, or text a custom field's value contains.",
        querystring: pageQueryOf(DIRECTORY_CONTACT_SORT).extend(ContactDirectoryQuerySchema.shape),
        response: { 200: pageOf(DirectoryContactSchema), ...errorsOf(401, 422) },
      },
    },
    async (request) => {
      const { items, total } = await directory.search(callerOf(request), pageWindow(request.query), request.query.search);
      return pageEnvelope(request, publicUrl, request.query, total, items);
    },
  );

  app.get(
    '/contacts/:phone_number',
    {
      config: { access: 'read', sharedRead: 'team' },
      schema: {
        operationId: 'showContact',
        tags,
        summary: 'What the team holds about one number',
        description:
          "Herald extension. Its groups with its custom fields in each, the messages of the team's campaigns it received, its clicks, the messages it sent the team, whether it is opted out and its opt-out history (each list newest first, at most 100 items, with its total). 404 when the team holds nothing about the number.",
        params: ContactPhoneParamsSchema,
        response: { 200: dataOf(ContactDetailSchema), ...errorsOf(401, 404) },
      },
    },
    async (request) => ({ data: await directory.detail(callerOf(request), request.params.phone_number) }),
  );

  app.get(
    '/contacts/:phone_number/export',
    {
      config: { access: 'admin', auditExport: true },
      schema: {
        operationId: 'exportContact',
        tags,
        summary: 'Everything the team holds about one number, as a JSON download',
        description: 'Herald extension (GDPR Art. 15 and 20). Complete: nothing is capped. A download (Content-Disposition: attachment). Admins only.',
        params: ContactPhoneParamsSchema,
        response: { 200: dataOf(ContactExportSchema), ...errorsOf(401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { fileName, document } = await directory.export(callerOf(request), request.params.phone_number);
      reply.header('content-disposition', `attachment; filename="${fileName}"`);
      return { data: document };
    },
  );

  app.delete(
    '/contacts/:phone_number',
    {
      // The audit log keeps the answer (the token that replaced the number), never the number: the service records no "before".
      config: { access: 'admin' },
      schema: {
        operationId: 'eraseContact',
        tags,
        summary: 'Erase a number from the team (GDPR Art. 17)',
        description:
          "Herald extension. In one transaction: the number leaves every group of the team, and a random token (`erased_as`) replaces it in the team's messages, clicks, inbound messages, replies and opt-out history, with what was personal beside it (custom fields, message texts, a click's address and user agent); counts and reports keep their totals. An opted-out number stays in default_optouts, without custom fields, so it is never texted again (`kept_as_opt_out`). 404 when the team holds nothing about it; 409 while a message to it is still queued. Admins only.",
        params: ContactPhoneParamsSchema,
        response: { 200: dataOf(ContactErasureSchema), ...errorsOf(401, 403, 404, 409) },
      },
    },
    async (request) => ({ data: await directory.erase(callerOf(request), request.params.phone_number) }),
  );
};

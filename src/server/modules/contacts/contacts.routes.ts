import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AddContactsSchema,
  BulkContactsSchema,
  ContactGroupParamsSchema,
  ContactGroupSchema,
  ContactListQuerySchema,
  ContactSchema,
  errorsOf,
  FlushQuerySchema,
  PageQuerySchema,
  RecipientSchema,
  RemoveContactsSchema,
  UniqueContactsSchema,
  dataOf,
  pageOf,
  CONTACT_SORT,
  pageQueryOf,
} from '../../../shared/contract';
import { callerOf } from '../../http/auth';
import { pageEnvelope, pageWindow } from '../../http/pagination';
import type { ContactsService } from './contacts.service';

// 10,000 contacts with custom fields do not fit the default body limit.
const BATCH_BODY_LIMIT = 16 * 1024 * 1024;

export const contactsRoutes: FastifyPluginAsyncZod<{ contacts: ContactsService; publicUrl: string }> = async (app, { contacts, publicUrl }) => {
  const tags = ['Contact groups'];
  const groupAnswers = { 200: dataOf(ContactGroupSchema), ...errorsOf(401, 404, 409, 422) };

  app.get(
    '/contact-groups/:contact_group_uuid/contacts',
    {
      config: { access: 'read', sharedRead: 'team' },
      schema: {
        operationId: 'listContacts',
        tags,
        summary: "A group's contacts, by phone number",
        params: ContactGroupParamsSchema,
        querystring: pageQueryOf(CONTACT_SORT).extend(ContactListQuerySchema.shape),
        response: { 200: pageOf(ContactSchema), ...errorsOf(401, 404, 422) },
      },
    },
    async (request) => {
      const { items, total } = await contacts.list(callerOf(request), request.params.contact_group_uuid, pageWindow(request.query), request.query.search);
      return pageEnvelope(request, publicUrl, request.query, total, items);
    },
  );

  app.get(
    '/contact-groups/:contact_group_uuid/export.csv',
    {
      config: { access: 'read', auditExport: true },
      schema: {
        operationId: 'exportContactGroup',
        tags,
        summary: "A group's contacts as a CSV download",
        description:
          "Herald extension. Columns `phone_number`, then the group's headers; UTF-8 with a byte order mark; streamed in number order. A cell a spreadsheet would run as a formula starts with `'`.",
        params: ContactGroupParamsSchema,
        response: { 200: z.string().describe('The CSV file (text/csv).'), ...errorsOf(401, 404) },
      },
    },
    async (request, reply) => {
      const file = await contacts.exportCsv(callerOf(request), request.params.contact_group_uuid);
      // Fastify pipes a stream as it is (no serialisation); the schema documents the CSV text it carries.
      const body = Readable.from(file.lines) as unknown as string;
      return reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${file.fileName}"`).send(body);
    },
  );

  app.put(
    '/contact-groups/:contact_group_uuid/add-contacts',
    {
      config: { access: 'edit' },
      bodyLimit: BATCH_BODY_LIMIT,
      schema: {
        operationId: 'addContacts',
        tags,
        summary: 'Add contacts to a group',
        description:
          'Numbers are normalised (national numbers in DEFAULT_COUNTRY); a number already in the group has its custom fields replaced. One invalid number refuses the request (422 naming each row and why); nothing is written then. A number new to default_optouts is recorded as an opt-out (source `dashboard` or `api`).',
        params: ContactGroupParamsSchema,
        body: AddContactsSchema,
        response: groupAnswers,
      },
    },
    async (request) => ({ data: await contacts.add(callerOf(request), request.params.contact_group_uuid, request.body.contacts) }),
  );

  app.put(
    '/contact-groups/:contact_group_uuid/remove-contacts',
    {
      config: { access: 'edit' },
      bodyLimit: BATCH_BODY_LIMIT,
      schema: {
        operationId: 'removeContacts',
        tags,
        summary: 'Remove numbers from a group',
        description:
          'Numbers taken out of default_optouts opt back in: each is recorded in the opt-out history (source `dashboard` or `api`) with `reason`, which the audit log keeps too.',
        params: ContactGroupParamsSchema,
        body: RemoveContactsSchema,
        response: groupAnswers,
      },
    },
    async (request) => {
      const { phone_numbers: phoneNumbers, reason } = request.body;
      return { data: await contacts.remove(callerOf(request), request.params.contact_group_uuid, phoneNumbers, reason) };
    },
  );

  app.put(
    '/contact-groups/:contact_group_uuid/flush',
    {
      config: { access: 'edit' },
      schema: {
        operationId: 'flushContactGroup',
        tags,
        summary: 'Remove every contact of a group',
        description:
          'Emptying default_optouts opts every number in it back in, each recorded in the opt-out history with `reason` (kept in the audit log too).',
        params: ContactGroupParamsSchema,
        querystring: FlushQuerySchema,
        response: groupAnswers,
      },
    },
    async (request) => {
      const { reason } = request.query;
      return { data: await contacts.flush(callerOf(request), request.params.contact_group_uuid, reason) };
    },
  );

  app.post(
    '/contact-groups/bulk-contacts',
    {
      config: { access: 'edit' },
      bodyLimit: BATCH_BODY_LIMIT,
      schema: {
        operationId: 'createContactGroupFromNumbers',
        tags,
        summary: 'Create a group from a list of numbers',
        body: BulkContactsSchema,
        response: { 201: dataOf(ContactGroupSchema), ...errorsOf(401, 422) },
      },
    },
    async (request, reply) => reply.code(201).send({ data: await contacts.bulk(callerOf(request), request.body) }),
  );

  app.post(
    '/contact-groups/unique-contacts',
    {
      config: { access: 'read' },
      schema: {
        operationId: 'uniqueContacts',
        tags,
        summary: 'The distinct numbers a campaign to these groups would reach',
        description: 'Included groups minus excluded groups minus default_optouts, distinct, by phone number; `meta.total` is the count.',
        querystring: PageQuerySchema,
        body: UniqueContactsSchema,
        response: { 200: pageOf(RecipientSchema), ...errorsOf(401, 422) },
      },
    },
    async (request) => {
      const { items, total } = await contacts.unique(callerOf(request), request.body, pageWindow(request.query));
      return pageEnvelope(request, publicUrl, request.query, total, items);
    },
  );
};

import { Readable } from 'node:stream';
import { errorCodes } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ContactGroupParamsSchema, errorsOf, PageQuerySchema, dataOf, pageOf } from '../../../shared/contract';
import {
  ContactImportErrorSchema,
  ContactImportParamsSchema,
  ContactImportSchema,
  IMPORT_MAX_BYTES,
  ImportContactsQuerySchema,
} from '../../../shared/contract/imports';
import { callerOf } from '../../http/auth';
import { pageEnvelope, pageWindow } from '../../http/pagination';
import { ValidationError } from '../../lib/errors';
import type { ImportsService } from './imports.service';

export const importsRoutes: FastifyPluginAsyncZod<{ imports: ImportsService; publicUrl: string }> = async (app, { imports, publicUrl }) => {
  const tags = ['Contact imports'];

  // Only in this plugin (encapsulation): the CSV reaches the handler as the request stream itself,
  // never buffered; the size limit is checked here from Content-Length and again while reading.
  app.addContentTypeParser('text/csv', (request, payload, done) => {
    if (Number(request.headers['content-length']) > IMPORT_MAX_BYTES) return done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE(), undefined);
    done(null, payload);
  });

  app.post(
    '/contact-groups/:contact_group_uuid/imports',
    {
      config: { access: 'edit', rateLimit: { max: 10, bucket: 'contact-imports' } },
      schema: {
        operationId: 'importContacts',
        tags,
        summary: 'Import a CSV file of contacts into a group',
        description: [
          'The request body is the file itself, `Content-Type: text/csv`, up to 1 GiB, streamed. Its first row is the header: `phone_number` (any case) and custom-field names.',
          'Rows with an invalid number or value are left out and listed in the error report (row, value, reason); the other rows are imported: a number already in the group has its custom fields replaced, a number given twice keeps the later row.',
          'The group shows status `Modifying` while the import runs, and receives every valid row in one transaction at the end: a failed or interrupted import leaves it as it was.',
          'Answers when the import has completed; meanwhile `listContactImports` shows its progress. 422 when the header is unusable (nothing is written) or the file is not valid CSV (the import is kept, failed); 409 while another import or change is under way.',
        ].join('\n\n'),
        params: ContactGroupParamsSchema,
        querystring: ImportContactsQuerySchema,
        // Documents the file body for clients; any value passes, the stream is checked while it is read.
        consumes: ['text/csv'],
        body: z.any().describe('The CSV file: header row `phone_number` plus custom-field names, one contact a row.'),
        response: { 201: dataOf(ContactImportSchema), ...errorsOf(401, 404, 409, 413, 422) },
      },
    },
    async (request, reply) => {
      const body = request.body === undefined ? Readable.from([]) : request.body;
      if (!(body instanceof Readable)) throw ValidationError.field('file', 'Send the CSV file as the request body with Content-Type: text/csv.');
      const length = request.headers['content-length'];
      const upload = { body, bytesTotal: length === undefined ? null : Number(length), fileName: request.query.file_name ?? null };
      return reply.code(201).send({ data: await imports.importCsv(callerOf(request), request.params.contact_group_uuid, upload) });
    },
  );

  app.get(
    '/contact-groups/:contact_group_uuid/imports',
    {
      config: { access: 'read', sharedRead: 'team' },
      schema: {
        operationId: 'listContactImports',
        tags,
        summary: "A group's imports, newest first",
        params: ContactGroupParamsSchema,
        querystring: PageQuerySchema,
        response: { 200: pageOf(ContactImportSchema), ...errorsOf(401, 404, 422) },
      },
    },
    async (request) => {
      const { items, total } = await imports.listOfGroup(callerOf(request), request.params.contact_group_uuid, pageWindow(request.query));
      return pageEnvelope(request, publicUrl, request.query, total, items);
    },
  );

  app.get(
    '/contact-imports/:import_uuid',
    {
      config: { access: 'read', sharedRead: 'team' },
      schema: {
        operationId: 'showContactImport',
        tags,
        summary: 'An import: status, progress and counts',
        params: ContactImportParamsSchema,
        response: { 200: dataOf(ContactImportSchema), ...errorsOf(401, 404) },
      },
    },
    async (request) => ({ data: await imports.show(callerOf(request), request.params.import_uuid) }),
  );

  app.get(
    '/contact-imports/:import_uuid/errors',
    {
      config: { access: 'read', sharedRead: 'team' },
      schema: {
        operationId: 'listContactImportErrors',
        tags,
        summary: 'Rows an import left out, in file order',
        params: ContactImportParamsSchema,
        querystring: PageQuerySchema,
        response: { 200: pageOf(ContactImportErrorSchema), ...errorsOf(401, 404, 422) },
      },
    },
    async (request) => {
      const { items, total } = await imports.errors(callerOf(request), request.params.import_uuid, pageWindow(request.query));
      return pageEnvelope(request, publicUrl, request.query, total, items);
    },
  );

  app.get(
    '/contact-imports/:import_uuid/errors.csv',
    {
      config: { access: 'read' },
      schema: {
        operationId: 'downloadContactImportErrors',
        tags,
        summary: 'Rows an import left out, as a CSV download',
        description: "Columns `row,value,reason`; UTF-8 with a byte order mark. A cell a spreadsheet would run as a formula starts with `'`.",
        params: ContactImportParamsSchema,
        response: { 200: z.string().describe('The CSV file (text/csv).'), ...errorsOf(401, 404) },
      },
    },
    async (request, reply) => {
      const report = await imports.errorsCsv(callerOf(request), request.params.import_uuid);
      // Fastify pipes a stream as it is (no serialisation); the schema documents the CSV text it carries.
      const file = Readable.from(report.lines) as unknown as string;
      return reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${report.fileName}"`).send(file);
    },
  );
};

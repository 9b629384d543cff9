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
  XLSX_CONTENT_TYPE,
  ImportContactsQuerySchema,
  ImportOptionsQuerySchema,
  ImportPreviewSchema,
} from '../../../shared/contract/imports';
import { callerOf } from '../../http/auth';
import { pageEnvelope, pageWindow } from '../../http/pagination';
import { ValidationError } from '../../lib/errors';
import type { ImportsService } from './imports.service';

export const importsRoutes: FastifyPluginAsyncZod<{ imports: ImportsService; publicUrl: string }> = async (app, { imports, publicUrl }) => {
  const tags = ['Contact imports'];

  // Only in this plugin (encapsulation): the CSV reaches the handler as the request stream itself,
  // never buffered; the size limit is checked here from Content-Length and again while reading.
  app.addContentTypeParser(['text/csv', XLSX_CONTENT_TYPE], (request, payload, done) => {
    if (Number(request.headers['content-length']) > IMPORT_MAX_BYTES) return done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE(), undefined);
    done(null, payload);
  });
  /** The upload's format, from its Content-Type. */
  const formatOf = (contentType: string | undefined): 'csv' | 'xlsx' => (contentType?.toLowerCase().startsWith(XLSX_CONTENT_TYPE) ? 'xlsx' : 'csv');

  app.post(
    '/contact-groups/:contact_group_uuid/imports',
    {
      config: { access: 'edit', rateLimit: { max: 10, bucket: 'contact-imports' } },
      schema: {
        operationId: 'importContacts',
        tags,
        summary: 'Import a CSV file or an XLSX workbook of contacts into a group',
        description: [
          'The request body is the file itself, `Content-Type: text/csv`, up to 1 GiB, streamed. It is read as it comes from a spreadsheet or a CRM: the encoding (a byte order mark, UTF-8, else Windows-1252 and the like), the delimiter (`,` `;` tab `|`), quoted cells and CRLF are recognised; the phone column is found by its header (phone_number, phone, mobile, msisdn, cell, telephone, tel, number — any case, spaces or underscores) or else by its cells; the other headers become custom fields in snake_case (`First Name` → `first_name`), or keep the spelling of a field the group has. A file of numbers without a header is read too. The query options override each guess; `previewContactImport` shows them without importing.',
          'An XLSX workbook is sent with `Content-Type: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet` and read as it streams: its first sheet, or the one named by `sheet`; cells are read as shown (numbers in full, dates as `YYYY-MM-DD`, a formula as its result), with the same mapping.',
          'Rows with an invalid number or value are left out and listed in the error report (row, value, reason); the other rows are imported: a number already in the group has its custom fields replaced, a number given twice keeps the later row.',
          'The group shows status `Modifying` while the import runs, and receives every valid row in one transaction at the end: a failed or interrupted import leaves it as it was.',
          'Answers when the import has completed; meanwhile `listContactImports` shows its progress. 422 when no phone column is found (the message lists the headers and the delimiter it read), an option names what the file does not have, or the header is unusable (nothing is written), or the file is not valid CSV (the import is kept, failed); 409 while another import or change is under way.',
        ].join('\n\n'),
        params: ContactGroupParamsSchema,
        querystring: ImportContactsQuerySchema,
        // Documents the file body for clients; any value passes, the stream is checked while it is read.
        consumes: ['text/csv', XLSX_CONTENT_TYPE],
        body: z.any().describe('The CSV file or XLSX workbook: a header row (a phone column and custom-field names), one contact a row.'),
        response: { 201: dataOf(ContactImportSchema), ...errorsOf(401, 404, 409, 413, 422) },
      },
    },
    async (request, reply) => {
      const body = request.body === undefined ? Readable.from([]) : request.body;
      if (!(body instanceof Readable)) throw ValidationError.field('file', 'Send the CSV file as the request body with Content-Type: text/csv.');
      const length = request.headers['content-length'];
      const { file_name: fileName, empty_cells_clear: emptyCellsClear, ...options } = request.query;
      const upload = {
        body,
        bytesTotal: length === undefined ? null : Number(length),
        fileName: fileName ?? null,
        format: formatOf(request.headers['content-type']),
        options,
        emptyCellsClear,
      };
      return reply.code(201).send({ data: await imports.importCsv(callerOf(request), request.params.contact_group_uuid, upload) });
    },
  );

  app.post(
    '/contact-groups/:contact_group_uuid/imports/preview',
    {
      config: { access: 'edit', rateLimit: { max: 60, bucket: 'contact-import-previews' } },
      schema: {
        operationId: 'previewContactImport',
        tags,
        summary: 'How a file would be imported, without importing it',
        description: [
          'Reads the start of the file (64 KiB or 60 lines; the rest of the body is discarded) and answers how `importContacts` would read it with the same options: the encoding, the delimiter, the phone column and how it was found, what every other column becomes, and the first rows with the number each would store or why it would be left out. Nothing is written.',
          '422 when no phone column is found (the message lists the headers and the delimiter it read) or an option names what the file does not have.',
        ].join('\n\n'),
        params: ContactGroupParamsSchema,
        querystring: ImportOptionsQuerySchema,
        consumes: ['text/csv', XLSX_CONTENT_TYPE],
        body: z.any().describe('The CSV file or XLSX workbook (a CSV may be cut after its first part).'),
        response: { 200: dataOf(ImportPreviewSchema), ...errorsOf(401, 404, 413, 422) },
      },
    },
    async (request) => {
      const body = request.body === undefined ? Readable.from([]) : request.body;
      if (!(body instanceof Readable)) throw ValidationError.field('file', 'Send the CSV file as the request body with Content-Type: text/csv.');
      return {
        data: await imports.preview(callerOf(request), request.params.contact_group_uuid, body, formatOf(request.headers['content-type']), request.query),
      };
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

import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AuditEventSchema, AuditQuerySchema, errorsOf, pageOf, AUDIT_EVENT_SORT, pageQueryOf } from '../../../shared/contract';
import { callerOf } from '../../http/auth';
import { pageEnvelope, pageWindow } from '../../http/pagination';
import type { AuditService } from './audit.service';

export const auditRoutes: FastifyPluginAsyncZod<{ audit: AuditService; publicUrl: string }> = async (app, { audit, publicUrl }) => {
  const tags = ['Audit log'];

  app.get(
    '/audit-events',
    {
      config: { access: 'read' },
      schema: {
        operationId: 'listAuditEvents',
        tags,
        summary: "The team's audit log",
        description:
          'Herald extension. Every change made through the API (who, when, what, the fields before and after), sign-ins and failed sign-ins, token creation and revocation, approvals, pauses and refused edits; newest first. Nobody can change or delete an event.',
        querystring: pageQueryOf(AUDIT_EVENT_SORT).extend(AuditQuerySchema.shape),
        response: { 200: pageOf(AuditEventSchema), ...errorsOf(401, 422) },
      },
    },
    async (request) => {
      const { items, total } = await audit.list(callerOf(request), request.query, pageWindow(request.query));
      return pageEnvelope(request, publicUrl, request.query, total, items);
    },
  );

  app.get(
    '/audit-events.csv',
    {
      config: { access: 'read' },
      schema: {
        operationId: 'exportAuditEvents',
        tags,
        summary: "The team's audit log as CSV",
        description: 'Every event the filters match, newest first, as a spreadsheet reads it (cells that would start a formula are neutralised).',
        querystring: AuditQuerySchema,
        response: { 200: z.string().describe('The CSV file (text/csv), UTF-8 with a byte order mark, one event a line.'), ...errorsOf(401, 422) },
      },
    },
    async (request, reply) => {
      const auth = callerOf(request);
      const lines = audit.csv(auth, request.query);
      // The first chunk (the header, after the filters are checked) before the status is sent, so a bad filter is a 422.
      const first = await lines.next();
      // Fastify pipes a stream as it is (no serialisation); the schema documents the CSV text it carries.
      const body = Readable.from(
        (async function* () {
          if (!first.done) yield `\uFEFF${first.value}`;
          yield* lines;
        })(),
      ) as unknown as string;
      return reply.type('text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="audit-log.csv"').send(body);
    },
  );
};

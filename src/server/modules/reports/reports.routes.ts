import fs from 'node:fs';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  errorsOf,
  PageQuerySchema,
  REPORT_ROW_SCHEMAS,
  REPORT_TYPES,
  ReportDownloadParamsSchema,
  ReportDownloadQuerySchema,
  ReportJobSchema,
  ReportParamsSchema,
  pageOf,
} from '../../../shared/contract';
import { callerOf } from '../../http/auth';
import { pageEnvelope, pageWindow } from '../../http/pagination';
import type { ReportsService } from './reports.service';

const TITLES = {
  clicks: ['Clicks', 'one row per click on a tracked link'],
  delivery: ['Delivery', 'one row per message: its copy and delivery status'],
  alt_delivery: ['AltDelivery', 'one row per message: custom fields, sent and last-update times, status'],
  recipient: ['Recipient', 'one row per recipient: the group it came from and its custom fields'],
  sent: ['Sent', 'one row per campaign send: sender, time, recipient count and the template'],
  unsent: ['Unsent', 'one row per message never sent: the campaign expired or was stopped first, the number opted out, or quiet hours lasted past the expiry'],
} as const;

export const reportsRoutes: FastifyPluginAsyncZod<{ reports: ReportsService; publicUrl: string }> = async (app, { reports, publicUrl }) => {
  const tags = ['Reports'];

  // One route per type (a path of its own each): every report has its exact row schema in the contract.
  for (const type of REPORT_TYPES) {
    const [title, what] = TITLES[type];
    app.get(
      `/reporting/:campaign_uuid/${type}`,
      {
        config: { access: 'read', sharedRead: 'team' },
        schema: {
          operationId: `get${title}Report`,
          tags,
          summary: `The ${type} report: ${what}`,
          description: 'Keys equal the CSV column headers. Stable order; any page is read as an index range, so deep pages are as fast as the first.',
          params: ReportParamsSchema,
          querystring: PageQuerySchema,
          response: { 200: pageOf(REPORT_ROW_SCHEMAS[type]), ...errorsOf(401, 404, 422) },
        },
      },
      async (request) => {
        const { rows, total } = await reports.page(callerOf(request), request.params.campaign_uuid, type, pageWindow(request.query));
        return pageEnvelope(request, publicUrl, request.query, total, rows);
      },
    );

    app.post(
      `/reporting/:campaign_uuid/${type}`,
      {
        config: { access: 'report', rateLimit: { max: 10, bucket: 'report' } },
        schema: {
          operationId: `request${title}Report`,
          tags,
          summary: `E-mail the ${type} report as CSV`,
          description:
            '202, no body. A job writes the CSV and e-mails a signed download link (valid 7 days, no token needed) to the calling user; `GET /report-jobs/` follows it.',
          params: ReportParamsSchema,
          response: { 202: z.null().describe('Accepted: the e-mail follows.'), ...errorsOf(401, 404, 429) },
        },
      },
      async (request, reply) => {
        await reports.request(callerOf(request), request.params.campaign_uuid, type);
        // No body at all (docs/interface.md §4.1): an undefined payload skips serialisation, which `null` would not.
        return reply.code(202).send(undefined as unknown as null);
      },
    );
  }

  app.get(
    '/report-jobs/',
    {
      config: { access: 'read' },
      schema: {
        operationId: 'listReportJobs',
        tags,
        summary: 'Reports you asked for by e-mail in this team, newest first',
        querystring: PageQuerySchema,
        response: { 200: pageOf(ReportJobSchema), ...errorsOf(401, 422) },
      },
    },
    async (request) => {
      const { items, total } = await reports.jobs(callerOf(request), pageWindow(request.query));
      return pageEnvelope(request, publicUrl, request.query, total, items);
    },
  );

  app.get(
    '/report-downloads/:job_uuid',
    {
      config: { access: 'public' },
      schema: {
        operationId: 'downloadReport',
        tags,
        summary: 'Download a report CSV through its e-mailed link',
        description: 'No token: the link is signed. 403 when the signature does not match, 410 once it expired.',
        params: ReportDownloadParamsSchema,
        querystring: ReportDownloadQuerySchema,
        response: {
          200: z.string().describe('The CSV (text/csv; UTF-8 with a byte-order mark).'),
          ...errorsOf(403),
          ...errorsOf(404),
          ...errorsOf(410),
        },
      },
    },
    async (request, reply) => {
      const { filePath, downloadName } = await reports.download(request.params.job_uuid, request.query.expires, request.query.signature);
      reply.header('content-type', 'text/csv; charset=utf-8');
      reply.header('content-disposition', `attachment; filename="${downloadName}"`);
      reply.header('cache-control', 'private, no-store');
      // A stream is sent as it is (no serialisation); the schema above documents what it carries.
      return reply.send(fs.createReadStream(filePath) as unknown as string);
    },
  );
};

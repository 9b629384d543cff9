import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CampaignReportListItemSchema,
  CampaignReportSummarySchema,
  dataOf,
  errorsOf,
  PageQuerySchema,
  REPORT_FILTER_SCHEMAS,
  REPORT_FORMATS,
  REPORT_ROW_SCHEMAS,
  REPORT_TYPES,
  ReportDownloadParamsSchema,
  ReportDownloadQuerySchema,
  ReportJobSchema,
  ReportParamsSchema,
  ReportSummariesQuerySchema,
  pageOf,
  type ReportFilters,
  type ReportFormat,
  type ReportType,
} from '../../../shared/contract';
import { callerOf } from '../../http/auth';
import { pageEnvelope, pageWindow } from '../../http/pagination';
import type { ReportsService } from './reports.service';

/** What each report's page can be filtered by (Herald extensions), for its description. */
const FILTERS = {
  delivery: ['status', 'search'],
  alt_delivery: ['status', 'search'],
  recipient: ['search'],
  sent: [],
  unsent: ['reason', 'search'],
  clicks: ['search'],
} as const;

const EXTENSIONS = {
  delivery: ' Beside the CSV’s columns, each row carries `failure_reason`, `sent_at` and `delivered_at` (Herald extensions, not in the CSV).',
  alt_delivery: ' Beside the CSV’s columns, each row carries `failure_reason` (a Herald extension, not in the CSV).',
} as Partial<Record<ReportType, string>>;

const TITLES = {
  clicks: ['Clicks', 'one row per click on a tracked link'],
  delivery: ['Delivery', 'one row per message: its copy and delivery status'],
  alt_delivery: ['AltDelivery', 'one row per message: custom fields, sent and last-update times, status'],
  recipient: ['Recipient', 'one row per recipient: the group it came from and its custom fields'],
  sent: ['Sent', 'one row per campaign send: sender, time, recipient count and the template'],
  unsent: ['Unsent', 'one row per message never sent: the campaign expired or was stopped first, the number opted out, or quiet hours lasted past the expiry'],
} as const;

/** The filters of a report's query, as the service reads them (the filters a type does not take are undefined). */
const filtersOf = (query: object): ReportFilters => {
  const { status, reason, search } = query as ReportFilters;
  return { status, reason, search };
};

/** A report's filters, for its descriptions. */
const filtersSentence = (type: ReportType, counted: string) => {
  const filters = FILTERS[type] as readonly string[];
  return filters.length === 0 ? '' : ` Filters (Herald extensions): ${filters.map((name) => `\`${name}\``).join(', ')}; ${counted}`;
};

/** What each streamed format is sent as, and says of itself. */
const STREAMS = {
  csv: {
    contentType: 'text/csv; charset=utf-8',
    operation: 'Csv',
    body: "The CSV the report e-mail carries: UTF-8 with a byte-order mark, the header, then a line (CRLF) a row with exactly the interface’s columns; a cell a spreadsheet would run as a formula starts with `'`.",
    sent: 'The CSV (`text/csv; charset=utf-8`, `Content-Disposition: attachment`).',
  },
  ndjson: {
    contentType: 'application/x-ndjson',
    operation: 'Ndjson',
    body: 'NDJSON: a line (LF) a row, each the JSON object a report page has for it (the Herald extensions included); nothing before the first row or after the last.',
    sent: 'NDJSON (`application/x-ndjson`): one JSON object a line.',
  },
} as const satisfies Record<ReportFormat, unknown>;

export const reportsRoutes: FastifyPluginAsyncZod<{ reports: ReportsService; publicUrl: string }> = async (app, { reports, publicUrl }) => {
  const tags = ['Reports'];

  app.get(
    '/reporting/summaries',
    {
      config: { access: 'read', sharedRead: 'team' },
      schema: {
        operationId: 'listCampaignReportSummaries',
        tags,
        summary: 'The report summaries of the team’s campaigns that have started, last started first',
        description:
          'Herald extension. One statement for the page: each campaign’s delivery, click and opt-out figures and rates side by side (send tests left out). `search` finds campaigns by name. The failed/expired split is left to `GET /reporting/{campaign_uuid}/summary`.',
        querystring: PageQuerySchema.extend(ReportSummariesQuerySchema.shape),
        response: { 200: pageOf(CampaignReportListItemSchema), ...errorsOf(401, 422) },
      },
    },
    async (request) => {
      const { items, total } = await reports.summaries(callerOf(request), pageWindow(request.query), request.query.search || undefined);
      return pageEnvelope(request, publicUrl, request.query, total, items, { search: request.query.search });
    },
  );

  app.get(
    '/reporting/:campaign_uuid/summary',
    {
      config: { access: 'read', sharedRead: 'team' },
      schema: {
        operationId: 'getCampaignReportSummary',
        tags,
        summary: 'What a campaign’s reports add up to: delivery by status, clicks by people and bots, opt-outs, and their rates',
        description:
          'Herald extension. `delivered`, `failed`, `expired` and `pending` equal the totals of the delivery report filtered by `status`. Read from the campaign’s counters, but for the failed/expired split of a campaign that expired with failures, which reads its messages.',
        params: ReportParamsSchema,
        response: { 200: dataOf(CampaignReportSummarySchema), ...errorsOf(401, 404) },
      },
    },
    async (request) => ({ data: await reports.summary(callerOf(request), request.params.campaign_uuid) }),
  );

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
          description:
            'Keys equal the CSV column headers. Stable order; any page is read as an index range, so deep pages are as fast as the first.' +
            (EXTENSIONS[type] ?? '') +
            filtersSentence(
              type,
              '`meta.total` then counts the rows that match. A filtered page reads the campaign’s rows in order and tests each, and counts them: it costs more the larger the campaign.',
            ),
          params: ReportParamsSchema,
          querystring: PageQuerySchema.extend(REPORT_FILTER_SCHEMAS[type].shape),
          response: { 200: pageOf(REPORT_ROW_SCHEMAS[type]), ...errorsOf(401, 404, 422) },
        },
      },
      async (request) => {
        const chosen = filtersOf(request.query);
        const { rows, total } = await reports.page(callerOf(request), request.params.campaign_uuid, type, pageWindow(request.query), chosen);
        return pageEnvelope(request, publicUrl, request.query, total, rows, chosen);
      },
    );

    for (const format of REPORT_FORMATS) {
      const stream = STREAMS[format];
      app.get(
        `/reporting/:campaign_uuid/${type}.${format}`,
        {
          config: { access: 'read', auditExport: true },
          schema: {
            operationId: `stream${title}Report${stream.operation}`,
            tags,
            summary: `The whole ${type} report in one answer, as ${format === 'csv' ? 'CSV' : 'NDJSON'}`,
            description:
              `Herald extension. Every row of the report, streamed as it is read from the database (no page loop, no e-mail), in the report’s order. ${stream.body}` +
              filtersSentence(type, 'the answer then holds only the rows that match (a filtered report reads all the campaign’s rows to find them).') +
              ' An error before the first byte is answered as JSON in the error shape; one after it closes the connection before the chunked body’s end (never an error appended to the rows), so a transfer that ends cleanly holds the whole report.',
            params: ReportParamsSchema,
            querystring: REPORT_FILTER_SCHEMAS[type],
            response: {
              200: { description: stream.sent, content: { [stream.contentType.split(';')[0]!]: { schema: z.string().describe(stream.sent) } } },
              ...errorsOf(401, 404, 422),
            },
          },
        },
        async (request, reply) => {
          const { fileName, text } = await reports.stream(callerOf(request), request.params.campaign_uuid, type, format, filtersOf(request.query));
          reply.header('content-type', stream.contentType);
          if (format === 'csv') reply.header('content-disposition', `attachment; filename="${fileName}"`);
          // Sent as it is read, as fast as the client takes it (a pipe: the reads wait while the socket is full).
          // A failure once the answer has started destroys the connection (Fastify's stream handling): never JSON after rows.
          return reply.send(Readable.from(text, { objectMode: false }) as unknown as string);
        },
      );
    }

    app.post(
      `/reporting/:campaign_uuid/${type}`,
      {
        config: { access: 'report', rateLimit: { max: 10, bucket: 'report' } },
        schema: {
          operationId: `request${title}Report`,
          tags,
          summary: `E-mail the ${type} report as CSV`,
          description:
            '202, no body. A job writes the CSV and e-mails a signed download link (valid 7 days, no token needed) to the calling user. `Location` names the job (`showReportJob`), which follows it until its link is sent; `GET /report-jobs/` lists them all.' +
            filtersSentence(
              type,
              'the same as the report’s page: the CSV then holds only the rows that match, and the job (`filters`) and its e-mail name them.',
            ),
          params: ReportParamsSchema,
          querystring: REPORT_FILTER_SCHEMAS[type],
          response: { 202: z.null().describe('Accepted: the e-mail follows.'), ...errorsOf(401, 404, 422, 429) },
        },
      },
      async (request, reply) => {
        const job = await reports.request(callerOf(request), request.params.campaign_uuid, type, filtersOf(request.query));
        reply.header('Location', `${publicUrl}/api/2.0/report-jobs/${job}`);
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
    '/report-jobs/:job_uuid',
    {
      config: { access: 'read' },
      schema: {
        operationId: 'showReportJob',
        tags,
        summary: 'One report you asked for by e-mail: where it stands',
        description: 'The `Location` of a report request. 404 for a job of another user or team, like an unknown one.',
        params: ReportDownloadParamsSchema,
        response: { 200: dataOf(ReportJobSchema), ...errorsOf(401, 404) },
      },
    },
    async (request) => ({ data: await reports.job(callerOf(request), request.params.job_uuid) }),
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
      const { stream, bytes, downloadName } = await reports.download(request.params.job_uuid, request.query.expires, request.query.signature);
      reply.header('content-type', 'text/csv; charset=utf-8');
      reply.header('content-length', bytes);
      reply.header('content-disposition', `attachment; filename="${downloadName}"`);
      reply.header('cache-control', 'private, no-store');
      // A stream is sent as it is (no serialisation); the schema above documents what it carries.
      // Read from the database part by part (report-downloads.ts): a missing part cuts the download off.
      return reply.send(stream as unknown as string);
    },
  );
};

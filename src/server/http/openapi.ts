import { createRequire } from 'node:module';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorBodySchema, EVENT_SCHEMAS, EVENT_SUMMARIES } from '../../shared/contract';
import { hasEtag } from './etags';
import type { Access } from './auth';
import { CSRF_COOKIE, SESSION_COOKIE } from './session-cookies';

const DESCRIPTION = [
  'The Herald API: SMS campaigns from template to report. It implements the Messaging Campaign Service interface (`/api/2.0`).',
  '',
  'Every request but signing in carries `Authorization: Bearer <token>`: a personal API token (`hrld_…`, made with `POST /api/2.0/tokens` or the CLI) or the token of `POST /api/2.0/auth/login`. The dashboard signs in with `POST /api/2.0/auth/session` instead and sends the `herald_session` cookie, with `X-CSRF-Token` on every change.',
  'Errors have one shape: `{"error":{"code","http_code","message","errors","request_id"}}`, `errors` only on 422. Lists are paginated with `page` and `per_page` (1–100, default 15) and ordered with `sort` where they take it. A single resource answers an `ETag`; `If-None-Match` with it answers 304 while the resource is unchanged.',
  'Paths are written here without a trailing slash; the interface’s own spelling with one (`/api/2.0/campaigns/`) is the same path and answers the same.',
].join('\n');

/** The one answer every failure of the API has (docs/api-conventions.md, Answers and errors), by status. */
const ERROR_ANSWERS: Record<number, string> = {
  400: 'The request cannot be read: JSON that does not parse, or a body that is not UTF-8.',
  401: 'No valid credentials: send `Authorization: Bearer <token>` (or the dashboard’s session cookie).',
  403: 'The caller’s role in the team, or a read-only token, does not allow this; or a change sent with the session cookie but without its `X-CSRF-Token`.',
  404: 'Nothing with this identifier in the caller’s team (unknown, another team’s, or not an identifier at all).',
  409: 'The resource’s state forbids the request.',
  410: 'The resource is gone for good.',
  413: 'The request body is too large.',
  415: 'The request body is of a type this operation does not read.',
  422: 'The input does not validate: `errors` names each field (as the request spells it) with its messages.',
  423: 'The resource is locked while a campaign sends.',
  429: 'Too many requests: try again after `Retry-After` seconds.',
};

const RETRY_AFTER = { 'Retry-After': { type: 'integer', description: 'Seconds to wait before trying again.' } };

const READS = new Set(['GET', 'HEAD']);

const ETAG = {
  ETag: { type: 'string', description: 'The tag of this answer’s body: send it back in `If-None-Match` to be told 304 while the resource is unchanged.' },
};
const NOT_MODIFIED = 'Not modified: the resource is still the one `If-None-Match` names (no body).';
const IF_NONE_MATCH = z.object({
  'if-none-match': z
    .string()
    .optional()
    .describe('The `ETag` of an earlier answer (or several, comma-separated): while the resource is unchanged the answer is 304 with no body.'),
});

type DocumentedRoute = { method: string | string[]; url: string; config?: { access?: Access }; schema?: Record<string, unknown> };

/**
 * The failures every operation of the API may answer, from what the route is rather than what each
 * route remembers to list: 401 unless it is public, 403 where a role or a read-only token can be
 * refused, 404 where the path names something, 413 and 415 where it reads a body, 422 where it
 * validates input (a body, a query or a header), and 429 everywhere (every request is counted).
 */
export function errorStatusesOf(route: DocumentedRoute): number[] {
  const access = route.config?.access;
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  const schema = route.schema ?? {};
  const statuses: number[] = [];
  if (access !== 'public') statuses.push(401);
  if (access === 'edit' || access === 'admin' || (access !== 'public' && !methods.every((method) => READS.has(method)))) statuses.push(403);
  if (/\/[:{]/.test(route.url)) statuses.push(404);
  if (schema.body !== undefined) statuses.push(413, 415);
  if (schema.body !== undefined || schema.querystring !== undefined || schema.headers !== undefined) statuses.push(422);
  statuses.push(429);
  return statuses;
}

/** The documented path of a route: without a trailing slash (the router serves both spellings alike). */
export const documentedPath = (url: string): string => (url.length > 1 && url.endsWith('/') ? url.slice(0, -1) : url);

type SwaggerTransformInput = Parameters<typeof jsonSchemaTransform>[0] & { route: DocumentedRoute };

/**
 * Each route as the document shows it, decided here once so that a route added later is documented
 * alike: its path without the trailing slash, `security: []` when it is public, every failure it
 * can answer (`errorStatusesOf`, and those it declares) in the house error shape with a sentence,
 * `Retry-After` on the 429, and on single-resource reads (`hasEtag`) the ETag, If-None-Match and 304.
 * Only the document's copy of the schema changes: what the route validates and serialises is its own.
 */
function documentRoute(input: SwaggerTransformInput) {
  const { route } = input;
  if (!input.schema || input.schema.hide || !input.url.startsWith('/api/2.0/')) return jsonSchemaTransform(input);
  const declared = (input.schema.response ?? {}) as Record<string, unknown>;
  const response: Record<string, unknown> = { ...declared };
  const statuses = new Set([
    ...Object.keys(declared)
      .map(Number)
      .filter((status) => status >= 400),
    ...errorStatusesOf(route),
  ]);
  for (const status of [...statuses].sort((x, y) => x - y)) {
    // A route's own answer for a status stays, unless it is the house error shape (then it gets its sentence).
    if (declared[status] !== undefined && declared[status] !== ErrorBodySchema) continue;
    response[status] = { description: ERROR_ANSWERS[status] ?? 'The request failed.', content: { 'application/json': { schema: ErrorBodySchema } } };
  }
  const etag = hasEtag(route);
  if (etag) response[304] = z.null().describe(NOT_MODIFIED);
  const headers = etag ? IF_NONE_MATCH.extend(((input.schema.headers as z.ZodObject | undefined) ?? z.object({})).shape) : input.schema.headers;
  const schema = { ...input.schema, response, ...(headers ? { headers } : {}), ...(route.config?.access === 'public' ? { security: [] } : {}) };
  const transformed = jsonSchemaTransform({ ...input, schema });
  const answers = (transformed.schema as { response?: Record<string, Record<string, unknown>> }).response;
  if (answers?.[429]) answers[429] = { ...answers[429], headers: RETRY_AFTER };
  if (etag && answers?.[200]) answers[200] = { ...answers[200], headers: ETAG };
  return { schema: transformed.schema, url: documentedPath(transformed.url) };
}

type JsonObject = { [key: string]: unknown };

/** The component schemas the operations and webhooks reach (through other schemas too); the others are left out of the document. */
function withoutUnusedSchemas(document: JsonObject): JsonObject {
  const components = (document.components ?? {}) as { schemas?: Record<string, unknown> };
  const schemas = components.schemas ?? {};
  const reached = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (value === null || typeof value !== 'object') return;
    for (const [key, inner] of Object.entries(value)) {
      if (key === '$ref' && typeof inner === 'string' && inner.startsWith('#/components/schemas/')) {
        const name = inner.slice('#/components/schemas/'.length);
        if (!reached.has(name)) {
          reached.add(name);
          visit(schemas[name]);
        }
      } else visit(inner);
    }
  };
  visit(document.paths);
  visit(document.webhooks);
  return { ...document, components: { ...components, schemas: Object.fromEntries(Object.entries(schemas).filter(([name]) => reached.has(name))) } };
}

/** The Standard Webhooks headers of every call to an event endpoint (docs/events.md, Signatures). */
const SIGNATURE_HEADERS = [
  {
    name: 'webhook-id',
    description:
      'The delivery’s identifier (its `uuid` in the API): the same on every attempt of the delivery, so a receiver drops one it has already handled.',
    schema: { type: 'string', format: 'uuid' },
  },
  { name: 'webhook-timestamp', description: 'When the attempt was signed, in Unix seconds.', schema: { type: 'string', pattern: '^[0-9]+$' } },
  {
    name: 'webhook-signature',
    description:
      '`v1,` and the base64 HMAC-SHA256 of `webhook-id`, `.`, `webhook-timestamp`, `.` and the raw body, under the bytes of the endpoint’s secret (`whsec_…`). During the 24 hours after a rotation, two such signatures separated by a space, one per secret. Any Standard Webhooks library checks it.',
    schema: { type: 'string', pattern: '^v1,[A-Za-z0-9+/=]+( v1,[A-Za-z0-9+/=]+)*$' },
  },
];

const operationIdOf = (type: string) => type.replace(/[._](\w)/g, (_match, letter: string) => letter.toUpperCase()) + 'Event';

/**
 * The calls Herald makes to event endpoints, one webhook per event type keyed by the type: its body
 * (the type's schema in src/shared/contract/events.ts, a component the transform object wrote from the
 * zod registry), the signature headers, and what the receiver's answer means. Integrators generate
 * their types from these.
 */
function eventWebhooks(): JsonObject {
  return Object.fromEntries(
    Object.entries(EVENT_SCHEMAS).map(([type, schema]) => [
      type,
      {
        post: {
          operationId: operationIdOf(type),
          summary: EVENT_SUMMARIES[type],
          description: `${schema.meta()?.description ?? ''} Signed per Standard Webhooks: the headers below.`,
          tags: ['Events'],
          // No bearer token: the signature headers prove the call is Herald's.
          security: [],
          parameters: SIGNATURE_HEADERS.map((header) => ({ in: 'header', required: true, ...header })),
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema.meta()?.id}` } } } },
          responses: {
            '2XX': { description: 'Taken: the delivery is done. Answer within `WEBHOOK_TIMEOUT_MS` (10 s).' },
            '4XX': { description: 'Not taken: retried with back-off for 24 hours from the first attempt, like any other answer but a 2xx (or none in time).' },
            '5XX': { description: 'Not taken: retried, as for a 4xx.' },
          },
        },
      },
    ]),
  );
}

/** Registers the OpenAPI generator; must come before the routes it documents. */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Herald API',
        version: '2.0',
        description: DESCRIPTION,
        // The project grants no licence (package.json is private): said here rather than left out.
        license: { name: 'Proprietary: no licence is granted', identifier: 'LicenseRef-Herald-Proprietary' },
      },
      // Relative: the Herald that serves the document (its PUBLIC_URL); the paths start with /api/2.0.
      servers: [{ url: '/', description: 'The Herald serving this document: its own address (PUBLIC_URL).' }],
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'A personal API token (`hrld_…`) or the token of `POST /api/2.0/auth/login`.' },
          sessionCookie: {
            type: 'apiKey',
            in: 'cookie',
            name: SESSION_COOKIE,
            description: `The dashboard's session, set by \`POST /api/2.0/auth/session\`. A change (any method but GET) must also carry \`X-CSRF-Token\` with the value of the \`${CSRF_COOKIE}\` cookie. A bearer token, when sent, wins.`,
          },
        },
      },
      security: [{ bearerAuth: [] }, { sessionCookie: [] }],
    },
    transform: documentRoute as unknown as typeof jsonSchemaTransform,
    transformObject: (input) =>
      withoutUnusedSchemas({ ...(jsonSchemaTransformObject(input) as JsonObject), webhooks: eventWebhooks() }) as ReturnType<typeof jsonSchemaTransformObject>,
  });
}

const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Herald API reference</title>
<link rel="stylesheet" href="/api/docs/assets/swagger-ui.css">
<link rel="icon" href="/api/docs/assets/favicon-32x32.png">
</head>
<body>
<div id="reference"></div>
<script src="/api/docs/assets/swagger-ui-bundle.js"></script>
<script src="/api/docs/init.js"></script>
</body>
</html>
`;

const DOCS_INIT = `window.ui = SwaggerUIBundle({ url: '/api/2.0/openapi.json', dom_id: '#reference', deepLinking: true, persistAuthorization: false });\n`;

/** Serves the document at /api/2.0/openapi.json and a reference page at /api/docs. */
export async function registerApiReference(app: FastifyInstance): Promise<void> {
  app.get('/api/2.0/openapi.json', { schema: { hide: true }, config: { access: 'public' } }, async () => app.swagger());
  app.get('/api/docs', { schema: { hide: true } }, async (_request, reply) => reply.type('text/html; charset=utf-8').send(DOCS_PAGE));
  app.get('/api/docs/init.js', { schema: { hide: true } }, async (_request, reply) => reply.type('application/javascript; charset=utf-8').send(DOCS_INIT));
  const require = createRequire(import.meta.url);
  await app.register(fastifyStatic, {
    root: path.dirname(require.resolve('swagger-ui-dist/package.json')),
    prefix: '/api/docs/assets/',
    decorateReply: false,
    allowedPath: (pathName) => /^\/(swagger-ui\.css|swagger-ui-bundle\.js|favicon-\d+x\d+\.png)$/.test(pathName),
  });
}

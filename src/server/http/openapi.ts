import { createRequire } from 'node:module';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';

const DESCRIPTION = [
  'The Herald API: SMS campaigns from template to report. It implements the Messaging Campaign Service interface (`/api/2.0`).',
  '',
  'Every request carries `Authorization: Bearer <token>`: a personal API token (`hrld_…`, made with `POST /api/2.0/tokens/` or the CLI) or the token of `POST /api/2.0/auth/login`.',
  'Errors have one shape: `{"error":{"code","http_code","message","errors"}}`, `errors` only on 422. Lists are paginated with `page` and `per_page` (1–100, default 15).',
].join('\n');

/** Registers the OpenAPI generator; must come before the routes it documents. */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Herald API', version: '2.0', description: DESCRIPTION },
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'Personal API token or sign-in token.' } } },
      security: [{ bearerAuth: [] }],
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
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

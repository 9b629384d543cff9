import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { sendError } from './errors';

/**
 * Serves the built dashboard (dist/app) at `/`; any other GET that a browser asks as a page gets
 * index.html so deep links survive a reload. Hashed assets are cached for good and sent brotli- or
 * gzip-compressed (copies made by the build) when the browser accepts it. Every other unknown
 * route is a 404 in the house error shape.
 */
export async function registerDashboard(app: FastifyInstance, distDir: string): Promise<void> {
  const indexFile = path.join(distDir, 'index.html');
  const built = fs.existsSync(indexFile);
  if (built)
    await app.register(fastifyStatic, {
      root: distDir,
      prefix: '/',
      index: 'index.html',
      cacheControl: false,
      wildcard: true,
      // The build writes .br and .gz copies (scripts/compress-assets.ts): sent to browsers that take them.
      preCompressed: true,
      setHeaders: (res, filePath) => {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        res.setHeader('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  app.setNotFoundHandler((request, reply) => {
    const isPage = request.method === 'GET' && !request.url.startsWith('/api/') && (request.headers.accept ?? '').includes('text/html');
    if (built && (isPage || (request.method === 'GET' && request.url === '/'))) {
      return reply.header('Cache-Control', 'no-cache').type('text/html; charset=utf-8').send(fs.createReadStream(indexFile));
    }
    return sendError(reply, 404, `The route ${request.method} ${request.url.split('?')[0]} does not exist.`);
  });
}

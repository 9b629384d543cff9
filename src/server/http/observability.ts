import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/client';
import type { Metrics } from '../observability/metrics';
import { checkReadiness } from '../observability/readiness';
import { DATABASE_RETRY_AFTER_SECONDS, errorBody, sendError } from './errors';

/** Methods a route label may carry; anything else is `other` (a label never takes a client's free text). */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']);

/** The paths of liveness, readiness and metrics: never a short link's code, on any host. */
export const OBSERVABILITY_PATHS: ReadonlySet<string> = new Set(['/healthz', '/readyz', '/metrics']);

const digest = (value: string) => createHash('sha256').update(value).digest();
const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * Times every request this app answers into `herald_http_request_duration_seconds`, labelled by the
 * route's pattern (`/api/2.0/campaigns/:uuid`), never the URL: a request no route matched (a 404
 * for an unknown address, a path the router refused) is `unmatched`, so no URL makes a new series.
 */
export function registerRequestMetrics(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const method = METHODS.has(request.method) ? request.method : 'other';
    metrics.observeRequest({ route, method, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
  });
}

/**
 * `GET /healthz` (liveness: the process answers), `GET /readyz` (readiness: database, migrations
 * and, in a process that sends, the SMS gateway, each named in the body) and `GET /metrics`
 * (Prometheus text; only with `Authorization: Bearer METRICS_TOKEN` when that is set). Served on
 * the HTTP port, and by a worker on METRICS_PORT. Hidden from the API document: they are not the API.
 */
export function registerObservabilityRoutes(app: FastifyInstance, deps: { metrics: Metrics; database: Database; metricsToken?: string }): void {
  const { metrics, database } = deps;
  const expected = deps.metricsToken === undefined ? undefined : digest(deps.metricsToken);

  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));

  app.get('/readyz', { schema: { hide: true } }, async (request, reply) => {
    const { ready, checks } = await checkReadiness({ database, gateway: metrics.gateway() });
    reply.header('Cache-Control', 'no-store');
    if (ready) return { status: 'ready', checks };
    const failing = Object.entries(checks).filter(([, check]) => check.status === 'failing');
    const message = `Herald is not ready: ${failing.map(([name, check]) => `${name} ${check.detail}`).join('; ')}.`;
    const errors = Object.fromEntries(failing.map(([name, check]) => [name, [check.detail ?? 'failing']]));
    // The house error shape, with every check beside it.
    return reply
      .code(503)
      .header('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS))
      .type('application/json; charset=utf-8')
      .send({ ...errorBody(503, message, errors, request.id), status: 'not_ready', checks });
  });

  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (expected) {
      const given = BEARER.exec(request.headers.authorization ?? '')?.[1];
      if (given === undefined) {
        reply.header('WWW-Authenticate', 'Bearer realm="metrics"');
        return sendError(reply, 401, 'The metrics need a bearer token: send Authorization: Bearer <METRICS_TOKEN>.');
      }
      if (!timingSafeEqual(digest(given), expected)) {
        reply.header('WWW-Authenticate', 'Bearer realm="metrics", error="invalid_token"');
        return sendError(reply, 401, 'The bearer token is not the metrics token (METRICS_TOKEN).');
      }
    }
    const { contentType, body } = await metrics.render();
    return reply.header('Cache-Control', 'no-store').type(contentType).send(body);
  });
}

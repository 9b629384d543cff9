import Fastify, { LogController, type FastifyInstance } from 'fastify';
import type { Database } from '../db/client';
import type { Metrics } from '../observability/metrics';
import { registerErrorHandling, sendError } from './errors';
import { registerObservabilityRoutes, registerRequestMetrics } from './observability';
import { registerRequestLog, requestIdOf } from './request-log';
import { registerSecurityHeaders } from './security-headers';

/**
 * What a `--role worker` process serves on METRICS_PORT (it has no HTTP port otherwise): `/healthz`,
 * `/readyz` and `/metrics`, as the HTTP port of an API process serves them; anything else is a 404
 * in the house shape.
 */
export function buildMetricsServer(deps: { metrics: Metrics; database: Database; metricsToken?: string; logger?: FastifyInstance['log'] }): FastifyInstance {
  const server = Fastify({
    loggerInstance: deps.logger,
    // One line per request (registerRequestLog), probes and scrapes at debug: they would bury the worker's own lines.
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'request_id' }),
    genReqId: requestIdOf,
    frameworkErrors: (error, _request, reply) => sendError(reply, error.code === 'FST_ERR_BAD_URL' ? 400 : 404, 'The request path is not valid.'),
  });
  registerRequestLog(server);
  registerErrorHandling(server);
  registerSecurityHeaders(server, { connectSources: '' });
  registerRequestMetrics(server, deps.metrics);
  registerObservabilityRoutes(server, deps);
  server.setNotFoundHandler((request, reply) =>
    sendError(reply, 404, `The route ${request.method} ${request.url.split('?')[0]} does not exist here: this port serves /healthz, /readyz and /metrics.`),
  );
  return server;
}

import { fileURLToPath } from 'node:url';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config';
import type { Database } from './db/client';
import { systemClock, type Clock } from './lib/time';
import { registerAuth } from './http/auth';
import { InvalidUtf8Error } from './http/errors';
import { registerDashboard } from './http/dashboard';
import { registerErrorHandling, sendError } from './http/errors';
import { registerIdempotency } from './http/idempotency';
import { registerRequestLog, requestIdOf } from './http/request-log';
import { createLogger } from './observability/logger';
import { registerApiReference, registerOpenApi } from './http/openapi';
import { registerObservabilityRoutes, registerRequestMetrics } from './http/observability';
import { registerSecurityHeaders } from './http/security-headers';
import { registerSharedReads } from './http/shared-reads';
import { registerEtags } from './http/etags';
import { registerAuditTrail } from './http/audit-trail';
import { auditRoutes } from './modules/audit/audit.routes';
import { authRoutes } from './modules/auth/auth.routes';
import { campaignsRoutes } from './modules/campaigns/campaigns.routes';
import { contactGroupsRoutes } from './modules/contact-groups/contact-groups.routes';
import { contactsRoutes } from './modules/contacts/contacts.routes';
import { contactsDirectoryRoutes } from './modules/contacts-directory/contacts-directory.routes';
import { consentRoutes } from './modules/consent/consent.routes';
import { conversionsRoutes } from './modules/conversions/conversions.routes';
import { shopConnectionsRoutes } from './modules/conversions/shop-connections.routes';
import { shopHooksRoutes } from './modules/conversions/shop-hooks.routes';
import { overviewRoutes } from './modules/overview/overview.routes';
import { importsRoutes } from './modules/imports/imports.routes';
import { inboundRoutes } from './modules/inbound/inbound.routes';
import { suppressionsRoutes } from './modules/suppressions/suppressions.routes';
import { keywordsRoutes } from './modules/keywords/keywords.routes';
import { flowsRoutes } from './modules/flows/flows.routes';
import { linksRoutes } from './modules/links/links.routes';
import { membersRoutes } from './modules/members/members.routes';
import { registerTrackedLinks } from './modules/links/tracked-links.routes';
import { reportsRoutes } from './modules/reports/reports.routes';
import { sendersRoutes } from './modules/senders/senders.routes';
import { segmentsRoutes } from './modules/segments/segments.routes';
import { templatesRoutes } from './modules/templates/templates.routes';
import { tokensRoutes } from './modules/tokens/tokens.routes';
import { vanityDomainsRoutes } from './modules/vanity-domains/vanity-domains.routes';
import { webhooksRoutes } from './modules/webhooks/webhooks.routes';
import { eventEndpointsRoutes } from './modules/event-endpoints/event-endpoints.routes';
import { conversationsRoutes } from './modules/conversations/conversations.routes';
import { smsConnectionsRoutes } from './modules/sms-connections/sms-connections.routes';
import { smsCallbacksRoutes } from './modules/sms-callbacks/sms-callbacks.routes';
import { smsRoutesRoutes } from './modules/sms-routes/sms-routes.routes';
import { jobsRoutes } from './jobs/jobs.routes';
import { signupPageRoutes } from './modules/signup-page/signup-page.routes';
import { signupPagePublicRoutes } from './modules/signup-page/signup-page.public';
import { listenForAuthChanges } from './modules/tokens/owner-cache';
import { createMetrics, type Metrics } from './observability/metrics';
import type { ScryptCost } from './lib/passwords';
import { createServices, type Services } from './services';

export type AppDeps = {
  config: Config;
  database: Database;
  /** Key that encrypts secrets at rest (lib/secret-box.ts). */
  secretKey: Buffer;
  /** Time as the services read it (tests move it); the system clock by default. */
  clock?: Clock;
  /** The scrypt cost of new password hashes; production's (lib/passwords.ts) unless the test app passes a cheaper one. */
  passwordCost?: ScryptCost;
  /** Folder of the built dashboard; defaults to dist/app. */
  dashboardDir?: string;
  /** false: no log (tests); a logger: the process's own (main.ts makes it first); else one made from the config. */
  logger?: boolean | FastifyBaseLogger;
  /** A successful change whose service recorded no audit event fails the request (tests); otherwise it is logged. */
  auditStrict?: boolean;
};

const DEFAULT_DASHBOARD_DIR = fileURLToPath(new URL('../../dist/app/', import.meta.url));

/** Builds the HTTP app without listening (tests inject requests into it). */
export async function buildApp(deps: AppDeps): Promise<{ app: FastifyInstance; services: Services; metrics: Metrics }> {
  const { config, database } = deps;
  const loggerInstance: FastifyBaseLogger | undefined =
    deps.logger === false ? undefined : typeof deps.logger === 'object' ? deps.logger : createLogger(config);
  const app = Fastify({
    ...(loggerInstance ? { loggerInstance } : { logger: false }),
    // One line per request, written by registerRequestLog (Fastify's two are off); its id from a safe X-Request-Id, or new.
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'request_id' }),
    genReqId: requestIdOf,
    bodyLimit: config.bodyLimitBytes,
    // A number of proxies: the hops nearest to Herald are believed, that many of them.
    trustProxy: typeof config.trustProxy === 'number' ? (_address: string, hop: number) => hop < (config.trustProxy as number) : config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    // What the router refuses before any route runs (a path that is not valid UTF-8 or percent-encoding,
    // a path parameter too long to be an identifier) leaves in the house error shape like the rest.
    frameworkErrors: (error, _request, reply) => {
      if (error.code === 'FST_ERR_BAD_URL') return sendError(reply, 400, 'The request path is not valid.');
      if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') return sendError(reply, 404, 'The requested resource was not found.');
      return sendError(reply, error.statusCode && error.statusCode < 500 ? error.statusCode : 400, 'The request could not be read.');
    },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // Clients send `Content-Type: application/json` on every request, bodiless DELETEs included (docs/interface.md, conventions).
  // The body is read as bytes and decoded strictly: invalid UTF-8 is refused (400), never stored as U+FFFD.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    let text: string;
    try {
      text = utf8.decode(body as Buffer);
    } catch {
      return done(new InvalidUtf8Error(), undefined);
    }
    if (text.trim() === '') return done(null, undefined);
    return parseJson(request, text, done);
  });
  // Only JSON is read (and text/csv where an import takes it): a text/plain body is 415, not a string a schema then refuses.
  app.removeContentTypeParser('text/plain');

  const metrics = createMetrics({ database, defaultZone: config.appTimezone, clock: deps.clock });
  const services = createServices(database, config, {
    secretKey: deps.secretKey,
    clock: deps.clock,
    passwordCost: deps.passwordCost,
    log: (error) => app.log.error({ err: error }, 'a password reset e-mail could not be queued'),
    logger: app.log,
    observeProviderCallback: metrics.observeProviderCallback,
    observeSignup: metrics.observeSignup,
  });
  registerRequestLog(app);
  registerErrorHandling(app);
  registerRequestMetrics(app, metrics);
  registerSecurityHeaders(app, { connectSources: config.dashboardConnectSources });
  registerAuth(app, { authenticator: services.tokens, limiter: services.limiter, rateLimitPerMinute: config.rateLimitPerMinute });
  // Token lookups are cached while this connection hears every change to tokens, users and teams.
  const stopListening = listenForAuthChanges(database.pool.options, services.tokenOwners, { warn: (message) => app.log.warn(message) });
  app.addHook('onClose', stopListening);
  app.addHook('onClose', () => services.auth.settled());
  registerAuditTrail(app, {
    trail: services.auditTrail,
    db: database.db,
    strict: deps.auditStrict === true,
    log: (error) => app.log.error({ err: error }, 'an audit event could not be recorded'),
  });
  // Before the routes: it documents the Idempotency-Key header on each POST as the route is added.
  registerIdempotency(app, { db: database.db, clock: deps.clock ?? systemClock });
  registerSharedReads(app);
  // Single-resource reads answer an ETag and 304 to a matching If-None-Match (http/etags.ts).
  registerEtags(app);
  await registerOpenApi(app);

  // Liveness, readiness and the Prometheus metrics (docs/operations.md).
  registerObservabilityRoutes(app, { metrics, database, metricsToken: config.metricsToken });

  await app.register(
    async (api) => {
      const { publicUrl } = config;
      await api.register(authRoutes, { auth: services.auth, users: services.users, publicUrl });
      await api.register(tokensRoutes, { tokens: services.tokens, publicUrl });
      await api.register(membersRoutes, { members: services.members, publicUrl });
      await api.register(auditRoutes, { audit: services.audit, publicUrl });
      await api.register(sendersRoutes, { senders: services.senders, publicUrl });
      await api.register(templatesRoutes, { templates: services.templates, publicUrl });
      await api.register(segmentsRoutes, { segments: services.segments, publicUrl });
      await api.register(linksRoutes, { links: services.links, publicUrl });
      await api.register(vanityDomainsRoutes, { vanityDomains: services.vanityDomains, publicUrl });
      await api.register(webhooksRoutes, { webhooks: services.webhooks, publicUrl });
      await api.register(eventEndpointsRoutes, { eventEndpoints: services.eventEndpoints, publicUrl });
      await api.register(smsConnectionsRoutes, { smsConnections: services.smsConnections, publicUrl });
      // Its own plugin: these routes read every body raw (the providers sign the bytes), the others keep the app's parsers.
      await api.register(smsCallbacksRoutes, { smsCallbacks: services.smsCallbacks, publicUrl });
      await api.register(smsRoutesRoutes, { smsRoutes: services.smsRoutes });
      await api.register(keywordsRoutes, { keywords: services.keywords, publicUrl });
      await api.register(flowsRoutes, { flows: services.flows, publicUrl });
      await api.register(contactGroupsRoutes, { contactGroups: services.contactGroups, publicUrl });
      await api.register(contactsRoutes, { contacts: services.contacts, publicUrl });
      await api.register(contactsDirectoryRoutes, { directory: services.contactsDirectory, publicUrl });
      await api.register(consentRoutes, { consent: services.consent });
      await api.register(importsRoutes, { imports: services.imports, publicUrl });
      await api.register(inboundRoutes, { inbound: services.inbound, publicUrl });
      await api.register(conversationsRoutes, { conversations: services.conversations, publicUrl });
      await api.register(suppressionsRoutes, { suppressions: services.suppressions, publicUrl });
      await api.register(campaignsRoutes, { campaigns: services.campaigns, publicUrl });
      await api.register(reportsRoutes, { reports: services.reports, publicUrl });
      await api.register(overviewRoutes, { overview: services.overview });
      await api.register(conversionsRoutes, { conversions: services.conversions, publicUrl });
      await api.register(shopConnectionsRoutes, { shopConnections: services.shopConnections, publicUrl });
      await api.register(signupPageRoutes, { signupPage: services.signupPage });
      await api.register(jobsRoutes, { db: database.db, clock: deps.clock ?? systemClock, publicUrl, appTimezone: config.appTimezone });
    },
    { prefix: '/api/2.0' },
  );
  // Its own plugin: it reads every body raw (the shops sign the bytes), the other routes keep the app's parsers.
  await app.register(shopHooksRoutes, { shopConnections: services.shopConnections });
  registerTrackedLinks(app, { trackedLinks: services.trackedLinks, publicUrl: config.publicUrl });
  // The hosted sign-up page, /join/{slug}: its own plugin, which reads form posts (docs/signup-page.md).
  await app.register(signupPagePublicRoutes, { signupPage: services.signupPage });
  await registerApiReference(app);
  await registerDashboard(app, deps.dashboardDir ?? DEFAULT_DASHBOARD_DIR);

  return { app, services, metrics };
}

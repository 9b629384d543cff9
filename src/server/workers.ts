import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import type { Database } from './db/client';
import { createEngine } from './engine/engine';
import { createEngineStore } from './engine/store/postgres-store';
import { createSimulatorGateway } from './gateways/sms/simulator';
import { createSimulatorLedger } from './gateways/sms/simulator-ledger';
import type { SmsGateway } from './gateways/sms/sms-gateway';
import { alertAccountError } from './gateways/sms/routing/account-alerts';
import { createTeamRouter } from './gateways/sms/routing/team-router';
import { createSmppGateway, parseSmppUrl } from './gateways/sms/smpp/smpp-gateway';
import { systemClock, type Clock } from './lib/time';
import { createFailoverRecorder } from './modules/event-endpoints/failover-events';
import { createCampaignEventLog } from './observability/campaign-events';
import { instrumentGateway } from './observability/instrumented-gateway';
import type { Metrics } from './observability/metrics';
import type { Services } from './services';

/** The background work of a process that sends: started once the app is up, stopped before it closes. */
export type Workers = { start(): void; stop(): Promise<void> };

/** The SMS gateway `SMS_GATEWAY` names: the simulator (its ledger in the database) or an SMPP carrier. */
function gatewayOf(config: Config, database: Database, log: FastifyBaseLogger): SmsGateway {
  return config.smsGateway === 'simulator'
    ? createSimulatorGateway({
        latencyMs: config.smsSimulatorLatencyMs,
        failureRate: config.smsSimulatorFailureRate,
        ledger: createSimulatorLedger(database.db),
      })
    : createSmppGateway({ ...parseSmppUrl(config.smsGateway), log: (level, message) => log[level](message) });
}

/**
 * The SMS gateway with inbound messages wired to the keyword pipeline, and the engine. It finds its
 * work in the database, so any number of processes run it. The other background work (reports,
 * account e-mail, event deliveries, sweeps) is the job runner's (jobs/herald-jobs.ts).
 */
export function createWorkers(deps: {
  config: Config;
  database: Database;
  services: Services;
  metrics: Metrics;
  log: FastifyBaseLogger;
  /** The services' clock (main.ts): the engine's leases, stamps and frequency caps read the time the services stamp with. */
  clock?: Clock;
}): Workers {
  const { config, database, services, log } = deps;
  const clock = deps.clock ?? systemClock;
  // Its submit times, refusals and bind state are this process's metrics (and its readiness).
  const gateway = instrumentGateway(gatewayOf(config, database, log), deps.metrics);
  // Messages to the shared short code run the same keyword pipeline as the keyword tester.
  // The gateway acknowledges the message only once this resolves: a failure makes the SMSC deliver it again.
  gateway.onInbound(async (message) => {
    try {
      await services.inbound.receiveDelivery({ from: message.from, body: message.body, source: 'gateway', teamId: null, key: message.key }, (error) =>
        log.error({ err: error }, 'a keyword webhook could not be called for an inbound message'),
      );
    } catch (error) {
      log.error({ err: error }, 'inbound message not stored; the gateway is told so it delivers it again');
      throw error;
    }
  });
  // Teams with their own SMS connections send through them, as their routes say (docs/providers.md).
  const teamRouter = createTeamRouter({
    db: database.db,
    secrets: services.secrets,
    publicUrl: config.publicUrl,
    installation: gateway,
    inDoubt: config.smsInDoubt,
    timeoutMs: config.smsProviderTimeoutMs,
    metrics: deps.metrics,
    optOut: (teamId, phoneNumbers) =>
      database.db.transaction(async (tx) => {
        const listId = await services.suppressions.listOf(teamId, tx);
        await services.suppressions.add(tx, listId, { teamId, source: 'provider', userId: null }, phoneNumbers);
      }),
    // Each submit's failovers: `message.failed_over` events and the overview's count, one statement.
    failedOver: createFailoverRecorder(database.db),
    alert: (connection, message) => {
      log.error({ connection: connection.uuid }, `SMS connection "${connection.name}" refused for its account: ${message}`);
      alertAccountError(database.db, connection, message, clock.now(), config.publicUrl).catch((error: Error) =>
        log.error({ err: error }, 'the admins could not be e-mailed about an SMS connection refused for its account'),
      );
    },
    log: (message) => log.warn(message),
    // A team's SMPP connections: a bind each, its receipts and inbound messages the connection's.
    smpp: {
      bind: (url) => createSmppGateway({ ...parseSmppUrl(url), log: (level, message) => log[level](message) }),
      // Through the engine's receipt queue: one naming a hand-over this process is recording waits for it.
      receipts: (receipts) => engine.receive(receipts),
      inbound: (teamId, message) =>
        services.inbound.receiveDelivery({ from: message.from, body: message.body, source: 'gateway', teamId, key: message.key }, (error) =>
          log.error({ err: error }, 'a keyword webhook could not be called for an inbound message'),
        ),
    },
  });
  // Campaigns started, finished and expired, as the engine's steps find them: one line each, once across processes.
  const campaignEvents = createCampaignEventLog({ db: database.db, log, clock });
  const engine = createEngine({
    store: createEngineStore(database.db, { defaultZone: config.appTimezone, publicUrl: config.publicUrl }),
    gateway,
    clock,
    // Over SMPP batches are a window each (gateway.batchLimit), so more lanes keep the window full.
    options: {
      tickMs: config.engineTickMs,
      batchSize: 5000,
      lanes: gateway.batchLimit ? 4 : 2,
      rateLimitPerSecond: config.smsRateLimit,
      leaseMs: config.engineLeaseMs,
      inDoubt: config.smsInDoubt,
    },
    urlBase: (domain) => services.vanityDomains.urlBase({ domain }),
    log: (message) => log.error(message),
    lifecycle: campaignEvents,
    routing: teamRouter,
  });

  return {
    start() {
      teamRouter.start();
      engine.start();
    },
    /** The batches in hand are handed over and recorded first; then the gateway stops. */
    async stop() {
      await engine.stop();
      await teamRouter.stop();
      await gateway.close();
    },
  };
}

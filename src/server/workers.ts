import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import type { Database } from './db/client';
import { createEngine } from './engine/engine';
import { createEngineStore } from './engine/store/postgres-store';
import { createMailer } from './gateways/mail/mailer';
import { createSimulatorGateway } from './gateways/sms/simulator';
import { createSimulatorLedger } from './gateways/sms/simulator-ledger';
import type { SmsGateway } from './gateways/sms/sms-gateway';
import { createSmppGateway, parseSmppUrl } from './gateways/sms/smpp/smpp-gateway';
import { systemClock } from './lib/time';
import { createAccountMailWorker } from './modules/account-mail/account-mail.worker';
import { createReportWorker } from './modules/reports/report-worker';
import { createEventDeliveryWorker } from './modules/event-endpoints/event-delivery.worker';
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
 * The SMS gateway with inbound messages wired to the keyword pipeline, the engine, and the report
 * worker and the account e-mails with their mailer, and the event endpoints' deliveries. Each finds its work in the database, so any number of processes run them.
 */
export function createWorkers(deps: { config: Config; database: Database; services: Services; metrics: Metrics; log: FastifyBaseLogger }): Workers {
  const { config, database, services, log } = deps;
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
  // Campaigns started, finished and expired, as the engine's steps find them: one line each, once across processes.
  const campaignEvents = createCampaignEventLog({ db: database.db, log, clock: systemClock });
  const engine = createEngine({
    store: createEngineStore(database.db, { defaultZone: config.appTimezone, publicUrl: config.publicUrl }),
    gateway,
    clock: systemClock,
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
  });

  // Report jobs: the CSV, then the e-mail with its signed link (SMTP, or DATA_DIR/outbox without it).
  const mailer = createMailer({
    smtpUrl: config.smtpUrl,
    outboxDir: path.join(config.dataDir, 'outbox'),
    from: config.mailFrom,
    log: (message, fields) => log.info(fields ?? {}, message),
  });
  const reportWorker = createReportWorker({
    db: database.db,
    reports: services.reportsRepository,
    service: services.reports,
    mailer,
    clock: systemClock,
    config,
    log: (level, message, fields) => log[level](fields ?? {}, message),
    options: { retryBaseMs: config.reportRetryMs },
  });

  // Invitations, password resets and approval requests, from the outbox their changes wrote.
  const accountMailWorker = createAccountMailWorker({
    outbox: services.accountMail,
    mailer,
    clock: systemClock,
    log: (level, message, fields) => log[level](fields ?? {}, message),
    options: { retryBaseMs: config.reportRetryMs },
  });

  // Events for the integrators' endpoints, from the outbox the database's triggers fill.
  const eventWorker = createEventDeliveryWorker({
    outbox: services.eventOutbox,
    deliver: services.deliverEvent,
    reportLinks: services.reportLinks,
    log: (level, message, fields) => log[level](fields ?? {}, message),
    // A call ends by WEBHOOK_TIMEOUT_MS: a delivery is another process's to take soon after, if this one died.
    options: { batchSize: config.eventBatchSize, leaseMs: config.webhookTimeoutMs * 2 + 5_000 },
  });

  return {
    start() {
      engine.start();
      reportWorker.start();
      accountMailWorker.start();
      eventWorker.start();
    },
    /** The batches in hand are handed over and recorded first; then the report and account mail workers, the mailer and the gateway stop. */
    async stop() {
      await engine.stop();
      await reportWorker.stop();
      await accountMailWorker.stop();
      await eventWorker.stop();
      await mailer.close();
      await gateway.close();
    },
  };
}

import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import type { Database } from '../db/client';
import { createMailer } from '../gateways/mail/mailer';
import { RATE_COUNTERS_SWEEP_MS, sweepRateCounters } from '../db/rate-counters';
import { sweepIdempotencyKeys } from '../http/idempotency';
import { systemClock, type Clock } from '../lib/time';
import { createAccountMailWorker } from '../modules/account-mail/account-mail.worker';
import { createEventDeliveryWorker } from '../modules/event-endpoints/event-delivery.worker';
import { recoverInterruptedImports } from '../modules/imports/imports.service';
import { createReportWorker } from '../modules/reports/report-worker';
import type { Services } from '../services';
import { AB_DECISIONS_EVERY_MS } from '../modules/campaigns/ab-decisions';
import { createJobRunner, type JobQueue, type PeriodicJob } from './runner';

/** How often keys past their 24 hours are deleted. */
const IDEMPOTENCY_SWEEP_MS = 10 * 60_000;
/** How often flow runs that are due are advanced (the runner looks for due periodic jobs every 5 s). */
const FLOWS_ADVANCE_EVERY_MS = 2_000;
/** How often double opt-in requests past their 48 hours are marked expired (a late YES confirms nothing either way: the pipeline checks the time itself). */
const OPT_IN_EXPIRY_MS = 5 * 60_000;

/**
 * Herald's background jobs on its one runner. Every process runs the periodic ones (each once across
 * processes): the sweeps of idempotency keys and past rate-limit windows, and, at its start, the
 * recovery of contact imports a restart interrupted. A process that sends (`queues`) also
 * works through the queues: report jobs (the CSV, then the e-mail with its signed link: SMTP, or
 * DATA_DIR/outbox without it), account e-mails (invitations, password resets, approval requests, from
 * the outbox their changes wrote) and event deliveries (from the outbox the database's triggers fill),
 * sweeps stored reports whose links have expired and old event deliveries, counts the A/B tests'
 * windows and decides them (docs/ab-tests.md), advances the flows' runs that are due (docs/flows.md),
 * and expires the double opt-in requests nobody confirmed within 48 hours (docs/consent.md).
 */
export function createHeraldJobs(deps: {
  config: Config;
  database: Database;
  services: Services;
  log: FastifyBaseLogger;
  queues: boolean;
  /** The services' clock (main.ts): schedules and sweeps read the time the services stamp with. */
  clock?: Clock;
}) {
  const { config, database, services, log } = deps;
  const clock = deps.clock ?? systemClock;
  const workerLog = (level: 'info' | 'warn' | 'error', message: string, fields?: Record<string, unknown>) => log[level](fields ?? {}, message);

  const periodic: PeriodicJob[] = [
    {
      name: 'imports.recover',
      // Only at start, before this process runs an import of its own: an import of another process
      // holds its advisory lock while it runs, so recovery never fails one that is alive.
      atStart: true,
      async run() {
        const recovered = await recoverInterruptedImports(database.db, clock);
        if (recovered > 0) log.warn(`${recovered} contact import(s) interrupted by a restart were marked failed; import the files again.`);
      },
    },
    {
      name: 'idempotency_keys.sweep',
      everyMs: IDEMPOTENCY_SWEEP_MS,
      async run() {
        const deleted = await sweepIdempotencyKeys(database.db, clock);
        if (deleted > 0) log.info({ keys: deleted }, 'idempotency keys past their 24 hours deleted');
      },
    },
    {
      name: 'rate_counters.sweep',
      everyMs: RATE_COUNTERS_SWEEP_MS,
      run: async () => void (await sweepRateCounters(database.db, clock)),
    },
  ];
  const queues: JobQueue[] = [];
  const mailer = deps.queues
    ? createMailer({
        smtpUrl: config.smtpUrl,
        outboxDir: path.join(config.dataDir, 'outbox'),
        from: config.mailFrom,
        log: (message, fields) => log.info(fields ?? {}, message),
      })
    : undefined;
  if (mailer) {
    const reports = createReportWorker({
      db: database.db,
      reports: services.reportsRepository,
      service: services.reports,
      mailer,
      clock,
      config,
      log: workerLog,
      options: { retryBaseMs: config.reportRetryMs },
    });
    const accountMail = createAccountMailWorker({
      outbox: services.accountMail,
      mailer,
      clock,
      log: workerLog,
      options: { retryBaseMs: config.reportRetryMs },
    });
    const events = createEventDeliveryWorker({
      outbox: services.eventOutbox,
      deliver: services.deliverEvent,
      reportLinks: services.reportLinks,
      log: workerLog,
      // A call ends by WEBHOOK_TIMEOUT_MS: a delivery is another process's to take soon after, if this one died.
      options: { batchSize: config.eventBatchSize, leaseMs: config.webhookTimeoutMs * 2 + 5_000 },
    });
    queues.push(reports.queue, accountMail.queue, events.queue);
    periodic.push(
      reports.periodic,
      events.sweep,
      {
        // A/B tests: their windows counted in sending time, and decided once over (docs/ab-tests.md).
        name: 'campaigns.ab_tests',
        everyMs: AB_DECISIONS_EVERY_MS,
        async run() {
          const decided = await services.abDecisions.run();
          if (decided.length > 0) log.info({ campaigns: decided }, 'A/B tests decided');
        },
      },
      {
        name: 'consent.opt_in_expiry',
        everyMs: OPT_IN_EXPIRY_MS,
        async run() {
          const expired = await services.consent.expireDue();
          if (expired > 0) log.info({ requests: expired }, 'double opt-in requests expired unconfirmed');
        },
      },
    );
  }

  // Flows' webhook steps: their calls retried with backoff, and any a dead process left (modules/flows/flow-webhooks.ts).
  if (deps.queues) queues.push(services.flowWebhooks.jobQueue);
  if (deps.queues)
    periodic.push({
      // Flows: today's anniversary runs and the segments' new numbers' runs started, then the runs that are due advanced in batches (modules/flows/).
      name: 'flows.advance',
      everyMs: FLOWS_ADVANCE_EVERY_MS,
      async run() {
        await services.flowAnniversaries.startDue();
        await services.flowSegmentEntries.startDue();
        await services.flowAdvance.advanceDue();
      },
    });

  const runner = createJobRunner({ db: database.db, clock, log: workerLog, queues, periodic });
  return {
    start: runner.start,
    /** Waits for the jobs under way (their outcomes are recorded) and the flows' webhook calls, then closes the mailer. */
    async stop(): Promise<void> {
      await runner.stop();
      await services.flowAdvance.idle();
      await mailer?.close();
    },
  };
}
export type HeraldJobs = ReturnType<typeof createHeraldJobs>;

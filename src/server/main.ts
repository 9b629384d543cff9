import fs from 'node:fs/promises';
import path from 'node:path';
import { buildApp } from './app';
import { loadConfig } from './config';
import { openDatabase } from './db/open';
import { ValidationError } from './lib/errors';
import { generatePassword } from './lib/passwords';
import { loadSecretKey } from './lib/secret-box';
import { recoverInterruptedImports } from './modules/imports/imports.service';
import { createEngine, type Engine } from './engine/engine';
import { createEngineStore } from './engine/engine-store';
import { createSimulatorGateway } from './gateways/sms/simulator';
import type { SmsGateway } from './gateways/sms/sms-gateway';
import { createSimulatorLedger } from './gateways/sms/simulator-ledger';
import { createSmppGateway, parseSmppUrl } from './gateways/sms/smpp/smpp-gateway';
import { createMailer } from './gateways/mail/mailer';
import { createReportWorker, type ReportWorker } from './modules/reports/report-worker';
import { systemClock } from './lib/time';
import type { Services } from './services';

type Role = 'api' | 'worker' | 'all';

function roleFromArgs(argv: string[]): Role {
  const index = argv.indexOf('--role');
  const role = index >= 0 ? argv[index + 1] : 'all';
  if (role !== 'api' && role !== 'worker' && role !== 'all') throw new Error(`--role must be api, worker or all (got ${role}).`);
  return role;
}

/** Refuses a second Herald on the same data folder: both would drive one embedded database. */
async function claimDataDir(dataDir: string): Promise<string> {
  const pidFile = path.join(dataDir, 'herald.pid');
  const pid = Number(await fs.readFile(pidFile, 'utf8').catch(() => ''));
  if (pid > 0 && pid !== process.pid) {
    const cmdline = await fs.readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.includes('src/server/main.ts')) throw new Error(`Herald is already running with the data folder ${dataDir} (pid ${pid}).`);
  }
  await fs.mkdir(dataDir, { recursive: true });
  await fs.writeFile(pidFile, String(process.pid));
  return pidFile;
}

/** On an empty database: the first team and admin, printed once (or taken from HERALD_ADMIN_EMAIL / _PASSWORD). */
async function createFirstAdmin(services: Services, config: ReturnType<typeof loadConfig>): Promise<void> {
  if ((await services.usersRepository.count()) > 0) return;
  const email = config.adminEmail ?? 'admin@herald.local';
  const password = config.adminPassword ?? generatePassword();
  try {
    await services.users.create({ email, password, name: 'Admin', teamName: 'Herald' });
  } catch (error) {
    if (error instanceof ValidationError && error.fields.email) return; // another process made it first
    throw error;
  }
  const lines = [
    '',
    'Herald made the first user. Sign in at ' + config.publicUrl,
    `  e-mail:   ${email}`,
    config.adminPassword ? '  password: (the one in HERALD_ADMIN_PASSWORD)' : `  password: ${password}`,
    config.adminPassword ? '' : '  This password is shown once. Keep it somewhere safe.',
    '',
  ];
  process.stdout.write(lines.join('\n') + '\n');
}

async function main(): Promise<void> {
  const config = loadConfig();
  const role = roleFromArgs(process.argv.slice(2));
  const pidFile = config.databaseUrl ? undefined : await claimDataDir(config.dataDir);
  const database = await openDatabase(config);
  const secretKey = await loadSecretKey(config);
  const { app, services } = await buildApp({ config, database, secretKey });
  const recovered = await recoverInterruptedImports(database.db, systemClock);
  if (recovered > 0) app.log.warn(`${recovered} contact import(s) interrupted by a restart were marked failed; import the files again.`);

  let engine: Engine | undefined;
  let gateway: SmsGateway | undefined;
  if (role !== 'api') {
    gateway =
      config.smsGateway === 'simulator'
        ? createSimulatorGateway({
            latencyMs: config.smsSimulatorLatencyMs,
            failureRate: config.smsSimulatorFailureRate,
            ledger: createSimulatorLedger(database.db),
          })
        : createSmppGateway({ ...parseSmppUrl(config.smsGateway), log: (level, message) => app.log[level](message) });
    // Messages to the shared short code run the same keyword pipeline as the keyword tester.
    // The gateway acknowledges the message only once this resolves: a failure makes the SMSC deliver it again.
    gateway.onInbound(async (message) => {
      try {
        await services.inbound.receiveDelivery({ from: message.from, body: message.body, source: 'gateway', teamId: null, key: message.key }, (error) =>
          app.log.error({ err: error }, 'a keyword webhook could not be called for an inbound message'),
        );
      } catch (error) {
        app.log.error({ err: error }, 'inbound message not stored; the gateway is told so it delivers it again');
        throw error;
      }
    });
    engine = createEngine({
      store: createEngineStore(database.db),
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
      log: (message) => app.log.error(message),
    });
  }

  // Report jobs: the CSV, then the e-mail with its signed link (SMTP, or DATA_DIR/outbox without it).
  let reportWorker: ReportWorker | undefined;
  const mailer = createMailer({
    smtpUrl: config.smtpUrl,
    outboxDir: path.join(config.dataDir, 'outbox'),
    from: config.mailFrom,
    log: (message, fields) => app.log.info(fields ?? {}, message),
  });
  if (role !== 'api') {
    reportWorker = createReportWorker({
      db: database.db,
      reports: services.reportsRepository,
      service: services.reports,
      mailer,
      clock: systemClock,
      config,
      log: (level, message, fields) => app.log[level](fields ?? {}, message),
      options: { retryBaseMs: config.reportRetryMs },
    });
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) {
      process.exit(1);
    }
    stopping = true;
    app.log.info(`${signal}: stopping`);
    await engine?.stop();
    await reportWorker?.stop();
    await mailer.close();
    await gateway?.close();
    await app.close().catch((error) => app.log.error(error));
    await database.shutdown().catch((error) => app.log.error(error));
    if (pidFile) await fs.rm(pidFile, { force: true });
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  try {
    await createFirstAdmin(services, config);
    if (role !== 'worker') await app.listen({ port: config.port, host: config.host });
    else await app.ready();
    engine?.start();
    reportWorker?.start();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    console.error(code === 'EADDRINUSE' ? `Port ${config.port} is in use: stop what holds it or set PORT.` : error);
    await database.shutdown();
    if (pidFile) await fs.rm(pidFile, { force: true });
    process.exit(1);
  }
  app.log.info(`Herald ${role === 'worker' ? 'worker' : `is ready on ${config.publicUrl}`} (database: ${database.embedded ? 'embedded' : 'DATABASE_URL'})`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

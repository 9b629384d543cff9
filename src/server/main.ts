import { buildApp } from './app';
import { buildMetricsServer } from './http/metrics-server';
import { loadConfig } from './config';
import { claimDataDir, type DataDirLock } from './data-dir-lock';
import { isDatabaseUnavailable } from './db/client';
import { openDatabase, type OpenedDatabase } from './db/open';
import { createFirstAdmin } from './first-admin';
import { loadSecretKey } from './lib/secret-box';
import { sealStoredHeaders } from './db/stored-headers';
import { createSecretBox } from './lib/secret-box';
import { createHeraldJobs } from './jobs/herald-jobs';
import { processClock } from './lib/file-offset-clock';
import { createLogger } from './observability/logger';
import { roleFromArgs, sends, servesHttp } from './roles';
import { createWorkers } from './workers';

/** PostgreSQL's refusals of a connection itself: the password, the role or the database name is wrong. */
const CONNECTION_REFUSED_SQLSTATES = new Set(['28P01', '28000', '3D000']);

/**
 * The fatal line of a start that failed before the database was open. An external database that
 * cannot be reached (down, wrong address, refused credentials) is named by its variable, never by its
 * URL, which holds the password.
 */
function startFailure(error: unknown, config: { databaseUrl?: string }): string {
  const code = (error as { code?: unknown })?.code;
  // A host name that resolves to several addresses fails with an AggregateError whose own message is empty.
  const message = (error instanceof Error ? error.message : String(error)) || String(code ?? 'no answer');
  if (config.databaseUrl && (isDatabaseUnavailable(error) || (typeof code === 'string' && CONNECTION_REFUSED_SQLSTATES.has(code))))
    return `Herald could not start: the database in DATABASE_URL cannot be reached (${message}). Check that it runs and that DATABASE_URL names it.`;
  return `Herald could not start: ${message}`;
}

/** Starts a Herald process in its role (roles.ts) and stops it on SIGINT or SIGTERM. */
async function main(): Promise<void> {
  const config = loadConfig();
  const role = roleFromArgs(process.argv.slice(2));
  // One logger for the process, made first: the database's own warnings are lines of it too, and a
  // start that fails says why on it, at fatal (a JSON line under systemd, like every other).
  const log = createLogger(config);
  let lock: DataDirLock | undefined;
  let database: OpenedDatabase;
  try {
    lock = config.databaseUrl ? undefined : await claimDataDir(config.dataDir);
    database = await openDatabase(config, { warn: (message) => log.warn(message) });
  } catch (error) {
    log.fatal({ err: error }, startFailure(error, config));
    await lock?.release();
    process.exit(1);
  }
  const secretKey = await loadSecretKey(config);
  // One clock for the services, the jobs and the engine: the system's, unless a test moves it (HERALD_TEST_CLOCK_FILE).
  const clock = processClock(config, (message) => log.warn(message));
  const { app, services, metrics } = await buildApp({ config, database, secretKey, logger: log, clock });
  for (const { name, ms } of database.migrated) app.log.info({ migration: name, ms }, `database: applied migration ${name} (${ms} ms)`);
  const sealedHeaders = await sealStoredHeaders(database.db, createSecretBox(secretKey));
  if (sealedHeaders > 0) app.log.info(`sealed the custom header values of ${sealedHeaders} webhook(s) and event endpoint(s)`);
  // Background jobs (jobs/): the periodic ones in every process, the queues in one that sends.
  const jobs = createHeraldJobs({ config, database, services, log: app.log, queues: sends(role), clock });
  const workers = sends(role) ? createWorkers({ config, database, services, metrics, log: app.log, clock }) : undefined;
  // A worker has no HTTP port: it answers /healthz, /readyz and /metrics on METRICS_PORT.
  const metricsServer =
    !servesHttp(role) && config.metricsPort !== undefined
      ? buildMetricsServer({ metrics, database, metricsToken: config.metricsToken, logger: app.log })
      : undefined;
  if (servesHttp(role) && config.metricsPort !== undefined)
    app.log.warn(`METRICS_PORT is used by --role worker only: this process serves /metrics, /healthz and /readyz on PORT (${config.port}).`);

  // Ctrl-C in a terminal signals the whole process group, and npm passes the signal on to Herald too:
  // one stop arrives twice. A repeated signal never ends the process before its database is stopped
  // and the data folder released; one a second or more after the first only hurries open connections.
  let stoppingSince: number | undefined;
  const stop = async (signal: string) => {
    if (stoppingSince !== undefined) {
      if (Date.now() - stoppingSince >= 1000) {
        app.log.info(`${signal} again: closing open connections now`);
        app.server.closeAllConnections();
      }
      return;
    }
    stoppingSince = Date.now();
    app.log.info(`${signal}: stopping`);
    await workers?.stop();
    await jobs.stop();
    await metricsServer?.close().catch((error) => app.log.error(error));
    // A client that stopped reading its answer would hold the stop forever: after 10 s, its connection goes.
    const stuck = setTimeout(() => {
      app.log.warn('stopping: connections still busy after 10 s are closed');
      app.server.closeAllConnections();
    }, 10_000);
    await app.close().catch((error) => app.log.error(error));
    clearTimeout(stuck);
    await database.shutdown().catch((error) => app.log.error(error));
    await lock?.release();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  try {
    await createFirstAdmin(services, config, app.log);
    if (servesHttp(role)) await app.listen({ port: config.port, host: config.host });
    else await app.ready();
    if (metricsServer)
      await metricsServer.listen({ port: config.metricsPort, host: config.host }).catch((error: NodeJS.ErrnoException) => {
        throw error.code === 'EADDRINUSE'
          ? Object.assign(new Error(`Port ${config.metricsPort} is in use: stop what holds it or set METRICS_PORT.`), { code: 'METRICS_PORT_IN_USE' })
          : error;
      });
    jobs.start();
    workers?.start();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') log.fatal(`Port ${config.port} is in use: stop what holds it or set PORT.`);
    else if (code === 'METRICS_PORT_IN_USE') log.fatal((error as Error).message);
    else log.fatal({ err: error }, `Herald could not start: ${error instanceof Error ? error.message : String(error)}`);
    await database.shutdown();
    await lock?.release();
    process.exit(1);
  }
  app.log.info(
    `Herald ${servesHttp(role) ? `is ready on ${config.publicUrl}` : `worker${metricsServer ? ` (metrics on port ${config.metricsPort})` : ''}`} (database: ${database.embedded ? 'embedded' : 'DATABASE_URL'})`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

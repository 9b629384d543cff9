import { buildApp } from './app';
import { buildMetricsServer } from './http/metrics-server';
import { loadConfig } from './config';
import { claimDataDir } from './data-dir-lock';
import { openDatabase } from './db/open';
import { createFirstAdmin } from './first-admin';
import { loadSecretKey } from './lib/secret-box';
import { systemClock } from './lib/time';
import { recoverInterruptedImports } from './modules/imports/imports.service';
import { sealStoredHeaders } from './db/stored-headers';
import { createSecretBox } from './lib/secret-box';
import { createLogger } from './observability/logger';
import { roleFromArgs, sends, servesHttp } from './roles';
import { createWorkers } from './workers';

/** Starts a Herald process in its role (roles.ts) and stops it on SIGINT or SIGTERM. */
async function main(): Promise<void> {
  const config = loadConfig();
  const role = roleFromArgs(process.argv.slice(2));
  const lock = config.databaseUrl ? undefined : await claimDataDir(config.dataDir);
  // One logger for the process, made first: the database's own warnings are lines of it too.
  const log = createLogger(config);
  const database = await openDatabase(config, { warn: (message) => log.warn(message) });
  const secretKey = await loadSecretKey(config);
  const { app, services, metrics } = await buildApp({ config, database, secretKey, logger: log });
  for (const { name, ms } of database.migrated) app.log.info({ migration: name, ms }, `database: applied migration ${name} (${ms} ms)`);
  const sealedHeaders = await sealStoredHeaders(database.db, createSecretBox(secretKey));
  if (sealedHeaders > 0) app.log.info(`sealed the custom header values of ${sealedHeaders} webhook(s) and event endpoint(s)`);
  const recovered = await recoverInterruptedImports(database.db, systemClock);
  if (recovered > 0) app.log.warn(`${recovered} contact import(s) interrupted by a restart were marked failed; import the files again.`);
  const workers = sends(role) ? createWorkers({ config, database, services, metrics, log: app.log }) : undefined;
  // A worker has no HTTP port: it answers /healthz, /readyz and /metrics on METRICS_PORT.
  const metricsServer =
    !servesHttp(role) && config.metricsPort !== undefined
      ? buildMetricsServer({ metrics, database, metricsToken: config.metricsToken, logger: app.log })
      : undefined;
  if (servesHttp(role) && config.metricsPort !== undefined)
    app.log.warn(`METRICS_PORT is used by --role worker only: this process serves /metrics, /healthz and /readyz on PORT (${config.port}).`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    app.log.info(`${signal}: stopping`);
    await workers?.stop();
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

import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp } from '../app';
import { loadConfig, type Config } from '../config';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { connectDatabase, withDatabaseName, type Database } from '../db/client';
import { openDatabase } from '../db/open';
import type { ScryptCost } from '../lib/passwords';
import type { Clock } from '../lib/time';
import type { Services } from '../services';

/** A clock the test moves by hand: services read time only through it. */
export function createTestClock(start: string | Date) {
  let now = new Date(start);
  return {
    now: () => new Date(now),
    set: (moment: string | Date) => void (now = new Date(moment)),
    advance: (ms: number) => void (now = new Date(now.getTime() + ms)),
  };
}

export const TEST_PUBLIC_URL = 'http://herald.test';

/** The scrypt cost of the test app's passwords (production's, N=2^17, is 128 times dearer): tests only. */
export const TEST_PASSWORD_COST = { N: 1024, r: 8, p: 1 };

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export type TestUser = { token: string; userUuid: string; teamUuid: string; email: string; password: string };

export type TestApp = {
  app: FastifyInstance;
  services: Services;
  config: Config;
  database: Database;
  /** A user (and their own new team unless `team` names an existing one), with a personal token. */
  user(options?: { email?: string; team?: string; password?: string }): Promise<TestUser>;
  /** An HTTP request as a client sends it: JSON headers, and the bearer token when given. */
  request(method: Method, url: string, options?: { token?: string; body?: unknown; headers?: Record<string, string> }): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
};

/** One statement on the test run's server, as its superuser. */
async function onTestServer(statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: inject('databaseUrl') });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

async function createDatabaseFromTemplate(name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: inject('databaseUrl') });
  await admin.connect();
  try {
    // Copying one template from several test files at once can briefly collide; try again.
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.query(`CREATE DATABASE ${name} TEMPLATE ${inject('templateDatabase')}`);
        return;
      } catch (error) {
        if (attempt >= 20) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100 + attempt * 50));
      }
    }
  } finally {
    await admin.end();
  }
}

/** A fresh database (copied from the migrated template) and an app built on it, per test file. */
export async function createTestApp(
  env: Record<string, string> = {},
  options: { dashboardDir?: string; clock?: Clock; secretKey?: Buffer; passwordCost?: ScryptCost; appRole?: boolean } = {},
): Promise<TestApp> {
  const name = `herald_test_${randomUUID().replace(/-/g, '')}`;
  await createDatabaseFromTemplate(name);
  // appRole: the app connects as its own login role (DATABASE_URL), opened as production opens it
  // with the run's superuser as DATABASE_MIGRATION_URL (the owner), which grants that role its rights.
  const role = options.appRole ? `${name}_app` : undefined;
  let database: Database;
  if (role) {
    const password = randomBytes(18).toString('base64url');
    await onTestServer(`CREATE ROLE ${role} LOGIN PASSWORD '${password}'`);
    const ownerUrl = withDatabaseName(inject('databaseUrl'), name);
    const appUrl = new URL(ownerUrl);
    appUrl.username = role;
    appUrl.password = password;
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'herald-app-role-'));
    const opened = await openDatabase(loadConfig({ DATABASE_URL: appUrl.toString(), DATABASE_MIGRATION_URL: ownerUrl, DATA_DIR: dataDir }));
    await fs.rm(dataDir, { recursive: true, force: true });
    database = { ...opened, close: () => opened.shutdown() };
  } else {
    database = connectDatabase(withDatabaseName(inject('databaseUrl'), name), { max: 5 });
  }
  // HERALD_TEST_LOG=error shows what a failing request logged (5xx bodies hide it by design).
  const config = loadConfig({ PUBLIC_URL: TEST_PUBLIC_URL, LOG_LEVEL: process.env.HERALD_TEST_LOG ?? 'silent', ...env });
  const { app, services } = await buildApp({
    config,
    database,
    // Given: another app on the same database (a second process) signs and checks links with it too.
    secretKey: options.secretKey ?? randomBytes(32),
    clock: options.clock,
    // Tests make many users: their passwords are hashed cheaply unless a test asks for production's cost.
    passwordCost: options.passwordCost ?? TEST_PASSWORD_COST,
    logger: process.env.HERALD_TEST_LOG !== undefined,
    dashboardDir: options.dashboardDir ?? '/nonexistent',
    // A route that changes data without recording it in the audit trail fails its tests.
    auditStrict: true,
  });
  await app.ready();
  let users = 0;

  return {
    app,
    services,
    config,
    database,
    async user(options = {}) {
      users += 1;
      const email = options.email ?? `user${users}-${randomUUID().slice(0, 8)}@herald.test`;
      const password = options.password ?? 'correct-horse-battery';
      const created = await services.users.create({ email, password, teamName: options.team ?? `Team ${randomUUID().slice(0, 8)}` });
      const { token } = await services.tokens.issue(created.userId, 'personal', 'test');
      return { token, userUuid: created.userUuid, teamUuid: created.teamUuid, email, password };
    },
    request(method, url, options = {}) {
      const headers: Record<string, string> = { accept: 'application/json', 'content-type': 'application/json', ...options.headers };
      if (options.token) headers.authorization = `Bearer ${options.token}`;
      const request: InjectOptions = { method, url, headers };
      if (options.body !== undefined) request.payload = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
      return app.inject(request);
    },
    async close() {
      await app.close();
      await database.close();
      await onTestServer(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      if (role) await onTestServer(`DROP ROLE IF EXISTS ${role}`);
    },
  };
}

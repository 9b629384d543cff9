/**
 * A Herald process runs on one clock (main.ts): the job runner's schedules and the engine's stamps
 * read the clock the services are given, not the system's, so a test clock that moves a running
 * Herald a day on (HERALD_TEST_CLOCK_FILE, e2e/journey.spec.ts) moves its jobs and its sending too.
 * The clock here stands still years away from the system's time, so either is told apart at once.
 *
 * Seen red: with herald-jobs.ts handing the runner `systemClock` (the schedule's `last_run_at` was
 * today's time), and with workers.ts handing the engine `systemClock` (the reply's `updated_at` at
 * its submission was today's time).
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createMetrics } from '../observability/metrics';
import { createTestApp, createTestClock, type TestApp, type TestUser } from '../testing/test-app';
import { createWorkers } from '../workers';
import { createHeraldJobs } from './herald-jobs';

const clock = createTestClock('2031-03-01T09:00:00Z');
const CUSTOMER = '447700900555';
let t: TestApp;
let owner: TestUser;

beforeAll(async () => {
  t = await createTestApp({ SMS_SIMULATOR_LATENCY_MS: '50' }, { clock });
  owner = await t.user({ team: 'One clock' });
});
afterAll(() => t.close());

it('the job runner claims its periodic jobs at the clock’s time', async () => {
  const jobs = createHeraldJobs({ config: t.config, database: t.database, services: t.services, log: t.app.log, queues: false, clock });
  jobs.start();
  await jobs.stop();
  const rows = (await t.database.db.execute(sql`SELECT name, last_run_at FROM job_schedules WHERE name = 'idempotency_keys.sweep'`)).rows as Array<{
    last_run_at: Date | string;
  }>;
  expect(rows).toHaveLength(1);
  expect(new Date(rows[0]!.last_run_at).toISOString()).toBe(clock.now().toISOString());
});

it('the engine stamps what it sends at the clock’s time', async () => {
  const api = (method: 'POST', url: string, body: unknown) => t.request(method, `/api/2.0${url}`, { token: owner.token, body });
  expect((await api('POST', '/inbound-messages/', { from: CUSTOMER, body: 'Hello?' })).statusCode).toBe(201);
  const reply = await api('POST', `/conversations/${CUSTOMER}/messages`, { body: 'Hello from the shop.' });
  expect(reply.statusCode, reply.body).toBe(201);
  const workers = createWorkers({
    config: t.config,
    database: t.database,
    services: t.services,
    metrics: createMetrics({ database: t.database, clock }),
    log: t.app.log,
    clock,
  });
  workers.start();
  try {
    await expect
      .poll(
        async () =>
          (await t.database.db.execute(sql`SELECT status, updated_at FROM outbound_replies WHERE body = 'Hello from the shop.'`)).rows as Array<{
            status: string;
            updated_at: Date | string;
          }>,
        { timeout: 15_000 },
      )
      .toEqual([expect.objectContaining({ status: expect.stringMatching(/^(submitted|delivered)$/) })]);
  } finally {
    await workers.stop();
  }
  const [row] = (await t.database.db.execute(sql`SELECT updated_at FROM outbound_replies WHERE body = 'Hello from the shop.'`)).rows as Array<{
    updated_at: Date | string;
  }>;
  expect(new Date(row!.updated_at).toISOString()).toBe(clock.now().toISOString());
});

/**
 * The job runner (jobs/): the one retry policy's jitter stays in its bounds; a job whose runner died
 * is taken, once its lease has passed, by exactly one of two other runners (counted at a real SMTP
 * server); a periodic job runs once across two runners; the admin list and the metric `herald_jobs`
 * show what is queued, running and failed, over a real socket.
 *
 * Seen red: without `WHERE job_schedules.next_run_at <= now` in the runner's claim (runner.ts), the
 * periodic job ran twice, once in each runner; without `next_attempt_at <= now` (the lease) in
 * `account-mail.repository.ts` `claimDue`, both runners sent the dead runner's e-mail before its lease passed;
 * without the periodic job `idempotency_keys.sweep` (herald-jobs.ts), the expired key stayed.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer } from '../gateways/mail/mailer';
import { createAccountMailWorker } from '../modules/account-mail/account-mail.worker';
import { startSmtpSink, type SmtpSink } from '../testing/smtp-sink';
import { createTestApp, createTestClock, type TestApp, type TestUser } from '../testing/test-app';
import { createHeraldJobs } from './herald-jobs';
import { RETRY_JITTER, retryAt, retryDelayMs } from './retry-policy';
import { createJobRunner, type PeriodicJob } from './runner';

const TOKEN = 'metrics-token-of-the-job-runner-test';
const clock = createTestClock('2026-06-01T09:00:00Z');
let t: TestApp;
let sink: SmtpSink;
let base: string;
let admin: TestUser;
let dataDir: string;

beforeAll(async () => {
  t = await createTestApp({ METRICS_TOKEN: TOKEN }, { clock });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  sink = await startSmtpSink();
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'herald-jobs-'));
  admin = await t.user({ team: 'Job Runners' });
});
afterAll(async () => {
  await sink.close();
  await t.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

/** A runner with the account e-mail queue (the real worker, a real SMTP server) and `periodic`; `sends` counts the mailer's sends. */
const sends: string[] = [];
const runnerOf = (periodic?: PeriodicJob[]) => {
  const mailer = createMailer({
    smtpUrl: sink.url,
    outboxDir: path.join(dataDir, 'outbox'),
    from: 'Herald <jobs@herald.test>',
    log: () => {},
    timeoutMs: 2000,
  });
  const counted = { ...mailer, send: (mail: Parameters<typeof mailer.send>[0]) => (sends.push(mail.to), mailer.send(mail)) };
  const worker = createAccountMailWorker({ outbox: t.services.accountMail, mailer: counted, clock, log: () => {} });
  const runner = createJobRunner({ db: t.database.db, clock, log: () => {}, queues: [worker.queue], periodic, options: { pollMs: 10 } });
  return Object.assign(runner, { queue: worker.queue });
};
/** One pass of each runner's periodic jobs: each starts (a pass at once) and stops once the pass and its work are done. */
const onePass = async (...runners: Array<ReturnType<typeof runnerOf>>) => {
  for (const runner of runners) runner.start();
  await Promise.all(runners.map((runner) => runner.stop()));
};
/** Waits (at most 10 s) until `condition` holds. */
async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('waited 10 s in vain');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the retry policy', () => {
  it('waits the doubled delay, capped, up to a tenth sooner, and gives up at its attempts or its deadline', () => {
    const policy = { baseMs: 30_000, capMs: 3_600_000, maxAttempts: 12 };
    for (let attempts = 1; attempts <= 11; attempts++) {
      const exact = Math.min(policy.capMs, policy.baseMs * 2 ** (attempts - 1));
      expect(retryDelayMs(attempts, policy, () => 0)).toBe(exact);
      expect(retryDelayMs(attempts, policy, () => 1)).toBe(exact * (1 - RETRY_JITTER));
      const delays = Array.from({ length: 50 }, () => retryDelayMs(attempts, policy));
      for (const delay of delays) {
        expect(delay).toBeGreaterThanOrEqual(exact * 0.9);
        expect(delay).toBeLessThanOrEqual(exact);
      }
      // Jittered: fifty failures at once are not all tried again at the same moment.
      expect(new Set(delays).size).toBeGreaterThan(1);
    }
    const now = new Date('2026-06-01T09:00:00Z');
    expect(retryAt(12, policy, now)).toBeNull();
    expect(retryAt(11, policy, now)).not.toBeNull();
    const events = { baseMs: 30_000, capMs: 2 * 3_600_000 };
    expect(retryAt(1, events, now, { until: new Date(now.getTime() + 20_000) })).toBeNull();
    expect(retryAt(1, events, now, { until: new Date(now.getTime() + 40_000) })).not.toBeNull();
  });
});

describe('leases', () => {
  it('gives the job of a runner that died to exactly one other runner, once its lease has passed', async () => {
    await t.database.db.transaction((tx) => t.services.accountMail.enqueue(tx, [{ to: 'lease@herald.test', subject: 'Taken once', body: 'Hello' }]));
    // A runner takes the e-mail and dies before it is sent.
    expect(await t.services.accountMail.claimDue(10, 120_000)).toHaveLength(1);
    const received = () => sink.messages.filter((message) => message.to.includes('lease@herald.test')).length;

    const [a, b] = [runnerOf(), runnerOf()];
    await Promise.all([a.queue.runDue(() => false), b.queue.runDue(() => false)]);
    expect(received()).toBe(0); // its lease holds

    clock.advance(121_000);
    a.start();
    b.start();
    await until(() => received() > 0);
    await Promise.all([a.stop(), b.stop()]);
    await Promise.all([a.queue.runDue(() => false), b.queue.runDue(() => false)]);
    expect(received()).toBe(1);
    expect(sends.filter((to) => to === 'lease@herald.test')).toHaveLength(1);
  });
});

describe('periodic jobs', () => {
  it('run once across runners each time they are due, and at each start when asked', async () => {
    const runs = { sweep: 0, atStart: 0 };
    const periodic = (): PeriodicJob[] => [
      { name: 'test.sweep', everyMs: 60_000, run: async () => void runs.sweep++ },
      { name: 'test.at-start', atStart: true, run: async () => void runs.atStart++ },
    ];
    const [a, b] = [runnerOf(periodic()), runnerOf(periodic())];
    await onePass(a, b);
    expect(runs).toEqual({ sweep: 1, atStart: 2 });
    await onePass(a, b);
    expect(runs).toEqual({ sweep: 1, atStart: 4 });
    clock.advance(61_000);
    await onePass(a, b);
    expect(runs.sweep).toBe(2);
    const [{ count }] = (await t.database.db.execute(sql`SELECT count(*)::int AS count FROM job_schedules WHERE name = 'test.at-start'`)).rows as [
      { count: number },
    ];
    expect(count).toBe(0); // only at start: never on the shared schedule
  });
});

describe("Herald's periodic jobs", () => {
  it('delete idempotency keys past their 24 hours (once in onSend by chance), and keep the others', async () => {
    const [{ id: userId, team: teamId }] = (
      await t.database.db.execute(sql`SELECT m.user_id::int AS id, m.team_id::int AS team FROM memberships m ORDER BY m.user_id LIMIT 1`)
    ).rows as [{ id: number; team: number }];
    await t.database.db.execute(sql`
      INSERT INTO idempotency_keys (user_id, team_id, key, fingerprint, created_at, expires_at)
      VALUES (${userId}, ${teamId}, 'expired', '\\x00', now() - interval '25 hours', now() - interval '1 hour'),
             (${userId}, ${teamId}, 'live', '\\x00', now() - interval '1 hour', now() + interval '23 hours')`);
    const jobs = createHeraldJobs({ config: t.config, database: t.database, services: t.services, log: t.app.log, queues: false });
    jobs.start();
    await jobs.stop();
    const keys = (await t.database.db.execute(sql`SELECT key FROM idempotency_keys WHERE key IN ('expired', 'live')`)).rows;
    expect(keys).toEqual([{ key: 'live' }]);
  });
});

describe('where jobs are seen', () => {
  it('lists the team’s queued, running and failed jobs to its admins, and counts every queue in herald_jobs', async () => {
    const [{ id: teamId }] = (await t.database.db.execute(sql`SELECT id::int AS id FROM teams WHERE name = 'Job Runners'`)).rows as [{ id: number }];
    const stranger = await t.user();
    const [{ id: otherTeam }] = (await t.database.db.execute(sql`SELECT id::int AS id FROM teams WHERE uuid = ${stranger.teamUuid}`)).rows as [{ id: number }];
    const reply = (team: number, body: string, extra = sql``) =>
      t.database.db.execute(sql`INSERT INTO outbound_replies (team_id, to_number, sender, body) VALUES (${team}, '+447700900001', 'Herald', ${body}) ${extra}`);
    await reply(teamId, 'queued');
    await reply(teamId, 'running');
    await reply(teamId, 'failed');
    await reply(otherTeam, 'another team’s');
    // Held for an hour (the test clock is behind the database's: either way).
    await t.database.db.execute(sql`UPDATE outbound_replies SET lease_until = greatest(now(), ${clock.now()}) + interval '1 hour' WHERE body = 'running'`);
    await t.database.db.execute(sql`UPDATE outbound_replies SET status = 'failed', reason = 'refused by the gateway' WHERE body = 'failed'`);
    // Account e-mails: one taken by a runner, one given up (they belong to no team: counted, never listed).
    await t.database.db.transaction((tx) =>
      t.services.accountMail.enqueue(tx, [
        { to: 'taken@herald.test', subject: 'a', body: 'a' },
        { to: 'given-up@herald.test', subject: 'b', body: 'b' },
      ]),
    );
    const [, givenUp] = await t.services.accountMail.claimDue(10, 120_000);
    await t.services.accountMail.failed(givenUp!.id, 'mail server refused', null);

    const list = async (query: string, token = admin.token) => {
      const response = await fetch(`${base}/api/2.0/jobs${query}`, { headers: { authorization: `Bearer ${token}` } });
      return { status: response.status, body: (await response.json()) as { data: Array<Record<string, unknown>>; error?: unknown; meta?: unknown } };
    };
    const all = await list('');
    expect(all.status).toBe(200);
    expect(all.body.data.map((job) => [job.queue, job.state, job.last_error]).sort()).toEqual([
      ['reply', 'failed', 'refused by the gateway'],
      ['reply', 'queued', null],
      ['reply', 'running', null],
    ]);
    expect((await list('?state=failed')).body.data).toHaveLength(1);
    expect((await list('?queue=report')).body.data).toHaveLength(0);
    const bad = await list('?state=stuck');
    expect(bad.status).toBe(422);

    const viewer = await t.user();
    await t.services.users.addToTeam(viewer.email, 'Job Runners', 'viewer');
    const team = (await t.services.teamsRepository.findByName('Job Runners'))!;
    const viewerId = (await t.services.usersRepository.findByEmail(viewer.email))!.id;
    const viewerToken = (await t.services.tokens.issue(viewerId, 'personal', 'test', { teamId: team.id })).token;
    expect((await list('', viewerToken)).status).toBe(403);

    const scrape = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    const text = await scrape.text();
    const value = (queue: string, state: string) => Number(new RegExp(`^herald_jobs\\{queue="${queue}",state="${state}"\\} (\\d+)$`, 'm').exec(text)?.[1]);
    expect([value('reply', 'queued'), value('reply', 'running'), value('reply', 'failed')]).toEqual([2, 1, 1]);
    expect([value('account_mail', 'queued'), value('account_mail', 'running'), value('account_mail', 'failed')]).toEqual([0, 1, 1]);
    expect(value('report', 'queued')).toBe(0);
  });
});

/*
 * Report jobs under fenced, renewed leases (issue #16, point 4): two workers never both finish one
 * job, and never write the same stored parts. Since issue 22 (point 7) a report's CSV is stored in
 * the database as parts under the attempt that wrote them (report_file_parts), published by the
 * fenced `written`; "partial file" below is an attempt's parts, not yet published.
 *
 * How each test was checked to fail without its protection. Each protection was removed on its own,
 * this file was run, it went red as described, and the code was restored:
 * - No token check (every `AND lease_token = …` dropped from report-jobs.repository.ts): "fences every
 *   step" went red, because the stale claim's renew returned true. "taken over mid-write" went red:
 *   the taken-over worker published its file, marked the job sent and mailed it, and then the owning
 *   worker mailed again (2 e-mails). "renewal is refused" went red ('still writing': renewals were
 *   never refused, so the worker did not stop).
 * - No renewal (the worker's renewal tick did nothing): "slow worker that is alive" went red, because
 *   a second claim got the job once the first lease ran out. "renewal is refused" also went red
 *   ('still writing').
 * - One shared partial path (`<job>.csv.part` for every attempt): "taken over mid-write" went red,
 *   because the two attempts wrote one partial file (1 file, expected 2). (Before issue 22, with files.)
 * - Renewal refused but ignored by the writer (no abort signal passed to writeCsvAttempt): "renewal is
 *   refused" went red ('still writing').
 * - Rename before the fenced `written` instead of inside it: "taken over mid-write" went red, because
 *   the taken-over worker put its own file in place (`<job>.csv` was there next to the second's partial).
 *   (Before issue 22, with files.)
 * - No sweep at start: "removes partial files of attempts that died" went red (the dead file was kept).
 *   Since issue 22: without the parts' sweep, the fenced attempt's parts were left (attempts [0, 999999],
 *   expected [0]); with the older release's folder left alone, its dead partial file was kept.
 * - Discarding a taken-over attempt's parts left out of the worker (issue 22): "taken over mid-write"
 *   went red (the first attempt's parts were still stored beside the second's).
 * - Claims locking the job FOR UPDATE (as before issue 22) instead of FOR NO KEY UPDATE: "taken over
 *   mid-write" went red in 3 runs of 4 (timed out): the first attempt's part, still being inserted,
 *   held KEY SHARE on the job's row (its foreign key), so the second claim's SKIP LOCKED passed over
 *   the job and the second worker found nothing to do.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer, type Mailer } from '../../gateways/mail/mailer';
import { sentReportCampaign } from '../../testing/report-campaign';
import { startSmtpSink, type SmtpSink } from '../../testing/smtp-sink';
import { createTestApp, createTestClock, TEST_PUBLIC_URL, type TestApp, type TestUser } from '../../testing/test-app';
import { createReportLinks } from './report-links';
import { createReportWorker } from './report-worker';
import type { ReportsRepository } from './reports.repository';
import { createReportsService, type ReportsService } from './reports.service';

const clock = createTestClock('2026-06-01T08:00:00Z');
const CONTACTS = 40;
let t: TestApp;
let owner: TestUser;
let sink: SmtpSink;
let mailer: Mailer;
let dataDir: string;
let reportsDir: string;
let campaign: string;
const logs: string[] = [];

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'herald-report-leases-'));
  reportsDir = path.join(dataDir, 'reports');
  t = await createTestApp({ DATA_DIR: dataDir }, { clock });
  owner = await t.user({ email: 'ada@shop.test' });
  sink = await startSmtpSink();
  mailer = createMailer({ smtpUrl: sink.url, outboxDir: path.join(dataDir, 'outbox'), from: 'Herald <reports@herald.test>', log: () => {}, timeoutMs: 2000 });
  campaign = await sentReportCampaign(t, { token: owner.token, clock, name: 'Leases', contacts: CONTACTS, first: 100 });
});
afterAll(async () => {
  await mailer.close();
  await sink.close();
  await t.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

const worker = (leaseMs: number, parts: { service?: ReportsService; mailer?: Mailer } = {}) =>
  createReportWorker({
    db: t.database.db,
    reports: t.services.reportsRepository,
    service: parts.service ?? t.services.reports,
    mailer: parts.mailer ?? mailer,
    clock,
    config: t.config,
    log: (_level, message) => void logs.push(message),
    options: { leaseMs, retryBaseMs: 60_000 },
  });

/** Queues a report of the campaign and returns its job's uuid. */
async function requestReport(type: string): Promise<string> {
  expect((await t.request('POST', `/api/2.0/reporting/${campaign}/${type}`, { token: owner.token })).statusCode).toBe(202);
  return (await t.request('GET', '/api/2.0/report-jobs/', { token: owner.token })).json().data[0].uuid;
}

async function jobRow(uuid: string) {
  const { rows } = await t.database.db.execute<{
    status: string;
    error: string | null;
    row_count: number | null;
    lease_token: number | null;
    lease_until: string | null;
    file_attempt: number | null;
  }>(sql`
    SELECT status, error, row_count, lease_token, lease_until, file_attempt FROM report_jobs WHERE uuid = ${uuid}`);
  const row = rows[0]!;
  return { ...row, lease_until: row.lease_until === null ? null : new Date(row.lease_until) };
}

/** The attempts that have parts stored for one job (published or not). */
async function attemptsOf(uuid: string): Promise<number[]> {
  const { rows } = await t.database.db.execute<{ attempt: number }>(sql`
    SELECT DISTINCT p.attempt FROM report_file_parts p JOIN report_jobs j ON j.id = p.job_id WHERE j.uuid = ${uuid} ORDER BY p.attempt`);
  return rows.map((row) => Number(row.attempt));
}

/** The job's published CSV, its parts joined in order. */
async function storedCsv(uuid: string): Promise<string> {
  const { rows } = await t.database.db.execute<{ data: Buffer }>(sql`
    SELECT p.data FROM report_file_parts p JOIN report_jobs j ON j.id = p.job_id AND p.attempt = j.file_attempt WHERE j.uuid = ${uuid} ORDER BY p.part`);
  return Buffer.concat(rows.map((row) => row.data)).toString('utf8');
}

/** The e-mails that reached the SMTP sink for one report (e.g. "recipients"). */
const mailsFor = (name: string) => sink.messages.filter((m) => m.subject === `Your ${name} report for “Leases” is ready`);

/** Polls `read` until `done` holds or `timeoutMs` passes; returns the last value either way (the assertion after it says what was wrong). */
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 2000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > until) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Something that stops at a point until released: `reached` settles once it stopped there. */
function gate() {
  let release!: () => void;
  let reach!: () => void;
  const opened = new Promise<void>((resolve) => (release = resolve));
  const reached = new Promise<void>((resolve) => (reach = resolve));
  return { opened, reached, reach, release };
}

/**
 * The app's reports service, but its CSV writing stalls after the header (before the first read of
 * rows) until released: a worker that is slow, or paused, in the middle of writing.
 */
function stalledWriter() {
  const stall = gate();
  const real = t.services.reportsRepository;
  const reports: ReportsRepository = {
    ...real,
    messages: async (...args: Parameters<ReportsRepository['messages']>) => {
      stall.reach();
      await stall.opened;
      return real.messages(...args);
    },
  };
  const writer = createReportsService({
    // A part a write: the header is stored before the stall, so each attempt's parts show at once.
    partChars: 1,
    db: t.database.db,
    audit: t.services.auditTrail,
    reports,
    users: t.services.usersRepository,
    links: createReportLinks({ secretKey: randomBytes(32), publicUrl: TEST_PUBLIC_URL }),
    clock,
    config: t.config,
  });
  return { service: { ...t.services.reports, writeCsvAttempt: writer.writeCsvAttempt }, stalled: stall.reached, release: stall.release };
}

/** The test's mailer, but each e-mail stalls before it is handed to the mail server until released. */
function stalledMailer() {
  const stall = gate();
  const slow: Mailer = {
    send: async (message) => {
      stall.reach();
      await stall.opened;
      return mailer.send(message);
    },
    close: async () => {},
  };
  return { mailer: slow, stalled: stall.reached, release: stall.release };
}

describe('report jobs under fenced leases', () => {
  it('fences every step of a job with its claim’s token: a claim that was taken over changes nothing', async () => {
    const uuid = await requestReport('unsent');
    const repo = t.services.reportsRepository;
    const old = (await repo.claimJob(clock.now(), 1000))!;
    clock.advance(1001);
    const current = (await repo.claimJob(clock.now(), 1000))!;
    expect(current.uuid).toBe(old.uuid);
    expect(current.lease.token).not.toBe(old.lease.token);

    const file = { fileName: `${uuid}.csv`, rowCount: 0, bytes: 0, linkExpiresAt: clock.now() };
    expect(await repo.renew(old.lease, clock.now(), 1000)).toBe(false);
    expect(await t.database.db.transaction((tx) => repo.written(tx, old.lease, file, clock.now()))).toBe(false);
    expect((await jobRow(uuid)).file_attempt).toBeNull();
    expect(await repo.mailed(old.lease, clock.now())).toBe(false);
    expect(await repo.attemptFailed(old.lease, 'too late', null, clock.now())).toBe(false);
    expect(await jobRow(uuid)).toMatchObject({ status: 'writing', error: null, lease_token: Number(current.lease.token) });

    expect(await repo.renew(current.lease, clock.now(), 1000)).toBe(true);
    expect(await t.database.db.transaction((tx) => repo.written(tx, current.lease, file, clock.now()))).toBe(true);
    expect((await jobRow(uuid)).file_attempt).toBe(Number(current.lease.token));
    expect(await repo.mailed(current.lease, clock.now())).toBe(true);
    expect(await jobRow(uuid)).toMatchObject({ status: 'sent' });
  });

  it('a worker taken over mid-write can neither put its file in place nor mail: one e-mail, one complete file', async () => {
    const uuid = await requestReport('recipient');
    const first = stalledWriter();
    const firstRun = worker(600_000, { service: first.service }).runDue();
    await first.stalled;
    // Its lease runs out unrenewed (a long pause, a cut-off network; renewals every 200 s never come
    // here), and a second worker claims the job and starts writing too.
    clock.advance(600_001);
    const second = stalledWriter();
    const secondRun = worker(600_000, { service: second.service }).runDue();
    await second.stalled;
    try {
      // Two attempts, two sets of parts, each under its claim's token; neither published.
      const partials = await eventually(
        () => attemptsOf(uuid),
        (attempts) => attempts.length >= 2,
      );
      expect(partials).toHaveLength(2);
      expect((await jobRow(uuid)).file_attempt).toBeNull();

      // The first finishes its file while the second still writes: it is refused, and leaves the job alone.
      first.release();
      await firstRun;
      const row = await jobRow(uuid);
      expect(row).toMatchObject({ status: 'writing', error: null, row_count: null });
      // Its own parts are gone; the second's (under the job's current token) are untouched.
      expect(await attemptsOf(uuid)).toEqual([row.lease_token]);
      expect(mailsFor('recipients')).toHaveLength(0);
      expect(logs).toContain('report job taken over by another worker; this attempt stops');
    } finally {
      first.release();
      second.release();
      await Promise.all([firstRun, secondRun]);
    }

    const done = await jobRow(uuid);
    expect(done).toMatchObject({ status: 'sent', error: null, row_count: CONTACTS });
    expect(mailsFor('recipients')).toHaveLength(1);
    expect(await attemptsOf(uuid)).toEqual([done.file_attempt]);
    const lines = (await storedCsv(uuid)).replace(/^\uFEFF/, '').split('\r\n');
    expect(lines[0]).toBe('Phone_Number,Group_Name,Group_Description,Field_Names,Field_Values');
    expect(lines.at(-1)).toBe('');
    expect(lines.slice(1, -1).map((line) => line.split(',')[0])).toEqual(Array.from({ length: CONTACTS }, (_, i) => `447700900${100 + i}`));
  });

  it('a slow worker that is alive keeps its job: it renews while it writes and while it mails, so no one else can claim it', async () => {
    const uuid = await requestReport('delivery');
    const slowWriter = stalledWriter();
    const slowMailer = stalledMailer();
    const run = worker(300, { service: slowWriter.service, mailer: slowMailer.mailer }).runDue();
    /** Two thirds of a lease at a time, well past the first claim's end: held only if renewed meanwhile. */
    const keepsIt = async () => {
      for (let i = 0; i < 4; i++) {
        clock.advance(200);
        await eventually(
          async () => (await jobRow(uuid)).lease_until!.getTime(),
          (until) => until >= clock.now().getTime() + 300,
        );
        expect(await t.services.reportsRepository.claimJob(clock.now(), 300)).toBeUndefined();
      }
    };
    try {
      await slowWriter.stalled;
      await keepsIt();
      slowWriter.release();
      await slowMailer.stalled;
      expect((await jobRow(uuid)).status).toBe('mailing');
      await keepsIt();
    } finally {
      slowWriter.release();
      slowMailer.release();
      await run;
    }
    const done = await jobRow(uuid);
    expect(done).toMatchObject({ status: 'sent', error: null, row_count: CONTACTS });
    expect(mailsFor('delivery')).toHaveLength(1);
    expect(await attemptsOf(uuid)).toEqual([done.file_attempt]);
  });

  it('a worker whose renewal is refused stops writing at once: its partial file removed, nothing recorded, the job left to its new owner', async () => {
    const uuid = await requestReport('alt_delivery');
    const slow = stalledWriter();
    const run = worker(3000, { service: slow.service }).runDue();
    try {
      await slow.stalled;
      // The clock jumps past its lease between two renewals, and the job is claimed elsewhere.
      let stolen: Awaited<ReturnType<ReportsRepository['claimJob']>>;
      do {
        clock.advance(3001);
        stolen = await t.services.reportsRepository.claimJob(clock.now(), 600_000);
      } while (!stolen);
      // Its next renewal (within a second) is refused: it stops while its read of rows is still stalled.
      const outcome = await Promise.race([run.then(() => 'stopped'), new Promise((resolve) => setTimeout(() => resolve('still writing'), 5000))]);
      expect(outcome).toBe('stopped');
      expect(await attemptsOf(uuid)).toEqual([]);
      expect(await jobRow(uuid)).toMatchObject({ status: 'writing', error: null, lease_token: Number(stolen.lease.token) });
    } finally {
      slow.release();
      await run;
    }
    // Its new owner died without a word: once that lease ends, a worker finishes the job.
    clock.advance(600_001);
    await worker(600_000).runDue();
    const done = await jobRow(uuid);
    expect(done).toMatchObject({ status: 'sent', row_count: CONTACTS });
    expect(mailsFor('alternative delivery')).toHaveLength(1);
    expect(await attemptsOf(uuid)).toEqual([done.file_attempt]);
  });

  it('at start, removes parts of attempts that can never publish, and what an older release left in DATA_DIR/reports (a live report moved into the database)', async () => {
    // A report written and mailed; then made to look as an older release left it: a file in DATA_DIR/reports, nothing stored.
    const legacy = await requestReport('sent');
    await worker(600_000).runDue();
    const content = await storedCsv(legacy);
    expect(content).toContain(',Acme,2026-06-01 10:06:00,40,');
    await t.database.db.execute(sql`DELETE FROM report_file_parts WHERE job_id = (SELECT id FROM report_jobs WHERE uuid = ${legacy})`);
    await t.database.db.execute(sql`UPDATE report_jobs SET file_attempt = NULL, file_bytes = NULL WHERE uuid = ${legacy}`);
    await fs.mkdir(reportsDir, { recursive: true });
    await fs.writeFile(path.join(reportsDir, `${legacy}.csv`), content);
    // Parts of an attempt fenced long ago (the job is sent under a newer one), left by a worker that died.
    await t.database.db.execute(sql`
      INSERT INTO report_file_parts (job_id, attempt, part, data)
      SELECT id, 999999, n, '\\x00'::bytea FROM report_jobs, generate_series(0, 1) n WHERE uuid = ${legacy}`);
    expect(await attemptsOf(legacy)).toEqual([999999]);

    const anHourAgo = new Date(Date.now() - 3_600_000);
    const dead = path.join(reportsDir, 'dead.7.csv.part');
    const live = path.join(reportsDir, 'live.8.csv.part');
    const unknown = path.join(reportsDir, '00000000-0000-4000-8000-000000000000.csv');
    for (const file of [dead, live, unknown]) await fs.writeFile(file, 'x');
    await fs.utimes(dead, anHourAgo, anHourAgo);
    const w = worker(600_000);
    w.start();
    await w.stop();
    const exists = async (file: string) => (await fs.stat(file).catch(() => undefined)) !== undefined;
    expect(await exists(dead)).toBe(false);
    expect(await exists(live)).toBe(true);
    expect(await exists(unknown)).toBe(false);
    expect(await exists(path.join(reportsDir, `${legacy}.csv`))).toBe(false);
    // The live report is now in the database, under attempt 0, and its link downloads it.
    expect(await attemptsOf(legacy)).toEqual([0]);
    expect(await storedCsv(legacy)).toBe(content);
    const job = (await t.request('GET', '/api/2.0/report-jobs/', { token: owner.token })).json().data.find((j: { uuid: string }) => j.uuid === legacy);
    const download = await t.app.inject({ method: 'GET', url: (job.download_url as string).slice(TEST_PUBLIC_URL.length) });
    expect(download.statusCode, download.body).toBe(200);
    expect(download.body).toBe(content);
    expect(logs).toContain('removed report files left in DATA_DIR/reports by an older release');
    expect(logs).toContain('removed stored report parts');
    await fs.rm(live);
  });
});

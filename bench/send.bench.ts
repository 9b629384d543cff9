/**
 * Sending benchmark (issues #6 and #16): campaigns of 100,000 and of 1,000,000 recipients, one after
 * the other in this process, each on a fresh embedded PostgreSQL (a new data directory, started and
 * stopped around it), simulator at zero latency, from the send time to status 2 with every receipt
 * recorded; beside each, on the same database in the same run, a bare-SQL floor writing the same rows.
 *
 * A fresh database for each size, rather than two campaigns in one: the 100,000 run is then exactly
 * what it always was (its figures `send.rate`, `send.seconds`, `send.rss` stay comparable with the
 * history), and the 1,000,000 run does not inherit the first campaign's rows, dead tuples and the
 * autovacuum they set off — the cost-per-message ratio compares like with like.
 *
 * What each run measures:
 * - seconds from the send time (the campaign is due and the engine's first tick starts) until the
 *   campaign has status 2 and no message is queued or submitted (every receipt written);
 * - the first submission: when the gateway is first handed at least one message (its `submit` is
 *   wrapped), in seconds from the send time; and how long the `startDue` call that started the
 *   campaign took (the messages it writes at the send time), to say where that time goes;
 * - the campaign summary, `GET /api/2.0/campaigns/{uuid}/summary`, polled every 100 ms from the send
 *   time until the campaign is done, twice over: over HTTP from a Herald API process of its own
 *   (`--role api`, on the same database: what a dashboard sees where the API and the worker are
 *   apart; the target), and in this process beside the engine (`services.campaigns.summary`: what
 *   it sees where one process does both);
 * - peak RSS of this Node process (sampled every 50 ms from the database's opening to the run's
 *   end; PostgreSQL's own processes are not counted). Its growth is the 1,000,000 run's peak minus
 *   the 100,000 run's, the 100,000 run measured first.
 *
 * Figures: `send.rate`, `send.seconds`, `send.rss` for the first size (100,000); for each further size
 * (`send.1m.*` for 1,000,000) its rate and seconds against its own floor, the first submission, the
 * cost per message against the first size, the RSS growth and the summary latency (p50, p99).
 *
 * Then, on a database of its own, the run through the Twilio fake (issue 34, point 8;
 * bench/lib/send-through-twilio.ts): a team with one Twilio connection whose base URL is the fake on
 * loopback, in a process of its own, answering each request after 50 ms; a campaign of 30,000
 * recipients sent by the engine through the router, beside a bare node:http loop sending the same
 * requests to the same fake (the floor), the same loop over fetch, and the router alone. Figures
 * `send.twilio.*`: messages a second against the floor's, the router's overhead a message over the
 * floor, and the CPU each took. The fake's own list is checked afterwards: each recipient accepted
 * exactly once, each message recorded with the sid it was given.
 *
 * Run: `npm run bench:send -- [runs]` (Node as `npm start` runs Herald: `tsx --max-semi-space-size=64`) —
 * runs comma-separated, sizes for the simulator and `twilio` (or `twilio:<recipients>`) for the run
 * through the Twilio fake; default `100000,1000000,twilio` (or BENCH_SIZES). `npm run bench:send --
 * twilio` runs only that one, `-- 100000` only that size. `npm run bench` runs it five times and
 * writes BENCHMARKS.md. Both sizes take several minutes; the Twilio run one or two.
 * Also: BENCH_ANALYZE=1 analyses the contacts before the send (by default the campaign goes out
 * seconds after they are written, before autovacuum has looked at them); BENCH_TIMEOUT_S (default
 * 900) fails a send that has not finished by then, printing the statements still running;
 * BENCH_BATCH and BENCH_LANES as before.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../src/server/config';
import { connectDatabase, type Database, type Db } from '../src/server/db/client';
import { openDatabase } from '../src/server/db/open';
import { createEngine } from '../src/server/engine/engine';
import type { EngineStore } from '../src/server/engine/engine-store';
import { createEngineStore } from '../src/server/engine/store/postgres-store';
import type { SmsGateway } from '../src/server/gateways/sms/sms-gateway';
import { createSimulatorLedger } from '../src/server/gateways/sms/simulator-ledger';
import { createSimulatorGateway } from '../src/server/gateways/sms/simulator';
import { createServices } from '../src/server/services';
import { formatTimestamp, systemClock } from '../src/server/lib/time';
import { childEnv, freePort, runHerald, waitForHealthy, type HeraldProcess } from '../src/server/testing/processes';
import { emitResult, percentile, type Figure } from './lib/result';
import { adminAuthOf } from './lib/herald';
import { runThroughTwilio, twilioFigures } from './lib/send-through-twilio';

const RUNS = (process.argv[2] ?? process.env.BENCH_SIZES ?? '100000,1000000,twilio').split(',');
const TWILIO = RUNS.filter((run) => run.startsWith('twilio')).map((run) => Number(run.split(':')[1]?.replace(/_/g, '') ?? 30_000));
const SIZES = RUNS.filter((run) => !run.startsWith('twilio')).map((size) => Number(size.replace(/_/g, '')));
if (RUNS.length === 0 || [...SIZES, ...TWILIO].some((size) => !Number.isInteger(size) || size <= 0) || TWILIO.length > 1)
  throw new Error(`runs must be positive integers and at most one twilio[:<recipients>], comma-separated: ${process.argv[2] ?? process.env.BENCH_SIZES}`);

const SUMMARY_EVERY_MS = 100;
const MiB = 1024 * 1024;
const count = (n: number) => n.toLocaleString('en-GB');
/** 1,000,000 → "1m", 250,000 → "250k": the key of a further size's figures. */
const tag = (n: number) => (n % 1_000_000 === 0 ? `${n / 1_000_000}m` : n % 1000 === 0 ? `${n / 1000}k` : String(n));

const TIMEOUT_S = Number(process.env.BENCH_TIMEOUT_S ?? 900);

type Poll = { at: number; ms: number };

/** Prints the statements running for more than a second, then cancels them. */
async function cancelRunning(db: Db): Promise<void> {
  const { rows } = await db.execute<{ pid: number; seconds: string; wait: string | null; query: string }>(sql`
    SELECT pid, round(extract(epoch FROM now() - query_start)::numeric, 1)::text AS seconds, wait_event_type || '/' || wait_event AS wait,
           left(regexp_replace(query, '\\s+', ' ', 'g'), 300) AS query
      FROM pg_stat_activity
     WHERE state = 'active' AND pid <> pg_backend_pid() AND datname = current_database() AND now() - query_start > interval '1 second'`);
  for (const row of rows) console.error(`  still running after ${row.seconds} s (pid ${row.pid}${row.wait ? `, waiting on ${row.wait}` : ''}): ${row.query}`);
  await db.execute(sql`
    SELECT pg_cancel_backend(pid) FROM pg_stat_activity
     WHERE state = 'active' AND pid <> pg_backend_pid() AND datname = current_database() AND now() - query_start > interval '1 second'`);
}

type Run = {
  recipients: number;
  postgres: string;
  contactsSeconds: number;
  /** Send time to status 2 with every receipt written. */
  seconds: number;
  /** Send time to the first `submit` with at least one message. */
  firstSubmission: number;
  /** The `startDue` call that started the campaign: from and to, seconds after the send time. */
  startDue: { from: number; to: number };
  floorSeconds: number;
  floorSteps: Array<{ step: string; seconds: number }>;
  peakRss: number;
  polls: Poll[];
  /** The summary over HTTP from a Herald API process of its own (`--role api`) on the same database, as the dashboard polls it. */
  apiPolls: Poll[];
  /** Event-loop delay while sending, ms: p50, p99, max. */
  loopDelay: [number, number, number];
};

const seconds = (from: number) => (performance.now() - from) / 1000;

async function runCampaign(recipients: number): Promise<Run> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'herald-bench-send-'));
  await fs.chmod(dataDir, 0o755);
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  const database = await openDatabase(config);
  const services = createServices(database, config, { secretKey: randomBytes(32) });
  const { db } = database;
  let api: HeraldProcess | undefined;
  let owner: Database | undefined;
  let peakRss = process.memoryUsage.rss();
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 50);
  try {
    const user = await services.users.create({ email: 'bench@herald.test', password: 'bench-password', teamName: 'Bench' });
    const auth = adminAuthOf(user);
    // An API process apart from the engine's (a deployment's `--role api`), on the same database:
    // the summary the dashboard polls is read there, over HTTP.
    const apiPort = await freePort();
    // The engine's pool logs in as the application role; the API process migrates first, as the
    // embedded database's owner, as a deployment's DATABASE_MIGRATION_URL does.
    const appUrl = (database.pool.options as { connectionString: string }).connectionString;
    const ownerUrl = new URL(appUrl);
    ownerUrl.username = 'postgres';
    // The application role's password is derived from the owner's, not the same: the owner's is in the data folder.
    ownerUrl.password = encodeURIComponent((await fs.readFile(path.join(dataDir, 'postgres.password'), 'utf8')).trim());
    api = runHerald(
      'src/server/main.ts',
      ['--role', 'api'],
      childEnv({
        DATABASE_URL: appUrl,
        DATABASE_MIGRATION_URL: ownerUrl.toString(),
        DATA_DIR: path.join(dataDir, 'api'),
        PORT: String(apiPort),
        HOST: '127.0.0.1',
        HERALD_SECRET_KEY: randomBytes(32).toString('base64'),
        LOG_LEVEL: 'silent',
        RATE_LIMIT_PER_MINUTE: '100000000',
      }),
    );
    await waitForHealthy(apiPort, api);
    const { token } = await services.tokens.issue(user.userId, 'personal', 'bench summary');
    const template = await services.templates.create(auth, { name: 'Bench', body: 'Hello {{first_name}}, this is Herald.', sender: 'Herald' });
    const group = await services.contactGroups.create(auth, { name: 'Everyone', headers: ['first_name'] });
    const groupId = (await db.execute<{ id: number }>(sql`SELECT id FROM contact_groups WHERE uuid = ${group.uuid}`)).rows[0]!.id;
    const contactsStarted = performance.now();
    await db.execute(sql`
      INSERT INTO contacts (contact_group_id, phone_number, custom_fields)
      SELECT ${groupId}, '4477' || lpad(i::text, 8, '0'), jsonb_build_object('first_name', 'N' || i) FROM generate_series(1, ${recipients}) i`);
    await db.execute(sql`UPDATE contact_groups SET contact_count = ${recipients} WHERE id = ${groupId}`);
    // By default the campaign is sent as soon as its contacts are written, before autovacuum has
    // analysed them; BENCH_ANALYZE=1 analyses them first (as a group imported a while before would be).
    if (process.env.BENCH_ANALYZE === '1') await db.execute(sql`ANALYZE contacts`);
    const contactsSeconds = seconds(contactsStarted);
    console.log(`  ${count(recipients)} contacts written in ${contactsSeconds.toFixed(1)} s`);
    const now = new Date();
    const campaign = await services.campaigns.create(auth, {
      name: 'Bench',
      sender: 'Herald',
      scheduled_send_date: formatTimestamp(now, config.appTimezone),
      expiry_date: formatTimestamp(new Date(now.getTime() + 3_600_000), config.appTimezone),
      included_contact_groups: [group.uuid],
      excluded_contact_groups: [],
      template_uuid: template.uuid,
    });

    // The send time: set just before the first tick; the wrappers below note times against it.
    let started = performance.now();
    let firstSubmission: number | undefined;
    const simulator = createSimulatorGateway({ latencyMs: 0, failureRate: 0, ledger: createSimulatorLedger(db) });
    const gateway: SmsGateway = {
      ...simulator,
      submit(batch, submitOptions) {
        if (firstSubmission === undefined && batch.length > 0) {
          firstSubmission = seconds(started);
          console.log(`  first submission ${firstSubmission.toFixed(2)} s after the send time (${count(batch.length)} messages)`);
        }
        return simulator.submit(batch, submitOptions);
      },
    };
    const store = createEngineStore(db);
    let startDue: Run['startDue'] | undefined;
    const timedStore: EngineStore = {
      ...store,
      async startDue(at, limit) {
        const from = seconds(started);
        const ids = await store.startDue(at, limit);
        if (ids.length > 0 && !startDue) {
          startDue = { from, to: seconds(started) };
          console.log(`  campaign started (startDue returned) in ${(startDue.to - startDue.from).toFixed(2)} s`);
        }
        return ids;
      },
    };
    const engine = createEngine({
      store: timedStore,
      gateway,
      clock: systemClock,
      options: {
        tickMs: 1000,
        batchSize: Number(process.env.BENCH_BATCH ?? 5000),
        rateLimitPerSecond: 10_000_000,
        leaseMs: 30_000,
        lanes: Number(process.env.BENCH_LANES ?? 2),
      },
      urlBase: (domain) => services.vanityDomains.urlBase({ domain }),
    });

    // The summary, polled as a dashboard would while the campaign sends; its counts are the progress lines.
    let done = false;
    const polls: Poll[] = [];
    let lastProgress = 0;
    const poll = async () => {
      while (!done) {
        const from = performance.now();
        const summary = await services.campaigns.summary(auth, campaign.uuid);
        polls.push({ at: (from - started) / 1000, ms: performance.now() - from });
        if (performance.now() - lastProgress >= 5000) {
          lastProgress = performance.now();
          console.log(
            `  ${seconds(started).toFixed(1).padStart(6)} s: ${count(summary.delivered + summary.failed)} receipts, ${count(summary.submitted)} awaiting a receipt, ${count(summary.queued)} queued`,
          );
        }
        await sleep(SUMMARY_EVERY_MS);
      }
    };

    const apiPolls: Poll[] = [];
    const pollApi = async () => {
      const url = `http://127.0.0.1:${apiPort}/api/2.0/campaigns/${campaign.uuid}/summary`;
      while (!done) {
        const from = performance.now();
        const response = await fetch(url, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } });
        await response.arrayBuffer();
        if (response.status !== 200) throw new Error(`the summary answered ${response.status}`);
        apiPolls.push({ at: (from - started) / 1000, ms: performance.now() - from });
        await sleep(SUMMARY_EVERY_MS);
      }
    };

    console.log(`  sending ${count(recipients)} messages through the simulator…`);
    // Done: status 2 and no message queued or submitted. The campaign's counters are looked at after
    // each tick (one row); the messages themselves are counted only once the counters say so.
    let ticks = 0;
    const settled = async () => {
      const { rows: counters } = await db.execute<{ status: number; open: number }>(sql`
        SELECT status, message_count - delivered_count - failed_count - unsent_count AS open FROM campaigns WHERE uuid = ${campaign.uuid}`);
      if (counters[0]!.status !== 2 || Number(counters[0]!.open) !== 0) return false;
      const { rows } = await db.execute<{ status: number; open: number }>(sql`
        SELECT c.status, (SELECT count(*)::int FROM messages m WHERE m.campaign_id = c.id AND m.status IN ('queued', 'submitted')) AS open
          FROM campaigns c WHERE c.uuid = ${campaign.uuid}`);
      return rows[0]!.status === 2 && rows[0]!.open === 0;
    };
    started = performance.now();
    lastProgress = started;
    const poller = Promise.all([poll(), pollApi()]);
    // How long this process's event loop was held (the engine's own work) while the summary was polled.
    const loopDelay = monitorEventLoopDelay({ resolution: 10 });
    loopDelay.enable();
    // A send that never ends (a statement that does not return) fails the run rather than hanging
    // it: the statements still running are printed, then cancelled so the process can close.
    let watchdog: NodeJS.Timeout | undefined;
    const limit = new Promise<never>((_resolve, reject) => {
      watchdog = setTimeout(
        () => reject(new Error(`the campaign of ${count(recipients)} was not done after ${TIMEOUT_S} s (BENCH_TIMEOUT_S)`)),
        TIMEOUT_S * 1000,
      );
    });
    try {
      await Promise.race([
        (async () => {
          while (!done && !(await settled())) {
            await engine.tick();
            ticks++;
          }
        })(),
        limit,
      ]);
    } catch (error) {
      done = true;
      await cancelRunning(db);
      throw error;
    } finally {
      done = true;
      clearTimeout(watchdog);
      loopDelay.disable();
      await poller;
    }
    const elapsed = seconds(started);
    await simulator.close();
    if (firstSubmission === undefined || startDue === undefined) throw new Error('the campaign finished without a submission');
    console.log(`  done in ${elapsed.toFixed(1)} s (${count(Math.round(recipients / elapsed))} msg/s, ${ticks} ticks)`);

    // The floor: the same rows written by bare SQL — messages inserted, the simulator's record of
    // each, messages submitted, then delivered — one set-based statement each; as the database's
    // owner, since the application role may not create tables.
    owner = connectDatabase(ownerUrl.toString(), { max: 1 });
    const floorDb = owner.db;
    // The same table settings as messages (its fillfactor leaves room for updates beside each row).
    const { rows: settings } = await floorDb.execute<{ options: string[] | null }>(sql`SELECT reloptions AS options FROM pg_class WHERE relname = 'messages'`);
    const options = settings[0]?.options?.length ? sql.raw(` WITH (${settings[0].options.join(', ')})`) : sql``;
    await floorDb.execute(sql`CREATE TABLE floor_messages (LIKE messages INCLUDING ALL)${options}`);
    await floorDb.execute(sql`CREATE TABLE floor_deliveries (LIKE simulator_deliveries INCLUDING ALL)`);
    const floorSteps: Run['floorSteps'] = [];
    const step = async (name: string, statement: ReturnType<typeof sql>) => {
      const from = performance.now();
      await floorDb.execute(statement);
      floorSteps.push({ step: name, seconds: seconds(from) });
    };
    await step(
      'insert messages',
      sql`
      INSERT INTO floor_messages (campaign_id, sequence, phone_number, custom_fields)
      SELECT 0, row_number() OVER (ORDER BY phone_number), phone_number, custom_fields FROM contacts WHERE contact_group_id = ${groupId}`,
    );
    await step(
      "the simulator's record",
      sql`
      INSERT INTO floor_deliveries (client_ref, gateway_id, to_number, from_name, body)
      SELECT uuid, 'g' || id, phone_number, 'Herald', 'Hello' FROM floor_messages`,
    );
    await step('submitted', sql`UPDATE floor_messages SET status = 'submitted', body = 'Hello', gateway_id = 'g' || id, submitted_at = now()`);
    await step('delivered', sql`UPDATE floor_messages SET status = 'delivered', finished_at = now()`);
    const floorSeconds = floorSteps.reduce((sum, { seconds: s }) => sum + s, 0);
    console.log(`  floor ${floorSeconds.toFixed(1)} s: ${floorSteps.map(({ step: name, seconds: s }) => `${name} ${s.toFixed(2)} s`).join(', ')}`);

    const { rows: versions } = await db.execute<{ version: string }>(sql`SELECT current_setting('server_version') AS version`);
    return {
      recipients,
      postgres: `PostgreSQL ${versions[0]!.version}`,
      contactsSeconds,
      seconds: elapsed,
      firstSubmission,
      startDue,
      floorSeconds,
      floorSteps,
      peakRss,
      polls,
      apiPolls,
      loopDelay: [loopDelay.percentile(50) / 1e6, loopDelay.percentile(99) / 1e6, loopDelay.max / 1e6],
    };
  } finally {
    clearInterval(sampler);
    await owner?.close();
    if (api && api.child.exitCode === null) {
      api.child.kill('SIGTERM');
      await api.exited;
    }
    // Bounded: after a failed send a connection may still be held by the engine's last statement.
    const closed = await Promise.race([database.shutdown().then(() => true), sleep(60_000).then(() => false)]);
    if (!closed) console.error(`  PostgreSQL did not shut down within 60 s; its data folder ${dataDir} is left`);
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

function describePolls(label: string, polls: Poll[]): string {
  if (polls.length === 0) return `${label}: no calls`;
  const sorted = polls.map((poll) => poll.ms).sort((a, b) => a - b);
  return `${label}: ${polls.length} calls, p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms, max ${sorted.at(-1)!.toFixed(1)} ms`;
}

async function main(): Promise<void> {
  const runs: Run[] = [];
  for (const recipients of SIZES) {
    console.log(`campaign of ${count(recipients)} recipients, fresh database`);
    runs.push(await runCampaign(recipients));
  }
  const twilio = [];
  for (const recipients of TWILIO) {
    console.log(`campaign of ${count(recipients)} recipients through the Twilio fake, fresh database`);
    twilio.push(await runThroughTwilio(recipients));
  }
  const figures = [...simulatorFigures(runs), ...twilio.flatMap(twilioFigures)];
  const postgres = runs[0]?.postgres ?? twilio[0]?.postgres;
  emitResult({ bench: 'send', meta: postgres ? { postgres } : {}, figures });
}

/** The simulator runs' figures and their report (none when no size was asked for). */
function simulatorFigures(runs: Run[]): Figure[] {
  if (runs.length === 0) return [];
  const base = runs[0]!;
  const floorLabel = 'bare SQL writing the same rows, one set-based statement each';
  const figures: Figure[] = [
    {
      key: 'send.rate',
      label: `Messages sent a second (${count(base.recipients)} recipients, simulator)`,
      unit: 'msg/s',
      value: base.recipients / base.seconds,
      floor: base.recipients / base.floorSeconds,
      floorLabel,
      target: { on: 'value', op: '>=', value: 20_000 },
    },
    {
      key: 'send.seconds',
      label: 'Time from the send time to every receipt written',
      unit: 's',
      value: base.seconds,
      floor: base.floorSeconds,
      floorLabel,
      target: { on: 'ratio', op: '<=', value: 2 },
      digits: 1,
    },
    { key: 'send.rss', label: 'Peak RSS of the process', unit: 'MiB', value: base.peakRss / MiB },
  ];
  for (const run of runs.slice(1)) {
    const key = `send.${tag(run.recipients)}`;
    const n = count(run.recipients);
    const summary = run.polls.map((poll) => poll.ms).sort((a, b) => a - b);
    // Polls made once the campaign had started (before, the summary counts the audience instead).
    const overHttp = run.apiPolls
      .filter((poll) => poll.at >= run.startDue.to)
      .map((poll) => poll.ms)
      .sort((a, b) => a - b);
    figures.push(
      {
        key: `${key}.rate`,
        label: `Messages sent a second (${n} recipients, simulator)`,
        unit: 'msg/s',
        value: run.recipients / run.seconds,
        floor: run.recipients / run.floorSeconds,
        floorLabel,
        target: { on: 'value', op: '>=', value: 20_000 },
      },
      // The ratio is figure ÷ floor (bench/lib/result.ts): seconds within 1.5× of the floor's.
      {
        key: `${key}.seconds`,
        label: `Time from the send time to every receipt written (${n})`,
        unit: 's',
        value: run.seconds,
        floor: run.floorSeconds,
        floorLabel,
        target: { on: 'ratio', op: '<=', value: 1.5 },
        digits: 1,
      },
      {
        key: `${key}.first_submission`,
        label: `Time from the send time to the first submission (${n})`,
        unit: 's',
        value: run.firstSubmission,
        target: { on: 'value', op: '<=', value: 2 },
      },
      {
        key: `${key}.cost_ratio`,
        label: `Seconds per message at ${n} ÷ at ${count(base.recipients)}`,
        unit: '×',
        value: run.seconds / run.recipients / (base.seconds / base.recipients),
        floor: run.floorSeconds / run.recipients / (base.floorSeconds / base.recipients),
        floorLabel: 'the same ratio for the bare-SQL floors',
        target: { on: 'value', op: '<=', value: 1.1 },
      },
      {
        key: `${key}.rss_growth`,
        label: `Peak RSS growth, ${n} run over ${count(base.recipients)} run`,
        unit: 'MiB',
        value: (run.peakRss - base.peakRss) / MiB,
        target: { on: 'value', op: '<=', value: 50 },
      },
      {
        key: `${key}.summary_p99`,
        label: `Campaign summary while sending (${n}), p99, over HTTP from an API process`,
        unit: 'ms',
        value: percentile(overHttp, 99),
        target: { on: 'value', op: '<=', value: 20 },
      },
      {
        key: `${key}.summary_p50`,
        label: `Campaign summary while sending (${n}), p50, over HTTP from an API process`,
        unit: 'ms',
        value: percentile(overHttp, 50),
      },
      {
        key: `${key}.summary_inprocess_p99`,
        label: `Campaign summary while sending (${n}), p99, in the engine's own process`,
        unit: 'ms',
        value: percentile(summary, 99),
      },
    );
  }

  console.log('');
  for (const run of runs) {
    const starting = run.polls.filter((poll) => poll.at < run.startDue.to);
    const sending = run.polls.filter((poll) => poll.at >= run.startDue.to);
    console.log(
      `${count(run.recipients)}: contacts ${run.contactsSeconds.toFixed(1)} s; startDue ${(run.startDue.to - run.startDue.from).toFixed(2)} s ` +
        `(from ${run.startDue.from.toFixed(2)} s), first submission at ${run.firstSubmission.toFixed(2)} s, done at ${run.seconds.toFixed(1)} s; ` +
        `floor ${run.floorSeconds.toFixed(1)} s (${run.floorSteps.map(({ step, seconds: s }) => `${step} ${s.toFixed(2)} s`).join(', ')}); peak RSS ${(run.peakRss / MiB).toFixed(0)} MiB`,
    );
    console.log(`  ${describePolls('summary while the campaign starts (status 0 seen)', starting)}`);
    console.log(`  ${describePolls('summary once started', sending)}`);
    console.log(
      `  ${describePolls(
        'summary over HTTP from the API process, once started',
        run.apiPolls.filter((poll) => poll.at >= run.startDue.to),
      )}`,
    );
    console.log(
      `  event-loop delay while sending: p50 ${run.loopDelay[0].toFixed(1)} ms, p99 ${run.loopDelay[1].toFixed(1)} ms, max ${run.loopDelay[2].toFixed(1)} ms`,
    );
  }
  console.log('');
  return figures;
}

await main();

/**
 * The sending benchmark's run through the Twilio fake (issue 34, point 8): a team with one Twilio
 * connection whose base URL is the fake on loopback, answering every request after 50 ms; a
 * campaign sent by the engine through the router, as `--role worker` sends it (workers.ts: the team
 * router, 2 lanes, batches of 5,000 cut to the router's batch limit), with SMS_RATE_LIMIT and the
 * connection's `max_per_second` above what the fake's latency allows, so neither is the limit.
 *
 * Beside it, in the same run and against the same fake (its own process, bench/lib/twilio-fake-process.ts):
 * - the floor: a bare loop sending the same number of requests (the same form, Basic auth and
 *   answer read as the adapter's), 128 in flight (CONNECTION_CONCURRENCY) over node:http with the
 *   same keep-alive agent as the router's (`providerAgent`);
 * - the same loop over `fetch` (Node's built-in undici, its own keep-alive pool), for comparison,
 *   on a sample of 5,000 requests (it costs five to seven times the CPU of node:http here);
 * - the router alone (createRouter with its pacer and circuit breakers, the team's routes as the
 *   loader reads them), handed the messages in batches of ROUTER_BATCH_LIMIT on two lanes as the
 *   engine does, without the engine or the database.
 * The router's overhead per message is (its time − the floor's) ÷ messages. Afterwards the fake's
 * own list says that it accepted each recipient exactly once, and the messages' gateway ids are
 * exactly the sids it gave. Each phase also reports the CPU it took in this process, the fake's and
 * PostgreSQL's (from /proc), a message; BENCH_TRACE=1 prints each engine-store call and each hand-over
 * to the router with its times from the send time (where the engine's time goes).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../../src/server/config';
import { openDatabase } from '../../src/server/db/open';
import { createEngine } from '../../src/server/engine/engine';
import { createEngineStore } from '../../src/server/engine/store/postgres-store';
import { providerAgent } from '../../src/server/gateways/sms/providers/http-call';
import { createCircuitBreakers } from '../../src/server/gateways/sms/routing/circuit-breaker';
import { createPacer } from '../../src/server/gateways/sms/routing/pacer';
import { createRouter, ROUTER_BATCH_LIMIT } from '../../src/server/gateways/sms/routing/router';
import { createTeamRouter } from '../../src/server/gateways/sms/routing/team-router';
import { CONNECTION_CONCURRENCY, createTeamRoutingLoader } from '../../src/server/gateways/sms/routing/team-routing';
import type { OutgoingSms } from '../../src/server/gateways/sms/sms-gateway';
import { createSimulatorGateway } from '../../src/server/gateways/sms/simulator';
import { formatTimestamp, systemClock } from '../../src/server/lib/time';
import { createServices } from '../../src/server/services';
import { SmsConnectionInputSchema } from '../../src/shared/contract/sms-connections';
import { adminAuthOf } from './herald';
import type { Figure } from './result';
import { startTwilioFake } from './twilio-fake-process';

export const TWILIO_LATENCY_MS = 50;
/** SMS_RATE_LIMIT for the run: above what one connection at 50 ms a request can carry. */
const RATE_LIMIT = 10_000;
const MAX_PER_SECOND = 10_000;
/** The engine's lanes, as workers.ts sets them for an installation gateway without a batch limit. */
const LANES = 2;
const ACCOUNT = { account_sid: 'AC0123456789abcdef0123456789abcdef', auth_token: 'bench-auth-token-0123456789abcdef' };
const SENDER = '+447700900001';
/** Requests the fetch loop sends (at most): enough for its rate, in a fraction of the time. */
const FETCH_SAMPLE = 5_000;

/** CPU seconds used in a phase: this process (the sender), the fake's, PostgreSQL's. */
export type Cpu = { herald: number; fake: number; postgres: number };
/** One phase of the run: its wall time and the CPU it took. */
export type Phase = { seconds: number; cpu: Cpu };

export type TwilioRun = {
  recipients: number;
  /** The campaign through the engine: send time to status 2 (every message handed over and recorded). */
  engine: Phase;
  /** Send time to the engine's first hand-over to the router. */
  firstSubmission: number;
  /** The floor: bare node:http, same agent settings. */
  bareHttp: Phase;
  /** The same loop over fetch, for `fetched` requests. */
  bareFetch: Phase;
  fetched: number;
  /** The router alone, no engine or database. */
  router: Phase;
  peakRss: number;
  postgres: string;
};

const count = (n: number) => n.toLocaleString('en-GB');
const describe = (label: string, phase: Phase, recipients: number) =>
  `  ${label}: ${phase.seconds.toFixed(2)} s (${count(Math.round(recipients / phase.seconds))} msg/s); CPU a message: ` +
  `sender ${((phase.cpu.herald / recipients) * 1e6).toFixed(0)} µs, fake ${((phase.cpu.fake / recipients) * 1e6).toFixed(0)} µs, PostgreSQL ${((phase.cpu.postgres / recipients) * 1e6).toFixed(0)} µs`;

/** CPU seconds of a process so far from /proc (utime, stime, and its reaped children's). */
async function procCpu(pid: number, withChildren: boolean): Promise<number> {
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  if (!stat) return 0;
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 14–17 of proc(5) (utime, stime, cutime, cstime), counted from the state (field 3) here.
  const ticks = Number(fields[11]) + Number(fields[12]) + (withChildren ? Number(fields[13]) + Number(fields[14]) : 0);
  return ticks / 100; // USER_HZ
}

/** CPU seconds of the PostgreSQL server so far: its postmaster with the children it reaped, and those alive. */
async function postgresCpu(postmaster: number): Promise<number> {
  let total = await procCpu(postmaster, true);
  for (const entry of await fs.readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await fs.readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    if (stat && Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === postmaster) total += await procCpu(Number(entry), false);
  }
  return total;
}
const since = (from: number) => (performance.now() - from) / 1000;
const numberOf = (i: number) => `4477${String(i).padStart(8, '0')}`;

/** Twilio's create-a-Message form, as the adapter writes it. */
function formOf(to: string, body: string, callbackUrl: string): string {
  return new URLSearchParams({ To: `+${to}`, From: SENDER, Body: body, StatusCallback: callbackUrl }).toString();
}

/** Runs `total` jobs, `concurrency` at a time. */
async function inParallel(total: number, concurrency: number, job: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) await job(next++);
    }),
  );
}

/** The floor: the same requests over node:http with the router's keep-alive agent, 128 in flight; each answer read and parsed. */
async function bareHttp(baseUrl: string, recipients: number, callbackUrl: string): Promise<void> {
  const agent = providerAgent(baseUrl, CONNECTION_CONCURRENCY);
  const url = new URL(`${baseUrl}/2010-04-01/Accounts/${ACCOUNT.account_sid}/Messages.json`);
  const authorization = `Basic ${Buffer.from(`${ACCOUNT.account_sid}:${ACCOUNT.auth_token}`).toString('base64')}`;
  await inParallel(recipients, CONNECTION_CONCURRENCY, (i) => {
    const body = Buffer.from(formOf(numberOf(i + 1), `Hello N${i + 1}, this is Herald.`, callbackUrl));
    return new Promise<void>((resolve, reject) => {
      const request = http.request(url, {
        method: 'POST',
        agent,
        headers: { authorization, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', 'content-length': String(body.length) },
      });
      request.on('error', reject);
      request.on('response', (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          const answer = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { sid?: string };
          if (response.statusCode !== 201 || !answer.sid) reject(new Error(`the fake answered ${response.statusCode}`));
          else resolve();
        });
      });
      request.end(body);
    });
  });
  agent.destroy();
}

/** The same loop over the built-in fetch (undici's own keep-alive pool). */
async function bareFetch(baseUrl: string, recipients: number, callbackUrl: string): Promise<void> {
  const url = `${baseUrl}/2010-04-01/Accounts/${ACCOUNT.account_sid}/Messages.json`;
  const authorization = `Basic ${Buffer.from(`${ACCOUNT.account_sid}:${ACCOUNT.auth_token}`).toString('base64')}`;
  await inParallel(recipients, CONNECTION_CONCURRENCY, async (i) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: formOf(numberOf(i + 1), `Hello N${i + 1}, this is Herald.`, callbackUrl),
    });
    const answer = (await response.json()) as { sid?: string };
    if (response.status !== 201 || !answer.sid) throw new Error(`the fake answered ${response.status}`);
  });
}

function traced<T extends object>(store: T, at: () => number): T {
  if (!process.env.BENCH_TRACE) return store;
  return new Proxy(store, {
    get(target, name) {
      const value = Reflect.get(target, name) as unknown;
      if (typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        const from = at();
        try {
          return await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        } finally {
          console.log(`    ${String(name)} ${from.toFixed(3)} → ${at().toFixed(3)}`);
        }
      };
    },
  });
}

export async function runThroughTwilio(recipients: number): Promise<TwilioRun> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'herald-bench-twilio-'));
  await fs.chmod(dataDir, 0o755);
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', SMS_RATE_LIMIT: String(RATE_LIMIT) });
  const database = await openDatabase(config);
  const services = createServices(database, config, { secretKey: randomBytes(32) });
  const { db } = database;
  const fake = await startTwilioFake(ACCOUNT, TWILIO_LATENCY_MS);
  let peakRss = process.memoryUsage.rss();
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 50);
  try {
    const user = await services.users.create({ email: 'bench@herald.test', password: 'bench-password', teamName: 'Bench' });
    const auth = adminAuthOf(user);
    const connection = await services.smsConnections.create(
      auth,
      // Through the contract's schema, as the API takes it: every field left out gets its default.
      SmsConnectionInputSchema.parse({
        name: 'Twilio (fake)',
        provider: 'twilio',
        base_url: fake.baseUrl,
        credentials: ACCOUNT,
        senders: [SENDER],
        max_per_second: MAX_PER_SECOND,
        enabled: true,
      }),
    );
    const template = await services.templates.create(auth, { name: 'Bench', body: 'Hello {{first_name}}, this is Herald.', sender: 'Herald' });
    const group = await services.contactGroups.create(auth, { name: 'Everyone', headers: ['first_name'] });
    const groupId = (await db.execute<{ id: number }>(sql`SELECT id FROM contact_groups WHERE uuid = ${group.uuid}`)).rows[0]!.id;
    await db.execute(sql`
      INSERT INTO contacts (contact_group_id, phone_number, custom_fields)
      SELECT ${groupId}, '4477' || lpad(i::text, 8, '0'), jsonb_build_object('first_name', 'N' || i) FROM generate_series(1, ${recipients}) i`);
    await db.execute(sql`UPDATE contact_groups SET contact_count = ${recipients} WHERE id = ${groupId}`);
    const callbackUrl = connection.status_callback_url;

    // CPU taken by each phase, in this process, the fake's and PostgreSQL's (its postmaster and children).
    const { rows: backend } = await db.execute<{ pid: number; version: string }>(
      sql`SELECT pg_backend_pid() AS pid, current_setting('server_version') AS version`,
    );
    const postmaster = Number((await fs.readFile(`/proc/${backend[0]!.pid}/stat`, 'utf8')).split(') ')[1]!.split(' ')[1]);
    const cpuNow = async (): Promise<Cpu> => {
      const { user, system } = process.cpuUsage();
      return { herald: (user + system) / 1e6, fake: await fake.cpu(), postgres: await postgresCpu(postmaster) };
    };
    const phase = async (work: (started: number) => Promise<number | void>): Promise<Phase> => {
      const before = await cpuNow();
      const started = performance.now();
      const ended = (await work(started)) ?? performance.now();
      const after = await cpuNow();
      return {
        seconds: (ended - started) / 1000,
        cpu: { herald: after.herald - before.herald, fake: after.fake - before.fake, postgres: after.postgres - before.postgres },
      };
    };

    // The floor and its fetch twin, then the router alone: each sends every recipient once more to
    // the fake (forgotten before the campaign).
    console.log(`  ${count(recipients)} requests, ${CONNECTION_CONCURRENCY} in flight, to the fake (${TWILIO_LATENCY_MS} ms each)…`);
    const bareHttpPhase = await phase(() => bareHttp(fake.baseUrl, recipients, callbackUrl));
    console.log(describe('bare node:http loop', bareHttpPhase, recipients));
    // fetch is several times slower here: a sample of the requests tells its rate.
    const fetched = Math.min(recipients, FETCH_SAMPLE);
    const bareFetchPhase = await phase(() => bareFetch(fake.baseUrl, fetched, callbackUrl));
    console.log(describe(`bare fetch loop (${count(fetched)} requests)`, bareFetchPhase, fetched));

    const loader = createTeamRoutingLoader({ db, secrets: services.secrets, publicUrl: config.publicUrl, timeoutMs: config.smsProviderTimeoutMs });
    const routes = (await loader.load(user.teamId))!;
    const router = createRouter({
      breakers: createCircuitBreakers(),
      pacer: createPacer({ concurrency: CONNECTION_CONCURRENCY }),
      inDoubt: 'fail',
      installation: createSimulatorGateway({ latencyMs: 0, failureRate: 0 }),
    });
    const messages: OutgoingSms[] = Array.from({ length: recipients }, (_, i) => ({
      clientRef: randomUUID(),
      to: numberOf(i + 1),
      from: 'Herald',
      body: `Hello N${i + 1}, this is Herald.`,
    }));
    let routerAccepted = 0;
    const routerPhase = await phase(async () => {
      let nextBatch = 0;
      await Promise.all(
        Array.from({ length: LANES }, async () => {
          while (nextBatch < messages.length) {
            const batch = messages.slice(nextBatch, (nextBatch += ROUTER_BATCH_LIMIT));
            for (const result of await router.submit(user.teamId, routes, batch, { signal: new AbortController().signal }))
              if ('gatewayId' in result) routerAccepted++;
          }
        }),
      );
    });
    loader.close();
    if (routerAccepted !== recipients) throw new Error(`the router alone had ${routerAccepted} of ${recipients} accepted`);
    console.log(describe(`router alone (batches of ${ROUTER_BATCH_LIMIT}, ${LANES} lanes)`, routerPhase, recipients));
    await fake.reset();

    // The campaign, through the engine and the team router as a worker runs them.
    const now = new Date();
    const campaign = await services.campaigns.create(auth, {
      name: 'Bench through Twilio',
      sender: 'Herald',
      scheduled_send_date: formatTimestamp(now, config.appTimezone),
      expiry_date: formatTimestamp(new Date(now.getTime() + 3_600_000), config.appTimezone),
      included_contact_groups: [group.uuid],
      excluded_contact_groups: [],
      template_uuid: template.uuid,
    });
    const installation = createSimulatorGateway({ latencyMs: 0, failureRate: 0 });
    const teamRouter = createTeamRouter({
      db,
      secrets: services.secrets,
      publicUrl: config.publicUrl,
      installation,
      inDoubt: 'fail',
      timeoutMs: config.smsProviderTimeoutMs,
      optOut: async () => undefined,
    });
    let started = performance.now();
    let firstSubmission: number | undefined;
    const engine = createEngine({
      store: traced(createEngineStore(db, { defaultZone: config.appTimezone, publicUrl: config.publicUrl }), () => since(started)),
      gateway: installation,
      clock: systemClock,
      options: {
        tickMs: config.engineTickMs,
        batchSize: 5000,
        lanes: LANES,
        rateLimitPerSecond: config.smsRateLimit,
        leaseMs: config.engineLeaseMs,
        inDoubt: 'fail',
      },
      urlBase: (domain) => services.vanityDomains.urlBase({ domain }),
      log: (message) => console.error(`  engine: ${message}`),
      routing: {
        async gatewayFor(teamId) {
          const gateway = await teamRouter.gatewayFor(teamId);
          if (!gateway) return null;
          return {
            ...gateway,
            async submit(batch, options) {
              firstSubmission ??= since(started);
              const from = since(started);
              const results = await gateway.submit(batch, options);
              if (process.env.BENCH_TRACE) console.log(`    submit ${batch.length} ${from.toFixed(3)} → ${since(started).toFixed(3)}`);
              return results;
            },
          };
        },
      },
    });
    console.log(`  sending ${count(recipients)} messages through the engine and the router to the fake…`);
    const enginePhase = await phase(async (from) => {
      started = from;
      teamRouter.start();
      engine.start();
      let lastProgress = started;
      let done: number | undefined;
      try {
        while (done === undefined) {
          await sleep(50);
          const { rows } = await db.execute<{ status: number; submitted: number }>(
            sql`SELECT status, submitted_count AS submitted FROM campaigns WHERE uuid = ${campaign.uuid}`,
          );
          if (rows[0]!.status === 2) done = performance.now();
          else if (performance.now() - lastProgress >= 5000) {
            lastProgress = performance.now();
            console.log(`  ${since(started).toFixed(1).padStart(6)} s: ${count(Number(rows[0]!.submitted))} submitted`);
          }
          if (since(started) > 600) throw new Error('the campaign through the fake was not done after 600 s');
        }
      } finally {
        await engine.stop();
        await teamRouter.stop();
        await installation.close();
      }
      return done;
    });
    console.log(describe('engine and router', enginePhase, recipients));
    console.log(`  first submission ${firstSubmission?.toFixed(2)} s after the send time`);

    // Each recipient accepted by the fake exactly once, and recorded with the sid it gave.
    const accepted = await fake.report();
    const distinct = new Set(accepted.map(([to]) => to));
    const expected = Array.from({ length: recipients }, (_, i) => `+${numberOf(i + 1)}`);
    const missing = expected.filter((to) => !distinct.has(to));
    if (accepted.length !== recipients || distinct.size !== recipients || missing.length > 0)
      throw new Error(`the fake accepted ${accepted.length} messages for ${distinct.size} recipients of ${recipients} (${missing.length} missing)`);
    const { rows: recorded } = await db.execute<{ gateway_id: string | null; status: string }>(sql`
      SELECT m.gateway_id, m.status FROM messages m JOIN campaigns c ON c.id = m.campaign_id WHERE c.uuid = ${campaign.uuid}`);
    const connectionId = (await db.execute<{ id: number }>(sql`SELECT id FROM sms_connections WHERE uuid = ${connection.uuid}`)).rows[0]!.id;
    const sids = new Set(accepted.map(([, sid]) => `c${connectionId}:${sid}`));
    const unmatched = recorded.filter((row) => row.status !== 'submitted' || !row.gateway_id || !sids.has(row.gateway_id));
    if (recorded.length !== recipients || unmatched.length > 0)
      throw new Error(`${recorded.length} messages recorded, ${unmatched.length} not submitted with one of the fake's sids`);
    console.log(`  the fake accepted each of the ${count(recipients)} recipients exactly once; every message is recorded with its sid`);
    if (firstSubmission === undefined) throw new Error('no submission');
    return {
      recipients,
      engine: enginePhase,
      firstSubmission,
      bareHttp: bareHttpPhase,
      bareFetch: bareFetchPhase,
      fetched,
      router: routerPhase,
      peakRss,
      postgres: `PostgreSQL ${backend[0]!.version}`,
    };
  } finally {
    clearInterval(sampler);
    await fake.stop();
    await database.shutdown();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

/**
 * The run's figures: the rate through the engine against the floor's (bare node:http), the router's
 * overhead a message over the floor (alone, and with the engine and the database), the fetch loop's
 * and the router's own rates, and this process's CPU a message against the floor's.
 */
export function twilioFigures(run: TwilioRun): Figure[] {
  const n = count(run.recipients);
  const rate = (phase: Phase) => run.recipients / phase.seconds;
  const overheadMs = (phase: Phase) => ((phase.seconds - run.bareHttp.seconds) / run.recipients) * 1000;
  const cpuUs = (phase: Phase) => (phase.cpu.herald / run.recipients) * 1e6;
  const floorLabel = `a bare node:http loop sending the same requests to the same fake, ${CONNECTION_CONCURRENCY} in flight, with the router's keep-alive agent settings`;
  return [
    {
      key: 'send.twilio.rate',
      label: `Messages sent a second through the Twilio fake (${n} recipients, ${TWILIO_LATENCY_MS} ms a request, engine and router in one process)`,
      unit: 'msg/s',
      value: rate(run.engine),
      floor: rate(run.bareHttp),
      floorLabel,
      target: { on: 'value', op: '>=', value: 2_000 },
    },
    {
      key: 'send.twilio.router_overhead',
      label: `The router's own overhead a message over the bare loop (router alone − floor) ÷ messages`,
      unit: 'ms',
      value: overheadMs(run.router),
      target: { on: 'value', op: '<=', value: 1 },
      digits: 3,
    },
    {
      key: 'send.twilio.engine_overhead',
      label: `The same with the engine and the database (engine and router − floor) ÷ messages`,
      unit: 'ms',
      value: overheadMs(run.engine),
      target: { on: 'value', op: '<=', value: 1 },
      digits: 3,
    },
    {
      key: 'send.twilio.router_rate',
      label: `Messages a second through the router alone (batches of ${ROUTER_BATCH_LIMIT}, ${LANES} lanes, no engine or database)`,
      unit: 'msg/s',
      value: rate(run.router),
      floor: rate(run.bareHttp),
      floorLabel,
    },
    {
      key: 'send.twilio.fetch_rate',
      label: `Requests a second of the same bare loop over fetch (Node’s undici; ${count(run.fetched)} requests)`,
      unit: 'req/s',
      value: run.fetched / run.bareFetch.seconds,
      floor: rate(run.bareHttp),
      floorLabel,
    },
    {
      key: 'send.twilio.cpu',
      label: `CPU of the sending process a message, engine and router`,
      unit: 'µs',
      value: cpuUs(run.engine),
      floor: cpuUs(run.bareHttp),
      floorLabel,
    },
    {
      key: 'send.twilio.router_cpu',
      label: `CPU of the sending process a message, router alone`,
      unit: 'µs',
      value: cpuUs(run.router),
      floor: cpuUs(run.bareHttp),
      floorLabel,
    },
  ];
}

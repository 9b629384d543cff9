import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withDatabaseName } from '../db/client';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../db/embedded';
import { formatTimestamp } from '../lib/time';
import { childEnv, freePort, runHerald, signIn, waitForHealthy, type HeraldProcess } from '../testing/processes';
import { SmppPeer } from '../testing/smpp-peer';

// Chaos (issue #16, point 7). Three Herald processes on one PostgreSQL of the test's own share a
// 20,000-recipient campaign; every 3–5 s one of them, at random, is killed with SIGKILL and started
// again at once (a process that fails to start while PostgreSQL is down is started again too); once
// half the campaign is claimed PostgreSQL is stopped (fast shutdown: every connection cut) and started
// again on its port. ENGINE_LEASE_MS is 2 s, the tick 100 ms. Run twice:
//
// - over SMPP, SMS_IN_DOUBT=fail, window 5, to the SMPP test peer: one answer in 200 comes after up to
//   2.5 leases (its owner must keep renewing), five numbers are refused (ESME_RINVDSTADR), every
//   accepted submit_sm gets a DELIVRD receipt, and a handset sends STOP from 20 numbers the send has
//   not reached yet (3,000 sequences past the frontier; half of them just before or just after a kill);
// - through the simulator, held to 500 a second so the send lasts through the kills. Its hand-over
//   takes milliseconds, which kills at random hardly ever hit (not once in three runs), so the victim
//   is the process seen in pg_stat_activity (by its application_name) marking, handing over or
//   settling a batch, when one is seen within a second: most kills leave a batch in doubt.
//
// Invariants, and how each was seen failing:
//
// 1. SMPP, exactly once but for the in-doubt ones, which `fail` accounts for. Per recipient, from the
//    peer's count of submit_sm that may have reached the handset (accepted, or never answered):
//    submitted/delivered ⇒ exactly one, and its message_id is the message's gateway_id; failed
//    `in_doubt` ⇒ at most one; refused ⇒ none; unsent ⇒ none, and only `opted_out` for a STOP number;
//    nothing queued or pending; no submit_sm to a number that is no recipient. So a recipient with no
//    submission is in doubt, refused or opted out. Red with CHAOS_IN_DOUBT=resend (recipients
//    handed over twice).
// 2. Counters: campaigns.message_count, submitted_count, delivered_count, failed_count, unsent_count
//    and in_doubt_count equal a count(*) of the campaign's messages (in_doubt_count: those failed
//    `in_doubt`; under `resend` it counts resends, which leave nothing to recount), nothing queued, and
//    the unsent numbered 1…n. Red with the counter update of settleInDoubt (store/takeover.ts) removed
//    for one run (restored exactly afterwards).
// 3. Receipts: once the send is done and the processes are left alone, every message the SMSC accepted
//    and Herald recorded as submitted becomes delivered (the peer delivers a receipt again until a
//    deliver_sm_resp 0 comes back), and the peer holds none unacknowledged. Red when written: about one
//    receipt in ten was acknowledged and stored nowhere (markReceipts found the message not yet
//    submitted, then, a statement later, no longer missing: the owner's settle committed in between).
//    CHAOS_PEER_REDELIVER=0 plays an SMSC that never delivers a receipt again.
// 4. STOPs: each stored exactly once (one inbound_messages row, opted out) and in the team's
//    default_optouts group, and none other there. A STOP whose opt-out is visible in a snapshot where
//    the campaign's next_sequence has not reached its number was stored before that number's first
//    claim, so the number must never be handed over (no submit_sm at all, before or after) and be
//    unsent `opted_out`. That is what can be proved from outside: a number already claimed when its
//    STOP lands may still go (the claim checks default_optouts; a hand-over a moment later is allowed),
//    so such STOPs are only listed, and at least half of the STOPs must be stored ahead of the send or
//    the run proves too little. Red with the opt-out check of the claim (withoutOptOuts in
//    store/opt-outs.ts) disabled for one run (restored exactly afterwards).
// 5. Simulator, no exceptions: one simulator_deliveries row per recipient, every one with
//    submissions = 1 (the ledger counts each hand-over, even one it recognises), every message
//    submitted or delivered under the simulator's gateway id, nothing counted in doubt (it is asked,
//    `taken`, under the in-doubt policy `ask`), counters as in 2. Red with the engine's use of `taken` turned off for one run (it then
//    resends to the idempotent simulator: submissions = 2; restored exactly afterwards). Red once in
//    CI before the simulator's fences: one batch of 50 went twice, its old owner's hand-over landing after its
//    successor's question had found nothing; `taken` and `submit` now carry the batch token as the
//    hand-over's `attempt`, which the simulator orders hand-overs by (its fences;
//    gateways/sms/simulator.test.ts shows both halves of it failing without them). Red once more in
//    CI with attempt tokens: a batch of 50 went twice after a second owner took it over in doubt and was
//    killed (or gave it back at its second's end) before asking: the takeover had cleared its
//    `submitting` mark, so the third owner sent it without asking. The mark now holds until the
//    batch is asked about and settled (leases.test.ts shows both paths failing without it).
// 6. No Herald process dies by itself (an unhandled 'error' event or exception): only those the test
//    killed, or a start refused while PostgreSQL was down. Red when written: the restart crashed one to
//    three running processes a run (`Unhandled 'error' event` of a pg client checked out of the pool).
//
// CHAOS_ONLY=smpp|simulator runs one half. Five minutes or so on two cores (each half sends for
// 130–160 s: the SMPP half is paced by the slow answers, the simulator's by its rate cap).

const RECIPIENTS = 20_000;
const LEASE_MS = 2_000;
const PROCESSES = 3;
const STOPS = 20;
/** A STOP is sent for a number at least this many sequences past the sending frontier ("not yet reached"). */
const STOP_MARGIN = 3_000;
const KILL_EVERY_MS = { min: 3_000, max: 5_000 };
/**
 * How long the send may take under chaos before the test gives up (the machine is slow, or Herald is
 * stuck). The SMPP half took 186 s in CI once, and over 210 s on a machine shared with other suites.
 */
const SEND_DEADLINE_MS = 300_000;
const SHORT_CODE = '88440';
const ESME_RINVDSTADR = 0x0b;
/** Switches that show the invariants failing (see the header): the in-doubt policy, and an SMSC that never delivers again. */
const IN_DOUBT = process.env.CHAOS_IN_DOUBT === 'resend' ? 'resend' : 'fail';
const PEER_REDELIVERS = process.env.CHAOS_PEER_REDELIVER !== '0';
const ONLY = process.env.CHAOS_ONLY;

/** Recipient i's number as Herald stores it and the SMSC sees it (447700000000 …): phone order is i's order. */
const phone = (i: number) => `4477${String(i).padStart(8, '0')}`;
/** A few numbers the SMSC refuses for good: their messages fail with the SMPP status, never in doubt unless their owner died. */
const REJECTED = new Set([1_234, 7_777, 12_345, 16_000, 19_990].map(phone));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const between = (range: { min: number; max: number }) => range.min + Math.random() * (range.max - range.min);

let serverDir: string;
let dataDir: string;
let server: EmbeddedDatabase | undefined;
let peer: SmppPeer | undefined;
const fleets: Fleet[] = [];
const pools: pg.Pool[] = [];
/** Set when afterAll begins: loops a timed-out test left running stop, and PostgreSQL is not started again. */
let tearingDown = false;
let restarting: Promise<void> | undefined;

/**
 * Three Herald processes, each restarted as soon as it ends (killed by the test, or failed to start
 * while the database was down). Every generation's output is kept for the diagnosis of a failure.
 */
class Fleet {
  readonly slots: Array<{ index: number; port: number; current: HeraldProcess | undefined; history: string; starts: number; kills: number }> = [];
  /** Processes that ended without being killed, while the test ran (e.g. a start while PostgreSQL was down, or a crash). */
  readonly unplannedExits: Array<{ process: number; generation: number; code: number | null; output: string }> = [];
  private supervising = true;

  constructor(
    ports: number[],
    private readonly envFor: (index: number, port: number) => NodeJS.ProcessEnv,
  ) {
    this.slots = ports.map((port, index) => ({ index, port, current: undefined, history: '', starts: 0, kills: 0 }));
  }

  start(index: number): HeraldProcess {
    const slot = this.slots[index]!;
    const herald = runHerald('src/server/main.ts', [], this.envFor(index, slot.port));
    slot.current = herald;
    slot.starts++;
    const generation = slot.starts;
    void herald.exited.then((code) => {
      const how = herald.child.signalCode ?? `code ${code}`;
      slot.history = (slot.history + `\n--- process ${index} generation ${generation} ended (${how}) ---\n` + herald.output()).slice(-200_000);
      if (this.supervising && herald.child.signalCode === null) this.unplannedExits.push({ process: index, generation, code, output: herald.output() });
      if (this.supervising && slot.current === herald) {
        setTimeout(() => {
          if (this.supervising && slot.current === herald) this.start(index);
        }, 300);
      }
    });
    return herald;
  }

  kill(index: number): void {
    const slot = this.slots[index]!;
    slot.kills++;
    slot.current?.child.kill('SIGKILL');
  }

  /** Waits until every slot (or those given) runs a process that answers /healthz. */
  async allHealthy(indexes = this.slots.map((slot) => slot.index), timeoutMs = 90_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (const slot of indexes.map((index) => this.slots[index]!)) {
      for (;;) {
        const herald = slot.current!;
        try {
          await waitForHealthy(slot.port, herald, Math.max(1_000, deadline - Date.now()));
          break;
        } catch (error) {
          if (Date.now() > deadline) throw error;
          await sleep(300); // it ended while starting: the supervisor starts another
        }
      }
    }
  }

  async stop(signal: NodeJS.Signals): Promise<void> {
    this.supervising = false;
    await Promise.all(
      this.slots.map(async (slot) => {
        const herald = slot.current;
        if (!herald) return;
        if (herald.child.exitCode === null && herald.child.signalCode === null) herald.child.kill(signal);
        const ended = await Promise.race([herald.exited.then(() => true), sleep(20_000).then(() => false)]);
        if (!ended) {
          herald.child.kill('SIGKILL');
          await herald.exited;
        }
      }),
    );
  }

  /**
   * Processes that died by themselves: an uncaught exception or an unhandled 'error' event. A start that
   * fails because PostgreSQL is down (and so exits with its error) is not one.
   */
  crashes(): string[] {
    return this.unplannedExits
      .filter((exit) => /Unhandled 'error' event|triggerUncaughtException|Unhandled promise rejection|FATAL ERROR/i.test(exit.output))
      .map((exit) => `process ${exit.process} generation ${exit.generation} exited with code ${exit.code}:\n${exit.output.slice(0, 1_500)}`);
  }

  /** Synchronous last resort (process exit): no child outlives the test. */
  killAllNow(): void {
    this.supervising = false;
    for (const slot of this.slots) if (slot.current && slot.current.child.exitCode === null) slot.current.child.kill('SIGKILL');
  }

  logs(): string {
    return this.slots.map((slot) => slot.history + (slot.current ? `\n--- process ${slot.index} current ---\n${slot.current.output()}` : '')).join('\n');
  }
}

process.once('exit', () => fleets.forEach((fleet) => fleet.killAllNow()));

beforeAll(async () => {
  serverDir = await fs.mkdtemp(path.join(os.tmpdir(), 'herald-chaos-pg-'));
  await fs.chmod(serverDir, 0o755); // the database runs as the postgres user
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'herald-chaos-'));
  server = await startEmbeddedPostgres(serverDir);
}, 120_000);

afterAll(async () => {
  tearingDown = true;
  for (const fleet of fleets) fleet.killAllNow();
  await restarting?.catch(() => undefined);
  await Promise.all(fleets.map((fleet) => fleet.stop('SIGKILL')));
  await Promise.all(pools.map((pool) => pool.end().catch(() => undefined)));
  await peer?.close();
  await server?.stop();
  if (serverDir) await fs.rm(serverDir, { recursive: true, force: true });
  if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
}, 120_000);

/** Stops PostgreSQL (a fast shutdown: every connection is cut), waits, and starts it again on the same port. */
function restartPostgres(): Promise<void> {
  restarting = (async () => {
    const port = Number(new URL(server!.url).port);
    await server!.stop();
    await sleep(1_500);
    if (!tearingDown) server = await startEmbeddedPostgres(serverDir, { port });
  })();
  return restarting;
}

type Counters = {
  status: number;
  next_sequence: number;
  message_count: number;
  submitted_count: number;
  delivered_count: number;
  failed_count: number;
  unsent_count: number;
  in_doubt_count: number;
};

type Run = {
  q: <T extends pg.QueryResultRow>(text: string, values?: unknown[]) => Promise<T[]>;
  fleet: Fleet;
  campaignId: number;
  numberAt: Map<number, string>;
  seconds: number;
  kills: number;
  /** Kills of a process caught handing over (see `victim`). */
  targetedKills: number;
  restartedPostgresAt: number | null;
};

/**
 * One chaotic send: three processes on a fresh database share a 20,000-recipient campaign; every 3–5 s
 * one of them is killed (SIGKILL) and started again; PostgreSQL is restarted once half the campaign is
 * claimed. `duringSend` runs beside it (the STOPs). Resolves once the campaign is sent and the killing
 * has stopped, with every process up again.
 */
async function chaoticSend(options: {
  name: string;
  gateway: string;
  extraEnv?: Record<string, string>;
  onKill?: (run: Run, frontier: () => number) => Promise<void>;
  /** Which process to kill (else one at random). */
  victim?: (run: Run) => Promise<number | undefined>;
  duringSend?: (run: Run, frontier: () => number, finished: () => boolean) => Promise<void>;
}): Promise<Run> {
  const databaseName = `herald_chaos_${options.name}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server!.url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${databaseName}`);
  await admin.end();
  const databaseUrl = withDatabaseName(server!.url, databaseName);
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 4, connectionTimeoutMillis: 5_000 });
  pool.on('error', () => undefined); // its connections are cut when PostgreSQL restarts
  pools.push(pool);
  const q: Run['q'] = async (text, values = []) => (await pool.query(text, values)).rows;

  const ports = await Promise.all(Array.from({ length: PROCESSES }, () => freePort()));
  const shared = {
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    HERALD_SECRET_KEY: randomBytes(32).toString('base64'),
    HERALD_ADMIN_EMAIL: 'admin@chaos.test',
    HERALD_ADMIN_PASSWORD: 'chaos-password-1',
    SMS_GATEWAY: options.gateway,
    SMS_RATE_LIMIT: '2000',
    ENGINE_TICK_MS: '100',
    ENGINE_LEASE_MS: String(LEASE_MS),
    SMS_IN_DOUBT: IN_DOUBT,
    SMS_SIMULATOR_LATENCY_MS: '5',
    ...options.extraEnv,
  };
  // Each process names its connections (application_name), so the test can see which one is handing over.
  const fleet = new Fleet(ports, (index, port) =>
    childEnv({ ...shared, PORT: String(port), DATABASE_URL: `${databaseUrl}?application_name=herald-chaos-${index}` }),
  );
  fleets.push(fleet);
  // The first makes the admin; the others join once it has (and the schema is there).
  fleet.start(0);
  await fleet.allHealthy([0]);
  for (let index = 1; index < PROCESSES; index++) fleet.start(index);

  const api = await signIn(ports[0]!, 'admin@chaos.test', 'chaos-password-1');
  const template = (await api('POST', '/templates/', { name: 'Chaos', body: 'Hi {{first_name}}', sender: 'Herald' })).data.uuid;
  const group = (await api('POST', '/contact-groups/', { name: 'Everyone' })).data.uuid;
  for (let from = 0; from < RECIPIENTS; from += 10_000) {
    const contacts = Array.from({ length: Math.min(10_000, RECIPIENTS - from) }, (_, k) => ({
      phone_number: phone(from + k),
      custom_fields: { first_name: `N${from + k}` },
    }));
    await api('PUT', `/contact-groups/${group}/add-contacts`, { contacts });
  }
  await fleet.allHealthy();
  if (peer && options.gateway.startsWith('smpp')) {
    const deadline = Date.now() + 60_000;
    while (peer.binds.filter((bind) => bind.accepted).length < PROCESSES && Date.now() < deadline) await sleep(100);
  }

  const now = Date.now();
  const campaign = (
    await api('POST', '/campaigns/', {
      name: `Chaos ${options.name}`,
      sender: 'Herald',
      scheduled_send_date: formatTimestamp(new Date(now + 1000), 'Europe/London'),
      expiry_date: formatTimestamp(new Date(now + 3_600_000), 'Europe/London'),
      included_contact_groups: [group],
      template_uuid: template,
    })
  ).data.uuid;
  let campaignId = 0;
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; await sleep(100)) {
    // Started, and every recipient written (a large audience is written in chunks after the start).
    const rows = await q<{ id: number; status: number; written: boolean }>(
      `SELECT id, status, audience_after IS NULL AS written FROM campaigns WHERE uuid = $1`,
      [campaign],
    );
    if (rows[0] && rows[0].status >= 1 && rows[0].written) {
      campaignId = Number(rows[0].id);
      break;
    }
  }
  expect(campaignId, 'the campaign started').toBeGreaterThan(0);
  const numberAt = new Map(
    (await q<{ sequence: number; phone_number: string }>(`SELECT sequence, phone_number FROM messages WHERE campaign_id = $1`, [campaignId])).map((row) => [
      row.sequence,
      row.phone_number,
    ]),
  );
  expect(numberAt.size).toBe(RECIPIENTS);

  const run: Run = { q, fleet, campaignId, numberAt, seconds: 0, kills: 0, targetedKills: 0, restartedPostgresAt: null };
  const started = Date.now();
  let stopped = false;
  const finished = () => stopped || tearingDown;
  let frontier = 1;
  let status = 1;
  const progress: string[] = [];

  const monitor = (async () => {
    let lastLine = 0;
    while (!finished()) {
      try {
        const [row] = await q<Counters>(`SELECT * FROM campaigns WHERE id = $1`, [campaignId]);
        frontier = row!.next_sequence;
        status = row!.status;
        if (Date.now() - lastLine > 10_000) {
          lastLine = Date.now();
          progress.push(
            `${Math.round((Date.now() - started) / 1000)} s: claimed to ${frontier - 1}, submitted ${row!.submitted_count}, delivered ${row!.delivered_count}, ` +
              `failed ${row!.failed_count} (in doubt ${row!.in_doubt_count}), unsent ${row!.unsent_count}; kills ${run.kills}`,
          );
        }
      } catch {
        // PostgreSQL is restarting
      }
      await sleep(200);
    }
  })();
  const killer = (async () => {
    while (!finished()) {
      await sleep(between(KILL_EVERY_MS));
      if (finished()) break;
      const chosen = await options.victim?.(run).catch(() => undefined);
      if (chosen !== undefined) run.targetedKills++;
      const index = chosen ?? Math.floor(Math.random() * PROCESSES);
      await options.onKill?.(run, () => frontier);
      fleet.kill(index);
      run.kills++;
    }
  })();
  const databaseRestart = (async () => {
    while (!finished() && frontier <= RECIPIENTS / 2) await sleep(100);
    if (finished()) return;
    run.restartedPostgresAt = Math.round((Date.now() - started) / 1000);
    progress.push(`${run.restartedPostgresAt} s: PostgreSQL restarting (claimed to ${frontier - 1})`);
    await restartPostgres();
  })();
  const beside = options.duringSend?.(run, () => frontier, finished) ?? Promise.resolve();

  try {
    while (status !== 2 && !tearingDown && Date.now() - started < SEND_DEADLINE_MS) await sleep(200);
  } finally {
    stopped = true;
    await Promise.all([monitor, killer, databaseRestart, beside]);
  }
  run.seconds = Math.round((Date.now() - started) / 1000);
  console.log(`chaos ${options.name}:\n  ${progress.join('\n  ')}\n  sent in ${run.seconds} s with ${run.kills} kills`);
  expect(status, `the campaign was sent within ${SEND_DEADLINE_MS / 1000} s\n${progress.join('\n')}\n${fleet.logs().slice(-20_000)}`).toBe(2);
  expect(run.restartedPostgresAt, 'PostgreSQL was restarted midway').not.toBeNull();
  expect(run.kills).toBeGreaterThan(3);
  await fleet.allHealthy();
  // A process may fail to start while PostgreSQL is down; one that is running must ride out the restart.
  const crashes = fleet.crashes();
  expect
    .soft(
      crashes.map((crash) => crash.split('\n').slice(0, 12).join('\n')),
      `${crashes.length} Herald processes crashed by themselves`,
    )
    .toEqual([]);
  return run;
}

/** The campaign's counters, and the same figures counted from its messages. */
async function countersAndRecount(run: Run) {
  const [counters] = await run.q<Counters>(`SELECT * FROM campaigns WHERE id = $1`, [run.campaignId]);
  const [recount] = await run.q<Record<string, number>>(
    `SELECT count(*)::int AS message_count, count(*) FILTER (WHERE status = 'submitted')::int AS submitted_count,
            count(*) FILTER (WHERE status = 'delivered')::int AS delivered_count, count(*) FILTER (WHERE status = 'failed')::int AS failed_count,
            count(*) FILTER (WHERE status = 'unsent')::int AS unsent_count, count(*) FILTER (WHERE reason = 'in_doubt')::int AS in_doubt_count,
            count(*) FILTER (WHERE status = 'queued')::int AS queued
       FROM messages WHERE campaign_id = $1`,
    [run.campaignId],
  );
  const unsentNumbers = await run.q<{ n: number | null }>(
    `SELECT unsent_sequence AS n FROM messages WHERE campaign_id = $1 AND (status = 'unsent' OR unsent_sequence IS NOT NULL) ORDER BY unsent_sequence`,
    [run.campaignId],
  );
  return { counters: counters!, recount: recount!, unsentNumbers: unsentNumbers.map((row) => row.n) };
}

function expectCountersMatch(got: Awaited<ReturnType<typeof countersAndRecount>>, withInDoubt: boolean) {
  const { counters, recount, unsentNumbers } = got;
  const pick = (row: Record<string, number>) => ({
    message_count: row.message_count,
    submitted_count: row.submitted_count,
    delivered_count: row.delivered_count,
    failed_count: row.failed_count,
    unsent_count: row.unsent_count,
    ...(withInDoubt ? { in_doubt_count: row.in_doubt_count } : {}),
  });
  expect.soft(pick(counters as unknown as Record<string, number>), 'campaign counters equal a recount of its messages').toEqual(pick(recount));
  expect.soft(recount.queued, 'nothing left queued').toBe(0);
  expect.soft(unsentNumbers, 'unsent messages numbered 1…n for the unsent report').toEqual(Array.from({ length: recount.unsent_count! }, (_, i) => i + 1));
}

async function waitFor(condition: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition().catch(() => false)) return true;
    await sleep(250);
  }
  return false;
}

describe('chaos: three processes, kills, a database restart', { timeout: 420_000 }, () => {
  // CHAOS_ONLY (by hand, to diagnose one half) leaves the other half undefined; by default both run.
  const half = (name: string) => (ONLY === undefined || ONLY === name ? it : () => undefined);
  half('smpp')(
    `over SMPP (SMS_IN_DOUBT=${IN_DOUBT}): one submit_sm per recipient but the in-doubt ones, no text after a stored STOP, every receipt stored, counters true`,
    async () => {
      peer = await SmppPeer.start();
      peer.autoReceipt = 'DELIVRD';
      peer.redeliver = PEER_REDELIVERS;
      // Most answers at once; one in 200 after up to 2.5 leases (the owner must renew meanwhile).
      peer.slowShare = 0.005;
      peer.slowDelayMs = { min: 0, max: 2.5 * LEASE_MS };
      for (const number of REJECTED) peer.rejectTo(number, ESME_RINVDSTADR);
      const smsc = peer;

      type Stop = { number: string; sequence: number; sentAt: number; frontierAtSend: number };
      const stops: Stop[] = [];
      const chosen = new Set<number>();
      /** A STOP from a recipient the send has not reached yet (STOP_MARGIN past the frontier). */
      const sendStop = (run: Run, frontier: number): boolean => {
        if (stops.length >= STOPS) return false;
        const low = frontier + STOP_MARGIN;
        if (low > RECIPIENTS) return false;
        let sequence = 0;
        for (let attempt = 0; attempt < 50; attempt++) {
          const candidate = low + Math.floor(Math.random() * (RECIPIENTS - low + 1));
          if (!chosen.has(candidate) && !REJECTED.has(run.numberAt.get(candidate)!)) {
            sequence = candidate;
            break;
          }
        }
        if (sequence === 0) return false;
        const number = run.numberAt.get(sequence)!;
        try {
          smsc.sendMo({ from: number, to: SHORT_CODE, body: 'STOP' });
        } catch {
          return false; // no process bound at this instant
        }
        chosen.add(sequence);
        stops.push({ number, sequence, sentAt: Date.now(), frontierAtSend: frontier });
        return true;
      };

      // When each opt-out became visible, and where the frontier was in that same snapshot.
      const stored = new Map<string, { at: number; frontier: number }>();
      const observe = async (run: Run) => {
        const rows = await run.q<{ phone_number: string; frontier: number }>(
          `SELECT c.phone_number, (SELECT next_sequence FROM campaigns WHERE id = $1) AS frontier
             FROM contacts c JOIN contact_groups g ON g.id = c.contact_group_id WHERE g.system_role = 'optouts'`,
          [run.campaignId],
        );
        const at = Date.now();
        for (const row of rows) if (!stored.has(row.phone_number)) stored.set(row.phone_number, { at, frontier: row.frontier });
      };

      const run = await chaoticSend({
        name: 'smpp',
        gateway: peer.url({ window: 5 }),
        // Half the kills come with a STOP just before or just after them.
        onKill: async (run, frontier) => {
          if (Math.random() < 0.5) {
            if (Math.random() < 0.5) sendStop(run, frontier());
            else setTimeout(() => sendStop(run, frontier()), Math.random() * 300);
          }
        },
        duringSend: async (run, frontier, finished) => {
          const sender = (async () => {
            while (!finished() && stops.length < STOPS) {
              await sleep(between({ min: 500, max: 3_000 }));
              if (!finished()) sendStop(run, frontier());
            }
          })();
          while (!finished()) {
            await observe(run).catch(() => undefined);
            await sleep(100);
          }
          await sender;
        },
      });

      // Quiet now: every receipt and every STOP the SMSC still holds is delivered to a live process.
      const settled = await waitFor(async () => {
        await observe(run);
        const [row] = await run.q<{ n: number }>(`SELECT count(*)::int AS n FROM messages WHERE campaign_id = $1 AND status = 'submitted'`, [run.campaignId]);
        return row!.n === 0 && smsc.pendingDeliveries === 0 && stops.every((stop) => stored.has(stop.number));
      }, 30_000);
      await observe(run).catch(() => undefined);

      const messages = await run.q<{ sequence: number; phone_number: string; status: string; reason: string | null; gateway_id: string | null }>(
        `SELECT sequence, phone_number, status, reason, gateway_id FROM messages WHERE campaign_id = $1 ORDER BY sequence`,
        [run.campaignId],
      );
      const got = await countersAndRecount(run);

      // The SMSC's record, per destination: accepted (with their ids), never answered, refused.
      const atPeer = new Map<string, { accepted: string[]; unanswered: number; refused: number; times: number[] }>();
      // The campaign's submit_sm (from its sender); the short code's are the STOPs' confirmations.
      const campaignSubmits = smsc.submits.filter((submit) => submit.sourceAddr === 'Herald');
      const confirmations = smsc.submits.filter((submit) => submit.sourceAddr !== 'Herald' && (submit.status === 0 || submit.status === null));
      for (const submit of campaignSubmits) {
        const entry = atPeer.get(submit.destinationAddr) ?? { accepted: [], unanswered: 0, refused: 0, times: [] };
        if (submit.status === 0) entry.accepted.push(submit.messageId!);
        else if (submit.status === null) entry.unanswered++;
        else entry.refused++;
        if (submit.status === 0 || submit.status === null) entry.times.push(submit.receivedAt);
        atPeer.set(submit.destinationAddr, entry);
      }
      const handedOver = new Map<string, number>();
      for (const [destination, entry] of atPeer) handedOver.set(destination, entry.accepted.length + entry.unanswered);
      const stopNumbers = new Set(stops.map((stop) => stop.number));

      // 1. Exactly once, but for the in-doubt ones, which are all accounted for by the policy.
      const wrong: string[] = [];
      const byStatus = new Map<string, number>();
      for (const message of messages) {
        const key = `${message.status}${message.reason ? `/${message.reason}` : ''}`;
        byStatus.set(key, (byStatus.get(key) ?? 0) + 1);
        const handed = handedOver.get(message.phone_number) ?? 0;
        const peerSide = atPeer.get(message.phone_number);
        const what = `#${message.sequence} ${message.phone_number} ${key} gateway_id=${message.gateway_id} handed over ${handed} time(s) ${JSON.stringify(peerSide ?? {})}`;
        if (message.status === 'submitted' || message.status === 'delivered') {
          if (handed !== 1 || peerSide?.accepted[0] !== message.gateway_id) wrong.push(`sent, not exactly once: ${what}`);
        } else if (message.status === 'failed' && message.reason === 'in_doubt') {
          if (handed > 1) wrong.push(`in doubt, handed over more than once: ${what}`);
        } else if (message.status === 'failed') {
          if (!REJECTED.has(message.phone_number) || handed !== 0 || !message.reason?.includes('ESME_RINVDSTADR')) wrong.push(`failed: ${what}`);
        } else if (message.status === 'unsent') {
          if (message.reason !== 'opted_out' || !stopNumbers.has(message.phone_number) || handed !== 0) wrong.push(`unsent: ${what}`);
        } else {
          wrong.push(`left ${message.status}: ${what}`);
        }
      }
      const recipients = new Set(messages.map((message) => message.phone_number));
      for (const destination of atPeer.keys()) if (!recipients.has(destination)) wrong.push(`submit_sm to a number that is no recipient: ${destination}`);
      const inDoubt = messages.filter((message) => message.reason === 'in_doubt');
      console.log(
        `chaos smpp: ${[...byStatus].map(([key, n]) => `${key} ${n}`).join(', ')}; submit_sm ${smsc.submits.length} ` +
          `(never answered ${smsc.submits.filter((s) => s.status === null).length}, in doubt and never handed over ${inDoubt.filter((m) => !handedOver.has(m.phone_number)).length}); ` +
          `receipts and STOPs settled: ${settled}; kills ${run.kills}, PostgreSQL restarted at ${run.restartedPostgresAt} s`,
      );
      expect.soft(wrong.slice(0, 30), `${wrong.length} recipients not accounted for`).toEqual([]);
      expect.soft(messages).toHaveLength(RECIPIENTS);

      // 2. Counters equal a recount (in_doubt_count counts failures under `fail`; under `resend` it counts resends, which leave no trace to recount).
      expectCountersMatch(got, IN_DOUBT === 'fail');

      // 3. Every accepted submission's message was delivered: the receipts, redelivered by the SMSC until acknowledged, were all stored.
      const undelivered = messages.filter((message) => message.gateway_id !== null && message.status !== 'delivered');
      if (undelivered.length > 0) {
        // Where did their receipts go? The SMSC had every one acknowledged (pendingDeliveries), so either they wait in
        // early_receipts (for a submission not recorded yet), or they were acknowledged and stored nowhere.
        const [waiting] = await run.q<{ n: number }>(`SELECT count(*)::int AS n FROM early_receipts WHERE gateway_id = ANY($1::text[])`, [
          undelivered.map((message) => message.gateway_id),
        ]);
        const ids = new Set(undelivered.map((message) => message.gateway_id));
        console.log(
          `chaos smpp: ${undelivered.length} accepted messages still not delivered; their receipts waiting in early_receipts: ${waiting!.n}; ` +
            `deliver_sm answered 0: ${smsc.deliverAcks}, answered with an error: ${smsc.deliverResponses.filter((status) => status !== 0).length}; ` +
            `accepted submit_sm among them: ${smsc.submits.filter((submit) => submit.messageId !== null && ids.has(submit.messageId)).length}`,
        );
      }
      expect.soft(undelivered.slice(0, 20), `${undelivered.length} accepted messages without their stored receipt`).toEqual([]);
      expect.soft(got.counters.delivered_count).toBe(messages.filter((message) => message.gateway_id !== null).length);
      expect.soft(smsc.pendingDeliveries, 'deliver_sm the SMSC still waits to have acknowledged').toBe(0);

      // 4. STOPs: every one stored once in default_optouts; none texted once its STOP was stored.
      expect.soft(stops.length, 'STOPs sent').toBe(STOPS);
      const optouts = await run.q<{ phone_number: string }>(
        `SELECT c.phone_number FROM contacts c JOIN contact_groups g ON g.id = c.contact_group_id WHERE g.system_role = 'optouts' ORDER BY 1`,
      );
      expect.soft(optouts.map((row) => row.phone_number)).toEqual([...stopNumbers].sort());
      const inbound = await run.q<{ from_number: string; n: number; opted_out: boolean }>(
        `SELECT from_number, count(*)::int AS n, bool_and(opted_out) AS opted_out FROM inbound_messages GROUP BY from_number ORDER BY from_number`,
      );
      expect
        .soft(inbound, 'each STOP stored once, as an opt-out')
        .toEqual([...stopNumbers].sort().map((number) => ({ from_number: number, n: 1, opted_out: true })));
      const texted: string[] = [];
      const ahead: Stop[] = [];
      const raced: string[] = [];
      for (const stop of stops) {
        const seen = stored.get(stop.number);
        if (!seen) continue; // reported above
        const after = (atPeer.get(stop.number)?.times ?? []).filter((time) => time > seen.at);
        if (seen.frontier <= stop.sequence) {
          // Not claimed when its opt-out was already committed: it may never go, nor be handed over.
          ahead.push(stop);
          if ((handedOver.get(stop.number) ?? 0) > 0 || (atPeer.get(stop.number)?.refused ?? 0) > 0)
            texted.push(`${stop.number} (#${stop.sequence}) texted after its STOP was stored`);
          const message = messages.find((candidate) => candidate.phone_number === stop.number);
          if (message?.status !== 'unsent' || message.reason !== 'opted_out')
            texted.push(`${stop.number} (#${stop.sequence}) is ${message?.status}/${message?.reason}, not unsent/opted_out`);
        } else {
          raced.push(
            `${stop.number} (#${stop.sequence}): the frontier was at ${seen.frontier} when its STOP was seen stored, ${Math.round(seen.at - stop.sentAt)} ms after it was sent; submit_sm after: ${after.length}`,
          );
        }
      }
      if (raced.length > 0) console.log(`chaos smpp: STOPs the send reached before they were stored (claimed before, so allowed):\n  ${raced.join('\n  ')}`);
      expect.soft(texted).toEqual([]);
      // The short code texts only numbers that sent STOP (their confirmation; a kill mid-reply may repeat one).
      const confirmed = new Set(confirmations.map((submit) => submit.destinationAddr));
      expect
        .soft(
          [...confirmed].filter((number) => !stopNumbers.has(number)),
          'confirmations to numbers that sent no STOP',
        )
        .toEqual([]);
      // The test itself: most STOPs must be stored while their number was still ahead, or it proves little.
      expect.soft(ahead.length, `STOPs stored ahead of the send (raced: ${raced.length})`).toBeGreaterThanOrEqual(STOPS / 2);

      if (wrong.length > 0 || undelivered.length > 0 || texted.length > 0)
        console.log(`chaos smpp: Herald's output (last 30 kB):\n${run.fleet.logs().slice(-30_000)}`);
      await run.fleet.stop('SIGTERM');
    },
  );

  half('simulator')('through the simulator: exactly one submission per recipient, no exceptions, counters true', async () => {
    // The simulator takes 20,000 in seconds: held to 500 a second, the send lasts through several kills.
    // Its hand-over is a few milliseconds, which a kill at random rarely hits: the victim is the process
    // seen marking, handing over or settling a batch (within a second), else one at random.
    const run = await chaoticSend({
      name: 'simulator',
      gateway: 'simulator',
      extraEnv: { SMS_RATE_LIMIT: '500' },
      victim: async (run) => {
        for (const until = Date.now() + 1_000; Date.now() < until; await sleep(5)) {
          const [busy] = await run.q<{ application_name: string }>(
            `SELECT application_name FROM pg_stat_activity
              WHERE datname = current_database() AND application_name LIKE 'herald-chaos-%' AND state IN ('active', 'idle in transaction')
                AND (query LIKE '%SET submitting = true%' OR query LIKE '%simulator_deliveries%' OR query LIKE '%WITH incoming AS%')
              LIMIT 1`,
          );
          if (busy) return Number(busy.application_name.slice('herald-chaos-'.length));
        }
        return undefined;
      },
    });
    await waitFor(async () => {
      const [row] = await run.q<{ n: number }>(`SELECT count(*)::int AS n FROM messages WHERE campaign_id = $1 AND status = 'submitted'`, [run.campaignId]);
      return row!.n === 0;
    }, 15_000);

    const deliveries = await run.q<{ client_ref: string; gateway_id: string; to_number: string; submissions: number }>(
      `SELECT client_ref, gateway_id, to_number, submissions FROM simulator_deliveries`,
    );
    const messages = await run.q<{ uuid: string; phone_number: string; status: string; reason: string | null; gateway_id: string | null }>(
      `SELECT uuid::text, phone_number, status, reason, gateway_id FROM messages WHERE campaign_id = $1`,
      [run.campaignId],
    );
    const got = await countersAndRecount(run);
    const byRef = new Map(deliveries.map((delivery) => [delivery.client_ref, delivery]));
    const wrong: string[] = [];
    for (const message of messages) {
      const delivery = byRef.get(message.uuid);
      if (!delivery || delivery.submissions !== 1 || delivery.to_number !== message.phone_number)
        wrong.push(`${message.phone_number}: ${JSON.stringify(delivery ?? 'never handed over')}`);
      if (!['submitted', 'delivered'].includes(message.status) || message.gateway_id !== delivery?.gateway_id)
        wrong.push(`${message.phone_number}: ${message.status}/${message.reason} gateway_id ${message.gateway_id}`);
    }
    const byStatus = messages.reduce((counts, message) => counts.set(message.status, (counts.get(message.status) ?? 0) + 1), new Map<string, number>());
    console.log(
      `chaos simulator: ${[...byStatus].map(([key, n]) => `${key} ${n}`).join(', ')}; ${deliveries.length} handed over, ` +
        `${deliveries.filter((d) => d.submissions > 1).length} more than once; kills ${run.kills} (${run.targetedKills} of a process caught handing over), PostgreSQL restarted at ${run.restartedPostgresAt} s`,
    );
    expect.soft(wrong.slice(0, 30), `${wrong.length} recipients not sent exactly once`).toEqual([]);
    expect
      .soft({ rows: deliveries.length, numbers: new Set(deliveries.map((d) => d.to_number)).size, most: Math.max(...deliveries.map((d) => d.submissions)) })
      .toEqual({
        rows: RECIPIENTS,
        numbers: RECIPIENTS,
        most: 1,
      });
    expectCountersMatch(got, true);
    expect.soft(got.counters.in_doubt_count, 'the simulator is asked, nothing is left in doubt').toBe(0);
    if (wrong.length > 0) console.log(`chaos simulator: Herald's output (last 30 kB):\n${run.fleet.logs().slice(-30_000)}`);
    await run.fleet.stop('SIGTERM');
  });
});

/**
 * Leases that cannot be stolen from the living, in-doubt messages, and expiry that never overtakes a
 * hand-over (issue #16). Engines run in this process against the real database; what "the carrier"
 * received is counted by a GatewayLedger at the gateway's edge (every hand-over, per message uuid),
 * never by the database's own record.
 *
 * How each test was shown to fail without its protection (each checked once, by hand):
 * - "a submit slower than the lease": with the renewal in lease-holder.ts disabled (no interval),
 *   the second engine took the first one's batch over and the ledger counted its 5 messages twice.
 * - "fencing": with the token check removed from settle's ownership query (store/settle.ts), the old
 *   owner's settle answered 'settled' and overwrote the new owner's messages.
 * - "in doubt, fail": with `submitting` ignored on takeover (store/takeover.ts), the batch was sent again:
 *   the ledger counted 2 for each of the 5 in-doubt messages.
 * - "asked about in-doubt messages" (policy `ask`): with the ask skipped (engine.ts, `claimed.inDoubt` ignored), the three messages the dead
 *   worker had handed over were handed over again.
 * - "dies after taking an in-doubt batch over": with the takeover clearing `submitting` (store/takeover.ts,
 *   as before CI's chaos run sent a batch of 50 twice), the next owner sent the batch without asking
 *   and the ledger counted the three handed-over messages twice.
 * - "second ends just after it took an in-doubt batch over": with the engine giving the batch back
 *   before asking (engine.ts, the ask after the grant check), the next tick sent it without asking:
 *   the same three, twice.
 * - "expiry": with the live-batch exclusion removed from the expiry (expiry.ts), the messages in
 *   flight were marked unsent though the carrier had them, and their receipts sat in early_receipts.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createSimulatorGateway } from '../gateways/sms/simulator';
import type { SmsGateway } from '../gateways/sms/sms-gateway';
import { countingGateway, GatewayLedger } from '../testing/counting-gateway';
import { campaignDueNow as dueNow, liveClock } from '../testing/engine-campaigns';
import { createTestApp, type TestApp, type TestUser } from '../testing/test-app';
import { createEngine, type EngineOptions } from './engine';
import type { InDoubtPolicy } from './engine-store';
import { createEngineStore } from './store/postgres-store';

const clock = liveClock('2026-06-01T09:00:00Z');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
let t: TestApp;
let owner: TestUser;
let template: string;
let group: string;
const RECIPIENTS = 10;

beforeAll(async () => {
  t = await createTestApp({}, { clock });
  owner = await t.user();
  template = (await t.request('POST', '/api/2.0/templates/', { token: owner.token, body: { name: 'Hi', body: 'Hi {{first_name}}', sender: 'Acme' } })).json()
    .data.uuid;
  group = (await t.request('POST', '/api/2.0/contact-groups/', { token: owner.token, body: { name: 'Ten' } })).json().data.uuid;
  const contacts = Array.from({ length: RECIPIENTS }, (_, i) => ({ phone_number: `0770090${String(1000 + i)}`, custom_fields: { first_name: `N${i}` } }));
  await t.request('PUT', `/api/2.0/contact-groups/${group}/add-contacts`, { token: owner.token, body: { contacts } });
});
afterAll(() => t.close());
// Each test's engines see only its own campaign: whatever another left sending is set aside.
afterEach(() => t.database.pool.query(`UPDATE campaigns SET status = 2 WHERE status = 1`).then(() => undefined));

const campaignDueNow = (expiresInMs?: number) => dueNow(t, { token: owner.token, clock, name: 'Leases', group, template, expiresInMs });

function engineWith(gateway: SmsGateway, options: Partial<EngineOptions> = {}) {
  return createEngine({
    store: createEngineStore(t.database.db),
    gateway,
    clock,
    options: { tickMs: 100, batchSize: 5, rateLimitPerSecond: 10_000, leaseMs: 30_000, lanes: 1, ...options },
    urlBase: (domain) => t.services.vanityDomains.urlBase({ domain }),
  });
}

/** A carrier that is not idempotent (it cannot recognise a resubmission), slow when asked. */
const carrier = (ledger: GatewayLedger, delayMs = 0) =>
  countingGateway(createSimulatorGateway({ latencyMs: 0, failureRate: 0 }), { ledger, delayMs, idempotent: false });

async function messages(id: number) {
  const { rows } = await t.database.pool.query(`SELECT uuid::text, status, reason FROM messages WHERE campaign_id = $1 ORDER BY sequence`, [id]);
  return rows as Array<{ uuid: string; status: string; reason: string | null }>;
}

/** The summary (the engine's counters) must equal a recount of the messages. */
async function expectCountersTrue(uuid: string, id: number) {
  const summary = (await t.request('GET', `/api/2.0/campaigns/${uuid}/summary`, { token: owner.token })).json().data;
  const { rows } = await t.database.pool.query(
    `SELECT count(*)::int AS recipients, count(*) FILTER (WHERE status = 'queued')::int AS queued, count(*) FILTER (WHERE status = 'submitted')::int AS submitted,
            count(*) FILTER (WHERE status = 'delivered')::int AS delivered, count(*) FILTER (WHERE status = 'failed')::int AS failed,
            count(*) FILTER (WHERE status = 'unsent')::int AS unsent FROM messages WHERE campaign_id = $1`,
    [id],
  );
  expect(summary).toMatchObject(rows[0]);
  return summary as Record<string, number>;
}

const statusOf = async (uuid: string) => (await t.request('GET', `/api/2.0/campaigns/${uuid}`, { token: owner.token })).json().data.status as number;

/**
 * A worker claims five messages, marks them as being handed over, hands `handedOver` of them to
 * `gateway`, and dies before recording anything; its lease then runs out.
 */
async function dieWhileHandingOver(id: number, policy: InDoubtPolicy, gateway: SmsGateway, handedOver = 5) {
  const store = createEngineStore(t.database.db);
  await store.startDue(clock.now());
  const dying = (await store.claim(id, 5, 'dying', clock.now(), 1000, policy))!;
  expect(await store.markSubmitting(dying, clock.now(), 1000)).toBe(true);
  await gateway.submit(dying.messages.slice(0, handedOver).map((m) => ({ clientRef: m.uuid, to: m.phoneNumber, from: 'Acme', body: 'Hi' })));
  clock.jump(1001);
  return dying;
}

/** Ticks `engine` until the campaign has finished, then stores the receipts it holds. */
async function sendToTheEnd(engine: ReturnType<typeof engineWith>, uuid: string) {
  await vi.waitFor(async () => {
    await engine.tick();
    expect(await statusOf(uuid)).toBe(2);
  });
  await engine.flushReceipts();
}

/**
 * Ticks `engine` until every message of campaign `id` is delivered. A receipt stored while the
 * engine's settle of the same message is still uncommitted waits in early_receipts until the tick's
 * sweep retries it (5 s later), so this may take that long.
 */
async function untilAllDelivered(engine: ReturnType<typeof createEngine>, id: number) {
  await vi.waitFor(
    async () => {
      await engine.tick();
      await engine.flushReceipts();
      expect((await messages(id)).map((m) => m.status)).toEqual(Array(RECIPIENTS).fill('delivered'));
    },
    { timeout: 20_000, interval: 200 },
  );
}

describe('leases', { timeout: 60_000 }, () => {
  it('a submit slower than the lease: its owner renews, nobody takes it over, and every recipient gets one message', async () => {
    const { uuid, id } = await campaignDueNow();
    const ledger = new GatewayLedger();
    // Each hand-over takes 1.5 s, almost four leases; both engines would resend what they take over.
    const first = engineWith(carrier(ledger, 1500), { leaseMs: 400, inDoubt: 'resend' });
    const second = engineWith(carrier(ledger, 1500), { leaseMs: 400, inDoubt: 'resend' });
    const firstTick = first.tick();
    await sleep(50);
    while ((await statusOf(uuid)) !== 2) {
      await second.tick();
      await sleep(100);
    }
    await firstTick;
    await first.flushReceipts();
    await second.flushReceipts();
    expect(ledger.duplicates()).toEqual([]);
    expect(ledger.total).toBe(RECIPIENTS);
    expect((await messages(id)).map((m) => m.status)).toEqual(Array(RECIPIENTS).fill('delivered'));
    expect((await expectCountersTrue(uuid, id)).in_doubt).toBe(0);
  });

  it('fencing: once a batch is taken over, its old owner can neither renew, mark nor settle it', async () => {
    const { uuid, id } = await campaignDueNow();
    const store = createEngineStore(t.database.db);
    await store.startDue(clock.now());
    const old = (await store.claim(id, 5, 'old-owner', clock.now(), 1000, 'fail'))!;
    expect(old.messages).toHaveLength(5);
    clock.jump(1001); // the old owner stopped renewing
    const taken = (await store.claim(id, 5, 'new-owner', clock.now(), 1000, 'fail'))!;
    expect(taken.batchId).toBe(old.batchId);
    expect(taken.token).not.toBe(old.token);

    expect(await store.renew(old, clock.now(), 1000)).toBe(false);
    expect(await store.markSubmitting(old, clock.now(), 1000)).toBe(false);
    const late = { submitted: old.messages.map((m) => ({ id: m.id, body: 'late', gatewayId: `late-${m.id}` })), rejected: [], notSent: [], inDoubt: [] };
    expect(await store.settle(old, late, 'fail', clock.now(), 'old-owner')).toBe('lost');
    expect((await messages(id)).slice(0, 5).map((m) => m.status)).toEqual(Array(5).fill('queued'));

    const mine = { submitted: taken.messages.map((m) => ({ id: m.id, body: 'Hi', gatewayId: `new-${m.id}` })), rejected: [], notSent: [], inDoubt: [] };
    expect(await store.settle(taken, mine, 'fail', clock.now(), 'new-owner')).toBe('settled');
    const { rows } = await t.database.pool.query(`SELECT gateway_id FROM messages WHERE campaign_id = $1 AND sequence <= 5 ORDER BY sequence`, [id]);
    expect(rows.map((row) => row.gateway_id)).toEqual(taken.messages.map((m) => `new-${m.id}`));
    await expectCountersTrue(uuid, id);
  });

  it('a worker that dies while handing a batch over leaves it in doubt: `fail` marks those failed (in_doubt) and never sends them twice', async () => {
    const { uuid, id } = await campaignDueNow();
    const ledger = new GatewayLedger();
    await dieWhileHandingOver(id, 'fail', carrier(ledger));
    await sendToTheEnd(engineWith(carrier(ledger), { inDoubt: 'fail' }), uuid);
    expect(ledger.duplicates()).toEqual([]);
    expect(ledger.total).toBe(RECIPIENTS);
    const rows = await messages(id);
    expect(rows.slice(0, 5).map((m) => [m.status, m.reason])).toEqual(Array(5).fill(['failed', 'in_doubt']));
    expect(rows.slice(5).map((m) => m.status)).toEqual(Array(5).fill('delivered'));
    expect((await expectCountersTrue(uuid, id)).in_doubt).toBe(5);
  });

  it('with `resend`, the in-doubt messages of a dead worker are sent again: at most its one batch twice', async () => {
    const { uuid, id } = await campaignDueNow();
    const ledger = new GatewayLedger();
    const dying = await dieWhileHandingOver(id, 'resend', carrier(ledger));
    await sendToTheEnd(engineWith(carrier(ledger), { inDoubt: 'resend' }), uuid);
    expect(ledger.duplicates().sort()).toEqual(dying.messages.map((m) => m.uuid).sort());
    expect((await messages(id)).map((m) => m.status)).toEqual(Array(RECIPIENTS).fill('delivered'));
    expect((await expectCountersTrue(uuid, id)).in_doubt).toBe(5);
  });

  it('a gateway that can tell what it took (the simulator) is asked about in-doubt messages: each is handed over once, none counted in doubt', async () => {
    const { uuid, id } = await campaignDueNow();
    const ledger = new GatewayLedger();
    const simulator = createSimulatorGateway({ latencyMs: 0, failureRate: 0 });
    // It hands over three of its five, and dies.
    await dieWhileHandingOver(id, 'ask', countingGateway(simulator, { ledger }), 3);

    const survivor = engineWith(countingGateway(simulator, { ledger }));
    await untilAllDelivered(survivor, id);
    expect([ledger.total, ledger.duplicates()]).toEqual([RECIPIENTS, []]);
    expect((await expectCountersTrue(uuid, id)).in_doubt).toBe(0);
  });

  it('a survivor that dies after taking an in-doubt batch over, before asking, leaves it in doubt: the next one asks, and none goes twice', async () => {
    const { uuid, id } = await campaignDueNow();
    const ledger = new GatewayLedger();
    const simulator = createSimulatorGateway({ latencyMs: 0, failureRate: 0 });
    const dying = await dieWhileHandingOver(id, 'ask', countingGateway(simulator, { ledger }), 3);
    // Listening for the simulator's receipts from now on (of the three the first owner handed over).
    const survivor = engineWith(countingGateway(simulator, { ledger }));
    // The second owner takes the batch over (in doubt: it must ask) and dies before it does.
    const store = createEngineStore(t.database.db);
    const second = (await store.claim(id, 5, 'second', clock.now(), 1000, 'ask'))!;
    expect([second.batchId, second.inDoubt]).toEqual([dying.batchId, true]);
    clock.jump(1001);

    await untilAllDelivered(survivor, id);
    expect([ledger.total, ledger.duplicates()]).toEqual([RECIPIENTS, []]);
    expect((await expectCountersTrue(uuid, id)).in_doubt).toBe(0);
  });

  it('a survivor whose second ends just after it took an in-doubt batch over gives back only what the gateway does not have', async () => {
    const { uuid, id } = await campaignDueNow();
    const ledger = new GatewayLedger();
    const simulator = createSimulatorGateway({ latencyMs: 0, failureRate: 0 });
    await dieWhileHandingOver(id, 'ask', countingGateway(simulator, { ledger }), 3);

    // The rate grant's second ends right after the takeover: the batch goes back for the next grant.
    const store = createEngineStore(t.database.db);
    let jumped = false;
    const survivor = createEngine({
      store: {
        ...store,
        async claim(...args: Parameters<typeof store.claim>) {
          const claimed = await store.claim(...args);
          if (claimed?.inDoubt && !jumped) {
            jumped = true;
            clock.jump(1000);
          }
          return claimed;
        },
      },
      gateway: countingGateway(simulator, { ledger }),
      clock,
      options: { tickMs: 100, batchSize: 5, rateLimitPerSecond: 10_000, leaseMs: 30_000, lanes: 1 },
      urlBase: (domain) => t.services.vanityDomains.urlBase({ domain }),
    });
    await untilAllDelivered(survivor, id);
    expect(jumped).toBe(true);
    expect([ledger.total, ledger.duplicates()]).toEqual([RECIPIENTS, []]);
    expect((await expectCountersTrue(uuid, id)).in_doubt).toBe(0);
  });

  it('expiry never overtakes a batch being handed over: what left is submitted and settled by its receipt, the rest is unsent', async () => {
    const { uuid, id } = await campaignDueNow(60_000);
    const ledger = new GatewayLedger();
    const slow = engineWith(carrier(ledger, 1500), { leaseMs: 300 });
    const handingOver = slow.tick();
    await vi.waitFor(() => expect(ledger.total).toBe(5)); // the first batch is with the carrier…
    clock.jump(60_000); // …when the expiry passes
    await sleep(250); // …and its owner has renewed the lease since
    await engineWith(carrier(ledger)).tick(); // another engine's tick applies the expiry
    await handingOver;
    await slow.flushReceipts();
    await engineWith(carrier(ledger)).tick();

    const rows = await messages(id);
    expect(rows.slice(0, 5).map((m) => m.status)).toEqual(Array(5).fill('delivered'));
    expect(rows.slice(5).map((m) => [m.status, m.reason])).toEqual(Array(5).fill(['unsent', 'pending']));
    expect(ledger.total).toBe(5);
    expect((await t.database.pool.query(`SELECT count(*)::int AS n FROM early_receipts`)).rows[0].n).toBe(0);
    expect(await statusOf(uuid)).toBe(2);
    await expectCountersTrue(uuid, id);
  });

  it('early receipts: one a race left behind is applied, one that names nothing Herald sent is dropped after an hour', async () => {
    const { uuid, id } = await campaignDueNow();
    const engine = engineWith(carrier(new GatewayLedger()));
    await engine.tick();
    await engine.flushReceipts();
    // A message submitted whose receipt landed in early_receipts in a race with its submission's record.
    await t.database.pool.query(`UPDATE messages SET status = 'submitted', gateway_id = 'race-1' WHERE campaign_id = $1 AND sequence = 1`, [id]);
    await t.database.pool.query(`UPDATE campaigns SET submitted_count = submitted_count + 1, delivered_count = delivered_count - 1 WHERE id = $1`, [id]);
    const at = (ms: number) => new Date(clock.now().getTime() - ms);
    await t.database.pool.query(
      `INSERT INTO early_receipts (gateway_id, status, reason, received_at) VALUES ('race-1', 'failed', 'Undeliverable', $1), ('stray', 'delivered', NULL, $2)`,
      [at(10_000), at(3_600_001)],
    );
    await engine.tick();
    expect((await t.database.pool.query(`SELECT gateway_id FROM early_receipts`)).rows).toEqual([]);
    expect((await messages(id))[0]).toMatchObject({ status: 'failed', reason: 'Undeliverable' });
    await expectCountersTrue(uuid, id);
  });
});

/**
 * The simulator's receipts are owed until stored, as an SMSC's are (issue #16): one refused, or lost
 * with the process that would have stored it, is delivered again — by another process when the
 * ledger is shared. What is counted is what the listeners stored, per gateway id.
 *
 * Shown able to fail: with the owed receipts forgotten before they were delivered (deliverDue
 * deleting its rows first, or the memory ledger not putting refused groups back), "a receipt
 * refused … is delivered again" went red in both ledgers (nothing stored after the refusals) and
 * "receipts refused by a process that stops" went red (the second simulator stored none).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { createMemoryLedger, createSimulatorGateway, type SimulatorLedger } from './simulator';
import { createSimulatorLedger } from './simulator-ledger';
import type { Receipt } from './sms-gateway';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const sms = (n: number) => ({ clientRef: `ref-${n}-${Math.random()}`, to: `+4477009001${String(n).padStart(2, '0')}`, from: 'Herald', body: 'hello' });

/** A listener that refuses the first `refusals` deliveries (groups of receipts), then stores; counts what it stored per gateway id. */
function storeRefusing(refusals: number) {
  const stored = new Map<string, number>();
  let refused = 0;
  return {
    stored,
    get refused() {
      return refused;
    },
    listener: async (receipts: Receipt[]) => {
      if (refused < refusals) {
        refused++;
        throw new Error('the database is away');
      }
      for (const receipt of receipts) stored.set(receipt.gatewayId, (stored.get(receipt.gatewayId) ?? 0) + 1);
    },
  };
}

describe.each([
  ['in memory', () => createMemoryLedger()],
  ['in the database', () => createSimulatorLedger(t.database.db)],
])('simulator receipts (%s)', (_name, makeLedger: () => SimulatorLedger) => {
  it('a receipt refused by the store is delivered again until it is stored, then never again', async () => {
    const gateway = createSimulatorGateway({ latencyMs: 0, failureRate: 0, ledger: makeLedger(), pollMs: 50 });
    const store = storeRefusing(3);
    gateway.onReceipts(store.listener);
    const results = await gateway.submit([sms(1), sms(2)]);
    const ids = results.map((result) => ('gatewayId' in result ? result.gatewayId : ''));

    await vi.waitFor(() => expect([...store.stored.keys()].sort()).toEqual([...ids].sort()), { timeout: 5_000 });
    expect(store.refused).toBe(3);
    await new Promise((resolve) => setTimeout(resolve, 200)); // a few more looks
    expect([...store.stored.values()]).toEqual([1, 1]); // a group is refused or stored whole
    const before = [...store.stored.values()].reduce((a, b) => a + b, 0);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect([...store.stored.values()].reduce((a, b) => a + b, 0)).toBe(before); // acknowledged: owed no more
    await gateway.close();
  });
});

describe('simulator receipts shared through the database', () => {
  it('receipts refused by a process that stops are delivered by another process sharing the ledger', async () => {
    const first = createSimulatorGateway({ latencyMs: 0, failureRate: 0.5, ledger: createSimulatorLedger(t.database.db), pollMs: 50 });
    first.onReceipts(async () => {
      throw new Error('the engine has stopped');
    });
    const results = await first.submit([sms(3), sms(4), sms(5)]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await first.close();

    const second = createSimulatorGateway({ latencyMs: 0, failureRate: 0, ledger: createSimulatorLedger(t.database.db), pollMs: 50 });
    const store = storeRefusing(0);
    const outcomes = new Map<string, string>();
    second.onReceipts(async (receipts) => {
      await store.listener(receipts);
      for (const receipt of receipts) outcomes.set(receipt.gatewayId, receipt.status);
    });
    const ids = results.map((result) => ('gatewayId' in result ? result.gatewayId : ''));
    await vi.waitFor(() => expect([...store.stored.keys()].sort()).toEqual([...ids].sort()), { timeout: 5_000 });
    expect([...store.stored.values()]).toEqual([1, 1, 1]);
    // The outcome was drawn when the message was taken, and is the one delivered later.
    const { rows } = await t.database.pool.query(`SELECT count(*)::int AS n FROM simulator_pending_receipts`);
    expect(rows[0].n).toBe(0);
    expect([...outcomes.values()].every((status) => status === 'delivered' || status === 'failed')).toBe(true);
    await second.close();
  });
});

/**
 * Fences (the chaos test's double hand-overs): an engine that lost its lease while its hand-over was
 * on the way must not send what its successor was told had not been taken. Counted at the edge: the
 * simulator's rows and their `submissions`. The gateway's `taken` is the simulator's recall, and a
 * hand-over's `attempt` token its fence. Shown able to fail: without the exclusive lock in the
 * ledger's recall, the first test's recall answered nothing (the slow hand-over was not committed yet); without
 * the `fenced` step of record, the second test's late hand-over was taken (a row, submissions 1,
 * then 2 with the successor's).
 */
describe('simulator fences, between an engine that lost its lease and its successor', () => {
  const submissions = async (refs: string[]) =>
    (
      await t.database.pool.query<{ client_ref: string; submissions: number }>(
        `SELECT client_ref, submissions FROM simulator_deliveries WHERE client_ref = ANY($1::text[]) ORDER BY client_ref`,
        [refs],
      )
    ).rows;

  it('a recall waits for a hand-over under way, so what it answers includes it', async () => {
    const batch = [sms(20), sms(21), sms(22)];
    const refs = batch.map((message) => message.clientRef);
    // The old owner's hand-over takes its time inside PostgreSQL (as under load, or when it is killed mid-statement).
    await t.database.pool.query(`
      CREATE FUNCTION slow_hand_over_for_test() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(0.6); RETURN NULL; END $$;
      CREATE TRIGGER slow_hand_over BEFORE INSERT ON simulator_deliveries FOR EACH STATEMENT EXECUTE FUNCTION slow_hand_over_for_test();`);
    try {
      const old = createSimulatorGateway({ latencyMs: 60_000, failureRate: 0, ledger: createSimulatorLedger(t.database.db) });
      const successor = createSimulatorGateway({ latencyMs: 60_000, failureRate: 0, ledger: createSimulatorLedger(t.database.db) });
      const handingOver = old.submit(batch, { attempt: '10' });
      await new Promise((resolve) => setTimeout(resolve, 200));
      const recalled = await successor.taken!(refs, '11');
      const handedOver = await handingOver;
      expect(recalled.map((entry) => entry.clientRef).sort()).toEqual([...refs].sort());
      const ids = new Map(handedOver.map((result) => [result.clientRef, 'gatewayId' in result ? result.gatewayId : null]));
      for (const entry of recalled) expect(entry.gatewayId).toBe(ids.get(entry.clientRef));
      await Promise.all([old.close(), successor.close()]);
    } finally {
      await t.database.pool.query(`DROP TRIGGER slow_hand_over ON simulator_deliveries; DROP FUNCTION slow_hand_over_for_test()`);
    }
    expect((await submissions(refs)).map((row) => row.submissions)).toEqual([1, 1, 1]);
  });

  it('after a recall, a hand-over under an older fence is refused and the successor sends each message once', async () => {
    const batch = [sms(23), sms(24)];
    const refs = batch.map((message) => message.clientRef);
    const old = createSimulatorGateway({ latencyMs: 60_000, failureRate: 0, ledger: createSimulatorLedger(t.database.db) });
    const successor = createSimulatorGateway({ latencyMs: 60_000, failureRate: 0, ledger: createSimulatorLedger(t.database.db) });
    expect(await successor.taken!(refs, '21')).toEqual([]);
    // The old owner's hand-over arrives late: refused, nothing recorded.
    expect(await old.submit(batch, { attempt: '20' })).toEqual(refs.map((clientRef) => ({ clientRef, notSent: true })));
    expect(await submissions(refs)).toEqual([]);
    const sent = await successor.submit(batch, { attempt: '21' });
    expect(sent.every((result) => 'gatewayId' in result)).toBe(true);
    expect((await submissions(refs)).map((row) => row.submissions)).toEqual([1, 1]);
    // A later owner (a greater fence) may still hand over again: the simulator recognises it and says so.
    await successor.submit(batch, { attempt: '22' });
    expect((await submissions(refs)).map((row) => row.submissions)).toEqual([2, 2]);
    await Promise.all([old.close(), successor.close()]);
  });

  it('the memory ledger keeps the same fences', async () => {
    const ledger = createMemoryLedger();
    const old = createSimulatorGateway({ latencyMs: 60_000, failureRate: 0, ledger });
    const batch = [sms(25)];
    expect(await old.taken!([batch[0]!.clientRef], '31')).toEqual([]);
    expect(await old.submit(batch, { attempt: '30' })).toEqual([{ clientRef: batch[0]!.clientRef, notSent: true }]);
    expect(await old.submit(batch, { attempt: '31' })).toEqual([{ clientRef: batch[0]!.clientRef, gatewayId: expect.any(String) }]);
    await old.close();
  });
});

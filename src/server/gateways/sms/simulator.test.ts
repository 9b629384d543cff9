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

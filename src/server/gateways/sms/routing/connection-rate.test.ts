import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../testing/test-app';
import { createConnectionRate } from './connection-rate';
import { createPacer } from './pacer';

// A connection's max_per_second holds across sending processes: two pacers (as two processes) over
// one database take their shares of each second from connection_rate, and together never send
// more than the limit in a second. Counted as the sends each pacer let through, by wall-clock second.
// Seen red: with the pacers on their own buckets (no `shared`), the two let 40 a second through
// against a limit of 20.

const LIMIT = 20;
let t: TestApp;
let connectionId: number;

beforeAll(async () => {
  t = await createTestApp();
  const admin = await t.user();
  const created = await t.request('POST', '/api/2.0/sms-connections/', {
    token: admin.token,
    body: { name: 'Sim', provider: 'simulator', max_per_second: LIMIT },
  });
  expect(created.statusCode).toBe(201);
  connectionId = (await t.database.pool.query('SELECT id::int FROM sms_connections WHERE uuid = $1', [created.json().data.uuid])).rows[0].id;
});
afterAll(() => t.close());

describe("a connection's shared pace", () => {
  it('lets at most max_per_second through in a second across two processes', async () => {
    const grant = createConnectionRate(t.database.db);
    const processes = [createPacer({ concurrency: 8, shared: grant }), createPacer({ concurrency: 8, shared: grant })];
    const sends = new Map<number, number>();
    // Starts at the top of a second, so three whole seconds are counted.
    await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000)));
    const until = Date.now() + 3000;
    await Promise.all(
      processes.flatMap((pacer) =>
        Array.from({ length: 8 }, async () => {
          while (Date.now() < until) {
            const release = await pacer.take(connectionId, 1, LIMIT);
            if (!release) throw new Error('not aborted');
            const second = Math.floor(Date.now() / 1000);
            if (Date.now() < until) sends.set(second, (sends.get(second) ?? 0) + 1);
            release();
          }
        }),
      ),
    );
    // Three whole seconds (the grant of a send let through at a second's very end may be counted in
    // the next, so the bound is on the total): at most the limit a second, and most of it used.
    const total = [...sends.values()].reduce((sum, count) => sum + count, 0);
    expect(total).toBeLessThanOrEqual(LIMIT * 3 + 2);
    expect(total).toBeGreaterThanOrEqual(LIMIT * 2);
    const { rows } = await t.database.pool.query('SELECT max(used)::int AS most FROM connection_rate WHERE connection_id = $1', [connectionId]);
    expect(rows[0].most).toBeLessThanOrEqual(LIMIT);
  });
});

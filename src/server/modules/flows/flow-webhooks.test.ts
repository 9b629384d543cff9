/**
 * A flow's webhook step whose call fails is retried (issue 36, point 2, "call a webhook"), on the
 * controllable clock, against real HTTP receivers on loopback that fail and then succeed, counting
 * the calls they receive: a cut connection or a 5xx is tried again after about 2, 4, 8 and 16
 * minutes and given up after the fifth try; a 4xx is not retried; the run goes on at once. Durable: a
 * process that dies mid-call (its caller never answers) leaves the call to be taken again once its
 * lease has passed, not before, and a restarted process (a new deliverer) picks up the retries; the
 * receiver sees one `webhook-id` for all tries of a step.
 *
 * Seen red: with `retryable` answering false for every failure, "fails then succeeds" went red (one
 * call, given up); with it answering true for a 404, "a 4xx is not retried" went red (two calls);
 * with the lease not moved at the take (`next_at` left as it was), the dead process's call was taken
 * again at once (two takes of one call within its lease).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestClock, type TestApp, type TestUser } from '../../testing/test-app';
import { startWebhookReceiver } from '../../testing/webhook-receiver';
import { isSuppressed, suppressionListOf } from '../suppressions/suppressions.sql';
import { createFlowAdvance } from './flow-advance';
import { createFlowWebhooks } from './flow-webhooks';

const clock = createTestClock('2026-07-01T09:00:00Z');
const MINUTE = 60_000;
let t: TestApp;
let owner: TestUser;
const receivers: Array<Awaited<ReturnType<typeof startWebhookReceiver>>> = [];

const api = (method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown) => t.request(method, `/api/2.0${url}`, { token: owner.token, body });
async function receiver(options: Parameters<typeof startWebhookReceiver>[0]) {
  const started = await startWebhookReceiver(options);
  receivers.push(started);
  return started;
}
/** A flow whose one step calls `url`, started for `phone`, its first step done (and its first try made). */
async function runThrough(url: string, phone: string) {
  const made = await api('POST', '/flows/', { name: `Hook ${phone}`, trigger: { type: 'api' }, enabled: true, steps: [{ type: 'webhook', url }] });
  expect(made.statusCode, made.body).toBe(201);
  expect((await api('POST', `/flows/${made.json().data.uuid}/runs`, { phone_number: phone })).statusCode).toBe(201);
  await t.services.flowAdvance.advanceDue();
  await t.services.flowAdvance.advanceDue();
  await t.services.flowAdvance.idle();
}
const callOf = async (phone: string) =>
  (
    await t.database.pool.query(
      `SELECT w.state, w.attempts, w.last_status, h.detail FROM flow_webhook_calls w JOIN flow_runs r ON r.id = w.run_id
         JOIN flow_run_steps h ON h.run_id = w.run_id AND h.step_id = w.step_id WHERE r.phone_number = $1`,
      [phone],
    )
  ).rows[0];
const runState = async (phone: string) => (await t.database.pool.query(`SELECT state FROM flow_runs WHERE phone_number = $1`, [phone])).rows[0].state;
const deliver = () => t.services.flowWebhooks.deliverDue();

beforeAll(async () => {
  t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_TIMEOUT_MS: '1000' }, { clock });
  owner = await t.user();
});
afterAll(async () => {
  for (const started of receivers) await started.close();
  await t.close();
});

describe('a webhook step’s call', () => {
  it('fails (a cut connection, a 503), is tried again with backoff, and succeeds; the run went on at once', async () => {
    const hook = await receiver({ statuses: ['reset', 503], status: 200 });
    await runThrough(hook.url, '447700900801');
    expect(hook.calls).toHaveLength(1);
    expect(await runState('447700900801')).toBe('completed');
    expect(await callOf('447700900801')).toMatchObject({ state: 'pending', attempts: 1, detail: { status_code: null, attempts: 1, state: 'pending' } });
    // Not before its time.
    clock.advance(MINUTE);
    expect(await deliver()).toBe(0);
    clock.advance(MINUTE);
    expect(await deliver()).toBe(1);
    expect(await callOf('447700900801')).toMatchObject({ state: 'pending', attempts: 2, last_status: 503 });
    clock.advance(4 * MINUTE);
    expect(await deliver()).toBe(1);
    expect(await callOf('447700900801')).toMatchObject({ state: 'delivered', attempts: 3, last_status: 200, detail: { status_code: 200, state: 'delivered' } });
    clock.advance(60 * MINUTE);
    expect(await deliver()).toBe(0);
    expect(hook.calls).toHaveLength(3);
    expect(new Set(hook.calls.map((call) => call.headers['webhook-id'])).size).toBe(1);
  });

  it('is given up after its fifth failure, about half an hour on', async () => {
    const hook = await receiver({ status: 500 });
    await runThrough(hook.url, '447700900802');
    for (const wait of [2, 4, 8, 16]) {
      clock.advance(wait * MINUTE);
      expect(await deliver()).toBe(1);
    }
    expect(await callOf('447700900802')).toMatchObject({ state: 'failed', attempts: 5, last_status: 500, detail: { state: 'failed', next_attempt_at: null } });
    clock.advance(24 * 60 * MINUTE);
    expect(await deliver()).toBe(0);
    expect(hook.calls).toHaveLength(5);
  });

  it('is not retried after a 4xx: the receiver refused it', async () => {
    const hook = await receiver({ status: 404 });
    await runThrough(hook.url, '447700900803');
    expect(await callOf('447700900803')).toMatchObject({ state: 'failed', attempts: 1, last_status: 404 });
    clock.advance(60 * MINUTE);
    expect(await deliver()).toBe(0);
    expect(hook.calls).toHaveLength(1);
  });

  it('survives a process that dies mid-call: taken again once its lease has passed, by another process, and made once', async () => {
    const hook = await receiver({ status: 200 });
    const made = await api('POST', '/flows/', { name: 'Crash', trigger: { type: 'api' }, enabled: true, steps: [{ type: 'webhook', url: hook.url }] });
    expect((await api('POST', `/flows/${made.json().data.uuid}/runs`, { phone_number: '447700900804' })).statusCode).toBe(201);
    // The process that dies: its caller never answers (the call never reaches the receiver), so nothing is recorded.
    const dying = createFlowWebhooks({
      db: t.database.db,
      clock,
      caller: () => new Promise(() => {}),
      secrets: { open: () => 'whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=' },
      leaseMs: 7_000,
    });
    const dyingAdvance = createFlowAdvance({
      db: t.database.db,
      clock,
      webhooks: dying,
      suppressed: (teamId, phone) => isSuppressed(suppressionListOf(teamId), phone),
      config: { appTimezone: 'Europe/London' },
      urlBase: (domain) => t.services.vanityDomains.urlBase({ domain }),
    });
    await dyingAdvance.advanceBatch(1000);
    await dyingAdvance.advanceBatch(1000);
    await waitFor(async () => (await callOf('447700900804'))?.attempts === 1);
    // Within its lease no other process takes it; after, another does, once.
    expect(await deliver()).toBe(0);
    clock.advance(7_000);
    expect(await deliver()).toBe(1);
    expect(await callOf('447700900804')).toMatchObject({ state: 'delivered', attempts: 2 });
    expect(await deliver()).toBe(0);
    expect(hook.calls).toHaveLength(1);
  });
});

async function waitFor(condition: () => Promise<boolean>) {
  for (let i = 0; i < 100; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('Timed out waiting.');
}

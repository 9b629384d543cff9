/**
 * A contact's export and erasure reach its flows (docs/flows.md, docs/interface.md): the export holds
 * the number's runs with their fields and history, and a number erased while a
 * run of it waits is never texted by that run again (counted at the gateway after the wait has long
 * passed), its runs keep their history under the erasure's token with no fields, its pending webhook
 * call (which names it) is never made, and the contact page's runs answer 404 as for any number the
 * team no longer holds. A number known to the team only through a flow run (started over the API) can
 * be erased too.
 *
 * Seen red: with the flows' part of the erasure left out (`flows.erase` not called), the waiting run
 * sent its second message to the erased number after the wait (2 messages at the gateway, expected
 * 1), the run kept the number and its fields, and the webhook call stayed pending; with `flows.holds`
 * left out of what the team holds, erasing the API-only number answered 404.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { GatewayLedger } from '../../testing/counting-gateway';
import { flowDelivery } from '../../testing/flow-delivery';
import { createTestApp, createTestClock, type TestApp, type TestUser } from '../../testing/test-app';

const clock = createTestClock('2026-06-01T09:00:00Z');
const ledger = new GatewayLedger();
const PERSON = '447700900871';
const API_ONLY = '447700900872';
let t: TestApp;
let owner: TestUser;
let flowUuid: string;

const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown) => t.request(method, `/api/2.0${url}`, { token: owner.token, body });
const created = async (url: string, body: unknown) => {
  const response = await api('POST', url, body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data;
};
const query = async (text: string, values: unknown[] = []) => (await t.database.pool.query(text, values)).rows;
/** The flows' advance, then the engine's reply sender: what reaches the handsets. */
const deliver = () => flowDelivery(t, clock, ledger)();
const received = (phone: string) => ledger.bodiesByNumber.get(phone) ?? [];

beforeAll(async () => {
  t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_TIMEOUT_MS: '1000' }, { clock });
  owner = await t.user();
  await api('PUT', '/team/settings', { time_zone: 'Europe/London', quiet_hours: null });
  const first = (await created('/templates/', { name: 'First', body: 'Hello {{first_name}}', sender: 'Acme' })).uuid;
  const second = (await created('/templates/', { name: 'Second', body: 'Still there {{first_name}}?', sender: 'Acme' })).uuid;
  const group = (await created('/contact-groups/', { name: 'Members' })).uuid;
  await api('PUT', `/contact-groups/${group}/add-contacts`, { contacts: [{ phone_number: PERSON, custom_fields: { first_name: 'Ada' } }] });
  flowUuid = (
    await created('/flows/', {
      name: 'Follow-up',
      trigger: { type: 'api' },
      enabled: true,
      steps: [
        { type: 'send', template_uuid: first },
        // Port 9 on loopback: nothing listens, so the call fails and waits for its retry.
        { type: 'webhook', url: 'http://127.0.0.1:9/hook' },
        { type: 'wait', minutes: 24 * 60 },
        { type: 'send', template_uuid: second },
      ],
    })
  ).uuid;
});
afterAll(() => t?.close());

it('ends the erased number’s runs, texts it no more, forgets it in its runs and drops its webhook call', async () => {
  await created(`/flows/${flowUuid}/runs`, { phone_number: PERSON, fields: { first_name: 'Ada' } });
  await deliver();
  await deliver();
  expect(received(PERSON)).toEqual(['Hello Ada']);
  const [pending] = await query(`SELECT c.state FROM flow_webhook_calls c JOIN flow_runs r ON r.id = c.run_id WHERE r.phone_number = $1`, [PERSON]);
  expect(pending?.state).toBe('pending');

  // Before: the contact's export holds the run, its fields and its history (GDPR access).
  const exported = (await api('GET', `/contacts/${PERSON}/export`)).json().data;
  expect(exported.flow_runs).toEqual([
    expect.objectContaining({
      flow: expect.objectContaining({ name: 'Follow-up' }),
      state: 'active',
      fields: { first_name: 'Ada' },
      history: [
        expect.objectContaining({ type: 'send', outcome: 'sent' }),
        expect.objectContaining({ type: 'webhook', outcome: 'webhook_called' }),
        expect.objectContaining({ type: 'wait', outcome: null }),
      ],
    }),
  ]);

  const erased = await api('DELETE', `/contacts/${PERSON}`);
  expect(erased.statusCode, erased.body).toBe(200);
  const token = erased.json().data.erased_as as string;
  expect(erased.json().data.flow_runs_anonymised).toBe(1);

  clock.advance(3 * 24 * 3_600_000);
  await deliver();
  await deliver();
  expect(received(PERSON)).toEqual(['Hello Ada']);
  expect(await query(`SELECT state, exit_reason, fields FROM flow_runs WHERE phone_number = $1`, [token])).toEqual([
    { state: 'exited', exit_reason: 'erased', fields: {} },
  ]);
  expect(await query(`SELECT count(*)::int AS n FROM flow_runs WHERE phone_number = $1`, [PERSON])).toEqual([{ n: 0 }]);
  expect(await query(`SELECT count(*)::int AS n FROM flow_webhook_calls`)).toEqual([{ n: 0 }]);
  expect((await api('GET', `/contacts/${PERSON}/flow-runs`)).statusCode).toBe(404);
  // The run's history stays for the flow's counts: the wait it left counts as an exit.
  const steps = (await api('GET', `/flows/${flowUuid}`)).json().data.steps as Array<{ type: string; stats: { entered: number; exited: number } }>;
  expect(steps.map((step) => [step.type, step.stats.entered, step.stats.exited])).toEqual([
    ['send', 1, 0],
    ['webhook', 1, 0],
    ['wait', 1, 1],
    ['send', 0, 0],
  ]);
});

it('erases a number the team knows only through a flow run started over the API', async () => {
  await created(`/flows/${flowUuid}/runs`, { phone_number: API_ONLY });
  const erased = await api('DELETE', `/contacts/${API_ONLY}`);
  expect(erased.statusCode, erased.body).toBe(200);
  expect(erased.json().data.flow_runs_anonymised).toBe(1);
  await deliver();
  expect(received(API_ONLY)).toEqual([]);
  expect((await api('DELETE', `/contacts/${API_ONLY}`)).statusCode).toBe(404);
});

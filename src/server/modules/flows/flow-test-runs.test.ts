/**
 * Test runs of flows (docs/flows.md, "Test runs"; the dashboard's "test with my number") on the
 * controllable clock, counted at the gateway (the flows' advance, then the engine's reply sender
 * through the simulator): a test run of a disabled flow that waits a day sends both its messages
 * within two minutes of clock time, through quiet hours and a frequency cap of one message, and
 * counts in neither the steps' stats nor the flow's runs; it neither blocks nor is blocked by the
 * number's ordinary run, nor by re-entry, and a second test replaces the first; an opted-out number
 * is refused (409); a member who is not an admin tests only on the team's own numbers (422); a
 * webhook step's payload says it is a test. A client that sends no `test` sees the 409 it always saw.
 *
 * Seen red: with the advance's test handling taken out (`f.enabled OR r.test` read as `f.enabled`
 * in its claim), the disabled flow's test run exited at once (`flow_disabled`: no message at the
 * gateway, expected the welcome), and the webhook test's call was not made; with `testWaitEnd` not applied, the second message was not at the gateway
 * after the minute (1 message, expected 2); with the runs' counts not leaving test runs out, the
 * flow's `runs` counted the test (completed 1, expected 0).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayLedger } from '../../testing/counting-gateway';
import { flowDelivery } from '../../testing/flow-delivery';
import { verifiedBody } from '../../testing/standard-webhooks';
import { createTestApp, createTestClock, type TestApp, type TestUser } from '../../testing/test-app';
import { startWebhookReceiver } from '../../testing/webhook-receiver';

// 23:00 in London: inside the team's quiet hours (21:00 to 08:00) set below.
const clock = createTestClock('2026-06-01T22:00:00Z');
const TEAM = 'Test runs';
const TESTER = '447700900501';
let t: TestApp;
let owner: TestUser;
let editorToken: string;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
let welcome: string;
let followUp: string;
const ledger = new GatewayLedger();

const api = (method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown, token = owner.token) => t.request(method, `/api/2.0${url}`, { token, body });
const created = async (url: string, body: unknown) => {
  const response = await api('POST', url, body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data;
};
const flow = (body: Record<string, unknown>) => created('/flows/', { name: 'Welcome', trigger: { type: 'api' }, ...body });
const start = (flowUuid: string, phone: string, test?: boolean, token = owner.token) =>
  api('POST', `/flows/${flowUuid}/runs`, { phone_number: phone, ...(test === undefined ? {} : { test }) }, token);
/** The flows' advance, then the engine's reply sender: what reaches the handsets. */
const deliver = () => flowDelivery(t, clock, ledger)();
const received = (phone: string) => ledger.bodiesByNumber.get(phone) ?? [];
const shown = async (uuid: string) => (await api('GET', `/flows/${uuid}`)).json().data;
const runsOfFlow = async (uuid: string) =>
  (await api('GET', `/flows/${uuid}/runs`)).json().data as Array<{
    uuid: string;
    phone_number: string;
    state: string;
    exit_reason: string | null;
    test: boolean;
  }>;
const ZERO = { entered: 0, sent: 0, clicked: 0, exited: 0 };

beforeAll(async () => {
  t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_TIMEOUT_MS: '1000' }, { clock });
  owner = await t.user({ team: TEAM });
  const editor = await t.user();
  await t.services.users.addToTeam(editor.email, TEAM, 'editor');
  const team = (await t.services.teamsRepository.findByName(TEAM))!;
  const editorId = (await t.services.usersRepository.findByEmail(editor.email))!.id;
  editorToken = (await t.services.tokens.issue(editorId, 'personal', 'test', { teamId: team.id })).token;
  receiver = await startWebhookReceiver();
  const settings = await api('PUT', '/team/settings', {
    time_zone: 'Europe/London',
    quiet_hours: { start: '21:00', end: '08:00' },
    frequency_cap: { messages: 1, days: 7 },
    test_numbers: [`+${TESTER}`],
  });
  expect(settings.statusCode, settings.body).toBe(200);
  welcome = (await created('/templates/', { name: 'Welcome', body: 'Welcome to the club!', sender: 'Shop' })).uuid;
  followUp = (await created('/templates/', { name: 'Follow-up', body: 'Still thinking?', sender: 'Shop' })).uuid;
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});

describe('a test run', () => {
  it('of a disabled flow that waits a day sends both messages within two minutes, through quiet hours and the cap, and is not counted', async () => {
    const made = await flow({
      enabled: false,
      steps: [
        { type: 'send', template_uuid: welcome },
        { type: 'wait', minutes: 24 * 60 },
        { type: 'send', template_uuid: followUp },
      ],
    });
    const began = clock.now().getTime();
    const response = await start(made.uuid, TESTER, true);
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().data).toMatchObject({ phone_number: TESTER, state: 'active', trigger: 'api', test: true });

    await deliver();
    expect(received(TESTER)).toEqual(['Welcome to the club!']);
    clock.advance(60_000);
    await deliver();
    expect(received(TESTER)).toEqual(['Welcome to the club!', 'Still thinking?']);
    expect(clock.now().getTime() - began).toBeLessThanOrEqual(2 * 60_000);

    const [run] = await runsOfFlow(made.uuid);
    expect(run).toMatchObject({ state: 'completed', test: true });
    // Listed among the number's runs too, marked as a test.
    const ofNumber = (await api('GET', `/contacts/${TESTER}/flow-runs`)).json().data;
    expect(ofNumber.find((r: { uuid: string }) => r.uuid === run!.uuid)).toMatchObject({ test: true });
    // Not marketing: the frequency cap neither counted nor skipped them.
    const { rows } = await t.database.pool.query(`SELECT marketing, status FROM outbound_replies WHERE to_number = $1 AND kind = 'flow'`, [TESTER]);
    expect(rows.map((row) => row.marketing)).toEqual([false, false]);
    // Counted nowhere: the steps' stats and the flow's runs are as before the test.
    const after = await shown(made.uuid);
    expect(after.runs).toEqual({ active: 0, completed: 0, exited: 0 });
    expect(after.steps.map((step: { stats: unknown }) => step.stats)).toEqual([ZERO, ZERO, ZERO]);
    expect(after.enabled).toBe(false);
  });

  it('leaves the number’s ordinary run alone, is not refused by re-entry, and replaces the number’s active test run', async () => {
    await api('PUT', '/team/settings', { quiet_hours: null, frequency_cap: null });
    const number = '447700900502';
    const made = await flow({
      enabled: true,
      reentry: 'never',
      steps: [
        { type: 'send', template_uuid: welcome },
        { type: 'wait', minutes: 24 * 60 },
        { type: 'send', template_uuid: followUp },
      ],
    });
    expect((await start(made.uuid, number)).json().data).toMatchObject({ test: false });
    await deliver();
    const firstTest = await start(made.uuid, number, true);
    expect(firstTest.statusCode, firstTest.body).toBe(201);
    await deliver();
    expect(received(number)).toEqual(['Welcome to the club!', 'Welcome to the club!']);

    // A second test replaces the first (which ends `replaced`); the ordinary run still waits its day.
    const secondTest = await start(made.uuid, number, true);
    expect(secondTest.statusCode, secondTest.body).toBe(201);
    const runs = await runsOfFlow(made.uuid);
    expect(runs.find((r) => r.uuid === firstTest.json().data.uuid)).toMatchObject({ state: 'exited', exit_reason: 'replaced', test: true });
    await deliver();
    clock.advance(60_000);
    await deliver();
    expect(received(number)).toEqual(['Welcome to the club!', 'Welcome to the club!', 'Welcome to the club!', 'Still thinking?']);
    const ordinary = (await runsOfFlow(made.uuid)).filter((r) => !r.test);
    expect(ordinary).toMatchObject([{ state: 'active', test: false }]);

    // The counts are the ordinary run's alone.
    const after = await shown(made.uuid);
    expect(after.runs).toEqual({ active: 1, completed: 0, exited: 0 });
    expect(after.steps[0].stats).toEqual({ entered: 1, sent: 1, clicked: 0, exited: 0 });
    expect(after.steps[1].stats).toEqual({ entered: 1, sent: 0, clicked: 0, exited: 0 });
    expect(after.steps[2].stats).toEqual(ZERO);

    // Disabling the flow ends the ordinary run, not a test run; a test of a `never` flow goes on.
    const third = await start(made.uuid, number, true);
    expect(third.statusCode).toBe(201);
    await deliver();
    expect((await api('PUT', `/flows/${made.uuid}`, { enabled: false })).statusCode).toBe(200);
    await deliver();
    const ended = await runsOfFlow(made.uuid);
    expect(ended.find((r) => !r.test)).toMatchObject({ state: 'exited', exit_reason: 'flow_disabled' });
    expect(ended.find((r) => r.uuid === third.json().data.uuid)).toMatchObject({ state: 'active', test: true });
  });

  it('is refused (409) for an opted-out number, and a client that sends no test still gets the 409 of a disabled flow', async () => {
    const number = '447700900503';
    const made = await flow({ enabled: false, steps: [{ type: 'send', template_uuid: welcome }] });
    expect((await api('POST', '/inbound-messages/', { from: number, body: 'STOP' })).statusCode).toBe(201);
    const refused = await start(made.uuid, number, true);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toMatch(/opted out/);
    const disabled = await start(made.uuid, '447700900504');
    expect(disabled.statusCode).toBe(409);
    expect(disabled.json().error.message).toMatch(/disabled/);
    await deliver();
    // Only STOP's own reply reached it.
    expect(received(number)).not.toContain('Welcome to the club!');
  });

  it('goes only to the team’s own numbers when a member who is not an admin starts it (422 on phone_number)', async () => {
    const made = await flow({ enabled: true, steps: [{ type: 'wait', minutes: 10 }] });
    const outsider = await start(made.uuid, '447700900599', true, editorToken);
    expect(outsider.statusCode).toBe(422);
    expect(outsider.json().error.errors.phone_number[0]).toMatch(/test numbers/);
    expect((await start(made.uuid, TESTER, true, editorToken)).statusCode).toBe(201);
    // An ordinary run, as before, to any number.
    expect((await start(made.uuid, '447700900599', undefined, editorToken)).statusCode).toBe(201);
  });

  it('calls its webhook steps for real, the payload saying it is a test', async () => {
    const made = await flow({ enabled: false, steps: [{ type: 'webhook', url: receiver.url }] });
    const calls = receiver.calls.length;
    expect((await start(made.uuid, TESTER, true)).statusCode).toBe(201);
    await deliver();
    await deliver();
    expect(receiver.calls.length).toBe(calls + 1);
    expect(verifiedBody(made.signing_secret, receiver.calls.at(-1)!)).toMatchObject({ event: 'flow.step', run: { phone_number: TESTER, test: true } });
  });
});

/**
 * Flows (issue 36, point 2) on the controllable clock: the API's shapes and refusals, each trigger
 * built (api, keyword, group_joined) and each step (send, wait for minutes or until a time of day,
 * branch, add to and remove from a group, webhook, end), one active run per flow and number,
 * re-entry, opt-outs and disabling ending runs, and the advance doing no step twice. What is counted
 * is what a client or the gateway sees: the API's answers and the rows of `outbound_replies` the
 * engine's reply sender sends.
 *
 * Seen red: with the `ON CONFLICT … DO NOTHING` of the one-active-run index removed from the API's
 * start (a plain INSERT), "one active run" answered 500 instead of 409; with `FOR UPDATE SKIP LOCKED`
 * removed from the advance's claim and the (run, step) key of outbound_replies made a plain index,
 * "twice at once" queued two messages for the same step; with the batch's effects written after its
 * claim's transaction (each statement on its own), "a batch that fails" left the failed batch's 40
 * messages behind (expected 0); with the anniversary's runs started from every due number instead of
 * only those newly marked in `flow_anniversary_starts`, the restarted look started London's again
 * (expected 0, got 1); with the team's zone used instead of each number's, New York started at
 * 10:00 London time with London (expected 1, got 2).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestClock, type TestApp, type TestUser } from '../../testing/test-app';
import { verifiedBody } from '../../testing/standard-webhooks';
import { startWebhookReceiver } from '../../testing/webhook-receiver';
import { createFlowAnniversaries } from './flow-anniversaries';

const clock = createTestClock('2026-06-01T09:00:00Z');
let t: TestApp;
let owner: TestUser;
let stranger: TestUser;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
let welcome: string;
let followUp: string;
let vip: string;
let joiners: string;

const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown, user = owner) =>
  t.request(method, `/api/2.0${url}`, { token: user.token, body });
const created = async (url: string, body: unknown, user = owner) => {
  const response = await api('POST', url, body, user);
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data;
};
const advance = async () => {
  const moved = await t.services.flowAdvance.advanceDue();
  await t.services.flowAdvance.idle();
  return moved;
};
const messagesTo = async (phone: string) =>
  (
    await t.database.pool.query(
      `SELECT body, sender, kind, marketing, flow_step_id FROM outbound_replies WHERE to_number = $1 AND kind = 'flow' ORDER BY created_at, id`,
      [phone],
    )
  ).rows;
const runsOf = async (phone: string) => (await api('GET', `/contacts/${phone}/flow-runs`)).json().data;
const flow = (body: Record<string, unknown>) => created('/flows/', { name: 'Welcome', trigger: { type: 'api' }, enabled: true, ...body });
const start = (flowUuid: string, phone: string, fields?: Record<string, string>) => api('POST', `/flows/${flowUuid}/runs`, { phone_number: phone, fields });

beforeAll(async () => {
  t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_TIMEOUT_MS: '1000' }, { clock });
  owner = await t.user();
  stranger = await t.user();
  receiver = await startWebhookReceiver();
  await api('PUT', '/team/settings', { time_zone: 'Europe/London' });
  welcome = (await created('/templates/', { name: 'Welcome', body: 'Hi {{first_name|there}}, welcome! Code {{code}}', sender: 'Acme' })).uuid;
  followUp = (await created('/templates/', { name: 'Follow-up', body: 'Still thinking, {{first_name|there}}?', sender: 'Acme' })).uuid;
  vip = (await created('/contact-groups/', { name: 'VIP' })).uuid;
  joiners = (await created('/contact-groups/', { name: 'Joiners' })).uuid;
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});

describe('the flows API', () => {
  it('creates a flow with the issue’s shapes, gives each step an id, and keeps the ids it is sent back', async () => {
    const made = await flow({
      steps: [
        { type: 'send', template_uuid: welcome },
        { type: 'wait', minutes: 60 },
        {
          type: 'branch',
          condition: { type: 'last_message', event: 'clicked' },
          then: [{ type: 'end' }],
          else: [{ type: 'send', template_uuid: followUp, transactional: true }],
        },
      ],
    });
    expect(made).toMatchObject({
      name: 'Welcome',
      trigger: { type: 'api' },
      enabled: true,
      reentry: 'after_end',
      runs: { active: 0, completed: 0, exited: 0 },
    });
    expect(made.signing_secret).toMatch(/^whsec_/);
    const ids = [made.steps[0].id, made.steps[1].id, made.steps[2].id, made.steps[2].then[0].id, made.steps[2].else[0].id];
    expect(new Set(ids).size).toBe(5);
    expect(made.steps[0].stats).toEqual({ entered: 0, sent: 0, clicked: 0, exited: 0 });

    const edited = await api('PUT', `/flows/${made.uuid}`, { steps: [made.steps[0], { type: 'end' }] });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().data.steps[0].id).toBe(ids[0]);
    expect(edited.json().data.steps[1].id).not.toBe(ids[1]);
    expect(edited.json().data.signing_secret).toBeUndefined();
    const shown = (await api('GET', `/flows/${made.uuid}`)).json().data;
    expect(shown.steps.map((s: { type: string }) => s.type)).toEqual(['send', 'end']);
    expect((await api('GET', '/flows/')).json().data.map((f: { uuid: string }) => f.uuid)).toContain(made.uuid);
    expect((await api('DELETE', `/flows/${made.uuid}`)).statusCode).toBe(204);
    expect((await api('GET', `/flows/${made.uuid}`)).statusCode).toBe(404);
  });

  it('refuses bad shapes and another team’s uuids with 422 naming the field', async () => {
    const refused = async (body: Record<string, unknown>, field: string) => {
      const response = await api('POST', '/flows/', { name: 'Bad', trigger: { type: 'api' }, steps: [], ...body });
      expect(response.statusCode, response.body).toBe(422);
      expect(Object.keys(response.json().error.errors)).toContain(field);
    };
    await refused({ steps: [{ type: 'wait' }] }, 'steps.0.minutes');
    await refused({ steps: [{ type: 'wait', minutes: 5, until_time: '10:00' }] }, 'steps.0.minutes');
    await refused({ steps: [{ type: 'wait', until_time: '25:00' }] }, 'steps.0.until_time');
    await refused({ steps: [{ type: 'jump' }] }, 'steps.0.type');
    await refused({ trigger: { type: 'anniversary', field: 'birthday', at: '9am' } }, 'trigger.at');
    const theirs = (await created('/templates/', { name: 'Theirs', body: 'Hello', sender: 'Other' }, stranger)).uuid;
    await refused({ steps: [{ type: 'send', template_uuid: theirs }] }, 'steps.0.template_uuid');
    const theirGroup = (await created('/contact-groups/', { name: 'Theirs' }, stranger)).uuid;
    await refused({ trigger: { type: 'group_joined', group_uuid: theirGroup } }, 'trigger.group_uuid');
    await refused(
      { steps: [{ type: 'branch', condition: { type: 'group', op: 'in', group_uuid: theirGroup }, then: [{ type: 'add_to_group', group_uuid: theirGroup }] }] },
      'steps.0.condition.group_uuid',
    );
    await refused(
      {
        steps: [
          { type: 'branch', condition: { type: 'field', field: 'x', op: 'equals', value: '1' }, then: [{ type: 'add_to_group', group_uuid: theirGroup }] },
        ],
      },
      'steps.0.then.0.group_uuid',
    );
    await refused(
      {
        steps: [
          { type: 'end', id: 'same' },
          { type: 'end', id: 'same' },
        ],
      },
      'steps',
    );
    await refused({ steps: [{ type: 'webhook', url: 'ftp://example.com' }] }, 'steps.0.url');
  });
});

describe('runs', () => {
  it('starts a run over the API, renders the send with the contact’s and the run’s fields, waits, and completes', async () => {
    await api('PUT', `/contact-groups/${vip}/add-contacts`, { contacts: [{ phone_number: '447700900001', custom_fields: { first_name: 'Ada' } }] });
    const made = await flow({
      steps: [
        { type: 'send', template_uuid: welcome },
        { type: 'wait', minutes: 60 },
        { type: 'send', template_uuid: followUp, transactional: true },
      ],
    });
    const run = await start(made.uuid, '07700 900001', { code: 'SPRING' });
    expect(run.statusCode, run.body).toBe(201);
    expect(run.json().data).toMatchObject({ phone_number: '447700900001', state: 'active', trigger: 'api', flow: { uuid: made.uuid } });

    await advance();
    expect(await messagesTo('447700900001')).toEqual([
      { body: 'Hi Ada, welcome! Code SPRING', sender: 'Acme', kind: 'flow', marketing: true, flow_step_id: made.steps[0].id },
    ]);
    clock.advance(59 * 60_000);
    await advance();
    expect(await messagesTo('447700900001')).toHaveLength(1);
    clock.advance(60_000);
    await advance();
    const messages = await messagesTo('447700900001');
    expect(messages.map((m: { body: string; marketing: boolean }) => [m.body, m.marketing])).toEqual([
      ['Hi Ada, welcome! Code SPRING', true],
      ['Still thinking, Ada?', false],
    ]);
    const [history] = (await runsOf('447700900001')).filter((r: { flow: { uuid: string } }) => r.flow.uuid === made.uuid);
    expect(history).toMatchObject({ state: 'completed', step_id: null, next_due_at: '' });
    expect(history.history.map((h: { type: string; outcome: string }) => [h.type, h.outcome])).toEqual([
      ['send', 'sent'],
      ['wait', 'waited'],
      ['send', 'sent'],
    ]);
    const stats = (await api('GET', `/flows/${made.uuid}`)).json().data.steps.map((s: { stats: unknown }) => s.stats);
    expect(stats).toEqual([
      { entered: 1, sent: 1, clicked: 0, exited: 0 },
      { entered: 1, sent: 0, clicked: 0, exited: 0 },
      { entered: 1, sent: 1, clicked: 0, exited: 0 },
    ]);
  });

  it('keeps one active run per flow and number, refuses disabled flows and opted-out numbers with 409, and re-enters by the flow’s setting', async () => {
    const made = await flow({ steps: [{ type: 'wait', minutes: 10 }] });
    expect((await start(made.uuid, '447700900002')).statusCode).toBe(201);
    const again = await start(made.uuid, '447700900002');
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toMatch(/already in an active run/);
    await advance();
    clock.advance(10 * 60_000);
    await advance();
    expect((await start(made.uuid, '447700900002')).statusCode).toBe(201);

    const once = await flow({ reentry: 'never', steps: [] });
    expect((await start(once.uuid, '447700900002')).statusCode).toBe(201);
    await advance();
    expect((await start(once.uuid, '447700900002')).statusCode).toBe(409);

    const off = await flow({ enabled: false, steps: [] });
    expect((await start(off.uuid, '447700900002')).statusCode).toBe(409);
    await t.request('POST', '/api/2.0/inbound-messages/', { token: owner.token, body: { from: '447700900003', body: 'STOP' } });
    const stopped = await start(made.uuid, '447700900003');
    expect(stopped.statusCode).toBe(409);
    expect(stopped.json().error.message).toMatch(/opted out/);
    expect((await start(made.uuid, 'not a number')).statusCode).toBe(422);
  });

  it('ends a run when the number opts out, and when the flow is disabled', async () => {
    const made = await flow({
      steps: [
        { type: 'wait', minutes: 30 },
        { type: 'send', template_uuid: followUp },
      ],
    });
    await start(made.uuid, '447700900004');
    await start(made.uuid, '447700900005');
    await advance();
    await t.request('POST', '/api/2.0/inbound-messages/', { token: owner.token, body: { from: '447700900004', body: 'STOP' } });
    clock.advance(30 * 60_000);
    await advance();
    expect(await messagesTo('447700900004')).toEqual([]);
    expect((await runsOf('447700900004'))[0]).toMatchObject({ state: 'exited', exit_reason: 'opted_out' });
    expect((await api('GET', `/flows/${made.uuid}`)).json().data.steps[0].stats.exited).toBe(1);

    const later = await flow({
      steps: [
        { type: 'wait', minutes: 600 },
        { type: 'send', template_uuid: followUp },
      ],
    });
    await start(later.uuid, '447700900006');
    await advance();
    expect((await api('PUT', `/flows/${later.uuid}`, { enabled: false })).statusCode).toBe(200);
    await advance();
    expect((await runsOf('447700900006'))[0]).toMatchObject({ state: 'exited', exit_reason: 'flow_disabled' });
    expect(await messagesTo('447700900006')).toEqual([]);
  });

  it('waits until a time of day in the recipient’s zone, and defers a send past the team’s quiet hours', async () => {
    clock.set('2026-06-02T12:00:00Z');
    // New York: 08:00 there is 12:00 UTC (summer time); until 09:30 is 13:30 UTC, 14:30 in the service's zone (London).
    const made = await flow({
      steps: [
        { type: 'wait', until_time: '09:30' },
        { type: 'send', template_uuid: followUp },
      ],
    });
    await start(made.uuid, '12125550100');
    await advance();
    const [waiting] = await runsOf('12125550100');
    expect(waiting.next_due_at).toBe('2026-06-02 14:30:00');
    clock.set('2026-06-02T13:29:00Z');
    await advance();
    expect(await messagesTo('12125550100')).toEqual([]);
    clock.set('2026-06-02T13:30:00Z');
    await advance();
    expect(await messagesTo('12125550100')).toHaveLength(1);

    await api('PUT', '/team/settings', { quiet_hours: { start: '21:00', end: '08:00' } });
    clock.set('2026-06-02T22:00:00Z'); // 23:00 in London: quiet until 08:00 there, 07:00 UTC
    const quiet = await flow({ steps: [{ type: 'send', template_uuid: followUp }] });
    await start(quiet.uuid, '447700900007');
    await advance();
    expect(await messagesTo('447700900007')).toEqual([]);
    expect((await runsOf('447700900007'))[0]).toMatchObject({ state: 'active', next_due_at: '2026-06-03 08:00:00' });
    clock.set('2026-06-03T07:00:00Z');
    await advance();
    expect(await messagesTo('447700900007')).toHaveLength(1);
    await api('PUT', '/team/settings', { quiet_hours: null });
    clock.set('2026-06-04T09:00:00Z');
  });

  it('branches on a field, on a reply to the last message and on a click, and adds to and removes from groups', async () => {
    await api('PUT', `/contact-groups/${vip}/add-contacts`, {
      contacts: [
        { phone_number: '447700900010', custom_fields: { tier: 'gold' } },
        { phone_number: '447700900011', custom_fields: { tier: 'silver' } },
      ],
    });
    const made = await flow({
      steps: [
        {
          type: 'branch',
          condition: { type: 'field', field: 'tier', op: 'equals', value: 'gold' },
          then: [{ type: 'add_to_group', group_uuid: joiners }],
          else: [{ type: 'remove_from_group', group_uuid: vip }],
        },
        { type: 'send', template_uuid: followUp },
        { type: 'wait', minutes: 5 },
        { type: 'branch', condition: { type: 'last_message', event: 'replied' }, then: [{ type: 'end' }], else: [] },
        { type: 'branch', condition: { type: 'last_message', event: 'clicked' }, then: [], else: [{ type: 'send', template_uuid: welcome }] },
      ],
    });
    await start(made.uuid, '447700900010');
    await start(made.uuid, '447700900011');
    for (let i = 0; i < 3; i++) await advance();
    const members = async (group: string) =>
      ((await api('GET', `/contact-groups/${group}/contacts?per_page=100`)).json().data as Array<{ phone_number: string }>).map((c) => c.phone_number);
    expect(await members(joiners)).toContain('447700900010');
    expect(await members(vip)).not.toContain('447700900011');
    expect(await members(vip)).toContain('447700900010');
    clock.advance(60_000);
    await t.request('POST', '/api/2.0/inbound-messages/', { token: owner.token, body: { from: '447700900010', body: 'Do you ship to Ireland?' } });
    clock.advance(5 * 60_000);
    for (let i = 0; i < 3; i++) await advance();
    expect((await messagesTo('447700900010')).map((m: { body: string }) => m.body)).toEqual(['Still thinking, there?']);
    expect((await messagesTo('447700900011')).map((m: { body: string }) => m.body)).toEqual(['Still thinking, there?', 'Hi there, welcome! Code  ']);
    const [replied] = await runsOf('447700900010');
    expect(replied.history.map((h: { outcome: string }) => h.outcome)).toEqual(['then', 'added', 'sent', 'waited', 'then', 'ended']);
  });

  it('calls a webhook step once, signed with the flow’s secret', async () => {
    const made = await flow({ steps: [{ type: 'webhook', url: receiver.url }] });
    const calls = receiver.calls.length;
    await start(made.uuid, '447700900020', { plan: 'pro' });
    await advance();
    await advance();
    expect(receiver.calls.length).toBe(calls + 1);
    const body = verifiedBody(made.signing_secret, receiver.calls.at(-1)!);
    expect(body).toMatchObject({
      event: 'flow.step',
      flow: { uuid: made.uuid },
      run: { phone_number: '447700900020', fields: { plan: 'pro' } },
      step: { id: made.steps[0].id },
    });
  });
});

describe('triggers', () => {
  it('starts a keyword’s flows in the message’s transaction, and not for an opted-out number', async () => {
    const keyword = await created('/keywords/', { keyword: 'WELCOME', message: '' });
    const made = await flow({ trigger: { type: 'keyword', keyword_uuid: keyword.uuid }, steps: [{ type: 'send', template_uuid: followUp }] });
    await t.request('POST', '/api/2.0/inbound-messages/', { token: owner.token, body: { from: '447700900030', body: 'welcome please' } });
    expect((await runsOf('447700900030'))[0]).toMatchObject({ trigger: 'keyword', flow: { uuid: made.uuid }, state: 'active' });
    await advance();
    expect(await messagesTo('447700900030')).toHaveLength(1);
    await t.request('POST', '/api/2.0/inbound-messages/', { token: owner.token, body: { from: '447700900031', body: 'STOP' } });
    await t.request('POST', '/api/2.0/inbound-messages/', { token: owner.token, body: { from: '447700900031', body: 'WELCOME' } });
    expect(await runsOf('447700900031')).toEqual([]);
  });

  it('starts a group’s flows whichever way a number joins it, once while a run is active', async () => {
    const group = (await created('/contact-groups/', { name: 'Newsletter' })).uuid;
    const made = await flow({
      trigger: { type: 'group_joined', group_uuid: group },
      steps: [
        { type: 'send', template_uuid: followUp },
        { type: 'wait', minutes: 60 },
      ],
    });
    await api('PUT', `/contact-groups/${group}/add-contacts`, { contacts: [{ phone_number: '447700900040' }, { phone_number: '447700900041' }] });
    // Started by the database's trigger, due at once: readable before the advance takes it.
    const waiting = (await api('GET', `/flows/${made.uuid}/runs`)).json().data;
    expect(waiting.map((r: { state: string; step_id: string | null; trigger: string }) => [r.state, r.step_id, r.trigger])).toEqual([
      ['active', null, 'group_joined'],
      ['active', null, 'group_joined'],
    ]);
    expect(waiting[0].next_due_at).toMatch(/^\d{4}-\d{2}-\d{2} /);
    // A flow's own step joins the group too.
    const joiner = await flow({ steps: [{ type: 'add_to_group', group_uuid: group }] });
    await start(joiner.uuid, '447700900042');
    for (let i = 0; i < 3; i++) await advance();
    for (const phone of ['447700900040', '447700900041', '447700900042']) expect(await messagesTo(phone)).toHaveLength(1);
    // Leaving and joining again while the run waits starts nothing new.
    await api('PUT', `/contact-groups/${group}/remove-contacts`, { contacts: [{ phone_number: '447700900040' }] });
    await api('PUT', `/contact-groups/${group}/add-contacts`, { contacts: [{ phone_number: '447700900040' }] });
    await advance();
    expect(await messagesTo('447700900040')).toHaveLength(1);
    expect((await api('GET', `/flows/${made.uuid}/runs`)).json().data).toHaveLength(3);
  });

  it('starts the conversion flows of the number that converted', async () => {
    const made = await flow({ trigger: { type: 'conversion' }, steps: [{ type: 'send', template_uuid: followUp }] });
    const order = await api('POST', '/conversions/', { phone_number: '447700900050', order_id: 'A-1', value: 20, currency: 'GBP' });
    expect(order.statusCode, order.body).toBe(201);
    await advance();
    expect((await runsOf('447700900050'))[0]).toMatchObject({ trigger: 'conversion', flow: { uuid: made.uuid }, state: 'completed' });
    expect(await messagesTo('447700900050')).toHaveLength(1);
  });

  it('starts a segment’s flows for the numbers that enter it, not for those in it when the flow began looking', async () => {
    const group = (await created('/contact-groups/', { name: 'Cities' })).uuid;
    await api('PUT', `/contact-groups/${group}/add-contacts`, { contacts: [{ phone_number: '447700900070', custom_fields: { city: 'London' } }] });
    const segment = (
      await created('/segments/', { name: 'Londoners', match: 'all', conditions: [{ type: 'field', field: 'city', op: 'equals', value: 'london' }] })
    ).uuid;
    const made = await flow({ trigger: { type: 'segment_entered', segment_uuid: segment }, steps: [{ type: 'send', template_uuid: followUp }] });
    expect(await t.services.flowSegmentEntries.startDue()).toBe(0);
    await api('PUT', `/contact-groups/${group}/add-contacts`, {
      contacts: [
        { phone_number: '447700900071', custom_fields: { city: 'London' } },
        { phone_number: '447700900072', custom_fields: { city: 'Leeds' } },
      ],
    });
    // Looked at once a minute.
    expect(await t.services.flowSegmentEntries.startDue()).toBe(0);
    clock.advance(60_000);
    expect(await t.services.flowSegmentEntries.startDue()).toBe(1);
    await advance();
    expect((await runsOf('447700900071'))[0]).toMatchObject({ trigger: 'segment_entered', flow: { uuid: made.uuid }, state: 'completed' });
    expect(await runsOf('447700900070')).toEqual([]);
    expect(await runsOf('447700900072')).toEqual([]);
    // Leaving and entering again starts it again (re-entry after the run ended).
    await api('PUT', `/contact-groups/${group}/add-contacts`, { contacts: [{ phone_number: '447700900071', custom_fields: { city: 'Paris' } }] });
    clock.advance(60_000);
    expect(await t.services.flowSegmentEntries.startDue()).toBe(0);
    await api('PUT', `/contact-groups/${group}/add-contacts`, { contacts: [{ phone_number: '447700900071', custom_fields: { city: 'London' } }] });
    clock.advance(60_000);
    expect(await t.services.flowSegmentEntries.startDue()).toBe(1);
    await api('PUT', `/flows/${made.uuid}`, { enabled: false });
  });

  it('starts an anniversary flow once on the day, at its time in the team’s zone', async () => {
    await api('PUT', `/contact-groups/${vip}/add-contacts`, {
      contacts: [
        { phone_number: '447700900060', custom_fields: { Birthday: '1990-06-10' } },
        { phone_number: '447700900061', custom_fields: { Birthday: '1985-06-11' } },
      ],
    });
    const made = await flow({ trigger: { type: 'anniversary', field: 'birthday', at: '10:00' }, steps: [{ type: 'send', template_uuid: followUp }] });
    clock.set('2026-06-10T08:30:00Z'); // 09:30 in London
    expect(await t.services.flowAnniversaries.startDue()).toBe(0);
    clock.set('2026-06-10T09:00:00Z'); // 10:00
    expect(await t.services.flowAnniversaries.startDue()).toBe(1);
    await advance();
    expect(await t.services.flowAnniversaries.startDue()).toBe(0);
    expect((await runsOf('447700900060'))[0]).toMatchObject({ trigger: 'anniversary', flow: { uuid: made.uuid }, state: 'completed' });
    expect(await runsOf('447700900061')).toEqual([]);
    clock.set('2026-06-11T09:00:00Z');
    expect(await t.services.flowAnniversaries.startDue()).toBe(1);
    expect((await runsOf('447700900061'))[0]).toMatchObject({ trigger: 'anniversary' });
    await api('PUT', `/flows/${made.uuid}`, { enabled: false });
  });

  it('starts an anniversary at its time in each recipient’s zone, once a year, never twice across a restart', async () => {
    // London and New York (212): the same birthday, five hours apart.
    await api('PUT', `/contact-groups/${vip}/add-contacts`, {
      contacts: [
        { phone_number: '447700900062', custom_fields: { birthday: '1991-09-15' } },
        { phone_number: '+1 212 555 0162', custom_fields: { birthday: '1992-09-15' } },
      ],
    });
    const made = await flow({ trigger: { type: 'anniversary', field: 'birthday', at: '10:00' }, steps: [{ type: 'send', template_uuid: followUp }] });
    clock.set('2026-09-15T08:59:00Z'); // 09:59 in London
    expect(await t.services.flowAnniversaries.startDue()).toBe(0);
    clock.set('2026-09-15T09:00:00Z'); // 10:00 in London, 05:00 in New York
    expect(await t.services.flowAnniversaries.startDue()).toBe(1);
    await advance();
    expect((await runsOf('447700900062'))[0]).toMatchObject({ trigger: 'anniversary', flow: { uuid: made.uuid }, state: 'completed' });
    expect(await runsOf('12125550162')).toEqual([]);
    // A restart (a new process's look, in the same minute and later that day) starts neither again.
    const restarted = createFlowAnniversaries({ db: t.database.db, clock, config: { appTimezone: 'Europe/London' } });
    expect(await restarted.startDue()).toBe(0);
    clock.set('2026-09-15T13:59:00Z'); // 09:59 in New York
    expect(await t.services.flowAnniversaries.startDue()).toBe(0);
    clock.set('2026-09-15T14:00:00Z'); // 10:00 in New York
    expect(await t.services.flowAnniversaries.startDue()).toBe(1);
    await advance();
    expect((await runsOf('12125550162'))[0]).toMatchObject({ trigger: 'anniversary', flow: { uuid: made.uuid } });
    clock.set('2026-09-16T03:00:00Z'); // 23:00 on the 15th in New York: both done
    expect(await createFlowAnniversaries({ db: t.database.db, clock, config: { appTimezone: 'Europe/London' } }).startDue()).toBe(0);
    expect(await messagesTo('447700900062')).toHaveLength(1);
    expect(await messagesTo('12125550162')).toHaveLength(1);
    // A year on, each again.
    clock.set('2027-09-15T14:00:00Z');
    expect(await t.services.flowAnniversaries.startDue()).toBe(2);
    await api('PUT', `/flows/${made.uuid}`, { enabled: false });
  });
});

describe('no step twice', () => {
  const numbers = Array.from({ length: 40 }, (_, i) => `4477009002${String(i).padStart(2, '0')}`);
  let made: { uuid: string; steps: Array<{ id: string }> };

  beforeAll(async () => {
    made = await flow({
      steps: [
        { type: 'send', template_uuid: followUp },
        { type: 'wait', minutes: 1 },
        { type: 'send', template_uuid: welcome },
      ],
    });
    for (const phone of numbers) expect((await start(made.uuid, phone)).statusCode).toBe(201);
    // Each run enters its first step, the send: the advances below race to do it.
    await t.services.flowAdvance.advanceBatch(1000);
  });

  it('when the advance runs twice at once', async () => {
    const flowAdvance = t.services.flowAdvance;
    await Promise.all([flowAdvance.advanceBatch(40), flowAdvance.advanceBatch(40), flowAdvance.advanceBatch(15), flowAdvance.advanceDue({ batchSize: 7 })]);
    await advance();
    const { rows } = await t.database.pool.query(
      `SELECT o.to_number, count(*)::int AS n FROM outbound_replies o JOIN flow_runs r ON r.id = o.flow_run_id JOIN flows f ON f.id = r.flow_id
        WHERE f.uuid = $1 GROUP BY 1`,
      [made.uuid],
    );
    expect(rows).toHaveLength(numbers.length);
    expect(rows.every((row: { n: number }) => row.n === 1)).toBe(true);
  });

  it('when a batch fails part way, and is done again', async () => {
    clock.advance(60_000);
    // Every run's wait ends: each is now at the second send.
    await t.services.flowAdvance.advanceBatch(1000);
    // A failure after the batch's messages were inserted: the move of one run past the send refuses.
    await t.database.pool.query(`
      CREATE FUNCTION refuse_flow_run() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.phone_number = '${numbers[25]}' AND OLD.step_id = '${made.steps[2]!.id}' THEN RAISE EXCEPTION 'database went away'; END IF; RETURN NEW; END $$;
      CREATE TRIGGER refuse_flow_run BEFORE UPDATE ON flow_runs FOR EACH ROW EXECUTE FUNCTION refuse_flow_run();`);
    await expect(t.services.flowAdvance.advanceBatch(1000)).rejects.toThrow();
    const during = await t.database.pool.query(`SELECT count(*)::int AS n FROM outbound_replies WHERE body LIKE 'Hi there%' AND to_number LIKE '4477009002%'`);
    expect(during.rows[0].n).toBe(0);
    await t.database.pool.query(`DROP TRIGGER refuse_flow_run ON flow_runs; DROP FUNCTION refuse_flow_run();`);
    await advance();
    await advance();
    const { rows } = await t.database.pool.query(
      `SELECT o.to_number, count(*)::int AS n FROM outbound_replies o WHERE o.body LIKE 'Hi there%' AND o.to_number LIKE '4477009002%' GROUP BY 1`,
    );
    expect(rows).toHaveLength(numbers.length);
    expect(rows.every((row: { n: number }) => row.n === 1)).toBe(true);
  });
});

/**
 * The inbox (issue 36, point 1): conversations over the API, as a team and its members see them.
 * What is counted is what a client sees (statuses and bodies) and what the world would receive
 * (rows of outbound_replies waiting for the engine, messages at the simulator gateway).
 *
 * Seen red without the protections:
 * - with the opt-out check removed from the reply (conversations.service.ts `reply`), "refuses a
 *   reply to an opted-out number" went red (201 instead of 409, one more outbound_replies row);
 * - with `knows` answering true, "shows another team none of this" went red (200 and a reply queued
 *   to team A's customer by team B);
 * - with settleReplyReceipts left out of engine/store/receipts.ts, "follows the receipts" went red
 *   (the reply stayed `submitted`);
 * - with the inbound pipeline's call to `received` removed, "makes a conversation for an inbound
 *   message" went red (an empty list) and so did the reopening of a closed conversation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../engine/engine';
import { createEngineStore } from '../../engine/store/postgres-store';
import { createSimulatorGateway } from '../../gateways/sms/simulator';
import { countingGateway, GatewayLedger } from '../../testing/counting-gateway';
import { createTestApp, createTestClock, type TestApp, type TestUser } from '../../testing/test-app';

const API = '/api/2.0';
// Europe/London in June: UTC+1.
const clock = createTestClock('2026-06-01T09:00:00Z');
let t: TestApp;
let owner: TestUser;
let stranger: TestUser;
let editor: string;
let viewer: string;
let ownerUuid: string;
let editorUuid: string;

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token = owner.token, body?: unknown, headers?: Record<string, string>) =>
  t.request(method, `${API}${url}`, { token, body, headers });
const inject = (from: string, body: string, user = owner) => call('POST', '/inbound-messages/', user.token, { from, body });
const count = async (statement: string, values: unknown[] = []) => Number((await t.database.pool.query(statement, values)).rows[0].n);
const repliesTo = (number: string) => count(`SELECT count(*) AS n FROM outbound_replies WHERE to_number = $1`, [number]);

async function until(what: string, condition: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 250; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`Timed out waiting for ${what}.`);
}

function engineWith(failureRate = 0) {
  const gateway = createSimulatorGateway({ latencyMs: 0, failureRate });
  const engine = createEngine({
    store: createEngineStore(t.database.db),
    gateway: countingGateway(gateway, { ledger: new GatewayLedger() }),
    clock,
    options: { tickMs: 1000, batchSize: 10, rateLimitPerSecond: 1000, leaseMs: 30_000, lanes: 1 },
    urlBase: (domain) => t.services.vanityDomains.urlBase({ domain }),
  });
  return { gateway, engine };
}

beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '100000' }, { clock });
  owner = await t.user({ team: 'Shop' });
  stranger = await t.user({ team: 'Elsewhere' });
  const team = (await t.services.teamsRepository.findByUuid(owner.teamUuid))!;
  const member = async (role: 'editor' | 'viewer') => {
    const user = await t.user({ team: `Own team of the ${role}` });
    await t.services.users.addToTeam(user.email, 'Shop', role);
    const id = (await t.services.usersRepository.findByEmail(user.email))!.id;
    return { uuid: user.userUuid, token: (await t.services.tokens.issue(id, 'personal', role, { teamId: team.id })).token };
  };
  const e = await member('editor');
  editor = e.token;
  editorUuid = e.uuid;
  viewer = (await member('viewer')).token;
  ownerUuid = owner.userUuid;
  const group = (await call('POST', '/contact-groups/', owner.token, { name: 'Customers', headers: ['first_name', 'last_name'] })).json().data.uuid;
  await call('PUT', `/contact-groups/${group}/add-contacts`, owner.token, {
    contacts: [{ phone_number: '07700900100', custom_fields: { first_name: 'Ada', last_name: 'Lovelace' } }, { phone_number: '07700900300' }],
  });
});
afterAll(() => t.close());

describe('conversations', () => {
  it('makes a conversation for an inbound message, unread, open and assigned to no one', async () => {
    expect((await inject('07700 900100', 'Do you ship to Ireland?')).statusCode).toBe(201);
    const list = (await call('GET', '/conversations/')).json();
    expect(list.meta.total).toBe(1);
    expect(list.data).toEqual([
      {
        phone_number: '447700900100',
        name: 'Ada Lovelace',
        status: 'open',
        assignee: null,
        snoozed_until: '',
        unread: true,
        opted_out: false,
        last_activity_at: '2026-06-01 10:00:00',
        last_message: { direction: 'inbound', body: 'Do you ship to Ireland?', created_at: '2026-06-01 10:00:00' },
      },
    ]);
  });

  it('shows every message to and from the number, from every source, newest last, and reading marks it read for the team', async () => {
    // A keyword's reply, a test send (sent by the engine), an inbox reply.
    await call('POST', '/keywords/', owner.token, { keyword: 'HOURS', message: 'Open 9 to 5.' });
    clock.advance(60_000);
    await inject('07700900100', 'hours?');
    const template = (await call('POST', '/templates/', owner.token, { name: 'Hi', body: 'Hi {{first_name}}!', sender: 'Acme' })).json().data.uuid;
    const test = await call('POST', '/campaigns/send-test', owner.token, {
      name: 'Test',
      sender: 'Acme',
      scheduled_send_date: '2026-06-01 10:02:00',
      expiry_date: '2026-06-01 12:00:00',
      template_uuid: template,
      contact_number: '07700900100',
      custom_fields: { first_name: 'Ada' },
    });
    expect(test.statusCode, test.body).toBe(201);
    clock.advance(60_000);
    const { engine } = engineWith();
    await engine.tick();
    clock.advance(60_000);
    const reply = await call('POST', '/conversations/447700900100/messages', editor, { body: 'Yes, we ship to Ireland.' });
    expect(reply.statusCode, reply.body).toBe(201);
    expect(reply.json().data).toEqual({
      direction: 'outbound',
      body: 'Yes, we ship to Ireland.',
      status: 'queued',
      created_at: '2026-06-01 10:03:00',
      kind: 'inbox_reply',
      campaign_uuid: null,
      author: { uuid: editorUuid, name: expect.any(String), email: expect.any(String) },
    });
    clock.advance(60_000);
    await inject('07700900100', 'Thanks!');

    const thread = await call('GET', '/conversations/07700900100', viewer);
    expect(thread.statusCode, thread.body).toBe(200);
    const body = thread.json();
    expect(body.data.map((m: { direction: string; kind: string; body: string }) => [m.direction, m.kind, m.body])).toEqual([
      ['inbound', 'inbound', 'Do you ship to Ireland?'],
      ['inbound', 'inbound', 'hours?'],
      ['outbound', 'keyword_reply', 'Open 9 to 5.'],
      ['outbound', 'test', 'Hi Ada!'],
      ['outbound', 'inbox_reply', 'Yes, we ship to Ireland.'],
      ['inbound', 'inbound', 'Thanks!'],
    ]);
    // Sent by the engine: submitted, or delivered once the simulator's receipt is in.
    expect(body.data[3]).toMatchObject({ status: expect.stringMatching(/^(submitted|delivered)$/), campaign_uuid: test.json().data.uuid });
    expect(body.meta).toMatchObject({ total: 6, current_page: 1 });
    expect(body.conversation).toMatchObject({ phone_number: '447700900100', unread: false, status: 'open', opted_out: false });
    // Read by the viewer: read for the editor too (the marker is the team's).
    const unread = (await call('GET', '/conversations/?unread=true', editor)).json();
    expect(unread.meta.total).toBe(0);
    expect((await call('GET', '/conversations/?unread=false', editor)).json().meta.total).toBe(1);
  });

  it('pages the thread from the newest: page 1 the latest messages, each page oldest first', async () => {
    const first = (await call('GET', '/conversations/447700900100?per_page=4')).json();
    expect(first.data.map((m: { body: string }) => m.body)).toEqual(['Open 9 to 5.', 'Hi Ada!', 'Yes, we ship to Ireland.', 'Thanks!']);
    expect(first.meta).toMatchObject({ total: 6, last_page: 2 });
    const second = (await call('GET', '/conversations/447700900100?per_page=4&page=2')).json();
    expect(second.data.map((m: { body: string }) => m.body)).toEqual(['Do you ship to Ireland?', 'hours?']);
  });

  it('filters by status, assignee, unread and search, latest activity first', async () => {
    clock.advance(60_000);
    await inject('07700900200', 'Where is my order?');
    clock.advance(60_000);
    await inject('07700900300', 'Hello');
    const numbers = async (query: string, token = owner.token) =>
      (await call('GET', `/conversations/${query}`, token)).json().data.map((c: { phone_number: string }) => c.phone_number);
    expect(await numbers('')).toEqual(['447700900300', '447700900200', '447700900100']);

    expect((await call('PUT', '/conversations/447700900200', editor, { assignee_uuid: editorUuid })).statusCode).toBe(200);
    expect((await call('PUT', '/conversations/447700900300', owner.token, { status: 'closed', assignee_uuid: ownerUuid })).statusCode).toBe(200);
    expect(await numbers('?status=closed')).toEqual(['447700900300']);
    expect(await numbers('?status=open')).toEqual(['447700900200', '447700900100']);
    expect(await numbers(`?assignee=${editorUuid}`)).toEqual(['447700900200']);
    expect(await numbers('?assignee=me', editor)).toEqual(['447700900200']);
    expect(await numbers('?assignee=me')).toEqual(['447700900300']);
    expect(await numbers('?assignee=none')).toEqual(['447700900100']);
    expect(await numbers('?unread=true')).toEqual(['447700900300', '447700900200']);
    expect(await numbers('?search=order')).toEqual(['447700900200']);
    expect(await numbers('?search=lovelace')).toEqual(['447700900100']);
    expect(await numbers('?search=ireland')).toEqual(['447700900100']);
    expect(await numbers('?search=0770090020')).toEqual(['447700900200']);
    expect(await numbers('?status=open&unread=true&per_page=1')).toEqual(['447700900200']);
    const bad = await call('GET', '/conversations/?status=pending');
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error.errors).toHaveProperty('status');
  });

  it('reopens a closed conversation when the number writes again, and ends a snooze when its time passes', async () => {
    await inject('07700900300', 'Are you there?');
    const reopened = (await call('GET', '/conversations/?status=open')).json().data.map((c: { phone_number: string }) => c.phone_number);
    expect(reopened).toContain('447700900300');

    const snoozed = await call('PUT', '/conversations/447700900200', editor, { status: 'snoozed', snoozed_until: '2026-06-01 12:00:00' });
    expect(snoozed.statusCode, snoozed.body).toBe(200);
    expect(snoozed.json().data).toMatchObject({ status: 'snoozed', snoozed_until: '2026-06-01 12:00:00', assignee: { uuid: editorUuid } });
    expect((await call('GET', '/conversations/?status=snoozed')).json().meta.total).toBe(1);
    clock.set('2026-06-01T11:00:01Z');
    const woken = (await call('GET', '/conversations/447700900200')).json().conversation;
    expect(woken).toMatchObject({ status: 'open', snoozed_until: '' });
    expect((await call('GET', '/conversations/?status=snoozed')).json().meta.total).toBe(0);

    const past = await call('PUT', '/conversations/447700900200', editor, { status: 'snoozed', snoozed_until: '2026-06-01 11:00:00' });
    expect(past.statusCode).toBe(422);
    expect(past.json().error.errors).toHaveProperty('snoozed_until');
    const missing = await call('PUT', '/conversations/447700900200', editor, { status: 'snoozed' });
    expect(missing.statusCode).toBe(422);
    // Snoozed again, then a message from the number ends the snooze at once.
    await call('PUT', '/conversations/447700900200', editor, { status: 'snoozed', snoozed_until: '2026-06-02 09:00:00' });
    await inject('07700900200', 'Any news?');
    expect((await call('GET', '/conversations/447700900200')).json().conversation.status).toBe('open');
  });

  it('assigns only to members of the team (422 naming the field otherwise), and records each change in the audit log', async () => {
    const before = await count(`SELECT count(*) AS n FROM audit_events WHERE resource_type = 'conversation'`);
    const outsider = await call('PUT', '/conversations/447700900100', owner.token, { assignee_uuid: stranger.userUuid });
    expect(outsider.statusCode).toBe(422);
    expect(outsider.json().error.errors).toEqual({ assignee_uuid: [expect.stringContaining('not a member')] });
    const assigned = await call('PUT', '/conversations/447700900100', owner.token, { assignee_uuid: editorUuid });
    expect(assigned.json().data.assignee).toMatchObject({ uuid: editorUuid });
    const cleared = await call('PUT', '/conversations/447700900100', owner.token, { assignee_uuid: null });
    expect(cleared.json().data.assignee).toBeNull();
    expect(await count(`SELECT count(*) AS n FROM audit_events WHERE resource_type = 'conversation'`)).toBe(before + 2);
    const events = (await call('GET', '/audit-events/?per_page=100')).json().data;
    expect(events.some((e: { action: string }) => e.action === 'replyToConversation')).toBe(true);
  });

  it('lets viewers read but not reply, assign or keep saved replies', async () => {
    const queued = await repliesTo('447700900100');
    expect((await call('GET', '/conversations/447700900100', viewer)).statusCode).toBe(200);
    for (const [method, url, body] of [
      ['POST', '/conversations/447700900100/messages', { body: 'Hi' }],
      ['PUT', '/conversations/447700900100', { status: 'closed' }],
      ['POST', '/saved-replies/', { name: 'Thanks', body: 'Thanks!' }],
    ] as const) {
      const response = await call(method, url, viewer, body);
      expect(response.statusCode, `${method} ${url}`).toBe(403);
    }
    expect(await repliesTo('447700900100')).toBe(queued);
    expect((await call('GET', '/conversations/447700900100', viewer)).json().conversation.status).toBe('open');
  });

  it('refuses a reply to an opted-out number with 409 and queues nothing', async () => {
    await inject('07700900300', 'STOP');
    const queued = await repliesTo('447700900300');
    const refused = await call('POST', '/conversations/447700900300/messages', editor, { body: 'Sorry to see you go' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      error: { code: 409, http_code: 409, message: expect.stringContaining('opted out'), request_id: expect.any(String) },
    });
    expect(await repliesTo('447700900300')).toBe(queued);
    expect((await call('GET', '/conversations/447700900300')).json().conversation.opted_out).toBe(true);
  });

  it('shows another team none of this: 404 for its numbers, nothing in its list, nothing queued', async () => {
    const theirs = await count(`SELECT count(*) AS n FROM conversations c JOIN teams t ON t.id = c.team_id WHERE t.uuid = $1`, [stranger.teamUuid]);
    expect(theirs).toBe(0);
    expect((await call('GET', '/conversations/', stranger.token)).json()).toMatchObject({ data: [], meta: { total: 0 } });
    expect((await call('GET', '/conversations/?search=ireland', stranger.token)).json().meta.total).toBe(0);
    const queued = await repliesTo('447700900100');
    for (const [method, url, body] of [
      ['GET', '/conversations/447700900100', undefined],
      ['POST', '/conversations/447700900100/messages', { body: 'Hi from elsewhere' }],
      ['PUT', '/conversations/447700900100', { status: 'closed' }],
    ] as const) {
      const response = await call(method, url, stranger.token, body);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
    }
    expect(await repliesTo('447700900100')).toBe(queued);
    expect((await call('GET', '/conversations/447700900100')).json().conversation.status).toBe('open');
  });

  it('sends a reply through the engine, and its status follows the receipts', async () => {
    const delivered = (await call('POST', '/conversations/447700900100/messages', editor, { body: 'Your parcel left today.' })).json().data;
    expect(delivered.status).toBe('queued');
    const { engine, gateway } = engineWith();
    await engine.tick();
    expect([...gateway.sent.values()].filter((m) => m.body === 'Your parcel left today.').map((m) => [m.to, m.from])).toEqual([['447700900100', '88440']]);
    const statusOf = async (text: string) =>
      (await call('GET', '/conversations/447700900100?per_page=100')).json().data.find((m: { body: string }) => m.body === text)?.status;
    await until('the receipt', async () => {
      await engine.flushReceipts();
      return (await statusOf('Your parcel left today.')) === 'delivered';
    });

    await call('POST', '/conversations/447700900100/messages', editor, { body: 'It may be late.' });
    const failing = engineWith(1);
    await failing.engine.tick();
    await until('the failed receipt', async () => {
      await failing.engine.flushReceipts();
      return (await statusOf('It may be late.')) === 'undelivered';
    });
  });

  it('makes one reply of a POST retried with the same Idempotency-Key', async () => {
    const queued = await repliesTo('447700900100');
    const headers = { 'idempotency-key': 'reply-0001' };
    const first = await call('POST', '/conversations/447700900100/messages', editor, { body: 'Once only' }, headers);
    const again = await call('POST', '/conversations/447700900100/messages', editor, { body: 'Once only' }, headers);
    expect([first.statusCode, again.statusCode]).toEqual([201, 201]);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await repliesTo('447700900100')).toBe(queued + 1);
  });

  it('refuses an empty reply and a number the team holds nothing about', async () => {
    const empty = await call('POST', '/conversations/447700900100/messages', editor, { body: '  ' });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().error.errors).toHaveProperty('body');
    expect((await call('GET', '/conversations/447700900999')).statusCode).toBe(404);
    expect((await call('GET', '/conversations/not-a-number')).statusCode).toBe(404);
  });
});

describe('saved replies', () => {
  it('are created, listed by name, edited and deleted by editors, each change audited', async () => {
    const created = await call('POST', '/saved-replies/', editor, { name: 'Shipping', body: 'We ship to the UK and Ireland.' });
    expect(created.statusCode, created.body).toBe(201);
    const uuid = created.json().data.uuid;
    await call('POST', '/saved-replies/', editor, { name: 'Hours', body: 'Open 9 to 5.' });
    expect((await call('GET', '/saved-replies/', viewer)).json().data.map((r: { name: string }) => r.name)).toEqual(['Hours', 'Shipping']);
    const edited = await call('PUT', `/saved-replies/${uuid}`, editor, { body: 'We ship everywhere in Europe.' });
    expect(edited.json().data).toMatchObject({ uuid, name: 'Shipping', body: 'We ship everywhere in Europe.' });
    expect((await call('GET', `/saved-replies/${uuid}`, stranger.token)).statusCode).toBe(404);
    expect((await call('DELETE', `/saved-replies/${uuid}`, stranger.token)).statusCode).toBe(404);
    expect((await call('DELETE', `/saved-replies/${uuid}`, editor)).statusCode).toBe(204);
    expect((await call('GET', `/saved-replies/${uuid}`)).statusCode).toBe(404);
    expect(await count(`SELECT count(*) AS n FROM audit_events WHERE resource_type = 'saved_reply'`)).toBe(4);
    const nameless = await call('POST', '/saved-replies/', editor, { name: '', body: 'x' });
    expect(nameless.statusCode).toBe(422);
    expect(nameless.json().error.errors).toHaveProperty('name');
  });
});

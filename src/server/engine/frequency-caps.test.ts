/**
 * Frequency caps (issue 36, point 3): at most `messages` marketing messages to a number in the team
 * within `days` days, counted across the team's campaigns and the flows' marketing messages, driven
 * on the test clock and counted at the carrier (every hand-over noted with its body). A campaign's
 * message over the cap, or a flow's, is unsent with reason `frequency_cap` (the unsent and delivery
 * reports say so); transactional messages and replies are never counted nor capped; the window
 * slides; a campaign throttled over hours counts what flows sent meanwhile; the review tells how
 * many recipients the cap would skip; the setting is validated and only admins change it.
 *
 * Seen red: with `withoutCapped` taken out of the campaign claim (claims.ts), the second campaign
 * handed a third marketing message to the capped number (3 at the carrier, the unsent report
 * empty), and the throttled campaign sent to the number the flows had reached meanwhile; with `overTheCap` taken out of the reply sender's claim (replies.ts), the flow's third
 * marketing message went and the three at once all went; with the count of the batch's own messages
 * taken out of `overTheCap` (`sent.set` removed), the three flow messages claimed together all went;
 * with the outbound_replies count taken out of `marketingCounts`, the second campaign sent to the
 * number a flow had reached (3 at the carrier); with the window's bound taken out (`submitted_at >
 * since` and `created_at > since`), nothing was sent after seven days.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from './engine';
import { createEngineStore } from './store/postgres-store';
import type { OutgoingSms } from '../gateways/sms/sms-gateway';
import { createSimulatorGateway } from '../gateways/sms/simulator';
import { messagesOfCampaign } from '../testing/arrival-engine';
import { countingGateway, GatewayLedger } from '../testing/counting-gateway';
import { createTestApp, createTestClock, type TestApp, type TestUser } from '../testing/test-app';

// January: the service's zone (London) is UTC.
const clock = createTestClock('2026-01-05T09:00:00Z');
let t: TestApp;
let admin: TestUser;
let teamId: number;
let template: string;
let group: string;
const A = '447700900701';
const B = '447700900702';
const C = '447700900703';
const D = '447700900704';
const SALE = 'Winter sale: 20% off today.';

const call = (method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown, token = admin.token) => t.request(method, `/api/2.0${url}`, { token, body });

/** Every hand-over at the carrier, with its body. */
const handed: Array<{ to: string; body: string }> = [];
let engine: ReturnType<typeof createEngine>;
let gateway: ReturnType<typeof createSimulatorGateway>;

/** Marketing messages the carrier took for a number: the campaigns' and the flows' marketing bodies. */
const marketingTo = (phone: string) => handed.filter((h) => h.to === phone && (h.body === SALE || h.body.startsWith('Flow:'))).length;

async function tickAt(at: string) {
  clock.set(at);
  await engine.tick();
  await engine.tick();
}

async function campaignAt(send: string, name: string) {
  const response = await call('POST', '/campaigns/', {
    name,
    sender: 'Acme',
    included_contact_groups: [group],
    template_uuid: template,
    scheduled_send_date: send,
    expiry_date: '2026-12-31 00:00:00',
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data.uuid as string;
}

/** A message outside campaigns, queued as its writer (a flow, a keyword) queues it. */
async function queueReply(to: string, body: string, kind: 'flow' | 'keyword_reply', marketing: boolean) {
  await t.database.pool.query(
    `INSERT INTO outbound_replies (team_id, to_number, sender, body, kind, marketing, created_at, updated_at) VALUES ($1, $2, 'Acme', $3, $4, $5, $6, $6)`,
    [teamId, to, body, kind, marketing, clock.now()],
  );
}
/** Handed over: submitted, or delivered already (the simulator's receipts come at once). */
const went = (status: string) => (status === 'submitted' || status === 'delivered' ? 'went' : status);
const repliesTo = async (to: string) =>
  (
    (await t.database.pool.query(`SELECT body, status, reason FROM outbound_replies WHERE to_number = $1 ORDER BY id`, [to])).rows as Array<{
      body: string;
      status: string;
      reason: string | null;
    }>
  ).map((row) => ({ ...row, status: went(row.status) }));
const messagesOf = async (uuid: string) => (await messagesOfCampaign(t, uuid)).map((m) => ({ ...m, status: went(m.status) }));

beforeAll(async () => {
  t = await createTestApp({}, { clock });
  admin = await t.user({ team: 'Capped shop' });
  teamId = (await t.database.pool.query(`SELECT id::int AS id FROM teams WHERE uuid = $1`, [admin.teamUuid])).rows[0].id;
  template = (await call('POST', '/templates/', { name: 'Sale', body: SALE, sender: 'Acme' })).json().data.uuid;
  group = (await call('POST', '/contact-groups/', { name: 'Customers' })).json().data.uuid;
  await call('PUT', `/contact-groups/${group}/add-contacts`, { contacts: [A, B, C].map((n) => ({ phone_number: `+${n}` })) });
  const simulator = createSimulatorGateway({ latencyMs: 0, failureRate: 0 });
  gateway = simulator;
  const counted = countingGateway(simulator, { ledger: new GatewayLedger() });
  engine = createEngine({
    store: createEngineStore(t.database.db, { defaultZone: 'Europe/London' }),
    gateway: {
      ...counted,
      submit: (batch: OutgoingSms[], options) => {
        for (const sms of batch) handed.push({ to: sms.to, body: sms.body });
        return counted.submit(batch, options);
      },
    },
    clock,
    options: { tickMs: 1000, batchSize: 50, rateLimitPerSecond: 1000, leaseMs: 30_000 },
    urlBase: (domain) => t.services.vanityDomains.urlBase({ domain }),
  });
});
afterAll(async () => {
  await gateway.close();
  await t.close();
});

describe('frequency caps', () => {
  it('is off by default; an admin sets it (recorded in the audit trail), bad values are 422 naming the field, others 403', async () => {
    expect((await call('GET', '/team/settings')).json().data.frequency_cap).toBeNull();
    const refused = async (value: unknown, fields: string[]) => {
      const response = await call('PUT', '/team/settings', { frequency_cap: value });
      expect(response.statusCode, response.body).toBe(422);
      expect(Object.keys(response.json().error.errors).sort()).toEqual(fields);
    };
    await refused({ messages: 0, days: 91 }, ['frequency_cap.days', 'frequency_cap.messages']);
    await refused({ messages: 2.5, days: 7 }, ['frequency_cap.messages']);
    await refused({ messages: 4, days: 0 }, ['frequency_cap.days']);
    await refused({ messages: 4 }, ['frequency_cap.days']);
    await refused('weekly', ['frequency_cap']);
    expect((await call('GET', '/team/settings')).json().data.frequency_cap).toBeNull();

    const made = await t.services.users.create({ email: 'editor@capped.test', password: 'correct-horse-battery', teamName: 'Capped shop', role: 'editor' });
    const editor = await t.services.tokens.issue(made.userId, 'personal', 'editor');
    expect((await call('PUT', '/team/settings', { frequency_cap: { messages: 9, days: 1 } }, editor.token)).statusCode).toBe(403);
    expect((await call('GET', '/team/settings', undefined, editor.token)).json().data.frequency_cap).toBeNull();

    const set = await call('PUT', '/team/settings', { frequency_cap: { messages: 2, days: 7 } });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().data.frequency_cap).toEqual({ messages: 2, days: 7 });
    const [event] = (await call('GET', '/audit-events?action=updateTeamSettings')).json().data;
    expect(event).toMatchObject({
      resource_type: 'team',
      changes: { frequency_cap: { before: null }, 'frequency_cap.messages': { after: 2 }, 'frequency_cap.days': { after: 7 } },
    });
    // Another change leaves the cap as it is.
    expect((await call('PUT', '/team/settings', { confirm_threshold: 500 })).json().data.frequency_cap).toEqual({ messages: 2, days: 7 });
  });

  it('counts campaigns and flows together, skips (unsent frequency_cap) what is over, and never caps transactional messages', async () => {
    // Day 0: a campaign reaches A, B and C (one marketing message each).
    const first = await campaignAt('2026-01-05 10:00:00', 'Monday');
    await tickAt('2026-01-05T10:00:01Z');
    expect([A, B, C].map(marketingTo)).toEqual([1, 1, 1]);

    // A flow's marketing step reaches A (its second); a transactional step and a keyword reply go as well.
    clock.set('2026-01-05T11:00:00Z');
    await queueReply(A, 'Flow: we miss you', 'flow', true);
    await queueReply(A, 'Your order has shipped.', 'flow', false);
    await queueReply(A, 'Thanks for joining!', 'keyword_reply', false);
    await tickAt('2026-01-05T11:00:01Z');
    expect(marketingTo(A)).toBe(2);

    // A is at the cap: the flow's next marketing step is unsent, the transactional one still goes.
    clock.set('2026-01-05T12:00:00Z');
    await queueReply(A, 'Flow: last chance', 'flow', true);
    await queueReply(A, 'Your parcel was delivered.', 'flow', false);
    await tickAt('2026-01-05T12:00:01Z');
    expect(marketingTo(A)).toBe(2);
    expect(await repliesTo(A)).toEqual([
      { body: 'Flow: we miss you', status: 'went', reason: null },
      { body: 'Your order has shipped.', status: 'went', reason: null },
      { body: 'Thanks for joining!', status: 'went', reason: null },
      { body: 'Flow: last chance', status: 'unsent', reason: 'frequency_cap' },
      { body: 'Your parcel was delivered.', status: 'went', reason: null },
    ]);
    expect(handed.filter((h) => h.to === A).length).toBe(5);

    // Day 1: a second campaign. Its review says the cap will skip one recipient (A).
    clock.set('2026-01-06T09:00:00Z');
    const second = await campaignAt('2026-01-06 10:00:00', 'Tuesday');
    const review = (await call('GET', `/campaigns/${second}/review`)).json().data;
    expect(review).toMatchObject({ frequency_cap: { messages: 2, days: 7 }, frequency_capped: 1, recipients: { total: 3 } });
    // The first campaign's review does not count its own messages: only the flow's reached A besides.
    expect((await call('GET', `/campaigns/${first}/review`)).json().data.frequency_capped).toBe(0);
    await tickAt('2026-01-06T10:00:01Z');
    expect([A, B, C].map(marketingTo)).toEqual([2, 2, 2]);
    expect(await messagesOf(second)).toEqual([
      { phone_number: A, status: 'unsent', reason: 'frequency_cap' },
      { phone_number: B, status: 'went', reason: null },
      { phone_number: C, status: 'went', reason: null },
    ]);
    // The reports say why: the summary counts it unsent, the unsent report gives the reason.
    const summary = (await call('GET', `/campaigns/${second}/summary`)).json().data;
    expect(summary).toMatchObject({ recipients: 3, unsent: 1 });
    expect(summary.submitted + summary.delivered).toBe(2);
    const unsent = (await call('GET', `/reporting/${second}/unsent`)).json().data;
    expect(unsent).toMatchObject([{ Mobile: A, Reason: 'frequency_cap' }]);
    expect((await call('GET', `/reporting/${second}/unsent?reason=frequency_cap`)).json().data).toHaveLength(1);
    const delivery = (await call('GET', `/reporting/${second}/delivery`)).json().data as Array<{
      Recipient: string;
      Status: string;
      failure_reason: string | null;
    }>;
    expect(delivery.find((row) => row.Recipient === A)).toMatchObject({ Status: 'Failed', failure_reason: 'frequency_cap' });

    // Day 6, late: everyone is at the cap (the first campaign is still within the seven days).
    clock.set('2026-01-11T22:00:00Z');
    const third = await campaignAt('2026-01-11 23:00:00', 'Sunday');
    expect((await call('GET', `/campaigns/${third}/review`)).json().data.frequency_capped).toBe(3);
    await tickAt('2026-01-11T23:00:01Z');
    expect((await messagesOf(third)).map((m) => m.reason)).toEqual(['frequency_cap', 'frequency_cap', 'frequency_cap']);
    expect([A, B, C].map(marketingTo)).toEqual([2, 2, 2]);

    // Day 7 past noon: the window has slid past day 0 (A's two, and one each of B's and C's).
    clock.set('2026-01-12T11:00:00Z');
    const fourth = await campaignAt('2026-01-12 12:00:00', 'Monday again');
    expect((await call('GET', `/campaigns/${fourth}/review`)).json().data.frequency_capped).toBe(0);
    await tickAt('2026-01-12T12:00:01Z');
    expect((await messagesOf(fourth)).map((m) => m.status)).toEqual(['went', 'went', 'went']);
    expect([A, B, C].map(marketingTo)).toEqual([3, 3, 3]);
    // Never more than the cap within any seven days: B's and C's were day 1, day 7 (A's day 0 twice, day 7).
    expect(handed.filter((h) => h.to === B && h.body === SALE)).toHaveLength(3);
  });

  it("counts the messages of one claim to one number against each other, and a campaign's against a flow's", async () => {
    clock.set('2026-01-20T09:00:00Z');
    for (const step of ['one', 'two', 'three']) await queueReply(D, `Flow: step ${step}`, 'flow', true);
    await tickAt('2026-01-20T09:00:01Z');
    expect((await repliesTo(D)).map((r) => [r.body, r.status, r.reason])).toEqual([
      ['Flow: step one', 'went', null],
      ['Flow: step two', 'went', null],
      ['Flow: step three', 'unsent', 'frequency_cap'],
    ]);
    expect(marketingTo(D)).toBe(2);

    // D joins the customers: the next campaign skips it, as the flows have used its allowance.
    await call('PUT', `/contact-groups/${group}/add-contacts`, { contacts: [{ phone_number: `+${D}` }] });
    const uuid = await campaignAt('2026-01-20 10:00:00', 'For D too');
    expect((await call('GET', `/campaigns/${uuid}/review`)).json().data.frequency_capped).toBe(1);
    await tickAt('2026-01-20T10:00:01Z');
    expect((await messagesOf(uuid)).find((m) => m.phone_number === D)).toEqual({ phone_number: D, status: 'unsent', reason: 'frequency_cap' });
    expect(marketingTo(D)).toBe(2);
  });

  it('counts, for a campaign throttled over hours, what the flows sent meanwhile', async () => {
    const E = '447700900711';
    const H = '447700900714';
    clock.set('2026-02-02T09:00:00Z');
    const later = (await call('POST', '/contact-groups/', { name: 'Later' })).json().data.uuid as string;
    await call('PUT', `/contact-groups/${later}/add-contacts`, { contacts: [E, '447700900712', '447700900713', H].map((n) => ({ phone_number: `+${n}` })) });
    const response = await call('POST', '/campaigns/', {
      name: 'Slowly',
      sender: 'Acme',
      included_contact_groups: [later],
      template_uuid: template,
      scheduled_send_date: '2026-02-02 10:00:00',
      throttled: true,
      scheduled_finish_date: '2026-02-02 13:00:00',
      expiry_date: '2026-02-03 00:00:00',
    });
    expect(response.statusCode, response.body).toBe(201);
    const uuid = response.json().data.uuid as string;
    expect((await call('GET', `/campaigns/${uuid}/review`)).json().data.frequency_capped).toBe(0);
    for (let minutes = 0; minutes <= 190; minutes += 10) {
      const at = new Date(Date.parse('2026-02-02T10:00:01Z') + minutes * 60_000);
      // Twenty minutes in, while the campaign is still sending, a flow's two marketing steps reach H.
      if (minutes === 20) {
        clock.set(at);
        expect(handed.filter((h) => h.to === H)).toHaveLength(0);
        await queueReply(H, 'Flow: hello H', 'flow', true);
        await queueReply(H, 'Flow: hello again H', 'flow', true);
      }
      await tickAt(at.toISOString());
    }
    const messages = await messagesOf(uuid);
    expect(messages.find((m) => m.phone_number === H)).toEqual({ phone_number: H, status: 'unsent', reason: 'frequency_cap' });
    expect(messages.filter((m) => m.status === 'went')).toHaveLength(3);
    expect(marketingTo(H)).toBe(2);
    expect(marketingTo(E)).toBe(1);
  });

  it('turned off, caps nothing and the review leaves its fields out', async () => {
    expect((await call('PUT', '/team/settings', { frequency_cap: null })).json().data.frequency_cap).toBeNull();
    clock.set('2026-02-10T11:00:00Z');
    const uuid = await campaignAt('2026-02-10 12:00:00', 'Uncapped');
    const review = (await call('GET', `/campaigns/${uuid}/review`)).json().data;
    expect(review).not.toHaveProperty('frequency_capped');
    expect(review).not.toHaveProperty('frequency_cap');
    await queueReply(D, 'Flow: step four', 'flow', true);
    await tickAt('2026-02-10T12:00:01Z');
    expect((await messagesOf(uuid)).map((m) => m.status)).toEqual(['went', 'went', 'went', 'went']);
    expect((await repliesTo(D)).at(-1)).toMatchObject({ status: 'went' });
  });
});

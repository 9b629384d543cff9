/**
 * Drafts and the stop button (issue 19), counted at the carrier: every hand-over is recorded in a
 * ledger at the gateway's edge, so "nothing more was submitted" is what the carrier saw.
 *
 * Seen red: with the stop's guards on claims removed (the `stopped_at IS NULL` checks in `sending()`
 * and `claim()`, store/sending.ts and store/claims.ts, and the stop's move of `next_sequence`, `stop` in the campaign lifecycle,
 * modules/campaigns/lifecycle.ts), the carrier received a second batch after the stop (8 messages,
 * not 4); with `AND NOT is_draft` removed from startDue (start.ts), the draft was sent (12); with the
 * stop sweep (expiry.ts `sweepStopped`) left out, the queued messages stayed queued and the campaign
 * never finished.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSimulatorGateway } from '../gateways/sms/simulator';
import { countingGateway, GatewayLedger } from '../testing/counting-gateway';
import { createTestApp, createTestClock, type TestApp, type TestUser } from '../testing/test-app';
import { createEngine } from './engine';
import { createEngineStore } from './store/postgres-store';

// Europe/London in June: UTC+1. The engine is driven tick by tick on a test clock.
const clock = createTestClock('2026-06-01T09:00:00Z');
let t: TestApp;
let owner: TestUser;
let template: string;
let customers: string;
const PEOPLE = Array.from({ length: 12 }, (_, i) => `0770090${String(4000 + i)}`);

function engineWith(options: { rateLimitPerSecond: number; batchSize?: number; delayMs?: number; latencyMs?: number }) {
  const gateway = createSimulatorGateway({ latencyMs: options.latencyMs ?? 0, failureRate: 0 });
  const ledger = new GatewayLedger();
  const store = createEngineStore(t.database.db);
  const engine = createEngine({
    store,
    gateway: countingGateway(gateway, { ledger, delayMs: options.delayMs }),
    clock,
    options: { tickMs: 1000, batchSize: options.batchSize ?? 1, rateLimitPerSecond: options.rateLimitPerSecond, leaseMs: 30_000 },
    urlBase: (domain) => t.services.vanityDomains.urlBase({ domain }),
  });
  return { gateway, ledger, engine, store };
}

const call = (method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown, token = owner.token) => t.request(method, `/api/2.0${url}`, { token, body });
const campaign = async (uuid: string) => (await call('GET', `/campaigns/${uuid}`)).json().data;
async function messagesOf(uuid: string) {
  const { rows } = await t.database.pool.query(
    `SELECT m.sequence, m.status, m.reason, m.unsent_sequence FROM messages m JOIN campaigns c ON c.id = m.campaign_id WHERE c.uuid = $1 ORDER BY m.sequence`,
    [uuid],
  );
  return rows as Array<{ sequence: number; status: string; reason: string | null; unsent_sequence: number | null }>;
}
async function create(overrides: Record<string, unknown> = {}) {
  const response = await call('POST', '/campaigns/', {
    name: 'Stop me',
    sender: 'Acme',
    scheduled_send_date: '2026-06-01 10:10:00',
    expiry_date: '2026-06-01 18:00:00',
    included_contact_groups: [customers],
    template_uuid: template,
    ...overrides,
  });
  expect(response.statusCode).toBe(201);
  return response.json().data as { uuid: string; is_draft: boolean; status: number };
}

/** A new member of the team with `role`, with a token of the team. */
async function memberOf(role: 'admin' | 'viewer') {
  const user = await t.user();
  await t.services.users.addToTeam(user.email, 'Stops', role);
  const team = (await t.services.teamsRepository.findByName('Stops'))!;
  const id = (await t.services.usersRepository.findByEmail(user.email))!.id;
  return { ...user, token: (await t.services.tokens.issue(id, 'personal', 'test', { teamId: team.id })).token };
}

beforeAll(async () => {
  t = await createTestApp({}, { clock });
  owner = await t.user({ team: 'Stops' });
  template = (await call('POST', '/templates/', { name: 'Hi', body: 'Hi {{first_name|there}}!', sender: 'Acme' })).json().data.uuid;
  customers = (await call('POST', '/contact-groups/', { name: 'Customers' })).json().data.uuid;
  await call('PUT', `/contact-groups/${customers}/add-contacts`, { contacts: PEOPLE.map((phone_number) => ({ phone_number })) });
});
afterAll(() => t.close());

describe('drafts', () => {
  it('never sends a draft, even past its send time, and sends it once scheduled', async () => {
    clock.set('2026-06-01T09:00:00Z');
    const draft = await create({ is_draft: true, scheduled_send_date: '2026-06-01 10:05:00' });
    expect(draft.is_draft).toBe(true);
    const { engine, ledger, gateway } = engineWith({ rateLimitPerSecond: 1000, batchSize: 50 });
    clock.set('2026-06-01T09:06:00Z');
    await engine.tick();
    await engine.tick();
    expect(ledger.total).toBe(0);
    expect((await campaign(draft.uuid)).status).toBe(0);
    // Edits keep it a draft unless they say otherwise.
    const body = {
      name: 'Stop me',
      sender: 'Acme',
      scheduled_send_date: '2026-06-01 10:05:00',
      expiry_date: '2026-06-01 18:00:00',
      included_contact_groups: [customers],
      template_uuid: template,
    };
    expect((await call('PUT', `/campaigns/${draft.uuid}`, body)).json().data.is_draft).toBe(true);
    await engine.tick();
    expect(ledger.total).toBe(0);
    const scheduled = await call('PUT', `/campaigns/${draft.uuid}`, { ...body, is_draft: false });
    expect(scheduled.statusCode).toBe(200);
    expect(scheduled.json().data.is_draft).toBe(false);
    await engine.tick();
    expect(ledger.total).toBe(PEOPLE.length);
    expect(ledger.duplicates()).toEqual([]);
    await gateway.close();
  });

  it('asks for no approval while a draft, and for it once scheduled', async () => {
    clock.set('2026-06-01T09:00:00Z');
    await memberOf('admin'); // another admin, who could approve
    await call('PUT', '/team/settings', { approval_threshold: 1 });
    try {
      const draft = await create({ is_draft: true });
      expect((await campaign(draft.uuid)).approval.status).toBe('not_required');
      const body = {
        name: 'Stop me',
        sender: 'Acme',
        scheduled_send_date: '2026-06-01 10:10:00',
        expiry_date: '2026-06-01 18:00:00',
        included_contact_groups: [customers],
        template_uuid: template,
      };
      expect((await call('PUT', `/campaigns/${draft.uuid}`, { ...body, is_draft: false })).json().data.approval.status).toBe('pending');
    } finally {
      await call('PUT', '/team/settings', { approval_threshold: null });
    }
  });
});

describe('test sends', () => {
  it('sends a test of a draft now, to the caller or to given numbers, with a chosen recipient’s fields; tests stay out of the list', async () => {
    clock.set('2026-06-01T09:00:00Z');
    const named = (await call('POST', '/contact-groups/', { name: 'Named' })).json().data.uuid;
    await call('PUT', `/contact-groups/${named}/add-contacts`, { contacts: [{ phone_number: '07700904100', custom_fields: { first_name: 'Ada' } }] });
    const draft = await create({ is_draft: true, included_contact_groups: [named] });
    const { engine, gateway } = engineWith({ rateLimitPerSecond: 1000, batchSize: 50 });

    // No number given and none in the profile.
    const none = await call('POST', `/campaigns/${draft.uuid}/test-sends`, {});
    expect(none.statusCode).toBe(422);
    expect(none.json().error.errors.phone_numbers[0]).toMatch(/your own number in your profile/);
    await call('PUT', '/users/me', { name: 'Owner', phone_number: '07700905000' });
    const mine = await call('POST', `/campaigns/${draft.uuid}/test-sends`, { contact_phone_number: '07700904100' });
    expect(mine.statusCode, mine.body).toBe(201);
    expect(mine.json().data).toEqual([expect.objectContaining({ is_test: true, name: 'Test: Stop me', status: 0 })]);
    const given = await call('POST', `/campaigns/${draft.uuid}/test-sends`, { phone_numbers: ['07700905001', ' 07700905002 ', '07700905001'] });
    expect(given.json().data).toHaveLength(2);
    const refused = await call('POST', `/campaigns/${draft.uuid}/test-sends`, {
      phone_numbers: ['07700905001', 'call me'],
      contact_phone_number: '07700909999',
    });
    expect(Object.keys(refused.json().error.errors).sort()).toEqual(['contact_phone_number', 'phone_numbers.1']);

    await engine.tick();
    // What the carrier received: one test per number, the chosen recipient's name or the fallback; never the draft.
    expect([...gateway.sent.values()].map((m) => [m.to, m.body]).sort()).toEqual([
      ['447700905000', 'Hi Ada!'],
      ['447700905001', 'Hi there!'],
      ['447700905002', 'Hi there!'],
    ]);
    expect((await campaign(draft.uuid)).status).toBe(0);

    const listed = (await call('GET', '/campaigns/?per_page=100')).json();
    expect(listed.data.some((c: { is_test: boolean }) => c.is_test)).toBe(false);
    const withTests = (await call('GET', '/campaigns/?per_page=100&include_tests=true')).json();
    expect(withTests.data.filter((c: { is_test: boolean }) => c.is_test)).toHaveLength(3);
    expect(withTests.meta.total).toBe(listed.meta.total + 3);
    const review = (await call('GET', `/campaigns/${draft.uuid}/review`)).json().data;
    expect(review.test_sends.map((test: { phone_number: string; status: string }) => [test.phone_number, test.status]).sort()).toEqual([
      ['447700905000', 'delivered'],
      ['447700905001', 'delivered'],
      ['447700905002', 'delivered'],
    ]);
    await gateway.close();
  });
});

describe('the stop button', () => {
  it('finishes a pending campaign at once: nothing is ever sent', async () => {
    clock.set('2026-06-01T09:00:00Z');
    const pending = await create();
    const stopped = await call('PUT', `/campaigns/${pending.uuid}/stop`);
    expect(stopped.statusCode).toBe(200);
    expect(stopped.json().data).toMatchObject({ status: 2, stopped_at: '2026-06-01 10:00:00', stopped_by: { uuid: owner.userUuid } });
    const { engine, ledger, gateway } = engineWith({ rateLimitPerSecond: 1000, batchSize: 50 });
    clock.set('2026-06-01T09:20:00Z');
    await engine.tick();
    expect(ledger.total).toBe(0);
    expect(await messagesOf(pending.uuid)).toEqual([]);
    await gateway.close();
  });

  it('stops a sending campaign: nothing more reaches the carrier, what was queued is unsent (stopped), receipts still come', async () => {
    clock.set('2026-06-01T09:00:00Z');
    const sending = await create({ scheduled_send_date: '2026-06-01 11:00:00' });
    // Three messages a second; receipts a little later, so some are still out when the stop comes.
    const { engine, ledger, gateway } = engineWith({ rateLimitPerSecond: 3, batchSize: 3, latencyMs: 300 });
    clock.set('2026-06-01T10:00:00Z');
    await engine.tick();
    expect(ledger.total).toBe(3);
    expect((await call('PUT', `/campaigns/${sending.uuid}/stop`)).json().data).toMatchObject({ status: 1, stopped_at: '2026-06-01 11:00:00' });

    clock.set('2026-06-01T10:00:01Z');
    await engine.tick();
    clock.set('2026-06-01T10:00:02Z');
    await engine.tick();
    expect(ledger.total).toBe(3);
    const messages = await messagesOf(sending.uuid);
    const stopped = messages.filter((m) => m.status === 'unsent');
    expect(stopped).toHaveLength(PEOPLE.length - 3);
    expect(new Set(stopped.map((m) => m.reason))).toEqual(new Set(['stopped']));
    expect(stopped.map((m) => m.unsent_sequence)).toEqual(Array.from({ length: PEOPLE.length - 3 }, (_, i) => i + 1));
    expect((await campaign(sending.uuid)).status).toBe(2);

    // The three already with the carrier get their receipts; counters equal a recount.
    await expect
      .poll(
        async () => {
          await engine.flushReceipts();
          return (await messagesOf(sending.uuid)).filter((m) => m.status === 'delivered').length;
        },
        { timeout: 5000 },
      )
      .toBe(3);
    const summary = (await call('GET', `/campaigns/${sending.uuid}/summary`)).json().data;
    expect(summary).toMatchObject({ recipients: PEOPLE.length, delivered: 3, unsent: PEOPLE.length - 3, queued: 0, submitted: 0 });
    const unsent = (await call('GET', `/reporting/${sending.uuid}/unsent?per_page=100`)).json().data;
    expect(unsent).toHaveLength(PEOPLE.length - 3);
    expect(new Set(unsent.map((row: { Reason: string }) => row.Reason))).toEqual(new Set(['stopped']));
    await gateway.close();
  });

  it('lets a batch already with the carrier finish, and unsends what that batch did not hand over', async () => {
    clock.set('2026-06-01T09:00:00Z');
    const sending = await create({ scheduled_send_date: '2026-06-01 12:00:00' });
    // One slow batch of four in flight when the stop comes; the tick may send two such batches.
    const { engine, ledger, gateway } = engineWith({ rateLimitPerSecond: 8, batchSize: 4, delayMs: 300 });
    clock.set('2026-06-01T11:00:00Z');
    const ticking = engine.tick();
    await expect.poll(() => ledger.total, { timeout: 5000 }).toBe(4);
    expect((await call('PUT', `/campaigns/${sending.uuid}/stop`)).statusCode).toBe(200);
    await ticking;
    clock.set('2026-06-01T11:00:01Z');
    await engine.tick();
    expect(ledger.total).toBe(4);
    expect(ledger.duplicates()).toEqual([]);
    const messages = await messagesOf(sending.uuid);
    expect(messages.filter((m) => m.status === 'unsent' && m.reason === 'stopped')).toHaveLength(PEOPLE.length - 4);
    expect(messages.filter((m) => m.status === 'queued')).toEqual([]);
    expect((await campaign(sending.uuid)).status).toBe(2);
    await gateway.close();
  });

  it('fails in doubt what a dead owner was handing over, and unsends the rest', async () => {
    clock.set('2026-06-01T09:00:00Z');
    const sending = await create({ scheduled_send_date: '2026-06-01 13:00:00' });
    const { engine, ledger, store, gateway } = engineWith({ rateLimitPerSecond: 1000, batchSize: 5 });
    clock.set('2026-06-01T12:00:00Z');
    await store.startDue(clock.now());
    // An engine that claimed five and marked them as being handed over, then died.
    const id = Number((await t.database.pool.query(`SELECT id FROM campaigns WHERE uuid = $1`, [sending.uuid])).rows[0].id);
    const claimed = await store.claim(id, 5, 'engine-dead', clock.now(), 30_000, 'fail');
    expect(claimed?.messages).toHaveLength(5);
    expect(await store.markSubmitting(claimed!, clock.now(), 30_000)).toBe(true);
    expect((await call('PUT', `/campaigns/${sending.uuid}/stop`)).statusCode).toBe(200);
    await engine.tick();
    // Its lease still runs: the batch is left to its owner; the rest is unsent.
    expect((await messagesOf(sending.uuid)).filter((m) => m.status === 'unsent')).toHaveLength(PEOPLE.length - 5);
    expect((await campaign(sending.uuid)).status).toBe(1);
    clock.set('2026-06-01T12:01:00Z');
    await engine.tick();
    const messages = await messagesOf(sending.uuid);
    expect(messages.filter((m) => m.status === 'failed' && m.reason === 'in_doubt')).toHaveLength(5);
    expect((await campaign(sending.uuid)).status).toBe(2);
    expect(ledger.total).toBe(0);
    const summary = (await call('GET', `/campaigns/${sending.uuid}/summary`)).json().data;
    expect(summary).toMatchObject({ failed: 5, in_doubt: 5, unsent: PEOPLE.length - 5, queued: 0 });
    await gateway.close();
  });

  it('refuses what it cannot stop (409), and viewers (403)', async () => {
    clock.set('2026-06-01T09:00:00Z');
    const draft = await create({ is_draft: true });
    expect((await call('PUT', `/campaigns/${draft.uuid}/stop`)).json().error.message).toMatch(/draft/);
    const pending = await create();
    expect((await call('PUT', `/campaigns/${pending.uuid}/stop`)).statusCode).toBe(200);
    const again = await call('PUT', `/campaigns/${pending.uuid}/stop`);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toMatch(/already been stopped/);
    // A stopped campaign can no longer be edited, paused or approved.
    expect((await call('PUT', `/campaigns/${pending.uuid}/toggle-paused-status`)).statusCode).toBe(409);
    const viewer = await memberOf('viewer');
    const other = await create();
    expect((await call('PUT', `/campaigns/${other.uuid}/stop`, undefined, viewer.token)).statusCode).toBe(403);
    expect((await call('GET', `/campaigns/${other.uuid}/stop`)).statusCode).toBe(404);
  });
});

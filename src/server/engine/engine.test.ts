import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createSimulatorGateway } from '../gateways/sms/simulator';
import type { SmsGateway } from '../gateways/sms/sms-gateway';
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
let vip: string;

// Batches of one with two lanes: the campaigns here have two recipients, so the lanes race for them.
const options = { tickMs: 1000, batchSize: 1, rateLimitPerSecond: 1000, leaseMs: 30_000, lanes: 2 };

/**
 * An engine over `gateway` (a simulator by default). What the carrier received is counted in a
 * ledger at the gateway's edge — every hand-over, per message uuid — so a message handed over twice
 * shows as a duplicate even where the simulator itself would send it once.
 */
function engineWith<G extends SmsGateway = ReturnType<typeof createSimulatorGateway>>(
  gateway: G = createSimulatorGateway({ latencyMs: 0, failureRate: 0 }) as unknown as G,
  overrides: Partial<typeof options> = {},
  ledger = new GatewayLedger(),
) {
  return {
    gateway,
    ledger,
    engine: createEngine({
      store: createEngineStore(t.database.db),
      gateway: countingGateway(gateway, { ledger }),
      clock,
      options: { ...options, ...overrides },
      urlBase: (domain) => t.services.vanityDomains.urlBase({ domain }),
    }),
  };
}

async function messagesOf(campaignUuid: string) {
  const { rows } = await t.database.pool.query(
    `SELECT m.sequence, m.phone_number, m.status, m.reason, m.body FROM messages m JOIN campaigns c ON c.id = m.campaign_id WHERE c.uuid = $1 ORDER BY m.sequence`,
    [campaignUuid],
  );
  return rows as Array<{ sequence: number; phone_number: string; status: string; reason: string | null; body: string | null }>;
}
const campaign = async (uuid: string) => (await t.request('GET', `/api/2.0/campaigns/${uuid}`, { token: owner.token })).json().data;

beforeAll(async () => {
  t = await createTestApp({}, { clock });
  owner = await t.user();
  template = (await t.request('POST', '/api/2.0/templates/', { token: owner.token, body: { name: 'Hi', body: 'Hi {{first_name}}!', sender: 'Acme' } })).json()
    .data.uuid;
  const group = async (name: string, contacts: Array<{ phone_number: string; custom_fields?: Record<string, string> }>) => {
    const uuid = (await t.request('POST', '/api/2.0/contact-groups/', { token: owner.token, body: { name } })).json().data.uuid;
    await t.request('PUT', `/api/2.0/contact-groups/${uuid}/add-contacts`, { token: owner.token, body: { contacts } });
    return uuid;
  };
  customers = await group('Customers', [
    { phone_number: '07700900301', custom_fields: { first_name: 'Ada' } },
    { phone_number: '07700900302', custom_fields: { first_name: 'Bo' } },
    { phone_number: '07700900303', custom_fields: { first_name: 'Cy' } },
    { phone_number: '07700900304' },
  ]);
  vip = await group('VIP', [{ phone_number: '07700900304' }]);
  const optouts = (await t.request('GET', '/api/2.0/contact-groups/?per_page=100', { token: owner.token }))
    .json()
    .data.find((g: { name: string }) => g.name === 'default_optouts').uuid;
  await t.request('PUT', `/api/2.0/contact-groups/${optouts}/add-contacts`, { token: owner.token, body: { contacts: [{ phone_number: '07700900303' }] } });
});
afterAll(() => t.close());

const create = async (overrides: Record<string, unknown>) => {
  const response = await t.request('POST', '/api/2.0/campaigns/', {
    token: owner.token,
    body: {
      name: 'Engine',
      sender: 'Acme',
      scheduled_send_date: '2026-06-01 10:10:00',
      expiry_date: '2026-06-01 18:00:00',
      included_contact_groups: [customers],
      excluded_contact_groups: [vip],
      template_uuid: template,
      ...overrides,
    },
  });
  expect(response.statusCode).toBe(201);
  return response.json().data.uuid as string;
};

describe('the sending engine', () => {
  it('starts at the send time, writes one message per distinct recipient, sends them rendered, and finishes', async () => {
    clock.set('2026-06-01T09:00:00Z');
    const uuid = await create({});
    const { engine, gateway, ledger } = engineWith();
    await engine.tick();
    expect((await campaign(uuid)).status).toBe(0);

    clock.set('2026-06-01T09:10:00Z');
    await engine.tick();
    // Customers minus VIP (…304) minus default_optouts (…303).
    const messages = await messagesOf(uuid);
    expect(messages.map((m) => [m.sequence, m.phone_number, m.body])).toEqual([
      [1, '447700900301', 'Hi Ada!'],
      [2, '447700900302', 'Hi Bo!'],
    ]);
    expect(messages.every((m) => m.status === 'submitted' || m.status === 'delivered')).toBe(true);
    expect([...gateway.sent.values()].map((m) => [m.to, m.from])).toEqual([
      ['447700900301', 'Acme'],
      ['447700900302', 'Acme'],
    ]);
    expect([ledger.total, ledger.duplicates()]).toEqual([2, []]);
    const shown = await campaign(uuid);
    expect(shown).toMatchObject({ status: 2, started_sending_at: '2026-06-01 10:10:00', finished_sending_at: '2026-06-01 10:10:00' });
    await vi.waitFor(async () => expect((await messagesOf(uuid)).map((m) => m.status)).toEqual(['delivered', 'delivered']));
    const summary = (await t.request('GET', `/api/2.0/campaigns/${uuid}/summary`, { token: owner.token })).json().data;
    expect(summary).toEqual({
      recipients: 2,
      queued: 0,
      submitted: 0,
      delivered: 2,
      failed: 0,
      unsent: 0,
      clicks: 0,
      human_clicks: 0,
      bot_clicks: 0,
      in_doubt: 0,
      opt_outs: 0,
      held_for_quiet_hours: 0,
    });
  });

  it('sends nothing in a pause or while paused by hand, and spreads a throttled campaign over its open time', async () => {
    clock.set('2026-06-01T09:00:00Z');
    const uuid = await create({
      scheduled_send_date: '2026-06-01 11:00:00',
      throttled: true,
      scheduled_finish_date: '2026-06-01 11:02:00',
      pauses: [{ start_at: '2026-06-01 11:00:00', end_at: '2026-06-01 11:01:00' }],
    });
    const { engine } = engineWith();
    clock.set('2026-06-01T10:00:30Z');
    await engine.tick();
    expect((await messagesOf(uuid)).map((m) => m.status)).toEqual(['queued', 'queued']);

    clock.set('2026-06-01T10:01:00Z');
    await t.request('PUT', `/api/2.0/campaigns/${uuid}/toggle-paused-status`, { token: owner.token });
    await engine.tick();
    expect((await messagesOf(uuid)).map((m) => m.status)).toEqual(['queued', 'queued']);
    await t.request('PUT', `/api/2.0/campaigns/${uuid}/toggle-paused-status`, { token: owner.token });

    // Resumed at 10:01:00 with 60 s of open time left: one message now, the other half-way.
    const sent = async () => (await messagesOf(uuid)).filter((m) => m.status !== 'queued').length;
    await engine.tick();
    expect(await sent()).toBe(1);
    clock.set('2026-06-01T10:01:20Z');
    await engine.tick();
    expect(await sent()).toBe(1);
    clock.set('2026-06-01T10:01:30Z');
    await engine.tick();
    expect(await sent()).toBe(2);
  });

  it('at expiry marks queued messages unsent (pending) and submitted ones without a receipt failed (Expired)', async () => {
    clock.set('2026-06-01T09:00:00Z');
    const uuid = await create({ scheduled_send_date: '2026-06-01 12:00:00', expiry_date: '2026-06-01 12:30:00' });
    // One message a second through a gateway whose receipts never come in time.
    const { engine, gateway } = engineWith(createSimulatorGateway({ latencyMs: 3_600_000, failureRate: 0 }), { rateLimitPerSecond: 1 });
    clock.set('2026-06-01T11:29:59Z');
    await engine.tick();
    expect((await messagesOf(uuid)).map((m) => m.status)).toEqual(['submitted', 'queued']);
    clock.set('2026-06-01T11:30:00Z');
    await engine.tick();
    expect((await messagesOf(uuid)).map((m) => [m.status, m.reason])).toEqual([
      ['failed', 'Expired'],
      ['unsent', 'pending'],
    ]);
    expect((await campaign(uuid)).status).toBe(2);
    await gateway.close();
  });

  it('does not send to a number that opted out after sending began: its message is unsent (opted_out)', async () => {
    clock.set('2026-06-01T09:00:00Z');
    const uuid = await create({ scheduled_send_date: '2026-06-01 13:00:00', expiry_date: '2026-06-01 15:00:00' });
    const { engine, gateway } = engineWith(createSimulatorGateway({ latencyMs: 0, failureRate: 0 }), { rateLimitPerSecond: 1 });
    clock.set('2026-06-01T12:00:00Z');
    await engine.tick();
    expect((await messagesOf(uuid)).map((m) => m.status)).toEqual(['delivered', 'queued']);
    // …302 texts STOP (to an earlier campaign) while this one is still going out.
    const optouts = (await t.request('GET', '/api/2.0/contact-groups/?per_page=100', { token: owner.token }))
      .json()
      .data.find((g: { name: string }) => g.name === 'default_optouts').uuid;
    await t.request('PUT', `/api/2.0/contact-groups/${optouts}/add-contacts`, { token: owner.token, body: { contacts: [{ phone_number: '07700900302' }] } });
    try {
      clock.set('2026-06-01T12:00:01Z');
      await engine.tick();
      expect((await messagesOf(uuid)).map((m) => [m.phone_number, m.status, m.reason])).toEqual([
        ['447700900301', 'delivered', null],
        ['447700900302', 'unsent', 'opted_out'],
      ]);
      expect([...gateway.sent.values()].map((m) => m.to)).toEqual(['447700900301']);
      expect((await campaign(uuid)).status).toBe(2);
      const unsent = (await t.request('GET', `/api/2.0/reporting/${uuid}/unsent`, { token: owner.token })).json();
      expect(unsent.data).toEqual([expect.objectContaining({ Mobile: '447700900302', Reason: 'opted_out' })]);
    } finally {
      await t.request('PUT', `/api/2.0/contact-groups/${optouts}/remove-contacts`, { token: owner.token, body: { phone_numbers: ['07700900302'] } });
      await gateway.close();
    }
  });

  it('offers a claimed batch again after its lease, and the gateway sends each message once', async () => {
    clock.set('2026-06-01T09:00:00Z');
    const uuid = await create({ scheduled_send_date: '2026-06-01 13:00:00' });
    const store = createEngineStore(t.database.db);
    clock.set('2026-06-01T12:00:00Z');
    await store.startDue(clock.now());
    const id = (await t.database.pool.query(`SELECT id FROM campaigns WHERE uuid = $1`, [uuid])).rows[0].id;
    // A worker claims a batch and dies before submitting it.
    expect((await store.claim(id, 2, 'dead-worker', clock.now(), 30_000, 'resend'))?.messages).toHaveLength(2);
    const { engine, ledger } = engineWith();
    await engine.tick();
    expect((await messagesOf(uuid)).map((m) => m.status)).toEqual(['queued', 'queued']);
    expect(ledger.total).toBe(0);
    clock.advance(30_001);
    await engine.tick();
    expect((await messagesOf(uuid)).filter((m) => m.status === 'queued')).toEqual([]);
    expect([ledger.total, ledger.duplicates()]).toEqual([2, []]);
    // A second engine (a restart) finds nothing left to hand over.
    await engineWith(undefined, {}, ledger).engine.tick();
    expect(ledger.total).toBe(2);
  });

  it('marks a message the gateway refuses failed with its reason, and offers one whose fate is unknown again', async () => {
    clock.set('2026-06-01T09:00:00Z');
    const uuid = await create({ scheduled_send_date: '2026-06-01 14:00:00' });
    const inner = createSimulatorGateway({ latencyMs: 0, failureRate: 0 });
    let dropped = 0;
    // …301 is refused for good; …302's answer is lost once (a dropped connection), then accepted.
    const flaky: SmsGateway = {
      ...inner,
      async submit(batch) {
        const refused = batch.filter((m) => m.to === '447700900301').map((m) => ({ clientRef: m.clientRef, rejected: 'SMPP 0x0000000B ESME_RINVDSTADR' }));
        const lost = dropped === 0 ? batch.filter((m) => m.to === '447700900302') : [];
        dropped += lost.length;
        const accepted = await inner.submit(batch.filter((m) => m.to !== '447700900301' && !lost.includes(m)));
        return [...refused, ...accepted];
      },
    };
    const { engine } = engineWith(flaky);
    clock.set('2026-06-01T13:00:00Z');
    await engine.tick();
    clock.advance(1000);
    await engine.tick();
    const messages = await messagesOf(uuid);
    expect(messages.map((m) => [m.status, m.reason, m.body])).toEqual([
      ['failed', 'SMPP 0x0000000B ESME_RINVDSTADR', 'Hi Ada!'],
      [expect.stringMatching(/submitted|delivered/), null, 'Hi Bo!'],
    ]);
    expect(dropped).toBe(1);
    expect((await campaign(uuid)).status).toBe(2);
    expect(inner.sent.size).toBe(1);
  });

  it('deletes a sent campaign together with its messages', async () => {
    clock.set('2026-06-01T09:00:00Z');
    const uuid = await create({ scheduled_send_date: '2026-06-01 15:00:00' });
    const { engine } = engineWith();
    clock.set('2026-06-01T14:00:00Z');
    await engine.tick();
    expect((await campaign(uuid)).status).toBe(2);
    const id = (await t.database.pool.query(`SELECT id FROM campaigns WHERE uuid = $1`, [uuid])).rows[0].id;
    expect((await t.request('DELETE', `/api/2.0/campaigns/${uuid}`, { token: owner.token })).statusCode).toBe(204);
    expect((await t.database.pool.query(`SELECT count(*)::int AS n FROM messages WHERE campaign_id = $1`, [id])).rows[0].n).toBe(0);
  });

  it('sends a send-test campaign to its one number with its custom fields', async () => {
    clock.set('2026-06-01T09:00:00Z');
    const response = await t.request('POST', '/api/2.0/campaigns/send-test', {
      token: owner.token,
      body: {
        name: 'Test',
        sender: 'Acme',
        scheduled_send_date: '2026-06-01 10:00:30',
        expiry_date: '2026-06-01 11:00:00',
        template_uuid: template,
        contact_number: '07700900399',
        custom_fields: { first_name: 'Test' },
      },
    });
    const { engine, gateway } = engineWith();
    clock.set('2026-06-01T09:00:30Z');
    await engine.tick();
    expect([...gateway.sent.values()].map((m) => [m.to, m.body])).toEqual([['447700900399', 'Hi Test!']]);
    expect((await campaign(response.json().data.uuid)).status).toBe(2);
  });

  it("sends a keyword's reply through the gateway", async () => {
    await t.request('POST', '/api/2.0/keywords/', { token: owner.token, body: { keyword: 'HELLO', message: 'Hello back!' } });
    await t.request('POST', '/api/2.0/inbound-messages/', { token: owner.token, body: { from: '07700900398', body: 'hello' } });
    // Receipts held back (a minute): what is read here is the hand-over's outcome. A receipt since issue 36
    // makes a reply delivered or undelivered (conversations.test.ts).
    const { engine, gateway } = engineWith(createSimulatorGateway({ latencyMs: 60_000, failureRate: 0 }));
    await engine.tick();
    expect([...gateway.sent.values()].map((m) => [m.to, m.from, m.body])).toEqual([['447700900398', '88440', 'Hello back!']]);
    const { rows } = await t.database.pool.query(`SELECT status FROM outbound_replies`);
    expect(rows).toEqual([{ status: 'submitted' }]);
    await engine.tick();
    expect(gateway.sent.size).toBe(1);
  });

  it('records a reply the gateway refuses as failed with the reason, and sends one whose fate was unknown again', async () => {
    await t.request('POST', '/api/2.0/keywords/', { token: owner.token, body: { keyword: 'INFO', message: 'Open 9 to 5.' } });
    await t.database.pool.query(`UPDATE outbound_replies SET status = 'submitted'`);
    await t.request('POST', '/api/2.0/inbound-messages/', { token: owner.token, body: { from: '07700900397', body: 'info' } });
    await t.request('POST', '/api/2.0/inbound-messages/', { token: owner.token, body: { from: '07700900396', body: 'info' } });
    // Receipts held back, as above: the hand-over's outcomes are read.
    const inner = createSimulatorGateway({ latencyMs: 60_000, failureRate: 0 });
    let lost = 0;
    const flaky: SmsGateway = {
      ...inner,
      async submit(batch) {
        const refused = batch.filter((m) => m.to === '447700900397').map((m) => ({ clientRef: m.clientRef, rejected: 'SMPP 0x0000000B ESME_RINVDSTADR' }));
        const rest = batch.filter((m) => m.to !== '447700900397');
        if (lost === 0 && rest.length > 0) {
          lost += rest.length;
          return refused;
        }
        return [...refused, ...(await inner.submit(rest))];
      },
    };
    const { engine } = engineWith(flaky);
    // One reply a tick here (batches of one): refused, lost, sent again.
    for (let i = 0; i < 3; i++) await engine.tick();
    const { rows } = await t.database.pool.query(
      `SELECT to_number, status, reason, gateway_id IS NOT NULL AS has_id FROM outbound_replies WHERE body = 'Open 9 to 5.' ORDER BY to_number`,
    );
    expect(rows).toEqual([
      { to_number: '447700900396', status: 'submitted', reason: null, has_id: true },
      { to_number: '447700900397', status: 'failed', reason: 'SMPP 0x0000000B ESME_RINVDSTADR', has_id: false },
    ]);
    expect(lost).toBe(1);
    expect(inner.sent.size).toBe(1);
  });

  it('gives every recipient their own tracked short link, which redirects and records the click', async () => {
    clock.set('2026-06-01T09:00:00Z');
    const linked = (
      await t.request('POST', '/api/2.0/templates/', { token: owner.token, body: { name: 'Link', body: 'Shop: ::Shop::', sender: 'Acme' } })
    ).json().data.uuid;
    const domain = (await t.request('GET', '/api/2.0/vanity-domains/', { token: owner.token })).json().data[0].uuid;
    await t.request('POST', '/api/2.0/links/', {
      token: owner.token,
      body: { template_uuid: linked, vanity_domain_uuid: domain, name: 'Shop', destination: 'https://shop.example.com/sale' },
    });
    await create({ template_uuid: linked, scheduled_send_date: '2026-06-01 10:00:05' });
    const { engine, gateway } = engineWith();
    clock.set('2026-06-01T09:00:05Z');
    await engine.tick();
    const bodies = [...gateway.sent.values()].map((m) => m.body);
    expect(bodies).toHaveLength(2);
    const codes = bodies.map((body) => /^Shop: http:\/\/herald\.test\/l\/([0-9A-Za-z]{7})$/.exec(body)?.[1]);
    expect(codes.every((code) => code !== undefined)).toBe(true);
    expect(new Set(codes).size).toBe(2);

    const click = await t.app.inject({
      method: 'GET',
      url: `/l/${codes[0]}`,
      headers: { 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)' },
    });
    expect(click.statusCode).toBe(302);
    expect(click.headers.location).toBe('https://shop.example.com/sale');
    const { rows } = await t.database.pool.query(
      `SELECT m.phone_number, c.user_agent, c.device_type, c.os_version, c.is_bot FROM link_clicks c JOIN short_links s ON s.code = c.code JOIN messages m ON m.id = s.message_id`,
    );
    expect(rows).toEqual([
      {
        phone_number: [...gateway.sent.values()][0]!.to,
        user_agent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)',
        device_type: 'mobile',
        os_version: 'iOS 17.0',
        is_bot: false,
      },
    ]);
    expect((await t.app.inject({ method: 'GET', url: '/l/nope123' })).statusCode).toBe(404);
  });

  it('serves short links on a vanity domain at /{code} on that host only', async () => {
    clock.set('2026-06-01T09:00:00Z');
    const linked = (await t.request('POST', '/api/2.0/templates/', { token: owner.token, body: { name: 'Vanity', body: 'Go ::Go::', sender: 'Acme' } })).json()
      .data.uuid;
    const domain = (await t.request('POST', '/api/2.0/vanity-domains/', { token: owner.token, body: { domain: 'go.acme.test' } })).json().data.uuid;
    await t.request('POST', '/api/2.0/links/', {
      token: owner.token,
      body: { template_uuid: linked, vanity_domain_uuid: domain, name: 'Go', destination: 'https://acme.test/offer' },
    });
    await create({ template_uuid: linked, scheduled_send_date: '2026-06-01 10:00:07' });
    const { engine, gateway } = engineWith();
    clock.set('2026-06-01T09:00:07Z');
    await engine.tick();
    const code = /^Go https:\/\/go\.acme\.test\/([0-9A-Za-z]{7})$/.exec([...gateway.sent.values()][0]!.body)?.[1];
    expect(code).toBeDefined();
    const click = await t.app.inject({ method: 'GET', url: `/${code}`, headers: { host: 'go.acme.test', 'user-agent': 'WhatsApp/2.23.20.0 A' } });
    expect(click.statusCode).toBe(302);
    expect(click.headers.location).toBe('https://acme.test/offer');
    const { rows } = await t.database.pool.query(`SELECT is_bot, device_type FROM link_clicks WHERE code = $1`, [code]);
    expect(rows).toEqual([{ is_bot: true, device_type: 'bot' }]);
    expect((await t.app.inject({ method: 'GET', url: `/${code}`, headers: { host: 'other.example' } })).statusCode).toBe(404);
  });
});

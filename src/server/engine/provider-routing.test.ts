import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSimulatorGateway } from '../gateways/sms/simulator';
import { alertAccountError } from '../gateways/sms/routing/account-alerts';
import { createTeamRouter } from '../gateways/sms/routing/team-router';
import { TwilioFake } from '../testing/provider-fakes/twilio-fake';
import { VonageFake } from '../testing/provider-fakes/vonage-fake';
import { countingGateway, GatewayLedger } from '../testing/counting-gateway';
import { createTestApp, createTestClock, type TestApp, type TestUser } from '../testing/test-app';
import { createEngine } from './engine';
import { createEngineStore } from './store/postgres-store';
import { createSmppGateway, parseSmppUrl } from '../gateways/sms/smpp/smpp-gateway';
import { SmppPeer } from '../testing/smpp-peer';

// A team's campaigns sent through its own connections (issue 34): the router over the team's
// routes, with the engine, the database and two providers' fakes on loopback. What each provider
// received is counted at the fake (its `accepted` list, built from the requests it really took), so
// a message sent twice — through both, or twice through one — shows as a duplicate there.
//
// Seen red: with the router trying a recipient error on the next connection (errorClass ignored),
// "never tries another connection after a recipient error" failed (Vonage received 447700900313);
// with in-doubt messages treated as never sent, "a message in doubt…" failed (Vonage received the
// silent request's recipient as well as Twilio); with the hour's mark left out of the account alert
// (alertAccountError), the admins got three e-mails for three refusals.

const clock = createTestClock('2026-06-01T09:00:00Z');
const TWILIO = { account_sid: 'AC0123456789abcdef0123456789abcdef', auth_token: 'twilio-auth-token-0123456789' };
const VONAGE = { api_key: 'vonage-key', api_secret: 'vonage-secret-0123', signature_secret: 'vonage-signature-secret-0123' };

let t: TestApp;
let owner: TestUser;
let other: TestUser;
let twilio: TwilioFake;
let vonage: VonageFake;
let twilioUuid: string;
let vonageUuid: string;
let template: string;

const number = (i: number) => `447700900${String(i).padStart(3, '0')}`;

async function group(user: TestUser, name: string, numbers: string[]): Promise<string> {
  const uuid = (await t.request('POST', '/api/2.0/contact-groups/', { token: user.token, body: { name } })).json().data.uuid;
  const contacts = numbers.map((phone_number) => ({ phone_number }));
  expect((await t.request('PUT', `/api/2.0/contact-groups/${uuid}/add-contacts`, { token: user.token, body: { contacts } })).statusCode).toBe(200);
  return uuid;
}

async function campaignTo(user: TestUser, templateUuid: string, numbers: string[]): Promise<string> {
  const included = await group(user, `To ${numbers[0]} (${numbers.length})`, numbers);
  const response = await t.request('POST', '/api/2.0/campaigns/', {
    token: user.token,
    body: {
      name: 'Routed',
      sender: 'Acme',
      scheduled_send_date: '2026-06-01 10:00:00',
      expiry_date: '2026-06-01 18:00:00',
      included_contact_groups: [included],
      excluded_contact_groups: [],
      template_uuid: templateUuid,
    },
  });
  expect(response.statusCode).toBe(201);
  return response.json().data.uuid as string;
}

type MessageRow = { phone_number: string; status: string; reason: string | null; gateway_id: string | null; connection_id: string | null };
async function messagesOf(campaignUuid: string): Promise<MessageRow[]> {
  const { rows } = await t.database.pool.query<MessageRow>(
    `SELECT m.phone_number, m.status, m.reason, m.gateway_id, m.connection_id::text FROM messages m JOIN campaigns c ON c.id = m.campaign_id
      WHERE c.uuid = $1 ORDER BY m.sequence`,
    [campaignUuid],
  );
  return rows;
}

const idOf = async (uuid: string) => String((await t.database.pool.query('SELECT id FROM sms_connections WHERE uuid = $1', [uuid])).rows[0].id);

async function setRoutes(user: TestUser, rules: unknown[]): Promise<void> {
  await t.database.pool.query(
    `INSERT INTO sms_routes (team_id, rules, updated_at) SELECT id, $2, now() FROM teams WHERE uuid = $1
     ON CONFLICT (team_id) DO UPDATE SET rules = EXCLUDED.rules`,
    [user.teamUuid, JSON.stringify(rules)],
  );
}

/** The admins' e-mails about account errors, as the router's `alert` queued them (workers.ts does the same). */
let alerts: Array<Promise<boolean>> = [];

/** An engine whose teams with connections send through them; the installation's gateway counted in `ledger`. */
function engineWithRouter(inDoubt: 'fail' | 'resend' = 'fail') {
  const ledger = new GatewayLedger();
  const installation = countingGateway(createSimulatorGateway({ latencyMs: 0, failureRate: 0 }), { ledger });
  const router = createTeamRouter({
    db: t.database.db,
    secrets: t.services.secrets,
    publicUrl: t.config.publicUrl,
    installation,
    inDoubt,
    timeoutMs: 500,
    optOut: (teamId, phoneNumbers) =>
      t.database.db.transaction(async (tx) => {
        const listId = await t.services.suppressions.listOf(teamId, tx);
        await t.services.suppressions.add(tx, listId, { teamId, source: 'provider', userId: null }, phoneNumbers);
      }),
    breaker: { threshold: 3, openMs: 60_000, maxOpenMs: 60_000 },
    loaderTtlMs: 0,
    alert: (connection, message) => void alerts.push(alertAccountError(t.database.db, connection, message, new Date(), t.config.publicUrl)),
    smpp: {
      bind: (url) => createSmppGateway({ ...parseSmppUrl(url), log: () => undefined }),
      receipts: (receipts) => engine.receive(receipts),
      inbound: (teamId, message) =>
        t.services.inbound.receiveDelivery({ from: message.from, body: message.body, source: 'gateway', teamId, key: message.key }, () => undefined),
    },
  });
  const engine = createEngine({
    store: createEngineStore(t.database.db),
    gateway: installation,
    clock,
    options: { tickMs: 1000, batchSize: 100, rateLimitPerSecond: 10_000, leaseMs: 30_000, lanes: 2 },
    urlBase: (domain) => t.services.vanityDomains.urlBase({ domain }),
    routing: router,
  });
  return { engine, router, ledger };
}

/** Ticks until the campaign has nothing queued (at most `ticks`). */
async function sendAll(engine: ReturnType<typeof createEngine>, campaignUuid: string, ticks = 20): Promise<MessageRow[]> {
  clock.set('2026-06-01T09:00:00Z');
  for (let i = 0; i < ticks; i++) {
    await engine.tick();
    const messages = await messagesOf(campaignUuid);
    if (messages.length > 0 && messages.every((m) => m.status !== 'queued')) return messages;
  }
  return messagesOf(campaignUuid);
}

const received = () => [...twilio.accepted.map((m) => m.to.replace('+', '')), ...vonage.accepted.map((m) => m.to)];

beforeAll(async () => {
  twilio = await new TwilioFake(TWILIO).start();
  vonage = await new VonageFake(VONAGE).start();
  t = await createTestApp({}, { clock });
  owner = await t.user();
  other = await t.user();
  const connect = async (body: Record<string, unknown>) => {
    const response = await t.request('POST', '/api/2.0/sms-connections/', { token: owner.token, body });
    expect(response.statusCode).toBe(201);
    return response.json().data.uuid as string;
  };
  twilioUuid = await connect({
    name: 'Twilio',
    provider: 'twilio',
    base_url: twilio.baseUrl,
    credentials: TWILIO,
    senders: ['+447700900001'],
    max_per_second: 1000,
  });
  vonageUuid = await connect({ name: 'Vonage', provider: 'vonage', base_url: vonage.baseUrl, credentials: VONAGE, senders: ['Acme'], max_per_second: 1000 });
  template = (await t.request('POST', '/api/2.0/templates/', { token: owner.token, body: { name: 'Hi', body: 'Hi there!', sender: 'Acme' } })).json().data.uuid;
});
afterAll(async () => {
  await t.close();
  await twilio.stop();
  await vonage.stop();
});
beforeEach(async () => {
  twilio.accepted.length = 0;
  vonage.accepted.length = 0;
  // Each test starts with closed circuits (a circuit one opened is shared through this table).
  await t.database.pool.query('DELETE FROM sms_connection_states');
  await setRoutes(owner, [{ countries: ['GB'], connections: [twilioUuid, vonageUuid], sender: null }]);
});

describe('sending through a team’s connections', () => {
  it('sends the United Kingdom through Twilio, each message recorded with its connection and Twilio’s id', async () => {
    const { engine, router, ledger } = engineWithRouter();
    const numbers = Array.from({ length: 30 }, (_, i) => number(100 + i));
    const uuid = await campaignTo(owner, template, numbers);
    const messages = await sendAll(engine, uuid);
    await router.stop();
    const twilioId = await idOf(twilioUuid);
    expect(messages.map((m) => m.status)).toEqual(numbers.map(() => 'submitted'));
    expect(messages.every((m) => m.connection_id === twilioId && m.gateway_id?.startsWith(`c${twilioId}:SM`))).toBe(true);
    expect(twilio.accepted.map((m) => m.to).sort()).toEqual(numbers.map((n) => `+${n}`));
    expect(
      twilio.accepted.every((m) => m.from === '+447700900001' && m.body === 'Hi there!' && m.callbackUrl?.endsWith(`/sms-connections/${twilioUuid}/status`)),
    ).toBe(true);
    expect(vonage.accepted).toEqual([]);
    expect(ledger.total).toBe(0);
  });

  it('fails over to Vonage when Twilio answers 503 or 429, every recipient received exactly once', async () => {
    const { engine, router } = engineWithRouter();
    const numbers = Array.from({ length: 40 }, (_, i) => number(200 + i));
    const uuid = await campaignTo(owner, template, numbers);
    twilio.failNext(2, { status: 503, body: { code: 20500, message: 'Service unavailable', status: 503 } });
    twilio.throttleNext(1, 1);
    const messages = await sendAll(engine, uuid);
    await router.stop();
    expect(messages.every((m) => m.status === 'submitted')).toBe(true);
    const all = received();
    expect(all.sort()).toEqual([...numbers].sort());
    expect(new Set(all).size).toBe(numbers.length);
    expect(vonage.accepted.length).toBeGreaterThanOrEqual(3);
    const vonageId = await idOf(vonageUuid);
    const throughVonage = messages.filter((m) => m.connection_id === vonageId);
    expect(throughVonage.map((m) => m.phone_number).sort()).toEqual(vonage.accepted.map((m) => m.to).sort());
  });

  it('never tries another connection after a recipient error, and records a Twilio opt-out as the team’s', async () => {
    const { engine, router } = engineWithRouter();
    const optedOut = number(313);
    twilio.optedOut.add(`+${optedOut}`);
    const uuid = await campaignTo(owner, template, [number(312), optedOut]);
    const messages = await sendAll(engine, uuid);
    await router.stop();
    twilio.optedOut.clear();
    expect(messages.find((m) => m.phone_number === optedOut)).toMatchObject({ status: 'failed', reason: '21610', connection_id: await idOf(twilioUuid) });
    expect(vonage.accepted).toEqual([]);
    const { rows } = await t.database.pool.query(
      'SELECT tm.uuid::text AS team, e.source, e.kind FROM opt_out_events e JOIN teams tm ON tm.id = e.team_id WHERE e.phone_number = $1',
      [optedOut],
    );
    expect(rows).toEqual([{ team: owner.teamUuid, source: 'provider', kind: 'opt_out' }]);
  });

  it('a message in doubt (Twilio took the request and never answered) is failed in_doubt and never sent elsewhere', async () => {
    const { engine, router } = engineWithRouter('fail');
    const numbers = [number(401)];
    const uuid = await campaignTo(owner, template, numbers);
    twilio.silentNext(1);
    const messages = await sendAll(engine, uuid);
    await router.stop();
    expect(messages).toMatchObject([{ status: 'failed', reason: 'in_doubt' }]);
    expect(vonage.accepted).toEqual([]);
    expect(twilio.requests.filter((r) => r.body.includes(numbers[0]!)).length).toBe(1);
  });

  it('a country no rule covers fails with no_route; a team without connections sends through SMS_GATEWAY', async () => {
    const { engine, router, ledger } = engineWithRouter();
    const uuid = await campaignTo(owner, template, ['15005550006']);
    expect(await sendAll(engine, uuid)).toMatchObject([{ status: 'failed', reason: 'no_route', connection_id: null }]);
    const otherTemplate = (await t.request('POST', '/api/2.0/templates/', { token: other.token, body: { name: 'Hi', body: 'Hello', sender: 'Other' } })).json()
      .data.uuid;
    const theirs = await campaignTo(other, otherTemplate, [number(501)]);
    expect((await sendAll(engine, theirs)).map((m) => [m.connection_id, m.status === 'submitted' || m.status === 'delivered'])).toEqual([[null, true]]);
    await router.stop();
    expect(ledger.total).toBe(1);
    expect(received()).toEqual([]);
  });

  it('under SMS_IN_DOUBT=resend, a message in doubt is offered once more, never a third time', async () => {
    const { engine, router } = engineWithRouter('resend');
    const [once, twice] = [number(601), number(602)];
    const first = await campaignTo(owner, template, [once]);
    twilio.silentNext(1);
    expect(await sendAll(engine, first)).toMatchObject([{ status: 'submitted' }]);
    const second = await campaignTo(owner, template, [twice]);
    twilio.silentNext(2);
    expect(await sendAll(engine, second)).toMatchObject([{ status: 'failed', reason: 'in_doubt' }]);
    await router.stop();
    const requestsTo = (n: string) => twilio.requests.filter((r) => new URLSearchParams(r.body).get('To') === `+${n}`).length;
    expect([requestsTo(once), requestsTo(twice)]).toEqual([2, 2]);
    expect(vonage.accepted).toEqual([]);
  });

  it('opens the circuit of a connection that is down: later messages go straight to Vonage, and the state says why', async () => {
    const { engine, router } = engineWithRouter();
    await twilio.down();
    try {
      const numbers = Array.from({ length: 12 }, (_, i) => number(700 + i));
      const uuid = await campaignTo(owner, template, numbers);
      const messages = await sendAll(engine, uuid);
      expect(messages.every((m) => m.status === 'submitted')).toBe(true);
      expect(vonage.accepted.map((m) => m.to).sort()).toEqual(numbers);
    } finally {
      await router.stop();
      await twilio.up();
    }
    const { rows } = await t.database.pool.query(
      `SELECT s.circuit, s.errors_today, s.failovers_today, s.last_error IS NOT NULL AS has_error FROM sms_connection_states s
         JOIN sms_connections c ON c.id = s.connection_id WHERE c.uuid = $1`,
      [twilioUuid],
    );
    expect(rows[0]).toMatchObject({ circuit: 'open', has_error: true });
    // The circuit opened after three failed requests; the messages of those went on to Vonage.
    expect(rows[0].errors_today).toBeGreaterThanOrEqual(3);
    expect(rows[0].failovers_today).toBeGreaterThanOrEqual(3);
  });

  it('sends a keyword reply of a team with connections through them', async () => {
    await setRoutes(owner, [{ countries: ['*'], connections: [twilioUuid], sender: null }]);
    const { engine, router } = engineWithRouter();
    await t.database.pool.query(
      `INSERT INTO outbound_replies (team_id, to_number, sender, body) SELECT id, '447700900801', 'Acme', 'Welcome!' FROM teams WHERE uuid = $1`,
      [owner.teamUuid],
    );
    clock.set('2026-06-01T09:00:00Z');
    await engine.tick();
    await router.stop();
    expect(twilio.accepted.map((m) => [m.to, m.body])).toEqual([['+447700900801', 'Welcome!']]);
    const { rows } = await t.database.pool.query(`SELECT status, connection_id::text, gateway_id FROM outbound_replies WHERE to_number = '447700900801'`);
    expect(rows).toEqual([{ status: 'submitted', connection_id: await idOf(twilioUuid), gateway_id: `c${await idOf(twilioUuid)}:${twilio.accepted[0]!.id}` }]);
  });

  it('fails over when Twilio refuses the account, and e-mails the team’s admins once', async () => {
    const { engine, router } = engineWithRouter();
    alerts = [];
    const numbers = Array.from({ length: 6 }, (_, i) => number(900 + i));
    const uuid = await campaignTo(owner, template, numbers);
    // Three refusals in a row (401, Twilio 20003): each request's message goes on to Vonage.
    twilio.failNext(3, { status: 401, body: { code: 20003, message: 'Authenticate', status: 401 } });
    const messages = await sendAll(engine, uuid);
    await router.stop();
    expect(messages.every((m) => m.status === 'submitted')).toBe(true);
    expect(received().sort()).toEqual(numbers);
    // One of the three (whichever commits first) e-mails; the others find the hour's mark.
    expect((await Promise.all(alerts)).filter(Boolean)).toHaveLength(1);
    expect(alerts).toHaveLength(3);
    const { rows } = await t.database.pool.query(`SELECT e.to_address, e.subject FROM account_emails e WHERE e.subject LIKE 'SMS connection%' ORDER BY e.id`);
    expect(rows).toEqual([{ to_address: owner.email, subject: 'SMS connection "Twilio": the provider refused the account' }]);
  });

  it('routes through an SMPP connection of the team: its own bind, its receipts settle, its inbound STOP is the team’s', async () => {
    const peer = await SmppPeer.start();
    peer.autoReceipt = 'DELIVRD';
    const { engine, router } = engineWithRouter();
    try {
      const bind = (
        await t.request('POST', '/api/2.0/sms-connections/', {
          token: owner.token,
          body: { name: 'Carrier', provider: 'smpp', credentials: { url: peer.url({ window: 5 }) }, senders: ['Acme'] },
        })
      ).json().data.uuid as string;
      await setRoutes(owner, [{ countries: ['GB'], connections: [twilioUuid, bind], sender: null }]);
      await twilio.down();
      const numbers = Array.from({ length: 8 }, (_, i) => number(950 + i));
      const uuid = await campaignTo(owner, template, numbers);
      clock.set('2026-06-01T09:00:00Z');
      // The bind opens as the team first sends through it: ticks until every message is settled by its
      // receipt. The clock moves a second a tick: a receipt that raced its hand-over's record waits in
      // early_receipts and is applied by a later tick (after 5 seconds), as in production.
      await vi.waitFor(
        async () => {
          clock.advance(1000);
          await engine.tick();
          expect((await messagesOf(uuid)).map((m) => m.status)).toEqual(numbers.map(() => 'delivered'));
        },
        { timeout: 20_000, interval: 50 },
      );
      const bindId = await idOf(bind);
      expect((await messagesOf(uuid)).every((m) => m.connection_id === bindId && m.gateway_id?.startsWith(`c${bindId}:`))).toBe(true);
      expect(
        peer
          .accepted()
          .map((submit) => submit.destinationAddr)
          .sort(),
      ).toEqual(numbers);
      expect(received()).toEqual([]);
      // A STOP from a handset over that bind opts the number out in this team.
      peer.sendMo({ from: numbers[0]!, to: 'Acme', body: 'STOP' });
      await vi.waitFor(async () => {
        const { rows } = await t.database.pool.query(
          `SELECT tm.uuid::text AS team, e.source FROM opt_out_events e JOIN teams tm ON tm.id = e.team_id WHERE e.phone_number = $1`,
          [numbers[0]],
        );
        expect(rows).toEqual([{ team: owner.teamUuid, source: 'keyword' }]);
      });
    } finally {
      await router.stop();
      await twilio.up();
      await peer.close();
    }
  });
});

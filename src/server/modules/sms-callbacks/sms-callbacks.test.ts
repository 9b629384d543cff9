/**
 * The providers' callbacks (issue 34, points 3 and 6): each provider's fake signs and posts its
 * status callbacks and inbound messages over a real socket to the connection's `status_callback_url`
 * and `inbound_url`, built from PUBLIC_URL (the app listens on it). For each of the six providers:
 * - a signed delivered status settles its message (the campaign's counters move), a failed one
 *   keeps the provider's code as its reason;
 * - a forged one (wrong key or token, tampered body, no signature) is 403 in the house shape and
 *   changes nothing;
 * - a repeated one, an earlier one after the final (an intermediate status after delivered) and a
 *   contradicting one (failed after delivered) change nothing;
 * - a correctly signed callback at connection A naming a message of connection B (same provider
 *   account, another team) changes nothing: gateway ids carry the connection.
 * Inbound: Twilio is answered with empty TwiML and a redelivery is stored once; STOP at Vonage's
 * inbound URL (by GET, as Vonage can be set to call) opts the number out in that connection's team
 * only; a JSON provider's (Telnyx, Sinch) message reaches its team; a status that reaches the
 * inbound URL (Telnyx, Twilio) settles its message and is never stored as a message from a handset. An opted-out status (Vonage
 * err-code 9) records an opt-out with source `provider`. Every callback is counted in
 * herald_provider_callbacks_total by connection and result, read from /metrics. The routes are not
 * limited per address (a provider's burst would be answered 429 and its statuses lost).
 *
 * Seen red, once each: with `verify` skipped in the service (`verified = … || true`), the six
 * forged cases answered 200, and the metrics case and the four inbound cases (forged ones 403)
 * failed; with providerGatewayId giving the provider's id alone (no `c<connection>:`), the six
 * cross-connection cases settled B's message; with the receipts written by a plain
 * `UPDATE messages SET status … WHERE gateway_id = …` instead of the receipt store, the
 * delivered-then-earlier and failed-then-delivered cases of all six providers, the early receipt
 * and the client-ref cases failed; with `teamId: null` for inbound messages, the Vonage STOP opted
 * the number out in both teams (both hold it) and the other inbound messages were stored for no team;
 * with the `notRateLimited` exemption in http/auth.ts disabled, the burst was answered 429.
 */
import { randomUUID } from 'node:crypto';
import crypto from 'node:crypto';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProviderName } from '../../gateways/sms/providers/provider';
import { providerGatewayId } from '../../gateways/sms/routing/provider-ids';
import { postCallback } from '../../testing/provider-fakes/fake-server';
import { InfobipFake } from '../../testing/provider-fakes/infobip-fake';
import { PlivoFake } from '../../testing/provider-fakes/plivo-fake';
import { SinchFake } from '../../testing/provider-fakes/sinch-fake';
import { TelnyxFake } from '../../testing/provider-fakes/telnyx-fake';
import { TwilioFake } from '../../testing/provider-fakes/twilio-fake';
import { VonageFake } from '../../testing/provider-fakes/vonage-fake';
import { createTestApp, type TestApp, type TestUser } from '../../testing/test-app';
import { ADAPTERS } from '../sms-connections/sms-connections.service';
import { EMPTY_TWIML } from './sms-callbacks.service';

const API = '/api/2.0';
const METRICS_TOKEN = 'metrics-token-callbacks-0123456789';
const SENDER = '+447700900001';

/** A port free now, for the app to listen on at PUBLIC_URL (the URL the providers are given and sign). */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** What a test does with one provider's fake: start it, post a status for one of its messages (signed, or forged), and the code it reports. */
type Accepted = { id: string; callbackUrl?: string | undefined };
type Driver = {
  provider: ProviderName;
  credentials: Record<string, string>;
  baseUrl(): string;
  start(): Promise<unknown>;
  stop(): Promise<void>;
  accepted(): Accepted[];
  delivered(id: string): Promise<number>;
  /** A failure with the provider's code `reason` (as Herald keeps it). */
  failed(id: string): Promise<number>;
  reason: string;
  /** An intermediate status (sent, buffered, dispatched…). */
  intermediate(id: string): Promise<number>;
  /** Delivered, but forged in each way the fake knows: each is Herald's answer. */
  forged(id: string): Promise<number[]>;
};

const twilio = new TwilioFake({ account_sid: 'AC0123456789abcdef0123456789abcdef', auth_token: 'twilio-token-0123456789' });
const vonage = new VonageFake({ api_key: 'vonage-key-1', api_secret: 'vonage-secret-0123456', signature_secret: 'vonage-signature-0123456' });
const infobip = new InfobipFake({ api_key: 'infobip-key-0123456789' });
const plivo = new PlivoFake('MAFAKEAUTHID0000000', 'plivo-token-0123456789');
const telnyx = new TelnyxFake('KEYtelnyx-0123456789');
const sinch = new SinchFake({ service_plan_id: 'plan0123456789', api_token: 'sinch-token-0123456789', webhook_secret: 'sinch-secret-0123456789' });

const DRIVERS: Driver[] = [
  {
    provider: 'twilio',
    credentials: twilio.account,
    baseUrl: () => twilio.baseUrl,
    start: () => twilio.start(),
    stop: () => twilio.stop(),
    accepted: () => twilio.accepted,
    delivered: (id) => twilio.deliver(id, 'delivered'),
    failed: (id) => twilio.deliver(id, 'undelivered', { errorCode: '30003' }),
    reason: '30003',
    intermediate: (id) => twilio.deliver(id, 'sent'),
    forged: async (id) => [await twilio.deliver(id, 'delivered', { forged: true })],
  },
  {
    provider: 'vonage',
    credentials: vonage.account,
    baseUrl: () => vonage.baseUrl,
    start: () => vonage.start(),
    stop: () => vonage.stop(),
    accepted: () => vonage.accepted,
    delivered: (id) => vonage.deliver(id, 'delivered'),
    failed: (id) => vonage.deliver(id, 'failed', { errCode: '6' }),
    reason: 'err-code 6',
    intermediate: (id) => vonage.deliver(id, 'buffered'),
    forged: async (id) => [
      await vonage.deliver(id, 'delivered', { forged: true }),
      await vonage.deliver(id, 'delivered', { unsigned: true }),
      await vonage.deliver(id, 'delivered', { stale: true }),
    ],
  },
  {
    provider: 'infobip',
    credentials: infobip.account,
    baseUrl: () => infobip.baseUrl,
    start: () => infobip.start(),
    stop: () => infobip.stop(),
    accepted: () => infobip.accepted,
    delivered: (id) => infobip.deliver(id, 'DELIVERED_TO_HANDSET'),
    failed: (id) => infobip.deliver(id, 'UNDELIVERABLE_NOT_DELIVERED', { error: { id: 1, name: 'EC_UNKNOWN_SUBSCRIBER', permanent: true } }),
    reason: 'EC_UNKNOWN_SUBSCRIBER',
    intermediate: (id) => infobip.deliver(id, 'DELIVERED_TO_OPERATOR'),
    forged: async (id) => [
      await infobip.deliver(id, 'DELIVERED_TO_HANDSET', { token: 'forged-token' }),
      await infobip.deliver(id, 'DELIVERED_TO_HANDSET', { token: null }),
    ],
  },
  {
    provider: 'plivo',
    credentials: { auth_id: plivo.authId, auth_token: plivo.authToken },
    baseUrl: () => plivo.baseUrl,
    start: () => plivo.start(),
    stop: () => plivo.stop(),
    accepted: () => plivo.accepted,
    delivered: (id) => plivo.deliver(id, 'delivered'),
    failed: (id) => plivo.deliver(id, 'undelivered', { errorCode: '50' }),
    reason: '50',
    intermediate: (id) => plivo.deliver(id, 'sent'),
    forged: async (id) => [await plivo.deliver(id, 'delivered', { token: 'not-the-token' }), await plivo.deliver(id, 'delivered', { unsigned: true })],
  },
  {
    provider: 'telnyx',
    credentials: { api_key: telnyx.apiKey, public_key: telnyx.publicKeyBase64 },
    baseUrl: () => telnyx.baseUrl,
    start: () => telnyx.start(),
    stop: () => telnyx.stop(),
    accepted: () => telnyx.accepted,
    delivered: (id) => telnyx.deliver(id, 'delivered'),
    failed: (id) => telnyx.deliver(id, 'delivery_failed', { errorCode: '40008' }),
    reason: '40008',
    intermediate: (id) => telnyx.deliver(id, 'sent'),
    forged: async (id) => [
      await telnyx.deliver(id, 'delivered', { privateKey: crypto.generateKeyPairSync('ed25519').privateKey }),
      await telnyx.deliver(id, 'delivered', { unsigned: true }),
      await telnyx.deliver(id, 'delivered', { timestamp: Math.floor(Date.now() / 1000) - 3600 }),
    ],
  },
  {
    provider: 'sinch',
    credentials: sinch.account,
    baseUrl: () => sinch.baseUrl,
    start: () => sinch.start(),
    stop: () => sinch.stop(),
    accepted: () => sinch.accepted,
    delivered: (id) => sinch.deliver(id, 'Delivered'),
    failed: (id) => sinch.deliver(id, 'Failed'),
    reason: '402',
    intermediate: (id) => sinch.deliver(id, 'Dispatched'),
    forged: async (id) => [
      await sinch.deliver(id, 'Delivered', { secret: 'not-the-secret' }),
      await sinch.deliver(id, 'Failed', { tamper: true }),
      await sinch.deliver(id, 'Delivered', { unsigned: true }),
    ],
  },
];

let t: TestApp;
let publicUrl: string;
let alpha: TestUser;
let bravo: TestUser;
let alphaTeam: number;
let bravoTeam: number;
let sequence = 0;

async function sql<Row = Record<string, unknown>>(text: string, values: unknown[] = []): Promise<Row[]> {
  return (await t.database.pool.query(text, values)).rows as Row[];
}
/** The `id` of a statement's first row. */
const idOf = async (text: string, values: unknown[]) => (await sql<{ id: number }>(text, values))[0]!.id;

beforeAll(async () => {
  const port = await freePort();
  publicUrl = `http://127.0.0.1:${port}`;
  t = await createTestApp({ PUBLIC_URL: publicUrl, METRICS_TOKEN, RATE_LIMIT_PER_MINUTE: '100000' });
  await t.app.listen({ port, host: '127.0.0.1' });
  alpha = await t.user({ team: 'Alpha Callbacks' });
  bravo = await t.user({ team: 'Bravo Callbacks' });
  alphaTeam = await idOf('SELECT id::int AS id FROM teams WHERE uuid = $1', [alpha.teamUuid]);
  bravoTeam = await idOf('SELECT id::int AS id FROM teams WHERE uuid = $1', [bravo.teamUuid]);
  for (const driver of DRIVERS) await driver.start();
});
afterAll(async () => {
  for (const driver of DRIVERS) await driver.stop();
  await t.close();
});

type Connection = { uuid: string; id: number; status_callback_url: string; inbound_url: string; credentials: Record<string, string> };

async function connect(user: TestUser, driver: Driver, overrides: Record<string, unknown> = {}): Promise<Connection> {
  const response = await t.request('POST', `${API}/sms-connections/`, {
    token: user.token,
    body: {
      name: `${driver.provider} ${randomUUID().slice(0, 6)}`,
      provider: driver.provider,
      base_url: driver.baseUrl(),
      credentials: driver.credentials,
      senders: [SENDER],
      max_per_second: 50,
      ...overrides,
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  const data = response.json().data as Connection;
  const id = await idOf('SELECT id::int AS id FROM sms_connections WHERE uuid = $1', [data.uuid]);
  return { ...data, id, credentials: driver.credentials };
}

/** A sending campaign of the team with no message yet. */
async function campaignOf(teamId: number): Promise<number> {
  const templateId = await idOf(`INSERT INTO templates (team_id, name, body, sender) VALUES ($1, 'T', 'Hi', 'Herald') RETURNING id::int AS id`, [teamId]);
  return idOf(
    `INSERT INTO campaigns (team_id, template_id, name, sender, scheduled_send_date, expiry_date, status, message_count, submitted_count)
     VALUES ($1, $2, 'Callbacks', 'Herald', now(), now() + interval '1 day', 1, 0, 0) RETURNING id::int AS id`,
    [teamId, templateId],
  );
}

/**
 * One message handed to the provider's fake through the connection's adapter (as the router will),
 * with the connection's status URL, then recorded as the engine records a submission: `submitted`,
 * its gateway id `c<connection id>:<provider id>`, the connection that carried it.
 */
async function sent(connection: Connection, driver: Driver, campaignId: number, phone = `4477009${String(10000 + ++sequence).slice(-5)}`) {
  const uuid = randomUUID();
  const [outcome] = await ADAPTERS[driver.provider].send(
    { baseUrl: driver.baseUrl(), credentials: connection.credentials, statusCallbackUrl: connection.status_callback_url, timeoutMs: 5000 },
    [{ clientRef: uuid, to: `+${phone}`, from: SENDER, body: 'Hello from Herald' }],
  );
  if (outcome?.kind !== 'accepted') throw new Error(`${driver.provider} did not accept: ${JSON.stringify(outcome)}`);
  await sql(
    `INSERT INTO messages (uuid, campaign_id, sequence, phone_number, status, gateway_id, connection_id, submitted_at)
     VALUES ($1, $2, $3, $4, 'submitted', $5, $6, now())`,
    [uuid, campaignId, ++sequence, phone, providerGatewayId(connection.id, outcome.providerId), connection.id],
  );
  await sql('UPDATE campaigns SET message_count = message_count + 1, submitted_count = submitted_count + 1 WHERE id = $1', [campaignId]);
  return { uuid, providerId: outcome.providerId, phone };
}

async function messageOf(uuid: string) {
  const [row] = await sql<{ status: string; reason: string | null }>('SELECT status, reason FROM messages WHERE uuid = $1', [uuid]);
  return row!;
}

async function countersOf(campaignId: number) {
  const [row] = await sql<{ submitted: number; delivered: number; failed: number }>(
    'SELECT submitted_count AS submitted, delivered_count AS delivered, failed_count AS failed FROM campaigns WHERE id = $1',
    [campaignId],
  );
  return row!;
}

/** Everything a callback could change, for "nothing changed" checks. */
async function everything() {
  const [row] = await sql(
    `SELECT (SELECT json_agg(json_build_object('uuid', uuid, 'status', status, 'reason', reason) ORDER BY id) FROM messages) AS messages,
            (SELECT json_agg(json_build_object('id', id, 'submitted', submitted_count, 'delivered', delivered_count, 'failed', failed_count) ORDER BY id) FROM campaigns) AS campaigns,
            (SELECT count(*)::int FROM early_receipts) AS early, (SELECT count(*)::int FROM inbound_messages) AS inbound,
            (SELECT count(*)::int FROM opt_out_events) AS opt_outs`,
  );
  return row!;
}

async function scrape(): Promise<Map<string, number>> {
  const response = await fetch(`${publicUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  expect(response.status).toBe(200);
  const values = new Map<string, number>();
  for (const line of (await response.text()).split('\n')) {
    if (!line.startsWith('herald_provider_callbacks_total{')) continue;
    const at = line.lastIndexOf(' ');
    values.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return values;
}
const counted = (values: Map<string, number>, connection: string, result: string) =>
  values.get(`herald_provider_callbacks_total{connection="${connection}",result="${result}"}`) ?? 0;

describe.each(DRIVERS.map((driver) => [driver.provider, driver] as const))('%s status callbacks', (_name, driver) => {
  let connection: Connection;
  let campaignId: number;
  beforeAll(async () => {
    connection = await connect(alpha, driver);
    campaignId = await campaignOf(alphaTeam);
  });

  it('settle a message as delivered, once, whatever comes after', async () => {
    const message = await sent(connection, driver, campaignId);
    expect(await driver.intermediate(message.providerId)).toBe(200);
    expect(await messageOf(message.uuid)).toEqual({ status: 'submitted', reason: null });
    expect(await driver.delivered(message.providerId)).toBe(200);
    expect(await messageOf(message.uuid)).toEqual({ status: 'delivered', reason: null });
    const settled = await countersOf(campaignId);
    expect(settled).toMatchObject({ delivered: 1, failed: 0 });
    // Repeated, an earlier status after the final one, and a contradicting one: all taken (2xx, so the
    // provider stops retrying), none changes the message or the counters.
    expect(await driver.delivered(message.providerId)).toBe(200);
    expect(await driver.intermediate(message.providerId)).toBe(200);
    expect(await driver.failed(message.providerId)).toBe(200);
    expect(await messageOf(message.uuid)).toEqual({ status: 'delivered', reason: null });
    expect(await countersOf(campaignId)).toEqual(settled);
  });

  it("settle a failure with the provider's code as its reason, never delivered after", async () => {
    const message = await sent(connection, driver, campaignId);
    expect(await driver.failed(message.providerId)).toBe(200);
    expect(await messageOf(message.uuid)).toEqual({ status: 'failed', reason: driver.reason });
    expect(await driver.delivered(message.providerId)).toBe(200);
    expect(await messageOf(message.uuid)).toEqual({ status: 'failed', reason: driver.reason });
    expect(await countersOf(campaignId)).toMatchObject({ delivered: 1, failed: 1 });
  });

  it('refuse a forged or unsigned callback with 403 in the house shape, changing nothing', async () => {
    const message = await sent(connection, driver, campaignId);
    const before = await everything();
    const metricsBefore = await scrape();
    const answers = await driver.forged(message.providerId);
    expect(answers.every((status) => status === 403)).toBe(true);
    expect(await everything()).toEqual(before);
    expect(await messageOf(message.uuid)).toEqual({ status: 'submitted', reason: null });
    // The shape, on one forged call made by hand: an unsigned, empty POST (without Infobip's token).
    const bare = new URL(connection.status_callback_url);
    bare.searchParams.delete('token');
    const response = await fetch(bare, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: { code: 403, http_code: 403, message: expect.any(String), request_id: expect.any(String) } });
    expect(counted(await scrape(), connection.uuid, 'forged') - counted(metricsBefore, connection.uuid, 'forged')).toBe(answers.length + 1);
  });

  it("change nothing when signed for connection A but naming connection B's message (same account, another team)", async () => {
    const other = await connect(bravo, driver);
    const message = await sent(other, driver, await campaignOf(bravoTeam));
    // The provider's account is shared by both teams here: the callback is genuinely signed, and
    // names B's provider id, but arrives at A's address.
    const accepted = driver.accepted().find((candidate) => candidate.id === message.providerId)!;
    const ownUrl = accepted.callbackUrl;
    accepted.callbackUrl = connection.status_callback_url;
    const before = await everything();
    const metricsBefore = await scrape();
    expect(await driver.delivered(message.providerId)).toBe(200);
    expect(await messageOf(message.uuid)).toEqual({ status: 'submitted', reason: null });
    expect(counted(await scrape(), connection.uuid, 'unknown_message') - counted(metricsBefore, connection.uuid, 'unknown_message')).toBe(1);
    // Only a receipt waiting under A's gateway id, which no message of B can ever have.
    const after = await everything();
    expect({ ...after, early: before.early }).toEqual(before);
    // At B's own address, the same status settles it.
    accepted.callbackUrl = ownUrl;
    expect(await driver.delivered(message.providerId)).toBe(200);
    expect(await messageOf(message.uuid)).toEqual({ status: 'delivered', reason: null });
  });
});

describe('status callbacks, whatever the provider', () => {
  it('count ok, forged, unknown_message and malformed by connection', async () => {
    const connection = await connect(alpha, DRIVERS[0]!);
    const campaignId = await campaignOf(alphaTeam);
    const message = await sent(connection, DRIVERS[0]!, campaignId);
    const before = await scrape();
    expect(await twilio.deliver(message.providerId, 'delivered')).toBe(200);
    expect(await twilio.deliver(message.providerId, 'delivered', { forged: true })).toBe(403);
    // Signed, but about a message Herald never sent.
    const stranger = twilio.signed(connection.status_callback_url, { MessageSid: 'SMnot-ours', MessageStatus: 'delivered' });
    expect(await postCallback(connection.status_callback_url, stranger)).toBe(200);
    // Signed, but nothing in it a status callback holds: 422.
    const empty = twilio.signed(connection.status_callback_url, { AccountSid: twilio.account.account_sid });
    const response = await fetch(connection.status_callback_url, { method: 'POST', headers: empty.headers, body: empty.body });
    expect(response.status).toBe(422);
    expect((await response.json()).error.code).toBe(422);
    const after = await scrape();
    for (const result of ['ok', 'forged', 'unknown_message', 'malformed'])
      expect(counted(after, connection.uuid, result) - counted(before, connection.uuid, result), result).toBe(1);
  });

  it('keep a status that comes before its submission is recorded in early_receipts', async () => {
    const connection = await connect(alpha, DRIVERS[0]!);
    const signed = twilio.signed(connection.status_callback_url, { MessageSid: 'SMearly0001', MessageStatus: 'undelivered', ErrorCode: '30005' });
    expect(await postCallback(connection.status_callback_url, signed)).toBe(200);
    expect(await sql('SELECT status, reason FROM early_receipts WHERE gateway_id = $1', [providerGatewayId(connection.id, 'SMearly0001')])).toEqual([
      { status: 'failed', reason: '30005' },
    ]);
  });

  it('are taken for a disabled connection (messages it carried still report), refused for unknown, smpp and simulator ones', async () => {
    const connection = await connect(alpha, DRIVERS[0]!);
    const message = await sent(connection, DRIVERS[0]!, await campaignOf(alphaTeam));
    expect((await t.request('PUT', `${API}/sms-connections/${connection.uuid}`, { token: alpha.token, body: { enabled: false } })).statusCode).toBe(200);
    expect(await twilio.deliver(message.providerId, 'delivered')).toBe(200);
    expect(await messageOf(message.uuid)).toEqual({ status: 'delivered', reason: null });

    const simulator = (
      await t.request('POST', `${API}/sms-connections/`, { token: alpha.token, body: { name: 'Sim', provider: 'simulator', max_per_second: 5 } })
    ).json().data;
    const smpp = (
      await t.request('POST', `${API}/sms-connections/`, {
        token: alpha.token,
        body: { name: 'Bind', provider: 'smpp', credentials: { url: 'smpp://herald:pass@127.0.0.1:2775' }, max_per_second: 5 },
      })
    ).json().data;
    for (const uuid of [randomUUID(), simulator.uuid, smpp.uuid])
      for (const kind of ['status', 'inbound']) {
        const response = await fetch(`${publicUrl}${API}/sms-connections/${uuid}/${kind}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        });
        expect(response.status, `${uuid} ${kind}`).toBe(404);
        expect((await response.json()).error.code).toBe(404);
      }
  });

  it('record an opt-out with source provider when the provider says the recipient opted out (Vonage err-code 9)', async () => {
    const driver = DRIVERS[1]!;
    const connection = await connect(bravo, driver);
    const message = await sent(connection, driver, await campaignOf(bravoTeam));
    vonage.optedOut.add(message.phone);
    expect(await vonage.deliver(message.providerId, 'failed', { errCode: '9' })).toBe(200);
    expect(await messageOf(message.uuid)).toEqual({ status: 'failed', reason: 'err-code 9' });
    expect(await sql('SELECT team_id::int AS team, kind, source FROM opt_out_events WHERE phone_number = $1 ORDER BY id', [message.phone])).toEqual([
      { team: bravoTeam, kind: 'opt_out', source: 'provider' },
    ]);
    const history = await t.request('GET', `${API}/opt-out-events?phone_number=%2B${message.phone}`, { token: bravo.token });
    expect(history.json().data).toEqual([expect.objectContaining({ kind: 'opt_out', source: 'provider' })]);
    // Said again: the number is on the list already, nothing more is recorded.
    expect(await vonage.deliver(message.providerId, 'failed', { errCode: '9' })).toBe(200);
    expect(await sql('SELECT count(*)::int AS n FROM opt_out_events WHERE phone_number = $1', [message.phone])).toEqual([{ n: 1 }]);
  });

  it("settle a Vonage receipt for a later part of a long message by its client-ref, only among the connection's messages", async () => {
    const driver = DRIVERS[1]!;
    const connection = await connect(alpha, driver);
    const campaignId = await campaignOf(alphaTeam);
    const uuid = randomUUID();
    const phone = '447700955501';
    const [outcome] = await ADAPTERS.vonage.send(
      { baseUrl: vonage.baseUrl, credentials: connection.credentials, statusCallbackUrl: connection.status_callback_url, timeoutMs: 5000 },
      [{ clientRef: uuid, to: `+${phone}`, from: SENDER, body: 'x'.repeat(400) }],
    );
    if (outcome?.kind !== 'accepted') throw new Error('not accepted');
    const accepted = vonage.accepted.find((message) => message.id === outcome.providerId)!;
    expect(accepted.parts.length).toBe(3);
    await sql(
      `INSERT INTO messages (uuid, campaign_id, sequence, phone_number, status, gateway_id, connection_id, submitted_at)
       VALUES ($1, $2, $3, $4, 'submitted', $5, $6, now())`,
      [uuid, campaignId, ++sequence, phone, providerGatewayId(connection.id, outcome.providerId), connection.id],
    );
    await sql('UPDATE campaigns SET message_count = 1, submitted_count = 1 WHERE id = $1', [campaignId]);
    // The same client-ref at another connection of the same account (another team) finds nothing there.
    const other = await connect(bravo, driver);
    accepted.callbackUrl = other.status_callback_url;
    expect(await vonage.deliver(outcome.providerId, 'failed', { part: 2, errCode: '5' })).toBe(200);
    expect(await messageOf(uuid)).toEqual({ status: 'submitted', reason: null });
    accepted.callbackUrl = connection.status_callback_url;
    expect(await vonage.deliver(outcome.providerId, 'failed', { part: 2, errCode: '5' })).toBe(200);
    expect(await messageOf(uuid)).toEqual({ status: 'failed', reason: 'err-code 5' });
    expect(await countersOf(campaignId)).toEqual({ submitted: 0, delivered: 0, failed: 1 });
  });

  // Issue 36 changed this: a message sent outside a campaign now follows its receipts (it was left submitted).
  it('settle a keyword reply a receipt names as delivered, and nothing else', async () => {
    const connection = await connect(alpha, DRIVERS[0]!);
    const gatewayId = providerGatewayId(connection.id, 'SMreply0001');
    await sql(
      `INSERT INTO outbound_replies (team_id, to_number, sender, body, status, gateway_id, connection_id, created_at)
       VALUES ($1, '447700900777', 'Herald', 'Thanks', 'submitted', $2, $3, now())`,
      [alphaTeam, gatewayId, connection.id],
    );
    const before = await everything();
    const signed = twilio.signed(connection.status_callback_url, { MessageSid: 'SMreply0001', MessageStatus: 'delivered' });
    expect(await postCallback(connection.status_callback_url, signed)).toBe(200);
    expect(await everything()).toEqual(before);
    expect(await sql('SELECT status FROM outbound_replies WHERE gateway_id = $1', [gatewayId])).toEqual([{ status: 'delivered' }]);
  });
});

describe('inbound messages', () => {
  it('from Twilio: answered with empty TwiML, stored as the team’s once however often redelivered; a forged one is 403', async () => {
    const connection = await connect(alpha, DRIVERS[0]!);
    const before = await sql<{ n: number }>('SELECT count(*)::int AS n FROM inbound_messages WHERE team_id = $1', [alphaTeam]);
    const fields = {
      MessageSid: 'SMinbound0001',
      SmsSid: 'SMinbound0001',
      AccountSid: twilio.account.account_sid,
      From: '+447700900321',
      To: SENDER,
      Body: 'Hello there',
    };
    for (let i = 0; i < 2; i++) {
      const signed = twilio.signed(connection.inbound_url, fields);
      const response = await fetch(connection.inbound_url, { method: 'POST', headers: signed.headers, body: signed.body });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/xml/);
      expect(await response.text()).toBe(EMPTY_TWIML);
    }
    expect(await twilio.inbound(connection.inbound_url, { from: '+447700900322', to: SENDER, body: 'Hi' }, { forged: true })).toBe(403);
    const after = await sql<{ n: number }>('SELECT count(*)::int AS n FROM inbound_messages WHERE team_id = $1', [alphaTeam]);
    expect(after[0]!.n - before[0]!.n).toBe(1);
    expect(await sql('SELECT from_number, body, source FROM inbound_messages WHERE team_id = $1 ORDER BY id DESC LIMIT 1', [alphaTeam])).toEqual([
      { from_number: '447700900321', body: 'Hello there', source: 'gateway' },
    ]);
  });

  it("from Vonage (by GET): STOP opts the number out in the connection's team only, though both teams hold it", async () => {
    const phone = '447700900654';
    // Both teams hold the number in a group: STOP to the shared short code would reach both.
    for (const user of [alpha, bravo]) {
      const group = (await t.request('POST', `${API}/contact-groups/`, { token: user.token, body: { name: `Customers ${randomUUID().slice(0, 4)}` } })).json()
        .data;
      const added = await t.request('PUT', `${API}/contact-groups/${group.uuid}/add-contacts`, {
        token: user.token,
        body: { contacts: [{ phone_number: `+${phone}` }] },
      });
      expect(added.statusCode, added.body).toBe(200);
    }
    const connection = await connect(bravo, DRIVERS[1]!);
    vonage.webhookMethod = 'GET';
    try {
      expect(await vonage.inbound(connection.inbound_url, { from: `+${phone}`, to: SENDER, body: 'STOP' }, { forged: true })).toBe(403);
      expect(await vonage.inbound(connection.inbound_url, { from: `+${phone}`, to: SENDER, body: 'STOP' })).toBe(200);
    } finally {
      vonage.webhookMethod = 'POST-JSON';
    }
    const optOuts = async (teamId: number) =>
      (
        await sql<{ n: number }>(`SELECT count(*)::int AS n FROM opt_out_events WHERE team_id = $1 AND phone_number = $2 AND kind = 'opt_out'`, [teamId, phone])
      )[0]!.n;
    expect(await optOuts(bravoTeam)).toBe(1);
    expect(await optOuts(alphaTeam)).toBe(0);
    expect(await sql(`SELECT source FROM opt_out_events WHERE team_id = $1 AND phone_number = $2`, [bravoTeam, phone])).toEqual([{ source: 'keyword' }]);
  });

  it('from JSON providers (Telnyx, Sinch): into the pipeline as the team’s; a Telnyx status at the inbound address settles its message', async () => {
    const telnyxConnection = await connect(alpha, DRIVERS[4]!);
    const sinchConnection = await connect(alpha, DRIVERS[5]!);
    const before = (await sql<{ n: number }>('SELECT count(*)::int AS n FROM inbound_messages WHERE team_id = $1', [alphaTeam]))[0]!.n;
    expect(await telnyx.inbound(telnyxConnection.inbound_url, { from: '+447700900801', to: SENDER, text: 'Telnyx hello' })).toBe(200);
    expect(await sinch.inbound(sinchConnection.inbound_url, { from: '+447700900802', to: SENDER, body: 'Sinch hello' })).toBe(200);
    expect(await sinch.inbound(sinchConnection.inbound_url, { from: '+447700900803', to: SENDER, body: 'Sinch forged' }, { tamper: true })).toBe(403);
    expect(await sql('SELECT from_number, body FROM inbound_messages WHERE team_id = $1 ORDER BY id DESC LIMIT 2', [alphaTeam])).toEqual([
      { from_number: '447700900802', body: 'Sinch hello' },
      { from_number: '447700900801', body: 'Telnyx hello' },
    ]);
    expect((await sql<{ n: number }>('SELECT count(*)::int AS n FROM inbound_messages WHERE team_id = $1', [alphaTeam]))[0]!.n - before).toBe(2);
    // A messaging profile's webhook gets statuses too (a message sent without its own webhook_url).
    const message = await sent(telnyxConnection, DRIVERS[4]!, await campaignOf(alphaTeam));
    telnyx.accepted.find((candidate) => candidate.id === message.providerId)!.callbackUrl = telnyxConnection.inbound_url;
    expect(await telnyx.deliver(message.providerId, 'delivered')).toBe(200);
    expect(await messageOf(message.uuid)).toEqual({ status: 'delivered', reason: null });
  });

  it('from Twilio, a status callback at the inbound URL settles its message and stores no message from the recipient', async () => {
    const connection = await connect(alpha, DRIVERS[0]!);
    const message = await sent(connection, DRIVERS[0]!, await campaignOf(alphaTeam));
    twilio.accepted.find((candidate) => candidate.id === message.providerId)!.callbackUrl = connection.inbound_url;
    const before = (await sql<{ n: number }>('SELECT count(*)::int AS n FROM inbound_messages'))[0]!.n;
    expect(await twilio.deliver(message.providerId, 'delivered')).toBe(200);
    expect(await messageOf(message.uuid)).toEqual({ status: 'delivered', reason: null });
    expect((await sql<{ n: number }>('SELECT count(*)::int AS n FROM inbound_messages'))[0]!.n).toBe(before);
  });

  it('from Infobip: checked by the token in the inbound URL the connection shows', async () => {
    const connection = await connect(alpha, DRIVERS[2]!);
    expect(new URL(connection.inbound_url).searchParams.get('token')).toBeTruthy();
    expect(await infobip.inbound(connection.inbound_url, { from: '447700900901', to: '447700900001', body: 'Infobip hello' })).toBe(200);
    expect(await infobip.inbound(connection.inbound_url, { from: '447700900902', to: '447700900001', body: 'Forged' }, { token: 'forged' })).toBe(403);
    expect(await sql('SELECT from_number, body FROM inbound_messages WHERE team_id = $1 ORDER BY id DESC LIMIT 1', [alphaTeam])).toEqual([
      { from_number: '447700900901', body: 'Infobip hello' },
    ]);
    // The token never reaches the audit log, which every member may read.
    const audit = await t.request('GET', `${API}/audit-events`, { token: alpha.token });
    expect(audit.body).not.toContain(new URL(connection.inbound_url).searchParams.get('token')!);
  });
});

describe('the callback routes', () => {
  it("are not limited per address: a provider's burst is never answered 429", async () => {
    const limited = await createTestApp({ RATE_LIMIT_PER_MINUTE: '5' });
    try {
      const user = await limited.user();
      const created = await limited.request('POST', `${API}/sms-connections/`, {
        token: user.token,
        body: { name: 'Twilio', provider: 'twilio', credentials: twilio.account, senders: [SENDER], max_per_second: 5 },
      });
      expect(created.statusCode, created.body).toBe(201);
      const url = `${API}/sms-connections/${created.json().data.uuid}/status`;
      const statuses = new Set<number>();
      for (let i = 0; i < 12; i++)
        statuses.add(
          (
            await limited.app.inject({
              method: 'POST',
              url,
              headers: { 'content-type': 'application/x-www-form-urlencoded' },
              payload: 'MessageSid=SM1&MessageStatus=sent',
            })
          ).statusCode,
        );
      expect([...statuses]).toEqual([403]);
      // Another public route from the same address is still limited.
      const other = new Set<number>();
      for (let i = 0; i < 12; i++) other.add((await limited.request('GET', `${API}/invitations/not-a-real-token`)).statusCode);
      expect(other.has(429)).toBe(true);
    } finally {
      await limited.close();
    }
  });
});

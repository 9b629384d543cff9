/**
 * The Telnyx adapter against the Telnyx fake, over real loopback sockets: sending one message per
 * call, every class of refusal from Telnyx's documented error answers (40300 for a number that sent
 * STOP), Ed25519 webhook signatures with a 5-minute window, status mapping and inbound messages.
 *
 * Seen red: with `verify` weakened to skip the Ed25519 check (returning true once the headers and
 * a fresh timestamp are there), "refuses a changed body, another key, no signature" and "a wrong or
 * missing public key refuses everything" went red; with the timestamp window check removed,
 * "refuses a stale or future timestamp" went red.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TelnyxFake, telnyxAnswers } from '../../../testing/provider-fakes/telnyx-fake';
import { CallbackReceiver } from '../../../testing/provider-fakes/callback-receiver';
import { providerAgent } from './http-call';
import type { ProviderAccount, ProviderCallback, ProviderSms } from './provider';
import { telnyxAdapter, telnyxPublicKey, telnyxStatus } from './telnyx';

const fake = new TelnyxFake();
let account: ProviderAccount;
/** Herald's side of the webhooks: verifies each as the route will, answers 403 to a forgery. */
const receiver = new CallbackReceiver((callback) => telnyxAdapter.verify(account, callback));
const sms = (n: number, extra: Partial<ProviderSms> = {}): ProviderSms => ({
  clientRef: `ref-${n}`,
  to: `+4477009${String(n).padStart(5, '0')}`,
  from: '+13125550100',
  body: 'Sale ends tonight',
  ...extra,
});
const post = (url: string, headers: Record<string, string>, body: string) => fetch(url, { method: 'POST', headers, body }).then((r) => r.status);

beforeAll(async () => {
  await fake.start();
  await receiver.start();
  account = {
    baseUrl: fake.baseUrl,
    credentials: { api_key: fake.apiKey, public_key: fake.publicKeyBase64 },
    statusCallbackUrl: `${receiver.baseUrl}/hooks/sms/telnyx/status`,
    timeoutMs: 400,
    agent: providerAgent(fake.baseUrl),
  };
});
afterAll(async () => {
  await fake.stop();
  await receiver.stop();
});
beforeEach(() => {
  fake.accepted.length = 0;
  fake.server.requests.length = 0;
  fake.optedOut.clear();
  receiver.clear();
});

describe('telnyxAdapter.send', () => {
  it('posts the documented JSON to /v2/messages with a Bearer token and webhook_url, and reads data.id', async () => {
    const outcomes = await telnyxAdapter.send(account, [sms(1)]);
    expect(outcomes).toEqual([{ clientRef: 'ref-1', kind: 'accepted', providerId: fake.accepted[0]!.id }]);
    const request = fake.server.requests[0]!;
    expect(request.path).toBe('/v2/messages');
    expect(request.headers.authorization).toBe(`Bearer ${fake.apiKey}`);
    expect(request.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request.body)).toEqual({ from: '+13125550100', to: '+447700900001', text: 'Sale ends tonight', webhook_url: account.statusCallbackUrl });
    expect(fake.accepted).toEqual([
      { id: expect.any(String), to: '+447700900001', from: '+13125550100', body: 'Sale ends tonight', callbackUrl: account.statusCallbackUrl },
    ]);
  });

  it('sends one message per call (maxBatch 1), each with its own outcome', async () => {
    expect(telnyxAdapter.maxBatch).toBe(1);
    const outcomes = await telnyxAdapter.send(account, [sms(1), sms(2)]);
    expect(fake.server.requests).toHaveLength(2);
    expect(outcomes.map((o) => o.clientRef)).toEqual(['ref-1', 'ref-2']);
    expect(new Set(outcomes.map((o) => o.kind === 'accepted' && o.providerId))).toEqual(new Set(fake.accepted.map((a) => a.id)));
  });

  it('40300 (the number sent STOP) is the recipient’s and an opt-out; an invalid `to` is the recipient’s', async () => {
    fake.optedOut.add('+447700900001');
    expect(await telnyxAdapter.send(account, [sms(1)])).toEqual([
      {
        clientRef: 'ref-1',
        kind: 'refused',
        errorClass: 'recipient',
        code: '40300',
        message: expect.stringContaining('Blocked due to STOP message'),
        optedOut: true,
      },
    ]);
    expect(await telnyxAdapter.send(account, [sms(2, { to: '07700 900002' })])).toMatchObject([{ kind: 'refused', errorClass: 'recipient', code: '40310' }]);
    expect(fake.accepted).toHaveLength(0);
  });

  it('an unusable sender is the account’s, even with a number-format code', async () => {
    expect(await telnyxAdapter.send(account, [sms(1, { from: 'not a sender!' })])).toMatchObject([{ kind: 'refused', errorClass: 'account', code: '10016' }]);
  });

  it('429 (10011) with Retry-After and 5xx (10007) are transient, with the wait', async () => {
    fake.server.failNext(1, telnyxAnswers.rateLimited(3));
    expect(await telnyxAdapter.send(account, [sms(1)])).toMatchObject([{ kind: 'refused', errorClass: 'transient', code: '10011', retryAfterMs: 3000 }]);
    fake.server.failNext(1, telnyxAnswers.serverError());
    expect(await telnyxAdapter.send(account, [sms(1)])).toMatchObject([{ kind: 'refused', errorClass: 'transient', code: '10007' }]);
    fake.server.failNext(1, { status: 503, body: 'Service Unavailable' });
    expect(await telnyxAdapter.send(account, [sms(1)])).toMatchObject([{ kind: 'refused', errorClass: 'transient', code: '503' }]);
    expect(fake.accepted).toHaveLength(0);
  });

  it('a wrong API key (401, 10009) is the account’s', async () => {
    const wrong = { ...account, credentials: { ...account.credentials, api_key: 'KEYwrong' } };
    expect(await telnyxAdapter.send(wrong, [sms(1)])).toMatchObject([
      { kind: 'refused', errorClass: 'account', code: '10009', message: expect.stringContaining('Authentication failed') },
    ]);
    fake.server.failNext(1, { status: 403, body: { errors: [{ code: '10010', title: 'Authorization failed', detail: 'no permission' }] } });
    expect(await telnyxAdapter.send(account, [sms(1)])).toMatchObject([{ kind: 'refused', errorClass: 'account', code: '10010' }]);
  });

  it('a provider that is down is transient and not sent; one that takes the call and never answers is in doubt', async () => {
    await fake.server.down();
    try {
      expect(await telnyxAdapter.send({ ...account, agent: undefined }, [sms(1)])).toMatchObject([
        { kind: 'refused', errorClass: 'transient', code: 'ECONNREFUSED' },
      ]);
    } finally {
      await fake.server.up();
    }
    fake.server.silentNext(1);
    expect(await telnyxAdapter.send({ ...account, agent: undefined }, [sms(1)])).toMatchObject([{ clientRef: 'ref-1', kind: 'in_doubt' }]);
  });
});

describe('telnyxAdapter webhooks', () => {
  it('imports the portal’s base64 key (raw 32 bytes) and refuses anything else', () => {
    expect(telnyxPublicKey(fake.publicKeyBase64)?.asymmetricKeyType).toBe('ed25519');
    expect(telnyxPublicKey('')).toBeUndefined();
    expect(telnyxPublicKey(Buffer.alloc(31).toString('base64'))).toBeUndefined();
  });

  it('genuine webhooks verify and map; queued, sending and sent are pending', async () => {
    await telnyxAdapter.send(account, [sms(1)]);
    const id = fake.accepted[0]!.id;
    for (const status of ['queued', 'sending', 'sent', 'delivered']) expect(await fake.deliver(id, status)).toBe(200);
    expect(receiver.verified.flatMap((c) => telnyxAdapter.statuses(c))).toEqual([
      { providerId: id, status: 'pending' },
      { providerId: id, status: 'pending' },
      { providerId: id, status: 'pending' },
      { providerId: id, status: 'delivered' },
    ]);
  });

  it('repeated and out-of-order webhooks each verify and map as sent (the engine keeps the final one)', async () => {
    await telnyxAdapter.send(account, [sms(1)]);
    const id = fake.accepted[0]!.id;
    for (const status of ['delivered', 'sent', 'delivered']) expect(await fake.deliver(id, status)).toBe(200);
    expect(receiver.verified.flatMap((c) => telnyxAdapter.statuses(c)).map((s) => s.status)).toEqual(['delivered', 'pending', 'delivered']);
  });

  it('failures keep the code of payload.errors; expired and delivery_unconfirmed are expired', async () => {
    await telnyxAdapter.send(account, [sms(1), sms(2), sms(3), sms(4)]);
    const [a, b, c, d] = fake.accepted.map((m) => m.id);
    expect(await fake.deliver(a!, 'delivery_failed', { errorCode: '40001' })).toBe(200);
    expect(await fake.deliver(b!, 'sending_failed', { errorCode: '40300' })).toBe(200);
    expect(await fake.deliver(c!, 'expired', { errorCode: '40005' })).toBe(200);
    expect(await fake.deliver(d!, 'delivery_unconfirmed')).toBe(200);
    expect(receiver.verified.flatMap((cb) => telnyxAdapter.statuses(cb))).toEqual([
      { providerId: a, status: 'failed', errorCode: '40001' },
      { providerId: b, status: 'failed', errorCode: '40300', optedOut: true },
      { providerId: c, status: 'expired', errorCode: '40005' },
      { providerId: d, status: 'expired', errorCode: 'delivery_unconfirmed' },
    ]);
    expect(['queued', 'sending', 'sent'].map(telnyxStatus)).toEqual(['pending', 'pending', 'pending']);
  });

  it('refuses a changed body, another key, no signature', async () => {
    await telnyxAdapter.send(account, [sms(1)]);
    const id = fake.accepted[0]!.id;
    expect(await fake.deliver(id, 'delivered', { privateKey: crypto.generateKeyPairSync('ed25519').privateKey })).toBe(403);
    expect(await fake.deliver(id, 'delivered', { unsigned: true })).toBe(403);
    const genuine = fake.signed('message.finalized', { id, to: [{ phone_number: '+447700900001', status: 'delivery_failed' }], errors: [{ code: '40001' }] });
    expect(await post(account.statusCallbackUrl, genuine.headers, genuine.body.replace('delivery_failed', 'delivered'))).toBe(403);
    // The signature of one timestamp does not pass with another (the timestamp is signed too).
    const other = String(Number(genuine.headers['telnyx-timestamp']) - 1);
    expect(await post(account.statusCallbackUrl, { ...genuine.headers, 'telnyx-timestamp': other }, genuine.body)).toBe(403);
    expect(await post(account.statusCallbackUrl, genuine.headers, genuine.body)).toBe(200);
    expect(receiver.refused).toBe(4);
    expect(receiver.verified).toHaveLength(1);
  });

  it('refuses a stale or future timestamp (more than 5 minutes off), takes one inside the window', async () => {
    await telnyxAdapter.send(account, [sms(1)]);
    const id = fake.accepted[0]!.id;
    const now = Math.floor(Date.now() / 1000);
    expect(await fake.deliver(id, 'delivered', { timestamp: now - 301 })).toBe(403);
    expect(await fake.deliver(id, 'delivered', { timestamp: now + 301 })).toBe(403);
    expect(await fake.deliver(id, 'delivered', { timestamp: now - 240 })).toBe(200);
    // The same callback, checked at a later time, is stale then.
    const callback = receiver.verified[0]!;
    expect(telnyxAdapter.verify(account, callback, new Date((now - 240) * 1000 + 5 * 60_000 + 1000))).toBe(false);
  });

  it('a wrong or missing public key refuses everything', async () => {
    await telnyxAdapter.send(account, [sms(1)]);
    const genuine = fake.signed('message.finalized', { id: fake.accepted[0]!.id, to: [{ status: 'delivered' }] });
    const callback: ProviderCallback = { method: 'POST', url: account.statusCallbackUrl, headers: genuine.headers, rawBody: Buffer.from(genuine.body) };
    expect(telnyxAdapter.verify(account, callback)).toBe(true);
    const otherKey = new TelnyxFake().publicKeyBase64;
    expect(telnyxAdapter.verify({ ...account, credentials: { ...account.credentials, public_key: otherKey } }, callback)).toBe(false);
    expect(telnyxAdapter.verify({ ...account, credentials: { api_key: fake.apiKey } }, callback)).toBe(false);
  });

  it('reads an inbound message; a status webhook is no inbound and an inbound no status', async () => {
    expect(await fake.inbound(`${receiver.baseUrl}/hooks/sms/telnyx/inbound`, { from: '+447700900123', to: '+13125550100', text: 'STOP' })).toBe(200);
    const [callback] = receiver.verified;
    expect(telnyxAdapter.inbound(callback!)).toEqual([{ providerId: expect.any(String), from: '+447700900123', to: '+13125550100', body: 'STOP' }]);
    expect(telnyxAdapter.statuses(callback!)).toEqual([]);
    expect(
      await fake.inbound(`${receiver.baseUrl}/hooks/sms/telnyx/inbound`, { from: '+447700900123', to: '+13125550100', text: 'STOP' }, { unsigned: true }),
    ).toBe(403);
  });
});

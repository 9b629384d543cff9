/**
 * The Vonage SMS API adapter against its loopback fake (testing/provider-fakes/vonage-fake.ts), over
 * real sockets: what a send puts on the wire (plain and signed), each refusal from Vonage's
 * documented answers (HTTP 200 with a status, and the HTTP errors around it), signed receipts and
 * inbound messages received by a real HTTP listener in each of the dashboard's three methods, and
 * the status mapping. Signed callbacks older or newer than 5 minutes are refused.
 *
 * Seen red: with the timestamp window check removed from `verify`, the stale receipts were taken
 * (the three "forged, stale and unsigned" tests and the window test red); with any present `sig`
 * accepted, forged receipts, forged inbound messages, the changed body and the wrong secret all
 * went through (6 tests red); with `inbound` reading any payload with msisdn, to and messageId, a
 * delivery receipt was read as a message from a handset (the status-mapping test red).
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { VonageFake } from '../../../testing/provider-fakes/vonage-fake';
import { CallbackReceiver } from '../../../testing/provider-fakes/callback-receiver';
import { providerAgent } from './http-call';
import type { ProviderAccount, ProviderCallback } from './provider';
import { vonageAdapter, vonageSignature } from './vonage';

const credentials = { api_key: 'abcd1234', api_secret: 'Secret0123456789', signature_secret: 'sig-secret-0123456789abcdef' };
const fake = new VonageFake(credentials);

/** Herald's side of the callbacks: keeps each one raw and answers 403 unless it verifies. */
const receiver = new CallbackReceiver((callback) => vonageAdapter.verify(account, callback));
const received = receiver.received;
let herald: string;
let account: ProviderAccount;

beforeAll(async () => {
  await fake.start();
  await receiver.start();
  herald = receiver.baseUrl;
  account = {
    baseUrl: fake.baseUrl,
    credentials,
    statusCallbackUrl: `${herald}/api/2.0/sms-callbacks/conn-2/status`,
    timeoutMs: 1000,
    agent: providerAgent(fake.baseUrl),
  };
});
afterAll(async () => {
  account.agent?.destroy();
  await fake.stop();
  await receiver.stop();
});
beforeEach(() => {
  receiver.clear();
  fake.webhookMethod = 'POST-JSON';
});

const clientRef = 'c0ffee00-0000-4000-8000-000000000002';
const sms = (to = '+447700900123', body = 'Sale: 20% off & more = today') => ({ clientRef, to, from: '+447700900001', body });
const providerId = (outcome: unknown) => (outcome as { providerId: string }).providerId;

describe('vonage send', () => {
  it('posts the documented form and gets the message id back', async () => {
    const before = fake.requests.length;
    const [outcome] = await vonageAdapter.send(account, [sms()]);
    expect(outcome).toMatchObject({ kind: 'accepted', clientRef });
    const request = fake.requests[before]!;
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/sms/json');
    expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(request.body))).toEqual({
      api_key: 'abcd1234',
      api_secret: 'Secret0123456789',
      from: '447700900001',
      to: '447700900123',
      text: 'Sale: 20% off & more = today',
      type: 'text',
      'client-ref': clientRef,
      callback: account.statusCallbackUrl,
    });
    expect(fake.accepted.at(-1)).toMatchObject({
      id: providerId(outcome),
      to: '447700900123',
      from: '447700900001',
      callbackUrl: account.statusCallbackUrl,
      clientRef,
    });
  });

  it('signs the request with the signature secret when there is no API secret', async () => {
    const signedOnly = { ...account, credentials: { api_key: credentials.api_key, signature_secret: credentials.signature_secret } };
    const before = fake.requests.length;
    const [outcome] = await vonageAdapter.send(signedOnly, [sms()]);
    expect(outcome).toMatchObject({ kind: 'accepted' });
    const sent = Object.fromEntries(new URLSearchParams(fake.requests[before]!.body));
    expect(sent).not.toHaveProperty('api_secret');
    expect(sent.sig).toMatch(/^[0-9a-f]{32}$/);
    expect(Math.abs(Number(sent.timestamp) - Date.now() / 1000)).toBeLessThan(5);
    const [wrong] = await vonageAdapter.send({ ...signedOnly, credentials: { ...signedOnly.credentials, signature_secret: 'another' } }, [sms()]);
    expect(wrong).toMatchObject({ kind: 'refused', errorClass: 'account', code: 'status 14' });
  });

  it('marks text outside GSM-7 as unicode', async () => {
    const before = fake.requests.length;
    await vonageAdapter.send(account, [sms(undefined, 'Привет 👋')]);
    expect(new URLSearchParams(fake.requests[before]!.body).get('type')).toBe('unicode');
  });

  it('a long text is accepted under its first part’s id', async () => {
    const [outcome] = await vonageAdapter.send(account, [sms(undefined, 'x'.repeat(400))]);
    const accepted = fake.accepted.at(-1)!;
    expect(accepted.parts).toHaveLength(3);
    expect(providerId(outcome)).toBe(accepted.parts[0]);
  });

  it('bad credentials are an account error (HTTP 200, status 4)', async () => {
    const [outcome] = await vonageAdapter.send({ ...account, credentials: { ...credentials, api_secret: 'wrong' } }, [sms()]);
    expect(outcome).toMatchObject({ kind: 'refused', errorClass: 'account', code: 'status 4', message: 'Bad Credentials' });
  });

  it('an invalid or barred number is a recipient error (status 3 on `to`, 7)', async () => {
    const [invalid] = await vonageAdapter.send(account, [sms('+12')]);
    expect(invalid).toMatchObject({ kind: 'refused', errorClass: 'recipient', code: 'status 3' });
    fake.barred.add('447700900999');
    const [barred] = await vonageAdapter.send(account, [sms('+447700900999')]);
    expect(barred).toMatchObject({ kind: 'refused', errorClass: 'recipient', code: 'status 7' });
  });

  it('throttled (HTTP 200, status 1) is transient', async () => {
    fake.throttleNext(1);
    const [outcome] = await vonageAdapter.send(account, [sms()]);
    expect(outcome).toMatchObject({ kind: 'refused', errorClass: 'transient', code: 'status 1' });
  });

  it('classifies the documented send statuses: no credit and a refused sender are account errors', async () => {
    const expected = { '5': 'transient', '9': 'account', '15': 'account', '29': 'account', '6': 'recipient', '33': 'recipient' } as const;
    for (const [status, errorClass] of Object.entries(expected)) {
      fake.failNext(1, { status: 200, body: { 'message-count': '1', messages: [{ status, 'error-text': `error ${status}` }] } });
      const [outcome] = await vonageAdapter.send(account, [sms()]);
      expect(outcome, status).toMatchObject({ kind: 'refused', errorClass, code: `status ${status}` });
    }
  });

  it('HTTP 429 with Retry-After and a 5xx are transient', async () => {
    fake.failNext(1, { status: 429, headers: { 'retry-after': '2' }, body: '' });
    fake.failNext(1, { status: 502, body: '<html>Bad Gateway</html>' });
    const [busy] = await vonageAdapter.send(account, [sms()]);
    const [broken] = await vonageAdapter.send(account, [sms()]);
    expect(busy).toMatchObject({ kind: 'refused', errorClass: 'transient', code: 'HTTP 429', retryAfterMs: 2000 });
    expect(broken).toMatchObject({ kind: 'refused', errorClass: 'transient', code: 'HTTP 502' });
  });

  it('down: transient, never sent', async () => {
    await fake.down();
    try {
      const [outcome] = await vonageAdapter.send({ ...account, agent: undefined }, [sms()]);
      expect(outcome).toMatchObject({ kind: 'refused', errorClass: 'transient', code: 'ECONNREFUSED' });
    } finally {
      await fake.up();
      // The keep-alive sockets died with the server.
      account.agent?.destroy();
      account.agent = providerAgent(fake.baseUrl);
    }
  });

  it('received and never answered: in doubt', async () => {
    fake.silentNext(1);
    const before = fake.requests.length;
    const [outcome] = await vonageAdapter.send({ ...account, timeoutMs: 200 }, [sms()]);
    expect(outcome).toMatchObject({ kind: 'in_doubt', clientRef });
    expect(fake.requests.length - before).toBe(1);
  });

  it('an opted-out number is accepted, and its receipt says so (err-code 9)', async () => {
    fake.optedOut.add('447700900666');
    const [outcome] = await vonageAdapter.send(account, [sms('+447700900666')]);
    expect(outcome).toMatchObject({ kind: 'accepted' });
    expect(await fake.deliver(providerId(outcome), 'failed')).toBe(200);
    expect(vonageAdapter.statuses(received.at(-1)!)).toEqual([
      { providerId: providerId(outcome), status: 'failed', errorCode: 'err-code 9', optedOut: true, clientRef },
    ]);
  });
});

describe('vonage callbacks', () => {
  it('the md5 hash signature matches the vector of Vonage’s own SDK tests', () => {
    expect(vonageSignature({ a: '1', b: '2', timestamp: '1461605396' }, 'secret', 'md5hash')).toBe('6af838ef94998832dbfc29020b564830');
  });

  for (const method of ['POST-JSON', 'POST', 'GET'] as const) {
    it(`a genuine receipt sent as ${method} verifies and maps; forged, stale and unsigned ones are refused`, async () => {
      fake.webhookMethod = method;
      const [outcome] = await vonageAdapter.send(account, [sms()]);
      const id = providerId(outcome);
      expect(await fake.deliver(id, 'delivered')).toBe(200);
      expect(vonageAdapter.statuses(received.at(-1)!)).toEqual([{ providerId: id, status: 'delivered', clientRef }]);
      expect(await fake.deliver(id, 'failed', { forged: true })).toBe(403);
      expect(await fake.deliver(id, 'failed', { stale: true })).toBe(403);
      expect(await fake.deliver(id, 'failed', { unsigned: true })).toBe(403);
    });
  }

  it('a changed body or another secret does not verify; the window is 5 minutes', async () => {
    const [outcome] = await vonageAdapter.send(account, [sms()]);
    expect(await fake.deliver(providerId(outcome), 'buffered')).toBe(200);
    const genuine = received.at(-1)!;
    const changed = Buffer.from(genuine.rawBody.toString().replace('"status":"buffered"', '"status":"delivered"'));
    expect(changed.equals(genuine.rawBody)).toBe(false);
    expect(vonageAdapter.verify(account, { ...genuine, rawBody: changed })).toBe(false);
    expect(vonageAdapter.verify({ ...account, credentials: { ...credentials, signature_secret: 'another' } }, genuine)).toBe(false);
    const signedAt = Number((JSON.parse(genuine.rawBody.toString()) as { timestamp: string }).timestamp) * 1000;
    expect(vonageAdapter.verify(account, genuine, new Date(signedAt + 4 * 60_000))).toBe(true);
    expect(vonageAdapter.verify(account, genuine, new Date(signedAt + 6 * 60_000))).toBe(false);
    expect(vonageAdapter.verify(account, genuine, new Date(signedAt - 6 * 60_000))).toBe(false);
  });

  it('verifies the HMAC methods the dashboard offers', () => {
    const timestamp = String(Math.floor(Date.now() / 1000));
    const params: Record<string, string> = { messageId: '0A00000001', status: 'delivered', 'err-code': '0', timestamp, nonce: 'n-1' };
    const base = Object.keys(params)
      .sort()
      .map((name) => `&${name}=${params[name]}`)
      .join('');
    for (const algorithm of ['sha256', 'sha512', 'sha1', 'md5']) {
      const sig = crypto.createHmac(algorithm, credentials.signature_secret).update(base).digest('hex').toUpperCase();
      const callback: ProviderCallback = {
        method: 'POST',
        url: account.statusCallbackUrl,
        headers: {},
        rawBody: Buffer.from(new URLSearchParams({ ...params, sig }).toString()),
      };
      expect(vonageAdapter.verify(account, callback), algorithm).toBe(true);
      const wrong = crypto.createHmac(algorithm, 'another').update(base).digest('hex');
      expect(vonageAdapter.verify(account, { ...callback, rawBody: Buffer.from(new URLSearchParams({ ...params, sig: wrong }).toString()) }), algorithm).toBe(
        false,
      );
    }
  });

  it('a receipt for a later part carries the client reference back', async () => {
    const [outcome] = await vonageAdapter.send(account, [sms(undefined, 'y'.repeat(200))]);
    const accepted = fake.accepted.find((message) => message.id === providerId(outcome))!;
    expect(await fake.deliver(accepted.id, 'delivered', { part: 1 })).toBe(200);
    expect(vonageAdapter.statuses(received.at(-1)!)).toEqual([{ providerId: accepted.parts[1], status: 'delivered', clientRef }]);
  });

  it('maps every documented status; intermediate ones are pending', () => {
    const status = (value: string, errCode = '0') =>
      vonageAdapter.statuses({
        method: 'POST',
        url: 'https://herald.example/cb',
        headers: {},
        rawBody: Buffer.from(JSON.stringify({ messageId: 'M1', status: value, 'err-code': errCode })),
      })[0];
    for (const pending of ['accepted', 'buffered', 'unknown']) expect(status(pending)).toEqual({ providerId: 'M1', status: 'pending' });
    expect(status('delivered')).toEqual({ providerId: 'M1', status: 'delivered' });
    expect(status('expired', '2')).toEqual({ providerId: 'M1', status: 'expired', errorCode: 'err-code 2' });
    expect(status('failed', '6')).toEqual({ providerId: 'M1', status: 'failed', errorCode: 'err-code 6' });
    expect(status('rejected', '9')).toEqual({ providerId: 'M1', status: 'failed', errorCode: 'err-code 9', optedOut: true });
    // A receipt carries msisdn, to and messageId as well: it is never read as a message from a handset.
    const receipt = { msisdn: '447700900777', to: '447700900001', messageId: 'M1', status: 'delivered', 'err-code': '0' };
    const read = (params: Record<string, string>) =>
      vonageAdapter.inbound({ method: 'POST', url: 'https://herald.example/cb', headers: {}, rawBody: Buffer.from(JSON.stringify(params)) });
    expect(read(receipt)).toEqual([]);
    expect(read({ msisdn: '447700900777', to: '447700900001', messageId: 'M2', text: 'Hi', type: 'text' })).toEqual([
      { providerId: 'M2', from: '+447700900777', to: '+447700900001', body: 'Hi' },
    ]);
  });

  it('reads a signed inbound message, in any method', async () => {
    for (const method of ['POST-JSON', 'POST', 'GET'] as const) {
      fake.webhookMethod = method;
      expect(await fake.inbound(`${herald}/api/2.0/sms-inbound/conn-2`, { from: '+447700900777', to: '+447700900001', body: 'STOP' })).toBe(200);
      const [message] = vonageAdapter.inbound(received.at(-1)!);
      expect(message).toMatchObject({ from: '+447700900777', to: '+447700900001', body: 'STOP' });
      expect(message!.providerId).toMatch(/^[0-9A-F]{16}$/);
    }
    expect(await fake.inbound(`${herald}/api/2.0/sms-inbound/conn-2`, { from: '+447700900777', to: '+447700900001', body: 'START' }, { forged: true })).toBe(
      403,
    );
  });
});

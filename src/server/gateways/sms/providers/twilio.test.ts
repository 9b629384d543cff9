/**
 * The Twilio adapter against its loopback fake (testing/provider-fakes/twilio-fake.ts), over real
 * sockets: what a send puts on the wire, each class of refusal from Twilio's documented answers,
 * signed status and inbound callbacks received by a real HTTP listener, and the status mapping.
 *
 * Seen red: with `verify` weakened to accept any signature that is present, the forged status
 * callback, the changed body, the wrong token and the forged inbound message all went through (3
 * tests red); with the POST parameters left out of the signed string, the genuine callbacks failed
 * to verify (the same 3 red). Twilio's scheme has no timestamp, so there is no staleness window:
 * replays are Herald's to dedupe (a final status is never overwritten). With `inbound` reading any
 * payload with a sid, From and To, a status callback was read as a message from a handset (the
 * status-mapping test red).
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TwilioFake } from '../../../testing/provider-fakes/twilio-fake';
import { CallbackReceiver } from '../../../testing/provider-fakes/callback-receiver';
import { providerAgent } from './http-call';
import type { ProviderAccount, ProviderCallback } from './provider';
import { twilioAdapter, twilioSignature } from './twilio';

const credentials = { account_sid: 'AC0123456789abcdef0123456789abcdef', auth_token: 'tok-0123456789abcdef' };
const fake = new TwilioFake(credentials);

/** Herald's side of the callbacks: keeps each one raw and answers 403 unless it verifies. */
const receiver = new CallbackReceiver((callback) => twilioAdapter.verify(account, callback));
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
    statusCallbackUrl: `${herald}/api/2.0/sms-callbacks/conn-1/status?from=twilio`,
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
});

const sms = (to = '+447700900123', body = 'Sale: 20% off & more = today') => ({
  clientRef: 'c0ffee00-0000-4000-8000-000000000001',
  to,
  from: '+447700900001',
  body,
});

describe('twilio send', () => {
  it('posts the documented form and gets the sid back', async () => {
    const before = fake.requests.length;
    const [outcome] = await twilioAdapter.send(account, [sms()]);
    expect(outcome).toMatchObject({ kind: 'accepted', clientRef: sms().clientRef });
    const request = fake.requests[before]!;
    expect(request.method).toBe('POST');
    expect(request.path).toBe(`/2010-04-01/Accounts/${credentials.account_sid}/Messages.json`);
    expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(request.headers.authorization).toBe(`Basic ${Buffer.from(`${credentials.account_sid}:${credentials.auth_token}`).toString('base64')}`);
    expect(Object.fromEntries(new URLSearchParams(request.body))).toEqual({
      To: '+447700900123',
      From: '+447700900001',
      Body: 'Sale: 20% off & more = today',
      StatusCallback: account.statusCallbackUrl,
    });
    const accepted = fake.accepted.at(-1)!;
    expect(outcome).toMatchObject({ providerId: accepted.id });
    expect(accepted).toMatchObject({
      to: '+447700900123',
      from: '+447700900001',
      body: 'Sale: 20% off & more = today',
      callbackUrl: account.statusCallbackUrl,
    });
    expect(accepted.id).toMatch(/^SM[0-9a-f]{32}$/);
  });

  it('sends one message a request', async () => {
    expect(twilioAdapter.maxBatch).toBe(1);
    const before = fake.requests.length;
    const outcomes = await twilioAdapter.send(account, [sms('+447700900201'), { ...sms('+447700900202'), clientRef: 'second' }]);
    expect(outcomes.map((outcome) => outcome.kind)).toEqual(['accepted', 'accepted']);
    expect(outcomes[1]!.clientRef).toBe('second');
    expect(fake.requests.length - before).toBe(2);
  });

  it('a wrong auth token is an account error (401, 20003)', async () => {
    const [outcome] = await twilioAdapter.send({ ...account, credentials: { ...credentials, auth_token: 'wrong' } }, [sms()]);
    expect(outcome).toMatchObject({ kind: 'refused', errorClass: 'account', code: '20003' });
  });

  it('an invalid number is a recipient error (21211)', async () => {
    const [outcome] = await twilioAdapter.send(account, [sms('07700 900123')]);
    expect(outcome).toMatchObject({ kind: 'refused', errorClass: 'recipient', code: '21211' });
    expect(outcome).not.toHaveProperty('optedOut');
  });

  it('an opted-out number is a recipient error that records the opt-out (21610)', async () => {
    fake.optedOut.add('+447700900666');
    const [outcome] = await twilioAdapter.send(account, [sms('+447700900666')]);
    expect(outcome).toMatchObject({ kind: 'refused', errorClass: 'recipient', code: '21610', optedOut: true });
  });

  it('429 with Retry-After is transient and says how long to wait', async () => {
    fake.throttleNext(1, 7);
    const [outcome] = await twilioAdapter.send(account, [sms()]);
    expect(outcome).toMatchObject({ kind: 'refused', errorClass: 'transient', code: '20429', retryAfterMs: 7000 });
  });

  it('a 5xx, even without a JSON body, is transient', async () => {
    fake.failNext(1, { status: 503, body: '<html>Service Unavailable</html>' });
    const [outcome] = await twilioAdapter.send(account, [sms()]);
    expect(outcome).toMatchObject({ kind: 'refused', errorClass: 'transient', code: 'HTTP 503' });
  });

  it('an unverified sender is an account error (21606)', async () => {
    fake.failNext(1, {
      status: 400,
      body: { code: 21606, message: "The 'From' phone number provided is not a valid message-capable Twilio phone number for this destination.", status: 400 },
    });
    const [outcome] = await twilioAdapter.send(account, [sms()]);
    expect(outcome).toMatchObject({ kind: 'refused', errorClass: 'account', code: '21606' });
  });

  it('down: transient, never sent', async () => {
    await fake.down();
    try {
      const [outcome] = await twilioAdapter.send({ ...account, agent: undefined }, [sms()]);
      expect(outcome).toMatchObject({ kind: 'refused', errorClass: 'transient', code: 'ECONNREFUSED' });
    } finally {
      await fake.up();
      // The keep-alive sockets died with the server: a request on one fails before it is written (not sent, ECONNRESET).
      account.agent?.destroy();
      account.agent = providerAgent(fake.baseUrl);
    }
  });

  it('received and never answered: in doubt', async () => {
    fake.silentNext(1);
    const before = fake.requests.length;
    const [outcome] = await twilioAdapter.send({ ...account, timeoutMs: 200 }, [sms()]);
    expect(outcome).toMatchObject({ kind: 'in_doubt', clientRef: sms().clientRef });
    expect(fake.requests.length - before).toBe(1);
  });
});

describe('twilio callbacks', () => {
  it('the signature matches the example in Twilio’s documentation', () => {
    const params = { CallSid: 'CA1234567890ABCDE', Caller: '+14158675309', Digits: '1234', From: '+14158675309', To: '+18005551212' };
    expect(twilioSignature('12345', 'https://mycompany.com/myapp.php?foo=1&bar=2', params)).toBe('RSOYDt4T1cUTdK1PDd93/VVr8B8=');
  });

  it('a genuine status callback verifies and maps; a forged one is refused', async () => {
    const [outcome] = await twilioAdapter.send(account, [sms()]);
    const id = outcome!.kind === 'accepted' ? outcome!.providerId : '';
    expect(await fake.deliver(id, 'delivered')).toBe(200);
    expect(twilioAdapter.statuses(received.at(-1)!)).toEqual([{ providerId: id, status: 'delivered' }]);
    expect(await fake.deliver(id, 'failed', { errorCode: '30003', forged: true })).toBe(403);
  });

  it('a changed body, a missing signature, another URL do not verify', async () => {
    const [outcome] = await twilioAdapter.send(account, [sms()]);
    const id = outcome!.kind === 'accepted' ? outcome!.providerId : '';
    expect(await fake.deliver(id, 'sent')).toBe(200);
    const genuine = received.at(-1)!;
    expect(twilioAdapter.verify(account, genuine)).toBe(true);
    const changed = Buffer.from(genuine.rawBody.toString().replace('MessageStatus=sent', 'MessageStatus=delivered'));
    expect(twilioAdapter.verify(account, { ...genuine, rawBody: changed })).toBe(false);
    expect(twilioAdapter.verify(account, { ...genuine, headers: { ...genuine.headers, 'x-twilio-signature': undefined } })).toBe(false);
    expect(twilioAdapter.verify(account, { ...genuine, url: genuine.url.replace('from=twilio', 'from=other') })).toBe(false);
    expect(twilioAdapter.verify({ ...account, credentials: { ...credentials, auth_token: 'another' } }, genuine)).toBe(false);
  });

  it('callbacks out of order and repeated each verify and read the same (Herald keeps the final one)', async () => {
    const [outcome] = await twilioAdapter.send(account, [sms()]);
    const id = outcome!.kind === 'accepted' ? outcome!.providerId : '';
    for (const status of ['delivered', 'sent', 'delivered', 'queued']) expect(await fake.deliver(id, status)).toBe(200);
    expect(received.map((callback) => twilioAdapter.statuses(callback)[0]!.status)).toEqual(['delivered', 'pending', 'delivered', 'pending']);
  });

  it('a JSON body is signed through bodySHA256 in the URL', () => {
    const body = Buffer.from(JSON.stringify({ MessageSid: 'SM1', MessageStatus: 'delivered' }));
    const url = `${account.statusCallbackUrl}&bodySHA256=${crypto.createHash('sha256').update(body).digest('hex')}`;
    const signature = crypto.createHmac('sha1', credentials.auth_token).update(url).digest('base64');
    const callback: ProviderCallback = { method: 'POST', url, headers: { 'x-twilio-signature': signature, 'content-type': 'application/json' }, rawBody: body };
    expect(twilioAdapter.verify(account, callback)).toBe(true);
    expect(twilioAdapter.verify(account, { ...callback, rawBody: Buffer.from(body.toString().replace('delivered', 'failed')) })).toBe(false);
  });

  it('maps every documented status; intermediate ones are pending', () => {
    const callback = (fields: Record<string, string>): ProviderCallback => ({
      method: 'POST',
      url: 'https://herald.example/cb',
      headers: {},
      rawBody: Buffer.from(new URLSearchParams(fields).toString()),
    });
    const status = (MessageStatus: string, ErrorCode?: string) =>
      twilioAdapter.statuses(callback({ MessageSid: 'SM1', MessageStatus, ...(ErrorCode ? { ErrorCode } : {}) }))[0];
    for (const pending of ['queued', 'accepted', 'scheduled', 'sending', 'sent']) expect(status(pending)).toEqual({ providerId: 'SM1', status: 'pending' });
    expect(status('delivered')).toEqual({ providerId: 'SM1', status: 'delivered' });
    expect(status('undelivered', '30003')).toEqual({ providerId: 'SM1', status: 'failed', errorCode: '30003' });
    expect(status('failed', '30007')).toEqual({ providerId: 'SM1', status: 'failed', errorCode: '30007' });
    expect(status('failed', '30036')).toEqual({ providerId: 'SM1', status: 'expired', errorCode: '30036' });
    expect(status('undelivered', '21610')).toEqual({ providerId: 'SM1', status: 'failed', errorCode: '21610', optedOut: true });
    expect(twilioAdapter.statuses(callback({ MessageStatus: 'delivered' }))).toEqual([]);
    // A status callback carries From and To as well: it is never read as a message from a handset.
    const fields = { MessageSid: 'SM1', SmsSid: 'SM1', From: '+447700900001', To: '+447700900777', AccountSid: credentials.account_sid };
    for (const state of ['sent', 'delivered', 'undelivered'])
      expect(twilioAdapter.inbound(callback({ ...fields, MessageStatus: state, SmsStatus: state })), state).toEqual([]);
    expect(twilioAdapter.inbound(callback({ ...fields, SmsStatus: 'received', Body: 'Hi' }))).toEqual([
      { providerId: 'SM1', from: '+447700900001', to: '+447700900777', body: 'Hi' },
    ]);
  });

  it('reads a signed inbound message', async () => {
    expect(await fake.inbound(`${herald}/api/2.0/sms-inbound/conn-1`, { from: '+447700900777', to: '+447700900001', body: 'STOP' })).toBe(200);
    const [message] = twilioAdapter.inbound(received.at(-1)!);
    expect(message).toMatchObject({ from: '+447700900777', to: '+447700900001', body: 'STOP' });
    expect(message!.providerId).toMatch(/^SM[0-9a-f]{32}$/);
    expect(await fake.inbound(`${herald}/api/2.0/sms-inbound/conn-1`, { from: '+447700900777', to: '+447700900001', body: 'START' }, { forged: true })).toBe(
      403,
    );
  });
});

/**
 * The Plivo adapter against the Plivo fake, over real loopback sockets: sending (one call per
 * sender and text, up to 1,000 destinations), every class of refusal from Plivo's documented
 * answers, V3 signatures on callbacks, status mapping and inbound messages.
 *
 * Seen red: with `verify` weakened to accept any signature once both headers are there (the HMAC
 * comparison replaced by a presence check), "refuses a forged, changed, unsigned or otherwise-nonced
 * callback" went red; with the `.` between query and body dropped from `plivoV3Base`, every test of a
 * genuine callback to a URL with a query went red (the status URL carries `?connection=`); with
 * `inbound` reading any payload with From, To and MessageUUID, a status callback was read as a
 * message from a handset (the inbound test red).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PlivoFake, plivoAnswers } from '../../../testing/provider-fakes/plivo-fake';
import { CallbackReceiver } from '../../../testing/provider-fakes/callback-receiver';
import { providerAgent } from './http-call';
import { plivoAdapter, plivoGroups } from './plivo';
import type { ProviderAccount, ProviderCallback, ProviderSms } from './provider';

const fake = new PlivoFake();
let account: ProviderAccount;
/** Herald's side of the callbacks: verifies each as the route will, answers 403 to a forgery. */
const receiver = new CallbackReceiver((callback) => plivoAdapter.verify(account, callback));
const sms = (n: number, extra: Partial<ProviderSms> = {}): ProviderSms => ({
  clientRef: `ref-${n}`,
  to: `+4477009${String(n).padStart(5, '0')}`,
  from: '+14155550100',
  body: 'Sale ends tonight',
  ...extra,
});

beforeAll(async () => {
  await fake.start();
  await receiver.start();
  account = {
    baseUrl: fake.baseUrl,
    credentials: { auth_id: fake.authId, auth_token: fake.authToken },
    statusCallbackUrl: `${receiver.baseUrl}/hooks/sms/plivo/status?connection=c1`,
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
  receiver.clear();
});

describe('plivoAdapter.send', () => {
  it('posts the documented JSON with Basic auth and the status url, and reads message_uuid[]', async () => {
    const outcomes = await plivoAdapter.send(account, [sms(1)]);
    expect(outcomes).toEqual([{ clientRef: 'ref-1', kind: 'accepted', providerId: fake.accepted[0]!.id }]);
    const request = fake.server.requests[0]!;
    expect(request.path).toBe(`/v1/Account/${fake.authId}/Message/`);
    expect(request.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request.body)).toEqual({
      src: '+14155550100',
      dst: '+447700900001',
      text: 'Sale ends tonight',
      url: account.statusCallbackUrl,
      method: 'POST',
    });
    expect(fake.accepted).toEqual([
      {
        id: expect.any(String),
        to: '+447700900001',
        from: '+14155550100',
        body: 'Sale ends tonight',
        callbackUrl: account.statusCallbackUrl,
        callbackMethod: 'POST',
      },
    ]);
  });

  it('carries one text to many destinations in one call, `<`-separated, and matches the uuids in order', async () => {
    const messages = Array.from({ length: 25 }, (_, i) => sms(i));
    const outcomes = await plivoAdapter.send(account, messages);
    expect(fake.server.requests).toHaveLength(1);
    expect(JSON.parse(fake.server.requests[0]!.body).dst.split('<')).toHaveLength(25);
    expect(outcomes.map((o) => (o.kind === 'accepted' ? o.providerId : o.kind))).toEqual(fake.accepted.map((a) => a.id));
    expect(fake.accepted.map((a) => a.to)).toEqual(messages.map((m) => m.to));
  });

  it('splits by text, never repeats a destination in a call, and keeps each call to 1,000', async () => {
    const messages = [
      ...Array.from({ length: 1001 }, (_, i) => sms(i)),
      sms(5000, { body: 'Another text' }),
      sms(1, { clientRef: 'again-1' }), // the same number twice: Plivo would drop the duplicate
    ];
    expect(plivoGroups(messages).map((g) => g.length)).toEqual([1000, 2, 1]);
    const outcomes = await plivoAdapter.send(account, messages);
    expect(fake.server.requests).toHaveLength(3);
    expect(outcomes.every((o) => o.kind === 'accepted')).toBe(true);
    expect(new Set(outcomes.map((o) => o.kind === 'accepted' && o.providerId)).size).toBe(messages.length);
    expect(outcomes.map((o) => o.clientRef)).toEqual(messages.map((m) => m.clientRef));
    expect(fake.accepted).toHaveLength(messages.length);
  });

  it('refuses the numbers Plivo lists in invalid_number as the recipient’s, and takes the others', async () => {
    fake.invalidNumbers.add('+447700900002');
    try {
      const outcomes = await plivoAdapter.send(account, [sms(1), sms(2), sms(3)]);
      expect(outcomes[0]).toMatchObject({ kind: 'accepted', providerId: fake.accepted[0]!.id });
      expect(outcomes[1]).toMatchObject({ kind: 'refused', errorClass: 'recipient', code: 'invalid_number' });
      expect(outcomes[2]).toMatchObject({ kind: 'accepted', providerId: fake.accepted[1]!.id });
      // When no destination is valid Plivo answers 400 about dst: still the recipient's.
      const alone = await plivoAdapter.send(account, [sms(2)]);
      expect(alone[0]).toMatchObject({ kind: 'refused', errorClass: 'recipient', code: '400' });
    } finally {
      fake.invalidNumbers.clear();
    }
  });

  it('429 with Retry-After and 5xx are transient, with the wait', async () => {
    fake.server.failNext(1, plivoAnswers.rateLimited(7));
    expect((await plivoAdapter.send(account, [sms(1), sms(2)])).map((o) => o.kind === 'refused' && [o.errorClass, o.code, o.retryAfterMs])).toEqual([
      ['transient', '429', 7000],
      ['transient', '429', 7000],
    ]);
    fake.server.failNext(1, plivoAnswers.serverError());
    expect(await plivoAdapter.send(account, [sms(1)])).toMatchObject([{ kind: 'refused', errorClass: 'transient', code: '500' }]);
    expect(fake.accepted).toHaveLength(0);
  });

  it('401, a wrong token and no credit are the account’s', async () => {
    fake.server.failNext(1, plivoAnswers.unauthorized());
    expect(await plivoAdapter.send(account, [sms(1)])).toMatchObject([{ kind: 'refused', errorClass: 'account', code: '401' }]);
    const wrong = { ...account, credentials: { ...account.credentials, auth_token: 'not-the-token' } };
    expect(await plivoAdapter.send(wrong, [sms(1)])).toMatchObject([{ kind: 'refused', errorClass: 'account', code: '401', message: 'authentication failed' }]);
    fake.server.failNext(1, plivoAnswers.insufficientCredit());
    expect(await plivoAdapter.send(account, [sms(1)])).toMatchObject([{ kind: 'refused', errorClass: 'account', code: '400', message: 'Insufficient Credit' }]);
    expect(fake.accepted).toHaveLength(0);
  });

  it('a provider that is down is transient and not sent; one that takes the call and never answers is in doubt', async () => {
    await fake.server.down();
    try {
      expect(await plivoAdapter.send({ ...account, agent: undefined }, [sms(1)])).toMatchObject([
        { kind: 'refused', errorClass: 'transient', code: 'ECONNREFUSED' },
      ]);
    } finally {
      await fake.server.up();
    }
    fake.server.silentNext(1);
    expect(await plivoAdapter.send({ ...account, agent: undefined }, [sms(1), sms(2)])).toMatchObject([
      { clientRef: 'ref-1', kind: 'in_doubt' },
      { clientRef: 'ref-2', kind: 'in_doubt' },
    ]);
  });
});

describe('plivoAdapter callbacks', () => {
  it('a genuine status callback verifies and maps; intermediate statuses are pending', async () => {
    const [outcome] = await plivoAdapter.send(account, [sms(1)]);
    const id = outcome!.kind === 'accepted' ? outcome!.providerId : '';
    expect(await fake.deliver(id, 'queued')).toBe(200);
    expect(await fake.deliver(id, 'sent')).toBe(200);
    expect(await fake.deliver(id, 'delivered')).toBe(200);
    expect(receiver.verified.flatMap((c) => plivoAdapter.statuses(c))).toEqual([
      { providerId: id, status: 'pending' },
      { providerId: id, status: 'pending' },
      { providerId: id, status: 'delivered' },
    ]);
  });

  it('repeated and out-of-order callbacks each verify and map as sent (the engine keeps the final one); a later part reports on its parent', async () => {
    await plivoAdapter.send(account, [sms(1)]);
    const id = fake.accepted[0]!.id;
    expect(await fake.deliver(id, 'delivered', { sequence: 3 })).toBe(200);
    expect(await fake.deliver(id, 'sent', { sequence: 2 })).toBe(200);
    expect(await fake.deliver(id, 'delivered', { sequence: 3 })).toBe(200);
    expect(await fake.deliver(id, 'delivered', { part: 2 })).toBe(200);
    expect(receiver.verified.flatMap((c) => plivoAdapter.statuses(c)).map((s) => [s.providerId, s.status])).toEqual([
      [id, 'delivered'],
      [id, 'pending'],
      [id, 'delivered'],
      [id, 'delivered'],
    ]);
  });

  it('failed and undelivered keep the ErrorCode; 200 is an opt-out at Plivo', async () => {
    await plivoAdapter.send(account, [sms(1), sms(2)]);
    const [a, b] = fake.accepted;
    expect(await fake.deliver(a!.id, 'undelivered', { errorCode: '50' })).toBe(200);
    expect(await fake.deliver(b!.id, 'failed', { errorCode: '200' })).toBe(200);
    expect(receiver.verified.flatMap((c) => plivoAdapter.statuses(c))).toEqual([
      { providerId: a!.id, status: 'failed', errorCode: '50' },
      { providerId: b!.id, status: 'failed', errorCode: '200', optedOut: true },
    ]);
  });

  it('refuses a forged, changed, unsigned or otherwise-nonced callback', async () => {
    await plivoAdapter.send(account, [sms(1)]);
    const id = fake.accepted[0]!.id;
    // a wrong token
    expect(await fake.deliver(id, 'delivered', { token: 'someone-else' })).toBe(403);
    // unsigned
    expect(await fake.deliver(id, 'delivered', { unsigned: true })).toBe(403);
    // a changed body
    const url = account.statusCallbackUrl;
    const genuine = fake.signed(url, { MessageUUID: id, Status: 'failed', ErrorCode: '50' });
    const changed = genuine.body.replace('failed', 'delivered');
    const post = (headers: Record<string, string>, body: string) => fetch(url, { method: 'POST', headers, body }).then((r) => r.status);
    expect(await post(genuine.headers, changed)).toBe(403);
    // the signature of another nonce
    expect(await post({ ...genuine.headers, 'x-plivo-signature-v3-nonce': 'another-nonce' }, genuine.body)).toBe(403);
    // and the genuine one passes, also among several comma-separated signatures
    expect(await post({ ...genuine.headers, 'x-plivo-signature-v3': `bm90LWl0, ${genuine.headers['x-plivo-signature-v3']}` }, genuine.body)).toBe(200);
    expect(receiver.refused).toBe(4);
    expect(receiver.verified).toHaveLength(1);
  });

  it('a callback URL with a query (and no query) verifies: the query is part of what Plivo signs', async () => {
    const withQuery = `${receiver.baseUrl}/hooks?b=2&a=1&a=0`;
    const form = { MessageUUID: 'u1', Status: 'sent' };
    const signed = fake.signed(withQuery, form);
    expect(await fetch(withQuery, { method: 'POST', headers: signed.headers, body: signed.body }).then((r) => r.status)).toBe(200);
    const plain = `${receiver.baseUrl}/hooks`;
    const signedPlain = fake.signed(plain, form);
    expect(await fetch(plain, { method: 'POST', headers: signedPlain.headers, body: signedPlain.body }).then((r) => r.status)).toBe(200);
    // The query signed for one URL does not pass on another.
    expect(await fetch(`${receiver.baseUrl}/hooks?b=3&a=1&a=0`, { method: 'POST', headers: signed.headers, body: signed.body }).then((r) => r.status)).toBe(
      403,
    );
  });

  it('reads an inbound message, numbers in E.164', async () => {
    expect(await fake.inbound(`${receiver.baseUrl}/hooks/sms/plivo/inbound`, { from: '+447700900123', to: '+14155550100', text: 'STOP' })).toBe(200);
    expect(plivoAdapter.inbound(receiver.verified[0]!)).toEqual([{ providerId: expect.any(String), from: '+447700900123', to: '+14155550100', body: 'STOP' }]);
    expect(
      await fake.inbound(`${receiver.baseUrl}/hooks/sms/plivo/inbound`, { from: '+447700900123', to: '+14155550100', text: 'STOP' }, { token: 'forged' }),
    ).toBe(403);
    // A status callback carries From, To and MessageUUID as well: it is never read as a message from a handset.
    const status = (Status: string): ProviderCallback => ({
      method: 'POST',
      url: 'https://herald.example/cb',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      rawBody: Buffer.from(new URLSearchParams({ MessageUUID: 'u1', From: '14155550100', To: '447700900123', Status, Type: 'sms' }).toString()),
    });
    for (const state of ['queued', 'sent', 'delivered', 'undelivered', 'failed']) expect(plivoAdapter.inbound(status(state)), state).toEqual([]);
  });
});

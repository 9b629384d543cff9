/**
 * The Sinch adapter against the Sinch fake, over real loopback sockets: batches as documented, every
 * error class from the fake's documented answers, signed delivery reports and inbound messages
 * verified by a small receiver that answers 403 to what `verify` refuses.
 *
 * Seen red: with `verify` weakened to ignore the signature timestamp (the window check removed), "a
 * stale timestamp" went red; with the HMAC compare removed (any signature accepted), "a changed body"
 * and "a wrong secret" went red.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SinchFake } from '../../../testing/provider-fakes/sinch-fake';
import { CallbackReceiver } from '../../../testing/provider-fakes/callback-receiver';
import { providerAgent } from './http-call';
import type { ProviderAccount, ProviderInbound, ProviderSms, ProviderStatus } from './provider';
import { sinchAdapter, sinchMessageId } from './sinch';

const credentials = { service_plan_id: 'a1b2c3d4e5f6', api_token: 'tok-0123456789abcdef', webhook_secret: 'whsec-sinch-test' };
let fake: SinchFake;
/** Herald's side, reduced to what this adapter decides: 403 unless verified, then statuses or inbound messages. */
const receiver = new CallbackReceiver(
  (callback) => sinchAdapter.verify(account, callback),
  (callback, path) => {
    if (path.startsWith('/inbound')) got.inbound.push(...sinchAdapter.inbound(callback));
    else got.statuses.push(...sinchAdapter.statuses(callback));
  },
);
let callbackBase: string;
let account: ProviderAccount;
const got = {
  statuses: [] as ProviderStatus[],
  inbound: [] as ProviderInbound[],
  /** Callbacks answered 403. */
  get refused(): number {
    return receiver.refused;
  },
};

const sms = (n: number, body = 'Spring sale: 20% off'): ProviderSms => ({
  clientRef: `msg-${n}`,
  to: `+4477009000${String(n).padStart(2, '0')}`,
  from: 'Herald',
  body,
});

beforeAll(async () => {
  fake = await new SinchFake(credentials).start();
  await receiver.start();
  callbackBase = receiver.baseUrl;
  account = { baseUrl: fake.baseUrl, credentials, statusCallbackUrl: `${callbackBase}/status`, timeoutMs: 1000, agent: providerAgent(fake.baseUrl) };
});
afterAll(async () => {
  account.agent?.destroy();
  await fake.stop();
  await receiver.stop();
});
beforeEach(() => {
  // A fresh keep-alive pool per test: sockets a restarted fake closed belong to no other test.
  account.agent?.destroy();
  account = { ...account, agent: providerAgent(fake.baseUrl) };
  fake.reset();
  got.statuses.length = 0;
  got.inbound.length = 0;
  receiver.clear();
});

describe('Sinch: send', () => {
  it('posts one batch as documented and gets each recipient accepted', async () => {
    const outcomes = await sinchAdapter.send(account, [sms(1), sms(2), sms(3)]);
    expect(fake.server.requests).toHaveLength(1);
    const [request] = fake.server.requests;
    expect(request!.path).toBe('/xms/v1/a1b2c3d4e5f6/batches');
    expect(request!.headers.authorization).toBe('Bearer tok-0123456789abcdef');
    expect(request!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request!.body)).toEqual({
      from: 'Herald',
      to: ['+447700900001', '+447700900002', '+447700900003'],
      body: 'Spring sale: 20% off',
      delivery_report: 'per_recipient',
      callback_url: `${callbackBase}/status`,
    });
    const batchId = fake.accepted[0]!.batchId;
    expect(outcomes).toEqual([1, 2, 3].map((n) => ({ clientRef: `msg-${n}`, kind: 'accepted', providerId: sinchMessageId(batchId, sms(n).to) })));
    expect(fake.accepted.map((message) => [message.id, message.to, message.callbackUrl])).toEqual(
      outcomes.map((outcome, i) => [outcome.kind === 'accepted' && outcome.providerId, sms(i + 1).to, `${callbackBase}/status`]),
    );
  });

  it('passes Herald’s message uuid as client_reference when the batch is one message', async () => {
    await sinchAdapter.send(account, [sms(7)]);
    expect(fake.accepted).toMatchObject([{ to: '+447700900007', clientRef: 'msg-7' }]);
  });

  it('cuts a hand-over into one batch per body, and never repeats a number in a batch', async () => {
    const messages = [sms(1, 'A'), sms(2, 'B'), sms(3, 'A'), { ...sms(1, 'A'), clientRef: 'msg-1b' }];
    const outcomes = await sinchAdapter.send(account, messages);
    expect(outcomes.map((outcome) => [outcome.clientRef, outcome.kind])).toEqual(messages.map((message) => [message.clientRef, 'accepted']));
    const batches = fake.server.requests.map((request) => JSON.parse(request.body) as { to: string[]; body: string });
    expect(batches.map((batch) => [batch.body, batch.to]).sort()).toEqual(
      [
        ['A', ['+447700900001', '+447700900003']],
        ['A', ['+447700900001']],
        ['B', ['+447700900002']],
      ].sort(),
    );
  });

  it('fills a batch up to 1,000 recipients and no further', async () => {
    const many = Array.from({ length: 1001 }, (_, n) => ({ clientRef: `m${n}`, to: `+1555${String(n).padStart(7, '0')}`, from: '12025550100', body: 'Hi' }));
    const outcomes = await sinchAdapter.send(account, many);
    expect(outcomes.every((outcome) => outcome.kind === 'accepted')).toBe(true);
    expect(fake.server.requests.map((request) => (JSON.parse(request.body) as { to: string[] }).to.length).sort()).toEqual([1, 1000]);
    expect(fake.accepted).toHaveLength(1001);
    expect(sinchAdapter.maxBatch).toBe(1000);
  });
});

describe('Sinch: errors, classified', () => {
  it('429 with Retry-After is transient, with the wait', async () => {
    fake.server.failNext(1, {
      status: 429,
      headers: { 'retry-after': '7', 'content-type': 'application/problem+json' },
      body: { title: 'Too Many Requests', status: 429 },
    });
    const [outcome] = await sinchAdapter.send(account, [sms(1)]);
    expect(outcome).toMatchObject({ kind: 'refused', errorClass: 'transient', code: '429', retryAfterMs: 7000 });
  });

  it('5xx is transient, for every message of the batch', async () => {
    fake.server.failNext(1, { status: 503, body: { code: 'service_unavailable', text: 'Service Unavailable' } });
    const outcomes = await sinchAdapter.send(account, [sms(1), sms(2)]);
    expect(outcomes).toMatchObject([
      { clientRef: 'msg-1', kind: 'refused', errorClass: 'transient', code: 'service_unavailable' },
      { clientRef: 'msg-2', kind: 'refused', errorClass: 'transient', code: 'service_unavailable' },
    ]);
    expect(fake.accepted).toHaveLength(0);
  });

  it('a provider that is down is transient (never sent)', async () => {
    await fake.server.down();
    try {
      const [outcome] = await sinchAdapter.send({ ...account, agent: undefined }, [sms(1)]);
      expect(outcome).toMatchObject({ kind: 'refused', errorClass: 'transient', code: 'ECONNREFUSED' });
    } finally {
      await fake.server.up();
    }
  });

  it('a request taken and never answered is in doubt, for every message of it', async () => {
    fake.server.silentNext(1);
    const outcomes = await sinchAdapter.send({ ...account, timeoutMs: 200 }, [sms(1), sms(2)]);
    expect(outcomes).toMatchObject([
      { clientRef: 'msg-1', kind: 'in_doubt' },
      { clientRef: 'msg-2', kind: 'in_doubt' },
    ]);
    expect(fake.server.requests).toHaveLength(1);
  });

  it('a wrong token is an account error (401)', async () => {
    const outcomes = await sinchAdapter.send({ ...account, credentials: { ...credentials, api_token: 'wrong' } }, [sms(1)]);
    expect(outcomes).toMatchObject([{ kind: 'refused', errorClass: 'account', code: 'unauthorized' }]);
  });

  it('a 403 of the account’s setup is an account error with Sinch’s code', async () => {
    fake.server.failNext(1, { status: 403, body: { code: 'missing_callback_url', text: 'Missing callback URL' } });
    const [outcome] = await sinchAdapter.send(account, [sms(1)]);
    expect(outcome).toMatchObject({ kind: 'refused', errorClass: 'account', code: 'missing_callback_url' });
  });

  it('an unknown service plan is an account error', async () => {
    const [outcome] = await sinchAdapter.send({ ...account, credentials: { ...credentials, service_plan_id: 'other' } }, [sms(1)]);
    expect(outcome).toMatchObject({ kind: 'refused', errorClass: 'account', code: 'not_found' });
  });

  it('an invalid number fails that message only (recipient), the rest of the batch goes out', async () => {
    const bad = { ...sms(2), to: '+0123' };
    const outcomes = await sinchAdapter.send(account, [sms(1), bad, sms(3)]);
    expect(outcomes[1]).toMatchObject({ clientRef: 'msg-2', kind: 'refused', errorClass: 'recipient', code: 'syntax_invalid_parameter_format' });
    expect([outcomes[0]!.kind, outcomes[2]!.kind]).toEqual(['accepted', 'accepted']);
    expect(fake.accepted.map((message) => message.to).sort()).toEqual(['+447700900001', '+447700900003']);
  });

  it('a sender Sinch will not take is an account error', async () => {
    const [outcome] = await sinchAdapter.send(account, [{ ...sms(1), from: '' }]);
    expect(outcome).toMatchObject({ kind: 'refused', errorClass: 'account', code: 'syntax_invalid_parameter_format' });
  });

  it('an opted-out or unroutable recipient is reported late, by a failed delivery report with its code', async () => {
    // Sinch documents no synchronous opt-out answer: refusals of a number arrive as reports (402 unroutable…).
    const [outcome] = await sinchAdapter.send(account, [sms(4)]);
    expect(outcome!.kind).toBe('accepted');
    const id = (outcome as { providerId: string }).providerId;
    expect(await fake.deliver(id, 'Failed', { code: 402 })).toBe(200);
    expect(got.statuses).toEqual([{ providerId: id, status: 'failed', errorCode: '402' }]);
  });
});

describe('Sinch: signed callbacks', () => {
  let id: string;
  beforeEach(async () => {
    const [outcome] = await sinchAdapter.send(account, [sms(9)]);
    id = (outcome as { providerId: string }).providerId;
  });

  it('a genuine report verifies and maps onto Herald’s status', async () => {
    expect(await fake.deliver(id, 'Delivered')).toBe(200);
    expect(got.statuses).toEqual([{ providerId: id, status: 'delivered' }]);
  });

  it('a changed body does not verify', async () => {
    expect(await fake.deliver(id, 'Failed', { tamper: true })).toBe(403);
    expect(got).toMatchObject({ statuses: [], refused: 1 });
  });

  it('a wrong secret does not verify', async () => {
    expect(await fake.deliver(id, 'Delivered', { secret: 'not-the-secret' })).toBe(403);
    expect(got).toMatchObject({ statuses: [], refused: 1 });
  });

  it('a missing signature does not verify', async () => {
    expect(await fake.deliver(id, 'Delivered', { unsigned: true })).toBe(403);
    expect(got).toMatchObject({ statuses: [], refused: 1 });
  });

  it('a stale timestamp (over 5 minutes) does not verify; one within the window does', async () => {
    const now = Math.floor(Date.now() / 1000);
    expect(await fake.deliver(id, 'Delivered', { timestamp: now - 6 * 60 })).toBe(403);
    expect(await fake.deliver(id, 'Delivered', { timestamp: now + 6 * 60 })).toBe(403);
    expect(await fake.deliver(id, 'Delivered', { timestamp: now - 4 * 60 })).toBe(200);
    expect(got).toMatchObject({ statuses: [{ providerId: id, status: 'delivered' }], refused: 2 });
  });

  it('refuses another algorithm than HmacSHA256', () => {
    const rawBody = Buffer.from('{"type":"recipient_delivery_report_sms"}');
    const headers = { ...fake.sign(rawBody.toString()), 'x-sinch-webhook-signature-algorithm': 'HmacSHA512' };
    expect(sinchAdapter.verify(account, { method: 'POST', url: `${callbackBase}/status`, headers, rawBody })).toBe(false);
    expect(sinchAdapter.verify(account, { method: 'POST', url: `${callbackBase}/status`, headers: fake.sign(rawBody.toString()), rawBody })).toBe(true);
  });

  it('maps intermediate statuses to pending and each final one with its code', async () => {
    for (const status of ['Queued', 'Dispatched', 'Delivered', 'Expired', 'Rejected', 'Unknown']) expect(await fake.deliver(id, status)).toBe(200);
    expect(got.statuses).toEqual([
      { providerId: id, status: 'pending' },
      { providerId: id, status: 'pending' },
      { providerId: id, status: 'delivered' },
      { providerId: id, status: 'expired', errorCode: '406' },
      { providerId: id, status: 'failed', errorCode: '408' },
      { providerId: id, status: 'expired', errorCode: '0' },
    ]);
  });

  it('reads a full (per-batch) report per recipient', () => {
    const report = {
      type: 'delivery_report_sms',
      batch_id: 'B1',
      total_message_count: 3,
      statuses: [
        { code: 0, status: 'Delivered', count: 2, recipients: ['447700900001', '447700900002'] },
        { code: 402, status: 'Failed', count: 1, recipients: ['447700900003'] },
      ],
    };
    const callback = { method: 'POST', url: `${callbackBase}/status`, headers: {}, rawBody: Buffer.from(JSON.stringify(report)) };
    expect(sinchAdapter.statuses(callback)).toEqual([
      { providerId: 'B1:447700900001', status: 'delivered' },
      { providerId: 'B1:447700900002', status: 'delivered' },
      { providerId: 'B1:447700900003', status: 'failed', errorCode: '402' },
    ]);
  });

  it('reads a signed inbound message, and refuses a forged one', async () => {
    expect(await fake.inbound(`${callbackBase}/inbound`, { from: '447700900123', to: '447700900999', body: 'STOP' })).toBe(200);
    expect(got.inbound).toEqual([{ providerId: expect.stringMatching(/^01MO/) as unknown as string, from: '447700900123', to: '447700900999', body: 'STOP' }]);
    expect(await fake.inbound(`${callbackBase}/inbound`, { from: '447700900123', to: '447700900999', body: 'STOP' }, { secret: 'forged' })).toBe(403);
    expect(got.inbound).toHaveLength(1);
  });
});

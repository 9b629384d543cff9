/**
 * The Infobip adapter against the Infobip fake, over real loopback sockets: bulk sends as documented,
 * every error class from the fake's documented answers, delivery reports and inbound messages
 * checked by a small receiver that answers 403 to what `verify` refuses.
 *
 * Infobip's per-message webhooks are unsigned, so the callback's proof is the secret `token` Herald
 * put in the URL (see infobip.ts). A body cannot be checked against it and it has no timestamp, so
 * "a changed body" and "a stale timestamp" do not apply here: a wrong token, a missing one and the
 * token of another account are refused.
 *
 * Seen red: with `verify` weakened to accept any non-empty token (the constant-time compare removed),
 * "a wrong token" and "another account's token" went red.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { InfobipFake } from '../../../testing/provider-fakes/infobip-fake';
import { CallbackReceiver } from '../../../testing/provider-fakes/callback-receiver';
import { providerAgent } from './http-call';
import { infobipAdapter, infobipCallbackToken, infobipCallbackUrl } from './infobip';
import type { ProviderAccount, ProviderInbound, ProviderSms, ProviderStatus } from './provider';

const credentials = { api_key: '0123456789abcdef0123456789abcdef-01234567-89ab-cdef-0123-456789abcdef' };
let fake: InfobipFake;
/** Herald's side, reduced to what this adapter decides: 403 unless verified, then statuses or inbound messages. */
const receiver = new CallbackReceiver(
  (callback) => infobipAdapter.verify(account, callback),
  (callback, path) => {
    if (path.startsWith('/inbound')) got.inbound.push(...infobipAdapter.inbound(callback));
    else got.statuses.push(...infobipAdapter.statuses(callback));
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

const sms = (n: number, body = `Hello ${n}`): ProviderSms => ({
  clientRef: `6f1c0c1e-0000-4000-8000-0000000000${String(n).padStart(2, '0')}`,
  to: `+4479460000${String(n).padStart(2, '0')}`,
  from: 'Herald',
  body,
});

beforeAll(async () => {
  fake = await new InfobipFake(credentials).start();
  await receiver.start();
  callbackBase = receiver.baseUrl;
  account = { baseUrl: fake.baseUrl, credentials, statusCallbackUrl: `${callbackBase}/status?connection=c1`, timeoutMs: 1000 };
});
afterAll(async () => {
  account.agent?.destroy();
  await fake.stop();
  await receiver.stop();
});
beforeEach(() => {
  account.agent?.destroy();
  account = { ...account, agent: providerAgent(fake.baseUrl) };
  fake.reset();
  got.statuses.length = 0;
  got.inbound.length = 0;
  receiver.clear();
});

describe('Infobip: send', () => {
  it('posts one bulk request as documented and gets each message accepted under Herald’s id', async () => {
    const outcomes = await infobipAdapter.send(account, [sms(1), sms(2, 'Other text')]);
    expect(fake.server.requests).toHaveLength(1);
    const [request] = fake.server.requests;
    expect(request!.path).toBe('/sms/3/messages');
    expect(request!.headers.authorization).toBe(`App ${credentials.api_key}`);
    expect(request!.headers['content-type']).toBe('application/json');
    const url = `${callbackBase}/status?connection=c1&token=${infobipCallbackToken(credentials.api_key)}`;
    expect(JSON.parse(request!.body)).toEqual({
      messages: [1, 2].map((n) => ({
        sender: 'Herald',
        destinations: [{ to: `4479460000${String(n).padStart(2, '0')}`, messageId: sms(n).clientRef }],
        content: { text: n === 1 ? 'Hello 1' : 'Other text' },
        webhooks: { delivery: { url, intermediateReport: true }, contentType: 'application/json' },
      })),
    });
    expect(outcomes).toEqual([1, 2].map((n) => ({ clientRef: sms(n).clientRef, kind: 'accepted', providerId: sms(n).clientRef })));
    expect(fake.accepted.map((message) => [message.id, message.to, message.body, message.callbackUrl])).toEqual([
      [sms(1).clientRef, '447946000001', 'Hello 1', url],
      [sms(2).clientRef, '447946000002', 'Other text', url],
    ]);
  });

  it('cuts a hand-over into requests of at most maxBatch messages', async () => {
    const many = Array.from({ length: infobipAdapter.maxBatch + 1 }, (_, n) => ({ ...sms(n % 90), clientRef: `ref-${n}` }));
    const outcomes = await infobipAdapter.send(account, many);
    expect(outcomes.every((outcome) => outcome.kind === 'accepted')).toBe(true);
    expect(fake.server.requests.map((request) => (JSON.parse(request.body) as { messages: unknown[] }).messages.length)).toEqual([infobipAdapter.maxBatch, 1]);
    expect(fake.accepted).toHaveLength(many.length);
  });

  it('a message sent again after an in-doubt call is taken once: the duplicate id reads as accepted', async () => {
    fake.server.silentNext(1);
    const [doubt] = await infobipAdapter.send({ ...account, timeoutMs: 200 }, [sms(5)]);
    expect(doubt).toMatchObject({ kind: 'in_doubt' });
    // The silent call was read whole but never handled by the fake; this resend is taken, then a second one is a duplicate.
    const [first] = await infobipAdapter.send(account, [sms(5)]);
    const [again] = await infobipAdapter.send(account, [sms(5)]);
    expect([first, again]).toEqual([
      { clientRef: sms(5).clientRef, kind: 'accepted', providerId: sms(5).clientRef },
      { clientRef: sms(5).clientRef, kind: 'accepted', providerId: sms(5).clientRef },
    ]);
    expect(fake.accepted.filter((message) => message.id === sms(5).clientRef)).toHaveLength(1);
  });
});

describe('Infobip: errors, classified', () => {
  it('429 E429 with Retry-After is transient, with the wait', async () => {
    fake.server.failNext(1, { status: 429, headers: { 'retry-after': '12' }, body: { errorCode: 'E429', description: 'Too many requests sent.' } });
    const [outcome] = await infobipAdapter.send(account, [sms(1)]);
    expect(outcome).toMatchObject({ kind: 'refused', errorClass: 'transient', code: 'E429', retryAfterMs: 12_000 });
  });

  it('5xx is transient for every message of the request', async () => {
    fake.server.failNext(1, { status: 500, body: { errorCode: 'E500', description: 'Internal server error.' } });
    const outcomes = await infobipAdapter.send(account, [sms(1), sms(2)]);
    expect(outcomes).toMatchObject([
      { kind: 'refused', errorClass: 'transient', code: 'E500' },
      { kind: 'refused', errorClass: 'transient', code: 'E500' },
    ]);
  });

  it('a provider that is down is transient (never sent)', async () => {
    await fake.server.down();
    try {
      const [outcome] = await infobipAdapter.send({ ...account, agent: undefined }, [sms(1)]);
      expect(outcome).toMatchObject({ kind: 'refused', errorClass: 'transient', code: 'ECONNREFUSED' });
    } finally {
      await fake.server.up();
    }
  });

  it('a request taken and never answered is in doubt for every message of it', async () => {
    fake.server.silentNext(1);
    const outcomes = await infobipAdapter.send({ ...account, timeoutMs: 200 }, [sms(1), sms(2)]);
    expect(outcomes).toMatchObject([{ kind: 'in_doubt' }, { kind: 'in_doubt' }]);
  });

  it('a wrong API key is an account error (401 E401)', async () => {
    const [outcome] = await infobipAdapter.send({ ...account, credentials: { api_key: 'wrong' } }, [sms(1)]);
    expect(outcome).toMatchObject({ kind: 'refused', errorClass: 'account', code: 'E401' });
  });

  it('no credit and a refused sender are account errors, with Infobip’s status name', async () => {
    fake.rejectNumber(sms(1).to, 'REJECTED_NOT_ENOUGH_CREDITS');
    fake.rejectNumber(sms(2).to, 'REJECTED_SENDER');
    const outcomes = await infobipAdapter.send(account, [sms(1), sms(2), sms(3)]);
    expect(outcomes).toMatchObject([
      { kind: 'refused', errorClass: 'account', code: 'REJECTED_NOT_ENOUGH_CREDITS' },
      { kind: 'refused', errorClass: 'account', code: 'REJECTED_SENDER' },
      { kind: 'accepted' },
    ]);
  });

  it('a blocklisted (opted-out) number is a recipient error that records the opt-out', async () => {
    fake.rejectNumber(sms(4).to, 'REJECTED_DESTINATION_BLOCKLISTED');
    const [outcome] = await infobipAdapter.send(account, [sms(4)]);
    expect(outcome).toMatchObject({ kind: 'refused', errorClass: 'recipient', code: 'REJECTED_DESTINATION_BLOCKLISTED', optedOut: true });
  });

  it('an invalid number fails that message only (recipient); the rest of the request goes out', async () => {
    const outcomes = await infobipAdapter.send(account, [sms(1), { ...sms(2), to: '+0123' }, sms(3)]);
    expect(outcomes[1]).toMatchObject({ kind: 'refused', errorClass: 'recipient', code: 'E400' });
    expect(outcomes[1]!.kind === 'refused' && outcomes[1]!.message).toContain('destinations[0].to');
    expect([outcomes[0]!.kind, outcomes[2]!.kind]).toEqual(['accepted', 'accepted']);
    expect(fake.accepted.map((message) => message.to)).toEqual(['447946000001', '447946000003']);
  });

  it('a 400 on the sender is an account error', async () => {
    const [outcome] = await infobipAdapter.send(account, [{ ...sms(1), from: '' }]);
    expect(outcome).toMatchObject({ kind: 'refused', errorClass: 'account', code: 'E400' });
  });
});

describe('Infobip: callbacks', () => {
  let id: string;
  beforeEach(async () => {
    const [outcome] = await infobipAdapter.send(account, [sms(9)]);
    id = (outcome as { providerId: string }).providerId;
  });

  it('a report to the URL with the account’s token verifies and maps', async () => {
    expect(await fake.deliver(id, 'DELIVERED_TO_HANDSET')).toBe(200);
    expect(got.statuses).toEqual([{ providerId: id, status: 'delivered' }]);
  });

  it('a wrong token is refused', async () => {
    expect(
      await fake.deliver(id, 'DELIVERED_TO_HANDSET', { token: infobipCallbackToken(credentials.api_key).replace(/^./, (c) => (c === 'A' ? 'B' : 'A')) }),
    ).toBe(403);
    expect(got).toMatchObject({ statuses: [], refused: 1 });
  });

  it('another account’s token is refused', async () => {
    expect(await fake.deliver(id, 'DELIVERED_TO_HANDSET', { token: infobipCallbackToken('someone-else') })).toBe(403);
    expect(got).toMatchObject({ statuses: [], refused: 1 });
  });

  it('a missing token is refused', async () => {
    expect(await fake.deliver(id, 'DELIVERED_TO_HANDSET', { token: null })).toBe(403);
    expect(got).toMatchObject({ statuses: [], refused: 1 });
  });

  it('maps intermediate statuses to pending (DELIVERED_TO_OPERATOR included) and finals with their code', async () => {
    for (const name of ['PENDING_ENROUTE', 'DELIVERED_TO_OPERATOR', 'DELIVERED_TO_HANDSET', 'EXPIRED_EXPIRED', 'REJECTED_DESTINATION_BLOCKLISTED'])
      expect(await fake.deliver(id, name)).toBe(200);
    expect(await fake.deliver(id, 'UNDELIVERABLE_NOT_DELIVERED', { error: { id: 1, name: 'EC_UNKNOWN_SUBSCRIBER', permanent: true } })).toBe(200);
    expect(got.statuses).toEqual([
      { providerId: id, status: 'pending' },
      { providerId: id, status: 'pending' },
      { providerId: id, status: 'delivered' },
      { providerId: id, status: 'expired', errorCode: 'EXPIRED_EXPIRED' },
      { providerId: id, status: 'failed', errorCode: 'REJECTED_DESTINATION_BLOCKLISTED', optedOut: true },
      { providerId: id, status: 'failed', errorCode: 'EC_UNKNOWN_SUBSCRIBER' },
    ]);
  });

  it('reads an inbound message at the inbound URL that carries the token, and refuses one without', async () => {
    const inboundUrl = infobipCallbackUrl(`${callbackBase}/inbound`, credentials.api_key);
    expect(await fake.inbound(inboundUrl, { from: '447946000123', to: '447946000999', body: 'STOP' })).toBe(200);
    expect(got.inbound).toEqual([
      { providerId: expect.stringMatching(/^[0-9a-f]{32}$/) as unknown as string, from: '447946000123', to: '447946000999', body: 'STOP' },
    ]);
    expect(await fake.inbound(inboundUrl, { from: '447946000123', to: '447946000999', body: 'STOP' }, { token: null })).toBe(403);
    expect(got.inbound).toHaveLength(1);
    expect(got.statuses).toEqual([]);
  });
});

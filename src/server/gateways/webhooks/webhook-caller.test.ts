import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookReceiver } from '../../testing/webhook-receiver';
import { verifiedBody } from '../../testing/standard-webhooks';
import { createWebhookCaller, newSigningSecret } from './webhook-caller';

// A real receiver listens on loopback: a refused call must never reach it, whatever spelling of the
// address the URL uses (the WHATWG URL parser and DNS both have their say before the check).
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
let port: number;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
  port = Number(new URL(receiver.url).port);
});
afterAll(() => receiver.close());

const call = (url: string, allowPrivate = false, timeoutMs = 5_000) =>
  createWebhookCaller({ allowPrivate, timeoutMs })({ url, headers: {}, secret: 'whsec_c2VjcmV0', payload: { event: 'test' } });

describe('webhook calls to private networks (SSRF)', () => {
  const loopbackSpellings = [
    ['IPv4 literal', 'http://127.0.0.1:PORT/hook'],
    ['short IPv4', 'http://127.1:PORT/hook'],
    ['decimal IPv4', 'http://2130706433:PORT/hook'],
    ['hexadecimal IPv4', 'http://0x7f000001:PORT/hook'],
    ['octal IPv4', 'http://0177.0.0.1:PORT/hook'],
    ['mixed hex/octal dotted IPv4', 'http://0x7f.0.00.1:PORT/hook'],
    ['IPv6 loopback', 'http://[::1]:PORT/hook'],
    ['IPv4-mapped IPv6', 'http://[::ffff:127.0.0.1]:PORT/hook'],
    ['IPv4-mapped IPv6 in hex', 'http://[::ffff:7f00:1]:PORT/hook'],
    ['unspecified IPv4', 'http://0.0.0.0:PORT/hook'],
    ['unspecified IPv6', 'http://[::]:PORT/hook'],
    ['a name resolving to loopback', 'http://localhost:PORT/hook'],
  ] as const;

  it.each(loopbackSpellings)('refuses the %s form, and the receiver hears nothing', async (_form, template) => {
    const outcome = await call(template.replace('PORT', String(port)));
    expect(outcome.statusCode).toBeNull();
    expect(outcome.error).toMatch(/private address|calls to private networks are refused/);
    expect(receiver.calls).toHaveLength(0);
  });

  it.each([
    ['cloud metadata (link-local)', 'http://169.254.169.254/latest/meta-data/'],
    ['RFC 1918 10/8', 'http://10.0.0.1/hook'],
    ['RFC 1918 172.16/12', 'http://172.20.1.1/hook'],
    ['RFC 1918 192.168/16', 'https://192.168.0.10/hook'],
    ['carrier-grade NAT', 'http://100.64.0.1/hook'],
    ['IPv6 unique local', 'http://[fd00::1]/hook'],
    ['IPv6 link-local', 'http://[fe80::1]/hook'],
    ['NAT64 of a private IPv4', 'http://[64:ff9b::a00:1]/hook'],
  ])('refuses %s without connecting', async (_range, url) => {
    const outcome = await call(url);
    expect(outcome).toMatchObject({ statusCode: null, error: expect.stringMatching(/private/) });
  });

  it('calls a private address only when WEBHOOK_ALLOW_PRIVATE is set', async () => {
    const outcome = await call(receiver.url, true);
    expect(outcome).toMatchObject({ statusCode: 200, error: null });
    expect(receiver.calls).toHaveLength(1);
    receiver.calls.length = 0;
  });

  it('never follows a redirect, so a receiver cannot bounce the call to an internal address', async () => {
    const internal = await startWebhookReceiver();
    const bouncer = await startWebhookReceiver({ redirectTo: internal.url });
    try {
      // Allowed to reach the bouncer (both are on loopback here); the 302 is the answer.
      const outcome = await call(bouncer.url, true);
      expect(outcome).toMatchObject({ statusCode: 302, error: 'The receiver answered 302.' });
      expect(bouncer.calls).toHaveLength(1);
      expect(internal.calls).toHaveLength(0);
    } finally {
      await bouncer.close();
      await internal.close();
    }
  });

  it('gives up on a receiver that never answers, after the timeout', async () => {
    const hanging = await startWebhookReceiver({ hang: true });
    try {
      const outcome = await call(hanging.url, true, 300);
      expect(outcome).toMatchObject({ statusCode: null, error: 'No answer within 0.3 s.' });
    } finally {
      await hanging.close();
    }
  });

  it('signs per Standard Webhooks: the reference library verifies the call under each secret it was signed with, and only those', async () => {
    const [current, previous, stranger] = [newSigningSecret(), newSigningSecret(), newSigningSecret()];
    const outcome = await createWebhookCaller({ allowPrivate: true, timeoutMs: 5_000 })({
      url: receiver.url,
      headers: {},
      secret: [current, previous],
      payload: { type: 'test', data: { n: 1 } },
      id: 'delivery-1',
    });
    expect(outcome.error).toBeNull();
    const sent = receiver.calls.at(-1)!;
    receiver.calls.length = 0;
    expect(sent.headers['webhook-id']).toBe('delivery-1');
    expect(verifiedBody(current, sent)).toEqual({ type: 'test', data: { n: 1 } });
    expect(verifiedBody(previous, sent)).toEqual({ type: 'test', data: { n: 1 } });
    expect(() => verifiedBody(stranger, sent)).toThrow(/No matching signature/);
  });
});

/**
 * A loopback Vonage SMS API, faithful to its documentation:
 * - https://developer.vonage.com/en/api/sms: `POST /sms/json`, form-encoded; `api_key` with
 *   `api_secret`, or `api_key` + `timestamp` + `sig` (signed request); `from`, `to` (7 to 15 digits,
 *   no `+`), `text`, `type`, `callback`, `client-ref` (≤40). Always HTTP 200:
 *   `{"message-count": "1", "messages": [{to, "message-id", status: "0", "remaining-balance",
 *   "message-price", network, "client-ref"}]}`, one entry per part of a long text; a refusal is an
 *   entry `{status, "error-text"}`;
 * - https://developer.vonage.com/en/api-errors/sms: 2 missing params, 3 invalid params, 4 invalid
 *   credentials, 7 number barred, 14 invalid signature…;
 * - https://developer.vonage.com/en/messaging/sms/guides/delivery-receipts: receipts with
 *   `msisdn`, `to`, `network-code`, `messageId`, `price`, `status`, `scts`, `err-code`, `api-key`,
 *   `client-ref`, `message-timestamp`, sent as GET, POST or POST-JSON (a dashboard setting);
 * - https://developer.vonage.com/en/opt-out-assist/guides/messaging-opted-out-numbers: a send to an
 *   opted-out number is accepted, and its receipt says `failed` with `err-code` 9;
 * - https://developer.vonage.com/en/getting-started/concepts/signing-messages: signed webhooks carry
 *   `timestamp`, `nonce` and `sig`;
 * - https://developer.vonage.com/en/messaging/sms/guides/inbound-sms: inbound fields.
 */
import crypto from 'node:crypto';
import { FakeServer, postCallback } from './fake-server';
import type { FakeAnswer, FakeRequest } from './fake-server';

export type VonageAccepted = {
  id: string;
  to: string;
  from: string;
  body: string;
  callbackUrl: string | undefined;
  clientRef: string | undefined;
  parts: string[];
};
export type VonageAccount = { api_key: string; api_secret: string; signature_secret: string };
/** How the dashboard says receipts and inbound messages are sent. */
export type VonageWebhookMethod = 'GET' | 'POST' | 'POST-JSON';

/** Vonage's md5-hash signing, written here apart from the adapter's so that one mistake cannot hide in both. */
function md5Sign(params: Record<string, string>, secret: string): string {
  let base = '';
  for (const name of Object.keys(params).sort()) if (name !== 'sig') base += `&${name}=${params[name]!.replace(/&/g, '_').replace(/=/g, '_')}`;
  return crypto
    .createHash('md5')
    .update(base + secret)
    .digest('hex');
}

const reject = (status: string, text: string): FakeAnswer => ({ status: 200, body: { 'message-count': '1', messages: [{ status, 'error-text': text }] } });

export class VonageFake extends FakeServer {
  readonly accepted: VonageAccepted[] = [];
  /** Numbers that opted out (Opt-Out Assist): accepted, then a failed receipt with err-code 9. */
  readonly optedOut = new Set<string>();
  /** Numbers the network bars: refused with status 7. */
  readonly barred = new Set<string>();
  private sequence = 0;

  constructor(
    readonly account: VonageAccount,
    public webhookMethod: VonageWebhookMethod = 'POST-JSON',
  ) {
    super((request) => this.answer(request));
  }

  private answer(request: FakeRequest): FakeAnswer {
    if (request.path !== '/sms/json') return { status: 404, body: '' };
    if (request.method !== 'POST' && request.method !== 'GET') return { status: 405, body: '' };
    const params: Record<string, string> = Object.fromEntries(request.query);
    if ((request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded'))
      Object.assign(params, Object.fromEntries(new URLSearchParams(request.body)));
    if (params.api_key !== this.account.api_key) return reject('4', 'Bad Credentials');
    if (params.sig !== undefined) {
      const fresh = Math.abs(Date.now() / 1000 - Number(params.timestamp)) <= 300;
      if (!fresh || md5Sign(params, this.account.signature_secret) !== params.sig.toLowerCase()) return reject('14', 'Invalid Signature');
    } else if (params.api_secret !== this.account.api_secret) return reject('4', 'Bad Credentials');
    for (const name of ['from', 'to', 'text']) if (!params[name]) return reject('2', `Missing ${name} param`);
    const to = params.to!;
    if (!/^\d{7,15}$/.test(to)) return reject('3', 'Invalid to param');
    if (this.barred.has(to)) return reject('7', 'Number barred');
    if (params['client-ref'] !== undefined && params['client-ref'].length > 40) return reject('3', 'Invalid client-ref param');
    const text = params.text!;
    const unicode = params.type === 'unicode';
    const [single, part] = unicode ? [70, 67] : [160, 153];
    const count = text.length <= single ? 1 : Math.ceil(text.length / part);
    const parts = Array.from({ length: count }, () => `${(++this.sequence).toString(16).toUpperCase().padStart(16, '0')}`);
    this.accepted.push({ id: parts[0]!, to, from: params.from!, body: text, callbackUrl: params.callback, clientRef: params['client-ref'], parts });
    return {
      status: 200,
      body: {
        'message-count': String(count),
        messages: parts.map((id) => ({
          to,
          'message-id': id,
          status: '0',
          'remaining-balance': '3.14159265',
          'message-price': '0.03330000',
          network: '23410',
          ...(params['client-ref'] ? { 'client-ref': params['client-ref'] } : {}),
        })),
      },
    };
  }

  /** The next `times` calls get Vonage's throttling answer: HTTP 200 with status 1 (30 requests a second per API key). */
  throttleNext(times: number): void {
    this.failNext(times, reject('1', 'Throughput Rate Exceeded - please wait [ 1000 ] and retry'));
  }

  /** Adds `timestamp`, `nonce` and `sig` (with a wrong secret when `forged`, an old timestamp when `stale`), and sends as the dashboard says. */
  private async post(url: string, fields: Record<string, string>, options: { forged?: boolean; stale?: boolean; unsigned?: boolean }): Promise<number> {
    const params: Record<string, string> = { ...fields };
    if (!options.unsigned) {
      params.timestamp = String(Math.floor(Date.now() / 1000) - (options.stale ? 3600 : 0));
      params.nonce = crypto.randomUUID();
      params.sig = md5Sign(params, options.forged ? `${this.account.signature_secret}-not` : this.account.signature_secret);
    }
    if (this.webhookMethod === 'GET') {
      const target = new URL(url);
      for (const [name, value] of Object.entries(params)) target.searchParams.set(name, value);
      return postCallback(target.toString(), { method: 'GET', headers: {}, body: '' });
    }
    if (this.webhookMethod === 'POST')
      return postCallback(url, { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(params).toString() });
    return postCallback(url, { headers: { 'content-type': 'application/json' }, body: JSON.stringify(params) });
  }

  /** Sends the delivery receipt of one part (the first unless `part`) to the message's `callback`; Herald's HTTP status. */
  async deliver(
    id: string,
    status: string,
    options: { errCode?: string; part?: number; forged?: boolean; stale?: boolean; unsigned?: boolean } = {},
  ): Promise<number> {
    const message = this.accepted.find((accepted) => accepted.id === id);
    if (!message?.callbackUrl) throw new Error(`no message ${id} with a callback`);
    const errCode = options.errCode ?? (status === 'delivered' ? '0' : this.optedOut.has(message.to) ? '9' : '1');
    const now = new Date();
    const stamp = now.toISOString().replace('T', ' ').slice(0, 19);
    const fields: Record<string, string> = {
      msisdn: message.to,
      to: message.from,
      'network-code': '23410',
      messageId: message.parts[options.part ?? 0]!,
      price: '0.03330000',
      status,
      scts: stamp.replace(/\D/g, '').slice(2, 12),
      'err-code': errCode,
      'api-key': this.account.api_key,
      'message-timestamp': stamp,
      ...(message.clientRef ? { 'client-ref': message.clientRef } : {}),
    };
    return this.post(message.callbackUrl, fields, options);
  }

  /** Sends a message from a handset to the number's inbound webhook; Herald's HTTP status. */
  async inbound(
    url: string,
    message: { from: string; to: string; body: string },
    options: { forged?: boolean; stale?: boolean; unsigned?: boolean } = {},
  ): Promise<number> {
    const stamp = new Date().toISOString().replace('T', ' ').slice(0, 19);
    const fields: Record<string, string> = {
      msisdn: message.from.replace(/^\+/, ''),
      to: message.to.replace(/^\+/, ''),
      messageId: `${(++this.sequence).toString(16).toUpperCase().padStart(16, '0')}`,
      text: message.body,
      type: 'text',
      keyword: (message.body.trim().split(/\s+/)[0] ?? '').toUpperCase(),
      'api-key': this.account.api_key,
      'message-timestamp': stamp,
    };
    return this.post(url, fields, options);
  }
}

/**
 * A loopback fake of Plivo's SMS API, faithful to its public documentation:
 * - https://www.plivo.com/docs/messaging/api/message/send-a-message and
 *   https://www.plivo.com/docs/messaging/api/message/bulk-messaging: `POST /v1/Account/{auth_id}/Message/`,
 *   HTTP Basic `auth_id:auth_token`, JSON; `src` or `powerpack_uuid` (one of them), `dst` (up to 1,000
 *   unique numbers joined by `<`, duplicates dropped), `text`, `url`, `method`; answers HTTP 202
 *   `{api_id, message: "message(s) queued", message_uuid: [...], invalid_number?: [...]}`;
 * - https://www.plivo.com/docs/messaging/api/overview: 400 for a missing or invalid parameter, 401
 *   when authentication fails, 404, 405, 429 "Too many requests, rate limited", 500;
 * - https://www.plivo.com/docs/messaging/api/message/message-status-callbacks: form POSTs to `url`
 *   with `MessageUUID`, `To`, `From`, `Status`, `ErrorCode` (failed/undelivered only), `Sequence`…;
 * - https://www.plivo.com/docs/messaging/concepts/signature-validation: `X-Plivo-Signature-V3` and
 *   `X-Plivo-Signature-V3-Nonce`, base64 HMAC-SHA256 of the URL, its sorted query, the sorted body
 *   parameters and the nonce (as plivo/plivo-node `lib/utils/v3Security.js` checks it).
 *
 * Its signer is written here on its own, not borrowed from the adapter, so that the two check each other.
 */
import crypto from 'node:crypto';
import { FakeServer, postCallback } from './fake-server';
import type { FakeAnswer, FakeRequest } from './fake-server';

export type PlivoAccepted = { id: string; to: string; from: string; body: string; callbackUrl?: string; callbackMethod: string };
export type PlivoCallbackOptions = {
  errorCode?: string;
  sequence?: number;
  /** Reports on a later part of a long message: its own MessageUUID, the accepted one as ParentMessageUUID. */
  part?: number;
  /** Signs with this token instead of the account's (a forgery). */
  token?: string;
  unsigned?: boolean;
};

const apiId = () => crypto.randomUUID();
const error = (status: number, text: string): FakeAnswer => ({ status, body: { api_id: apiId(), error: text } });

/** Plivo's documented error answers, for `failNext`. */
export const plivoAnswers = {
  rateLimited: (retryAfterSeconds?: number): FakeAnswer => ({
    ...error(429, 'Too many requests, rate limited'),
    ...(retryAfterSeconds !== undefined ? { headers: { 'retry-after': String(retryAfterSeconds) } } : {}),
  }),
  serverError: (): FakeAnswer => error(500, 'internal server error'),
  unauthorized: (): FakeAnswer => error(401, 'authentication failed'),
  insufficientCredit: (): FakeAnswer => error(400, 'Insufficient Credit'),
};

/** `+` is optional in Plivo's numbers; a valid one is 7 to 15 digits. */
const validNumber = (phone: string) => /^\+?[1-9]\d{6,14}$/.test(phone);

/** The V3 signature of a form POST to `url` (query kept in the URL), as Plivo computes it. */
export function plivoV3Signature(token: string, url: string, form: Record<string, string>, nonce: string): string {
  const target = new URL(url);
  const byKeyThenValue = ([ak, av]: [string, string], [bk, bv]: [string, string]) => (ak !== bk ? (ak < bk ? -1 : 1) : av < bv ? -1 : av > bv ? 1 : 0);
  const query = [...target.searchParams].sort(byKeyThenValue).map(([k, v]) => `${k}=${v}`);
  const keys = Object.keys(form).sort();
  let text = `${target.protocol}//${target.host}${target.pathname}`;
  if (query.length || keys.length) text += `?${query.join('&')}`;
  if (query.length && keys.length) text += '.';
  for (const key of keys) text += key + form[key];
  text += `.${nonce}`;
  return crypto.createHmac('sha256', token).update(text).digest('base64');
}

export class PlivoFake {
  readonly server: FakeServer;
  readonly accepted: PlivoAccepted[] = [];
  /** Numbers Plivo lists in `invalid_number` even though they look valid (unallocated ranges…). */
  readonly invalidNumbers = new Set<string>();
  private sequence = 0;

  constructor(
    readonly authId = 'MAFAKEAUTHID0000000',
    readonly authToken = 'plivo-fake-auth-token',
  ) {
    this.server = new FakeServer((request) => this.handle(request));
  }

  get baseUrl(): string {
    return this.server.baseUrl;
  }

  async start(): Promise<this> {
    await this.server.start();
    return this;
  }

  async stop(): Promise<void> {
    await this.server.stop();
  }

  private handle(request: FakeRequest): FakeAnswer {
    const match = /^\/v1\/Account\/([^/]+)\/Message\/$/.exec(request.path);
    if (!match) return error(404, 'not found');
    if (request.method !== 'POST') return error(405, 'method not allowed');
    const expected = `Basic ${Buffer.from(`${this.authId}:${this.authToken}`).toString('base64')}`;
    if (request.headers.authorization !== expected || decodeURIComponent(match[1]!) !== this.authId) return error(401, 'authentication failed');
    if (!String(request.headers['content-type'] ?? '').startsWith('application/json')) return error(400, 'content type must be application/json');
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(request.body) as Record<string, unknown>;
    } catch {
      return error(400, 'invalid JSON');
    }
    const hasSrc = typeof body.src === 'string' && body.src !== '';
    const hasPowerpack = typeof body.powerpack_uuid === 'string' && body.powerpack_uuid !== '';
    if (hasSrc === hasPowerpack) return error(400, 'specify exactly one of src and powerpack_uuid');
    if (typeof body.dst !== 'string' || body.dst === '') return error(400, 'dst parameter is missing');
    if (typeof body.text !== 'string' || body.text === '') return error(400, 'text parameter is missing');
    if (body.url !== undefined && (typeof body.url !== 'string' || !/^https?:\/\//.test(body.url))) return error(400, 'url parameter is invalid');
    const method = body.method === undefined ? 'POST' : String(body.method);
    if (method !== 'POST' && method !== 'GET') return error(400, 'method parameter is invalid');

    const destinations = [...new Set(body.dst.split('<'))];
    if (destinations.length > 1000) return error(400, 'too many destination numbers: at most 1000 unique dst');
    const invalid = destinations.filter((d) => !validNumber(d) || this.invalidNumbers.has(d));
    const uuids: string[] = [];
    for (const to of destinations) {
      if (invalid.includes(to)) continue;
      const id = crypto.randomUUID();
      uuids.push(id);
      this.accepted.push({
        id,
        to,
        from: String(body.src ?? body.powerpack_uuid),
        body: body.text,
        callbackUrl: body.url as string | undefined,
        callbackMethod: method,
      });
    }
    if (uuids.length === 0) return error(400, 'dst parameter is invalid: no valid destination number');
    return {
      status: 202,
      body: { api_id: apiId(), message: 'message(s) queued', message_uuid: uuids, ...(invalid.length ? { invalid_number: invalid } : {}) },
    };
  }

  /** Posts a signed status callback for an accepted message to the `url` it named; Herald's HTTP status. */
  async deliver(id: string, status: string, options: PlivoCallbackOptions = {}): Promise<number> {
    const message = this.accepted.find((m) => m.id === id);
    if (!message?.callbackUrl) throw new Error(`no accepted message ${id} with a callback url`);
    const form: Record<string, string> = {
      MessageUUID: options.part && options.part > 1 ? crypto.randomUUID() : id,
      ParentMessageUUID: id,
      To: message.to.replace(/^\+/, ''),
      From: message.from.replace(/^\+/, ''),
      Type: 'sms',
      Status: status,
      Units: '1',
      PartInfo: options.part ? `${options.part} of ${options.part}` : '1 of 1',
      Sequence: String(options.sequence ?? ++this.sequence),
      MessageTime: new Date().toISOString().replace('T', ' ').slice(0, 19),
    };
    if (options.errorCode !== undefined) form.ErrorCode = options.errorCode;
    return this.post(message.callbackUrl, form, options);
  }

  /** Posts a signed inbound message (a handset wrote to one of the account's numbers) to `url`. */
  async inbound(
    url: string,
    message: { from: string; to: string; text: string },
    options: Omit<PlivoCallbackOptions, 'errorCode' | 'sequence'> = {},
  ): Promise<number> {
    const form = {
      From: message.from.replace(/^\+/, ''),
      To: message.to.replace(/^\+/, ''),
      Text: message.text,
      Type: 'sms',
      MessageUUID: crypto.randomUUID(),
      Units: '1',
    };
    return this.post(url, form, options);
  }

  /** The headers and body Plivo would send for `form` to `url`, for tests that alter them. */
  signed(url: string, form: Record<string, string>, token = this.authToken): { headers: Record<string, string>; body: string } {
    const nonce = crypto.randomBytes(12).toString('base64url');
    return {
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-plivo-signature-v3': plivoV3Signature(token, url, form, nonce),
        'x-plivo-signature-v3-nonce': nonce,
      },
      body: new URLSearchParams(form).toString(),
    };
  }

  private async post(url: string, form: Record<string, string>, options: { token?: string; unsigned?: boolean }): Promise<number> {
    const { headers, body } = this.signed(url, form, options.token ?? this.authToken);
    if (options.unsigned) {
      delete headers['x-plivo-signature-v3'];
      delete headers['x-plivo-signature-v3-nonce'];
    }
    return postCallback(url, { headers, body });
  }
}

/**
 * A loopback fake of Telnyx's Messaging API v2, faithful to its public documentation:
 * - https://developers.telnyx.com/api/messaging/send-message: `POST /v2/messages`, `Authorization:
 *   Bearer <API key>`, JSON with `to` (+E.164 or a short code; one number), `from` or
 *   `messaging_profile_id`, `text` or `media_urls`, `webhook_url`; answers `{data: {record_type:
 *   "message", id, direction: "outbound", from, to: [{phone_number, status: "queued"}], …}}`;
 * - https://developers.telnyx.com/development/api-fundamentals/api-errors: `{errors: [{code, title,
 *   detail, source}]}`; 10009 authentication failed (401), 10011 too many requests (429, with
 *   `x-ratelimit-*` headers), 10007 unexpected error (500), 10004 missing parameter, 10014 unsupported
 *   media type, 10015 bad request, 10016 not +E.164; https://developers.telnyx.com/api/errors/40310
 *   (invalid `to`, HTTP 400);
 * - https://developers.telnyx.com/docs/messaging/messages/advanced-opt-in-out: a number that sent STOP
 *   is refused with 40300 "Blocked due to STOP message";
 * - https://developers.telnyx.com/docs/messaging/messages/receiving-webhooks and
 *   https://developers.telnyx.com/development/api-fundamentals/webhooks: webhooks `{data: {record_type:
 *   "event", id, event_type, occurred_at, payload}, meta: {attempt, delivered_to}}`, signed with
 *   Ed25519 over `${telnyx-timestamp}|${body}` (headers `telnyx-signature-ed25519`, `telnyx-timestamp`).
 *
 * The fake holds the account's Ed25519 key pair; `publicKeyBase64` is what the portal shows.
 */
import crypto from 'node:crypto';
import { FakeServer, postCallback } from './fake-server';
import type { FakeAnswer, FakeRequest } from './fake-server';

export type TelnyxAccepted = { id: string; to: string; from: string; body: string; callbackUrl?: string };
export type TelnyxWebhookOptions = {
  /** `payload.errors[0].code` of a failure. */
  errorCode?: string;
  /** Unix seconds; now unless given (a stale one for tests). */
  timestamp?: number;
  /** Signs with another key (a forgery). */
  privateKey?: crypto.KeyObject;
  unsigned?: boolean;
};

type ErrorBody = { code: string; title: string; detail: string; source?: { pointer: string } };
const error = (status: number, e: ErrorBody, headers?: Record<string, string>): FakeAnswer => ({
  status,
  body: { errors: [e] },
  ...(headers ? { headers } : {}),
});

/** Telnyx's documented error answers, for `failNext`. */
export const telnyxAnswers = {
  rateLimited: (retryAfterSeconds?: number): FakeAnswer =>
    error(
      429,
      { code: '10011', title: 'Too many requests', detail: 'You have exceeded the maximum number of allowed requests.' },
      {
        'x-ratelimit-limit': '50',
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': String(retryAfterSeconds ?? 1),
        ...(retryAfterSeconds !== undefined ? { 'retry-after': String(retryAfterSeconds) } : {}),
      },
    ),
  serverError: (): FakeAnswer => error(500, { code: '10007', title: 'Unexpected error', detail: 'An unexpected error occured.' }),
  unauthorized: (): FakeAnswer =>
    error(401, {
      code: '10009',
      title: 'Authentication failed',
      detail: 'The required authentication headers were either invalid or not included in the request.',
    }),
};

const E164 = /^\+[1-9]\d{6,14}$/;
const SHORT_CODE = /^\d{3,8}$/;

export class TelnyxFake {
  readonly server: FakeServer;
  readonly accepted: TelnyxAccepted[] = [];
  /** Numbers that sent STOP to the messaging profile: sends to them get 40300. */
  readonly optedOut = new Set<string>();
  private readonly keys = crypto.generateKeyPairSync('ed25519');

  constructor(readonly apiKey = 'KEY0123456789FAKE_telnyx') {
    this.server = new FakeServer((request) => this.handle(request));
  }

  /** The portal's form of the public key: its 32 raw bytes, base64. */
  get publicKeyBase64(): string {
    return this.keys.publicKey.export({ format: 'der', type: 'spki' }).subarray(-32).toString('base64');
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
    if (request.path !== '/v2/messages')
      return error(404, { code: '10005', title: 'Resource not found', detail: 'The requested resource or URL could not be found.' });
    if (request.method !== 'POST') return error(405, { code: '10015', title: 'Bad Request', detail: 'Method not allowed.' });
    if (request.headers.authorization !== `Bearer ${this.apiKey}`) return telnyxAnswers.unauthorized();
    if (!String(request.headers['content-type'] ?? '').startsWith('application/json'))
      return error(415, { code: '10014', title: 'Unsupported Media Type', detail: 'The request failed because the server does not support the media type.' });
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(request.body) as Record<string, unknown>;
    } catch {
      return error(400, { code: '10015', title: 'Bad Request', detail: 'The request failed because it was not well-formed.' });
    }
    const missing = (field: string) =>
      error(422, { code: '10004', title: 'Missing required parameter', detail: `The '${field}' parameter is required.`, source: { pointer: `/${field}` } });
    const toField = Array.isArray(body.to) && body.to.length === 1 ? body.to[0] : body.to;
    if (toField === undefined) return missing('to');
    if (typeof toField !== 'string' || !(E164.test(toField) || SHORT_CODE.test(toField)))
      return error(400, {
        code: '40310',
        title: "Invalid 'to' address",
        detail: "The 'to' address should be a single valid number.",
        source: { pointer: '/to' },
      });
    if (typeof body.from !== 'string' && typeof body.messaging_profile_id !== 'string') return missing('from');
    if (typeof body.from === 'string' && !(E164.test(body.from) || SHORT_CODE.test(body.from) || /^[A-Za-z0-9 ]{1,11}$/.test(body.from)))
      return error(400, {
        code: '10016',
        title: 'Phone number must be in +E.164 format',
        detail: "The 'from' parameter must be in +E.164 format.",
        source: { pointer: '/from' },
      });
    if (typeof body.text !== 'string' && !Array.isArray(body.media_urls)) return missing('text');
    if (body.webhook_url !== undefined && (typeof body.webhook_url !== 'string' || !/^https?:\/\//.test(body.webhook_url)))
      return error(400, {
        code: '10003',
        title: 'Invalid URL',
        detail: 'The URL provided was invalid, malformed, or too long.',
        source: { pointer: '/webhook_url' },
      });
    if (this.optedOut.has(toField))
      return error(400, {
        code: '40300',
        title: 'Blocked due to STOP message',
        detail: 'The recipient has opted out of messages from this profile.',
        source: { pointer: '/to' },
      });

    const id = crypto.randomUUID();
    const from = typeof body.from === 'string' ? body.from : '+15550000000';
    const text = typeof body.text === 'string' ? body.text : '';
    const webhookUrl = typeof body.webhook_url === 'string' ? body.webhook_url : undefined;
    this.accepted.push({ id, to: toField, from, body: text, callbackUrl: webhookUrl });
    const now = new Date();
    return {
      status: 200,
      body: {
        data: {
          record_type: 'message',
          direction: 'outbound',
          id,
          type: 'SMS',
          messaging_profile_id: typeof body.messaging_profile_id === 'string' ? body.messaging_profile_id : crypto.randomUUID(),
          organization_id: crypto.randomUUID(),
          from: { phone_number: from, carrier: 'Telnyx', line_type: 'Wireless' },
          to: [{ phone_number: toField, status: 'queued', carrier: 'FAKE MOBILE', line_type: 'Wireless' }],
          text,
          media: [],
          parts: 1,
          encoding: 'GSM-7',
          tags: [],
          received_at: now.toISOString(),
          sent_at: null,
          completed_at: null,
          valid_until: new Date(now.getTime() + 4 * 3600_000).toISOString(),
          webhook_url: webhookUrl ?? null,
          webhook_failover_url: null,
          errors: [],
          cost: null,
        },
      },
    };
  }

  /** Posts a signed `message.sent` (intermediate statuses) or `message.finalized` webhook to the message's `webhook_url`. */
  async deliver(id: string, status: string, options: TelnyxWebhookOptions = {}): Promise<number> {
    const message = this.accepted.find((m) => m.id === id);
    if (!message?.callbackUrl) throw new Error(`no accepted message ${id} with a webhook_url`);
    const final = !['queued', 'sending', 'sent'].includes(status);
    const errors = options.errorCode ? [{ code: options.errorCode, title: 'Delivery failed', detail: `Carrier reported ${options.errorCode}.` }] : [];
    const payload = {
      record_type: 'message',
      direction: 'outbound',
      id,
      type: 'SMS',
      from: { phone_number: message.from, carrier: 'Telnyx', line_type: 'Wireless' },
      to: [{ phone_number: message.to, status, carrier: 'FAKE MOBILE', line_type: 'Wireless' }],
      text: message.body,
      parts: 1,
      errors,
      completed_at: final ? new Date().toISOString() : null,
    };
    return this.post(message.callbackUrl, final ? 'message.finalized' : 'message.sent', payload, options);
  }

  /** Posts a signed `message.received` webhook (a handset wrote to one of the profile's numbers) to `url`. */
  async inbound(url: string, message: { from: string; to: string; text: string }, options: Omit<TelnyxWebhookOptions, 'errorCode'> = {}): Promise<number> {
    const payload = {
      record_type: 'message',
      direction: 'inbound',
      id: crypto.randomUUID(),
      type: 'SMS',
      from: { phone_number: message.from, carrier: 'FAKE MOBILE', line_type: 'Wireless' },
      to: [{ phone_number: message.to, status: 'webhook_delivered', carrier: 'Telnyx', line_type: 'Wireless' }],
      text: message.text,
      parts: 1,
      errors: [],
      received_at: new Date().toISOString(),
    };
    return this.post(url, 'message.received', payload, options);
  }

  /** The headers and body Telnyx would send for an event, for tests that alter them. */
  signed(
    eventType: string,
    payload: unknown,
    options: Pick<TelnyxWebhookOptions, 'timestamp' | 'privateKey'> = {},
  ): { headers: Record<string, string>; body: string } {
    const body = JSON.stringify({
      data: { record_type: 'event', id: crypto.randomUUID(), event_type: eventType, occurred_at: new Date().toISOString(), payload },
      meta: { attempt: 1, delivered_to: 'herald' },
    });
    const timestamp = String(options.timestamp ?? Math.floor(Date.now() / 1000));
    const signature = crypto.sign(null, Buffer.from(`${timestamp}|${body}`), options.privateKey ?? this.keys.privateKey).toString('base64');
    return { headers: { 'content-type': 'application/json', 'telnyx-signature-ed25519': signature, 'telnyx-timestamp': timestamp }, body };
  }

  private async post(url: string, eventType: string, payload: unknown, options: TelnyxWebhookOptions): Promise<number> {
    const { headers, body } = this.signed(eventType, payload, options);
    if (options.unsigned) {
      delete headers['telnyx-signature-ed25519'];
      delete headers['telnyx-timestamp'];
    }
    return postCallback(url, { headers, body });
  }
}

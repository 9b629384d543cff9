/**
 * A loopback Twilio, faithful to its documentation:
 * - https://www.twilio.com/docs/messaging/api/message-resource: `POST
 *   /2010-04-01/Accounts/{AccountSid}/Messages.json`, form-encoded `To` (E.164), `From` or
 *   `MessagingServiceSid`, `Body`, optional `StatusCallback`; answers 201 with the Message resource
 *   (`sid` "SM" + 32 hex, `status` "queued", or "accepted" with a Messaging Service);
 * - https://www.twilio.com/docs/iam/api: HTTP Basic `AccountSid:AuthToken`, else 401 code 20003;
 * - https://www.twilio.com/docs/api/errors: the error body `{code, message, more_info, status}`
 *   (21211 invalid To, 21610 unsubscribed recipient, 21602/21603/21604 missing Body/From/To,
 *   20429 throttled);
 * - https://www.twilio.com/docs/messaging/guides/outbound-message-status-in-status-callbacks: status
 *   callbacks POSTed as a form to the message's `StatusCallback` (`MessageSid`, `MessageStatus`,
 *   `ErrorCode`, `AccountSid`, `From`, `To`, `ApiVersion`), in any order and possibly repeated;
 * - https://www.twilio.com/docs/usage/webhooks/webhooks-security: every webhook signed with
 *   `X-Twilio-Signature`;
 * - https://www.twilio.com/docs/messaging/guides/webhook-request: inbound messages as a form POST.
 */
import crypto from 'node:crypto';
import { FakeServer, postCallback } from './fake-server';
import type { FakeAnswer, FakeRequest, FakeServerOptions } from './fake-server';

export type TwilioAccepted = { id: string; to: string; from: string; body: string; callbackUrl: string | undefined; clientRef: undefined };

const E164 = /^\+[1-9]\d{6,14}$/;

/** Twilio's signing, written here apart from the adapter's so that one mistake cannot hide in both. */
function sign(token: string, url: string, fields: Record<string, string>): string {
  const data = Object.keys(fields)
    .sort()
    .reduce((text, name) => text + name + fields[name], url);
  return crypto.createHmac('sha1', token).update(Buffer.from(data, 'utf-8')).digest('base64');
}

function error(status: number, code: number, message: string): FakeAnswer {
  return { status, body: { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status } };
}

export class TwilioFake extends FakeServer {
  readonly accepted: TwilioAccepted[] = [];
  /** Numbers that replied STOP: a send to them is refused with 21610. */
  readonly optedOut = new Set<string>();

  constructor(
    readonly account: { account_sid: string; auth_token: string },
    options: FakeServerOptions = {},
  ) {
    super((request) => this.answer(request), options);
  }

  private answer(request: FakeRequest): FakeAnswer {
    const match = /^\/2010-04-01\/Accounts\/([^/]+)\/Messages\.json$/.exec(request.path);
    if (!match) return error(404, 20404, 'The requested resource was not found');
    const auth = request.headers.authorization ?? '';
    const expected = `Basic ${Buffer.from(`${this.account.account_sid}:${this.account.auth_token}`).toString('base64')}`;
    if (auth !== expected || decodeURIComponent(match[1]!) !== this.account.account_sid) return error(401, 20003, 'Authenticate');
    if (request.method !== 'POST') return error(405, 20004, 'Method not allowed');
    // Twilio reads only form parameters: a JSON body leaves every field missing.
    const form = (request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')
      ? new URLSearchParams(request.body)
      : new URLSearchParams();
    const to = form.get('To');
    const from = form.get('From') ?? form.get('MessagingServiceSid');
    const body = form.get('Body');
    if (!to) return error(400, 21604, "A 'To' phone number is required.");
    if (!from) return error(400, 21603, "A 'From' phone number is required.");
    if (!body) return error(400, 21602, 'Message body is required.');
    if (!E164.test(to)) return error(400, 21211, `The 'To' number ${to} is not a valid phone number.`);
    if (this.optedOut.has(to)) return error(400, 21610, 'Attempt to send to unsubscribed recipient');
    const id = `SM${crypto.randomBytes(16).toString('hex')}`;
    const callbackUrl = form.get('StatusCallback') ?? undefined;
    this.accepted.push({ id, to, from, body, callbackUrl, clientRef: undefined });
    const now = new Date().toUTCString();
    return {
      status: 201,
      body: {
        account_sid: this.account.account_sid,
        api_version: '2010-04-01',
        body,
        date_created: now,
        date_sent: null,
        date_updated: now,
        direction: 'outbound-api',
        error_code: null,
        error_message: null,
        from: form.get('From'),
        messaging_service_sid: form.get('MessagingServiceSid'),
        num_media: '0',
        num_segments: '1',
        price: null,
        price_unit: 'USD',
        sid: id,
        status: form.get('MessagingServiceSid') ? 'accepted' : 'queued',
        to,
        uri: `/2010-04-01/Accounts/${this.account.account_sid}/Messages/${id}.json`,
      },
    };
  }

  /** The next `times` calls get Twilio's concurrency refusal: 429, code 20429, with `Retry-After` when given. */
  throttleNext(times: number, retryAfterSeconds?: number): void {
    const answer = error(429, 20429, 'Too Many Requests');
    this.failNext(times, retryAfterSeconds === undefined ? answer : { ...answer, headers: { 'retry-after': String(retryAfterSeconds) } });
  }

  /** A callback as Twilio would send it: form fields and their `X-Twilio-Signature` (a wrong token when `forged`). */
  signed(url: string, fields: Record<string, string>, options: { forged?: boolean } = {}): { headers: Record<string, string>; body: string } {
    const token = options.forged ? `${this.account.auth_token}-not` : this.account.auth_token;
    return {
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': sign(token, url, fields),
        'i-twilio-idempotency-token': crypto.randomUUID(),
      },
      body: new URLSearchParams(fields).toString(),
    };
  }

  /** Posts a status callback for an accepted message to the `StatusCallback` it named; Herald's HTTP status. */
  async deliver(id: string, status: string, options: { errorCode?: string; forged?: boolean } = {}): Promise<number> {
    const message = this.accepted.find((accepted) => accepted.id === id);
    if (!message?.callbackUrl) throw new Error(`no message ${id} with a StatusCallback`);
    const fields: Record<string, string> = {
      ApiVersion: '2010-04-01',
      AccountSid: this.account.account_sid,
      From: message.from,
      To: message.to,
      MessageSid: id,
      SmsSid: id,
      MessageStatus: status,
      SmsStatus: status,
      ...(options.errorCode ? { ErrorCode: options.errorCode } : {}),
    };
    return postCallback(message.callbackUrl, this.signed(message.callbackUrl, fields, options));
  }

  /** Posts a message from a handset to the number's inbound webhook; Herald's HTTP status. */
  async inbound(url: string, message: { from: string; to: string; body: string }, options: { forged?: boolean } = {}): Promise<number> {
    const sid = `SM${crypto.randomBytes(16).toString('hex')}`;
    const fields: Record<string, string> = {
      ToCountry: 'GB',
      SmsMessageSid: sid,
      NumMedia: '0',
      SmsSid: sid,
      SmsStatus: 'received',
      Body: message.body,
      To: message.to,
      NumSegments: '1',
      MessageSid: sid,
      AccountSid: this.account.account_sid,
      From: message.from,
      ApiVersion: '2010-04-01',
      ...(/^(stop|stopall|unsubscribe|end|quit|cancel|revoke|optout)$/i.test(message.body.trim()) ? { OptOutType: 'STOP' } : {}),
    };
    if (fields.OptOutType) this.optedOut.add(message.from);
    return postCallback(url, this.signed(url, fields, options));
  }
}

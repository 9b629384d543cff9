/**
 * A loopback fake of the Sinch SMS REST API ("XMS"), faithful to its documentation:
 * - https://developers.sinch.com/docs/sms/api-reference/sms/tag/Batches/ (`POST /xms/v1/{service_plan_id}/batches`,
 *   Bearer token, JSON; 201 with the batch echoed and its `id`; 400 `{code, text}`; 401; 403; 429);
 * - https://developers.sinch.com/docs/sms/api-reference/sms/tag/Webhooks/ and .../tag/Delivery-reports/
 *   (`recipient_delivery_report_sms` posted to the batch's `callback_url`), .../tag/Inbounds/ (`mo_text`);
 * - HMAC callback signing (`x-sinch-webhook-signature*` headers, base64 HMAC-SHA256 over
 *   `body.nonce.timestamp`), as https://developers.sinch.com/docs/sms/release-notes/ and Sinch's SDKs describe it.
 *
 * It refuses what Sinch refuses (wrong path 404, bad or missing token 401, not JSON 400
 * `syntax_invalid_json`, a missing or malformed field 400 `syntax_invalid_parameter_format` /
 * `syntax_constraint_violation`), records each accepted recipient, and posts signed per-recipient
 * delivery reports and inbound messages with the test account's webhook secret.
 */
import { randomBytes } from 'node:crypto';
import { sinchMessageId, sinchSignature } from '../../gateways/sms/providers/sinch';
import { FakeServer, postCallback, type FakeAnswer, type FakeRequest } from './fake-server';

export type SinchAccepted = {
  /** Herald's provider id for this recipient: `<batch id>:<digits>`. */
  id: string;
  batchId: string;
  to: string;
  from: string;
  body: string;
  callbackUrl: string | undefined;
  clientRef: string | undefined;
  deliveryReport: string;
};

export type SinchDeliverOptions = {
  /** The report's `code` (defaults: Delivered 0, Queued 400, Dispatched 401, Failed 402, Expired 406, Cancelled 407, Rejected 408). */
  code?: number;
  /** Sign with another secret (a forged report). */
  secret?: string;
  /** The signature's timestamp in Unix seconds (a stale one for tests). */
  timestamp?: number;
  /** Send no signature headers at all. */
  unsigned?: boolean;
  /** Change the body after signing it. */
  tamper?: boolean;
};

const DEFAULT_CODES: Record<string, number> = {
  Delivered: 0,
  Queued: 400,
  Dispatched: 401,
  Failed: 402,
  Expired: 406,
  Cancelled: 407,
  Rejected: 408,
  Aborted: 403,
  Deleted: 408,
  Unknown: 0,
};
const DELIVERY_REPORTS = ['none', 'summary', 'full', 'per_recipient', 'per_recipient_final'];
const MSISDN = /^\+?[1-9]\d{5,14}$/;

export class SinchFake {
  readonly server: FakeServer;
  readonly accepted: SinchAccepted[] = [];
  private batches = 0;

  constructor(readonly account: { service_plan_id: string; api_token: string; webhook_secret: string }) {
    this.server = new FakeServer((request) => this.handle(request));
  }

  get baseUrl(): string {
    return this.server.baseUrl;
  }

  async start(): Promise<this> {
    await this.server.start();
    return this;
  }

  stop(): Promise<void> {
    return this.server.stop();
  }

  /** Forgets every accepted message and request (between tests). */
  reset(): void {
    this.accepted.length = 0;
    this.server.requests.length = 0;
  }

  private handle(request: FakeRequest): FakeAnswer {
    if (request.method !== 'POST' || request.path !== `/xms/v1/${this.account.service_plan_id}/batches`)
      return { status: 404, body: { code: 'not_found', text: 'Not found' } };
    if (request.headers.authorization !== `Bearer ${this.account.api_token}`) return { status: 401, body: { code: 'unauthorized', text: 'Unauthorized' } };
    if (!String(request.headers['content-type'] ?? '').startsWith('application/json'))
      return { status: 400, body: { code: 'syntax_invalid_json', text: 'Content-Type must be application/json' } };
    let batch: Record<string, unknown>;
    try {
      batch = JSON.parse(request.body) as Record<string, unknown>;
    } catch {
      return { status: 400, body: { code: 'syntax_invalid_json', text: 'The JSON structure is invalid' } };
    }
    const invalid = (field: string) => ({ status: 400, body: { code: 'syntax_invalid_parameter_format', text: `Invalid parameter format: ${field}` } });
    const { to, from, body } = batch;
    if (!Array.isArray(to) || to.length < 1 || to.length > 1000)
      return { status: 400, body: { code: 'syntax_constraint_violation', text: 'to must hold 1 to 1000 recipients' } };
    if (to.some((recipient) => typeof recipient !== 'string' || !MSISDN.test(recipient))) return invalid('to');
    if (typeof from !== 'string' || from === '') return invalid('from');
    if (typeof body !== 'string' || body === '' || body.length > 2000) return invalid('body');
    const deliveryReport = batch.delivery_report ?? 'none';
    if (typeof deliveryReport !== 'string' || !DELIVERY_REPORTS.includes(deliveryReport)) return invalid('delivery_report');
    const callbackUrl = batch.callback_url;
    if (callbackUrl !== undefined && (typeof callbackUrl !== 'string' || callbackUrl.length > 2048)) return invalid('callback_url');
    const clientRef = batch.client_reference;
    if (clientRef !== undefined && (typeof clientRef !== 'string' || clientRef.length > 128)) return invalid('client_reference');

    const id = `01${(++this.batches).toString(36).toUpperCase().padStart(8, '0')}${randomBytes(8).toString('hex').toUpperCase()}`;
    for (const recipient of to as string[])
      this.accepted.push({ id: sinchMessageId(id, recipient), batchId: id, to: recipient, from, body, callbackUrl, clientRef, deliveryReport });
    const now = new Date().toISOString();
    return {
      status: 201,
      body: {
        id,
        to,
        from,
        canceled: false,
        body,
        type: 'mt_text',
        created_at: now,
        modified_at: now,
        delivery_report: deliveryReport,
        callback_url: callbackUrl,
        client_reference: clientRef,
      },
    };
  }

  /** Signature headers for a raw body, as Sinch sends them. */
  sign(rawBody: string, options: { secret?: string; timestamp?: number } = {}): Record<string, string> {
    const timestamp = String(options.timestamp ?? Math.floor(Date.now() / 1000));
    const nonce = randomBytes(12).toString('base64url');
    return {
      'x-sinch-webhook-signature': sinchSignature(options.secret ?? this.account.webhook_secret, rawBody, nonce, timestamp),
      'x-sinch-webhook-signature-nonce': nonce,
      'x-sinch-webhook-signature-timestamp': timestamp,
      'x-sinch-webhook-signature-algorithm': 'HmacSHA256',
    };
  }

  /** Posts a signed per-recipient delivery report for an accepted message to the callback URL its batch named; Herald's answer status. */
  async deliver(id: string, status: string, options: SinchDeliverOptions = {}): Promise<number> {
    const message = this.accepted.find((candidate) => candidate.id === id);
    if (!message) throw new Error(`the Sinch fake accepted no message ${id}`);
    if (!message.callbackUrl) throw new Error(`batch ${message.batchId} named no callback_url`);
    const now = new Date().toISOString();
    const report = {
      type: 'recipient_delivery_report_sms',
      batch_id: message.batchId,
      recipient: message.to.replace(/^\+/, ''),
      code: options.code ?? DEFAULT_CODES[status] ?? 0,
      status,
      at: now,
      operator_status_at: now,
      ...(message.clientRef !== undefined ? { client_reference: message.clientRef } : {}),
    };
    return this.post(message.callbackUrl, JSON.stringify(report), options);
  }

  /** Posts a signed `mo_text` to an inbound URL, as Sinch forwards a handset's message; Herald's answer status. */
  async inbound(url: string, message: { from: string; to: string; body: string }, options: SinchDeliverOptions = {}): Promise<number> {
    const now = new Date().toISOString();
    const mo = {
      type: 'mo_text',
      id: `01MO${randomBytes(10).toString('hex').toUpperCase()}`,
      from: message.from,
      to: message.to,
      body: message.body,
      received_at: now,
      operator_id: '23410',
    };
    return this.post(url, JSON.stringify(mo), options);
  }

  private post(url: string, rawBody: string, options: SinchDeliverOptions): Promise<number> {
    const headers: Record<string, string> = { 'content-type': 'application/json', ...(options.unsigned ? {} : this.sign(rawBody, options)) };
    const body = options.tamper ? rawBody.replace(/"status":"[^"]*"/, '"status":"Delivered"').replace(/"body":"[^"]*"/, '"body":"START"') : rawBody;
    return postCallback(url, { headers, body });
  }
}

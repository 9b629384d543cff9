/**
 * Sinch SMS REST API ("XMS"), spoken as documented:
 * - send a batch: https://developers.sinch.com/docs/sms/api-reference/sms/tag/Batches/ (`POST /xms/v1/{service_plan_id}/batches`,
 *   `Authorization: Bearer {api_token}`, JSON `{from, to[1..1000], body, delivery_report, callback_url, client_reference}`,
 *   201 with the batch and its `id`; 400 `{code, text}` (`syntax_invalid_json`, `syntax_invalid_parameter_format`,
 *   `syntax_constraint_violation`), 401, 403 (`unknown_group`, `unknown_campaign`, `missing_callback_url`), 429);
 * - rate limits: https://developers.sinch.com/docs/sms/resources/message-info/rate-limits/;
 * - delivery reports: https://developers.sinch.com/docs/sms/api-reference/sms/tag/Delivery-reports/ and
 *   https://developers.sinch.com/docs/sms/api-reference/sms/tag/Webhooks/ (`recipient_delivery_report_sms`,
 *   `delivery_report_sms`, statuses Queued/Dispatched/Aborted/Cancelled/Rejected/Deleted/Delivered/Failed/Expired/Unknown,
 *   and their codes: 0, SMPP codes, 400 Queued … 418);
 * - inbound: https://developers.sinch.com/docs/sms/api-reference/sms/tag/Inbounds/ (`mo_text`);
 * - callback signatures (HMAC, enabled per service plan, release notes
 *   https://developers.sinch.com/docs/sms/release-notes/): `x-sinch-webhook-signature` = base64 HMAC-SHA256 with the
 *   webhook secret over `rawBody + "." + nonce + "." + timestamp`, with `x-sinch-webhook-signature-nonce`,
 *   `-timestamp` (Unix seconds) and `-algorithm` (`HmacSHA256`), as Sinch's own SDKs check it
 *   (https://github.com/sinch/sinch-sdk-python, https://github.com/sinch/sinch-sdk-dotnet).
 *
 * One batch has one body for all its recipients, so a hand-over is cut into one batch per distinct body
 * (a campaign without personal fields is one call). Sinch gives one id per batch and reports per
 * recipient, so a message's provider id is `<batch id>:<recipient digits>`, which a per-recipient
 * report names again. A 400 creates no batch: a batch of several is then tried one message at a time,
 * so only the message at fault fails.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { httpCall, retryAfterMs, type HttpAnswer } from './http-call';
import type { ProviderAccount, ProviderAdapter, ProviderCallback, ProviderInbound, ProviderOutcome, ProviderSms, ProviderStatus } from './provider';

export const SINCH_MAX_BATCH = 1000;
/** A signed callback older or newer than this (by its signature timestamp) is refused as a replay. */
export const SINCH_SIGNATURE_WINDOW_MS = 5 * 60_000;

const FINAL: Record<string, ProviderStatus['status']> = {
  Delivered: 'delivered',
  Expired: 'expired',
  // Final without a confirmation either way: as a message whose validity ran out unconfirmed.
  Unknown: 'expired',
  Aborted: 'failed',
  Cancelled: 'failed',
  Rejected: 'failed',
  Deleted: 'failed',
  Failed: 'failed',
};
const INTERMEDIATE = new Set(['Queued', 'Dispatched']);

/** A message's provider id: the batch and the recipient (digits only, as reports may drop the `+`). */
export function sinchMessageId(batchId: string, recipient: string): string {
  return `${batchId}:${recipient.replace(/\D/g, '')}`;
}

/** The signature Sinch puts in `x-sinch-webhook-signature` (fakes sign with it too). */
export function sinchSignature(secret: string, rawBody: Buffer | string, nonce: string, timestamp: string): string {
  return createHmac('sha256', secret).update(rawBody).update(`.${nonce}.${timestamp}`).digest('base64');
}

function header(callback: ProviderCallback, name: string): string | undefined {
  const direct = callback.headers[name];
  if (direct !== undefined) return direct;
  for (const [key, value] of Object.entries(callback.headers)) if (key.toLowerCase() === name) return value;
  return undefined;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

type Refusal = Omit<Extract<ProviderOutcome, { kind: 'refused' }>, 'clientRef'>;

/** Reads a refusing answer (anything but 201) into Herald's classes. */
function refusal(answer: HttpAnswer): Refusal {
  const parsed = parseJson(answer.body) as { code?: unknown; text?: unknown; title?: unknown; detail?: unknown } | undefined;
  const code = typeof parsed?.code === 'string' ? parsed.code : String(answer.status);
  const text = [parsed?.text, parsed?.title, parsed?.detail].find((value) => typeof value === 'string') as string | undefined;
  const message = text ?? `HTTP ${answer.status}`;
  if (answer.status === 429) return { kind: 'refused', errorClass: 'transient', code, message, retryAfterMs: retryAfterMs(answer.headers) };
  if (answer.status >= 500) return { kind: 'refused', errorClass: 'transient', code, message, retryAfterMs: retryAfterMs(answer.headers) };
  if (answer.status === 400) {
    // A sender Sinch will not take is the account's setup; anything else (a number Sinch cannot read, a body too
    // long) is the message's own, and another provider would refuse it too.
    const errorClass = /\bfrom\b|originator/i.test(message) ? 'account' : 'recipient';
    return { kind: 'refused', errorClass, code, message };
  }
  // 401 credentials, 403 `unknown_group` / `missing_callback_url`…, 404 an unknown service plan: the account's setup.
  return { kind: 'refused', errorClass: 'account', code, message };
}

async function sendBatch(account: ProviderAccount, messages: ProviderSms[], signal?: AbortSignal): Promise<ProviderOutcome[]> {
  const { service_plan_id: plan = '', api_token: token = '' } = account.credentials;
  const first = messages[0]!;
  const batch: Record<string, unknown> = {
    from: first.from,
    to: messages.map((message) => message.to),
    body: first.body,
    delivery_report: 'per_recipient',
    callback_url: account.statusCallbackUrl,
  };
  // One reference per batch: it can name Herald's message only when the batch is that one message.
  if (messages.length === 1) batch.client_reference = first.clientRef;
  const result = await httpCall({
    method: 'POST',
    url: `${account.baseUrl.replace(/\/+$/, '')}/xms/v1/${encodeURIComponent(plan)}/batches`,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(batch),
    timeoutMs: account.timeoutMs,
    agent: account.agent,
    signal,
  });
  if (result.kind === 'not_sent')
    return messages.map((message) => ({ clientRef: message.clientRef, kind: 'refused', errorClass: 'transient', code: result.error, message: result.error }));
  if (result.kind === 'in_doubt') return messages.map((message) => ({ clientRef: message.clientRef, kind: 'in_doubt', error: result.error }));
  const { answer } = result;
  if (answer.status === 201 || answer.status === 200) {
    const id = (parseJson(answer.body) as { id?: unknown } | undefined)?.id;
    // Taken, but no id to follow it by: the provider may deliver it.
    if (typeof id !== 'string' || id === '')
      return messages.map((message) => ({ clientRef: message.clientRef, kind: 'in_doubt', error: `HTTP ${answer.status} without a batch id` }));
    return messages.map((message) => ({ clientRef: message.clientRef, kind: 'accepted', providerId: sinchMessageId(id, message.to) }));
  }
  if (answer.status === 400 && messages.length > 1) {
    // No batch was created: find the message at fault, one at a time.
    const alone = await Promise.all(messages.map((message) => sendBatch(account, [message], signal)));
    return alone.flat();
  }
  const refused = refusal(answer);
  return messages.map((message) => ({ clientRef: message.clientRef, ...refused }));
}

export const sinchAdapter: ProviderAdapter = {
  name: 'sinch',
  defaultBaseUrl: 'https://us.sms.api.sinch.com',
  maxBatch: SINCH_MAX_BATCH,
  credentialFields: ['service_plan_id', 'api_token', 'webhook_secret'],

  async send(account, messages, signal) {
    // One batch per body (and never the same number twice in one batch), at most 1,000 recipients each.
    const groups: ProviderSms[][] = [];
    const open = new Map<string, ProviderSms[]>();
    for (const message of messages) {
      const key = `${message.from}\u0000${message.body}`;
      let group = open.get(key);
      if (!group || group.length >= SINCH_MAX_BATCH || group.some((other) => other.to === message.to)) {
        group = [];
        groups.push(group);
        open.set(key, group);
      }
      group.push(message);
    }
    const outcomes = await Promise.all(groups.map((group) => sendBatch(account, group, signal)));
    const byRef = new Map(outcomes.flat().map((outcome) => [outcome.clientRef, outcome]));
    return messages.map((message) => byRef.get(message.clientRef)!);
  },

  verify(account, callback, now = new Date()) {
    const secret = account.credentials.webhook_secret;
    const signature = header(callback, 'x-sinch-webhook-signature');
    const nonce = header(callback, 'x-sinch-webhook-signature-nonce');
    const timestamp = header(callback, 'x-sinch-webhook-signature-timestamp');
    const algorithm = header(callback, 'x-sinch-webhook-signature-algorithm');
    if (!secret || !signature || !nonce || !timestamp) return false;
    if (algorithm !== undefined && algorithm !== 'HmacSHA256') return false;
    if (!/^\d{1,12}$/.test(timestamp)) return false;
    if (Math.abs(now.getTime() - Number(timestamp) * 1000) > SINCH_SIGNATURE_WINDOW_MS) return false;
    const expected = Buffer.from(sinchSignature(secret, callback.rawBody, nonce, timestamp), 'base64');
    const given = Buffer.from(signature, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  },

  statuses(callback) {
    const report = parseJson(callback.rawBody.toString('utf8')) as Record<string, unknown> | undefined;
    if (!report || typeof report.batch_id !== 'string') return [];
    const batchId = report.batch_id;
    const one = (recipient: unknown, status: unknown, code: unknown): ProviderStatus[] => {
      if (typeof recipient !== 'string' || typeof status !== 'string') return [];
      const providerId = sinchMessageId(batchId, recipient);
      if (INTERMEDIATE.has(status)) return [{ providerId, status: 'pending' }];
      const mapped = FINAL[status];
      if (!mapped) return [{ providerId, status: 'pending' }];
      return mapped === 'delivered'
        ? [{ providerId, status: mapped }]
        : [{ providerId, status: mapped, errorCode: code === undefined ? status : String(code) }];
    };
    if (report.type === 'recipient_delivery_report_sms') return one(report.recipient, report.status, report.code);
    if (report.type === 'delivery_report_sms' && Array.isArray(report.statuses))
      return (report.statuses as Array<Record<string, unknown>>).flatMap((entry) =>
        Array.isArray(entry.recipients) ? (entry.recipients as unknown[]).flatMap((recipient) => one(recipient, entry.status, entry.code)) : [],
      );
    return [];
  },

  inbound(callback) {
    const message = parseJson(callback.rawBody.toString('utf8')) as Record<string, unknown> | undefined;
    if (!message || message.type !== 'mo_text') return [];
    const { id, from, to, body } = message;
    if (typeof id !== 'string' || typeof from !== 'string' || typeof to !== 'string' || typeof body !== 'string') return [];
    return [{ providerId: id, from, to, body } satisfies ProviderInbound];
  },
};

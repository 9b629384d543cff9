/**
 * Telnyx's Messaging API v2, as its public documentation describes it:
 * - send: https://developers.telnyx.com/api/messaging/send-message (`POST /v2/messages`,
 *   `Authorization: Bearer <API key>`, JSON `{from, to, text, webhook_url}`; the answer's `data.id`);
 * - errors: https://developers.telnyx.com/development/api-fundamentals/api-errors (`{errors: [{code,
 *   title, detail, source}]}`; 10007 unexpected, 10008 timeout, 10009 authentication, 10010
 *   authorization, 10011 too many requests, 10002 / 10016 invalid number) and
 *   https://developers.telnyx.com/docs/messaging/messages/error-codes (40300 "Blocked due to STOP
 *   message", 40310 invalid `to`, delivery errors 400xx), https://developers.telnyx.com/api/errors/40310;
 * - rate limits: https://developers.telnyx.com/development/api-fundamentals/reliability/rate-limiting (429, 10011);
 * - webhooks: https://developers.telnyx.com/docs/messaging/messages/receiving-webhooks (`message.sent`,
 *   `message.finalized`, `message.received`; `{data: {event_type, payload}}`; per-recipient statuses
 *   queued, sending, sent, delivered, sending_failed, delivery_failed, delivery_unconfirmed, expired);
 * - signatures: https://developers.telnyx.com/development/api-fundamentals/webhooks (Ed25519 over
 *   `${telnyx-timestamp}|${raw body}`, header `telnyx-signature-ed25519`, the account's public key
 *   from the portal, base64);
 * - opt-out: https://developers.telnyx.com/docs/messaging/messages/advanced-opt-in-out (a send to a
 *   number that sent STOP is refused at once with 40300).
 */
import crypto from 'node:crypto';
import { httpCall, retryAfterMs } from './http-call';
import type { ErrorClass, ProviderAccount, ProviderAdapter, ProviderCallback, ProviderOutcome, ProviderSms, ProviderStatus } from './provider';

/** How far a webhook's `telnyx-timestamp` may be from now, either way, before it is refused as stale (or replayed). */
export const TELNYX_WEBHOOK_TOLERANCE_MS = 5 * 60 * 1000;

type TelnyxError = { code?: string | number; title?: string; detail?: string; source?: { pointer?: string; parameter?: string } };

/** Telnyx's codes that say "not now": the same message may go elsewhere or later. */
const TRANSIENT = new Set(['10007', '10008', '10011', '40318']);
/** Credentials and permissions: the account's, fail over and alert. */
const ACCOUNT = new Set(['10009', '10010']);
/** The recipient's number cannot take it (when the error points at `to`, not `from`). */
const RECIPIENT = new Set(['10002', '10016', '40310', '40001']);
const OPTED_OUT = '40300';

/** The class of a refusal from its Telnyx code, HTTP status and the field it points at. */
export function telnyxErrorClass(status: number, error: TelnyxError | undefined): { errorClass: ErrorClass; optedOut?: boolean } {
  const code = error?.code === undefined ? '' : String(error.code);
  const field = `${error?.source?.pointer ?? ''} ${error?.source?.parameter ?? ''}`;
  if (code === OPTED_OUT) return { errorClass: 'recipient', optedOut: true };
  if (TRANSIENT.has(code) || status === 429 || status >= 500) return { errorClass: 'transient' };
  if (ACCOUNT.has(code) || status === 401 || status === 403) return { errorClass: 'account' };
  if (RECIPIENT.has(code)) return { errorClass: /from/.test(field) ? 'account' : 'recipient' };
  // Anything else (a missing parameter, an unusable sender or profile) is the configuration's.
  return { errorClass: 'account' };
}

function parse(body: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(body);
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

async function sendOne(account: ProviderAccount, message: ProviderSms, signal?: AbortSignal): Promise<ProviderOutcome> {
  const result = await httpCall({
    method: 'POST',
    url: `${account.baseUrl.replace(/\/+$/, '')}/v2/messages`,
    headers: { authorization: `Bearer ${account.credentials.api_key ?? ''}`, 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ from: message.from, to: message.to, text: message.body, webhook_url: account.statusCallbackUrl }),
    timeoutMs: account.timeoutMs,
    signal,
    agent: account.agent,
  });
  const clientRef = message.clientRef;
  if (result.kind === 'not_sent') return { clientRef, kind: 'refused', errorClass: 'transient', code: result.error, message: `not sent: ${result.error}` };
  if (result.kind === 'in_doubt') return { clientRef, kind: 'in_doubt', error: result.error };
  const { status, headers, body } = result.answer;
  const answer = parse(body);
  if (status >= 200 && status < 300) {
    const id = (answer?.data as { id?: unknown } | undefined)?.id;
    return typeof id === 'string' && id !== ''
      ? { clientRef, kind: 'accepted', providerId: id }
      : { clientRef, kind: 'in_doubt', error: `Telnyx answered ${status} without data.id` };
  }
  const error = Array.isArray(answer?.errors) ? (answer.errors[0] as TelnyxError | undefined) : undefined;
  const { errorClass, optedOut } = telnyxErrorClass(status, error);
  const wait = errorClass === 'transient' ? retryAfterMs(headers) : undefined;
  return {
    clientRef,
    kind: 'refused',
    errorClass,
    code: error?.code !== undefined ? String(error.code) : String(status),
    message: [error?.title, error?.detail].filter(Boolean).join(': ') || `HTTP ${status}`,
    ...(wait !== undefined ? { retryAfterMs: wait } : {}),
    ...(optedOut ? { optedOut } : {}),
  };
}

/** The ASN.1 head of an Ed25519 SubjectPublicKeyInfo, before the 32 raw key bytes. */
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** The portal's base64 public key (32 raw bytes; an SPKI DER form is taken too) as a KeyObject. */
export function telnyxPublicKey(base64: string): crypto.KeyObject | undefined {
  try {
    const raw = Buffer.from(base64.trim(), 'base64');
    const der = raw.length === 32 ? Buffer.concat([ED25519_SPKI_PREFIX, raw]) : raw;
    const key = crypto.createPublicKey({ key: der, format: 'der', type: 'spki' });
    return key.asymmetricKeyType === 'ed25519' ? key : undefined;
  } catch {
    return undefined;
  }
}

/** Telnyx's per-recipient statuses onto Herald's. `delivery_unconfirmed` is final with no receipt: Herald's `expired`. */
export function telnyxStatus(status: string): ProviderStatus['status'] {
  switch (status) {
    case 'delivered':
      return 'delivered';
    case 'sending_failed':
    case 'delivery_failed':
      return 'failed';
    case 'expired':
    case 'delivery_unconfirmed':
      return 'expired';
    default:
      return 'pending';
  }
}

type TelnyxPayload = {
  id?: string;
  text?: string;
  from?: { phone_number?: string };
  to?: Array<{ phone_number?: string; status?: string }>;
  errors?: TelnyxError[];
};

function envelope(callback: ProviderCallback): { eventType: string; payload: TelnyxPayload } | undefined {
  const body = parse(callback.rawBody.toString('utf8'));
  const data = body?.data as { event_type?: unknown; payload?: unknown } | undefined;
  if (!data || typeof data.event_type !== 'string' || !data.payload || typeof data.payload !== 'object') return undefined;
  return { eventType: data.event_type, payload: data.payload as TelnyxPayload };
}

export const telnyxAdapter: ProviderAdapter = {
  name: 'telnyx',
  defaultBaseUrl: 'https://api.telnyx.com',
  maxBatch: 1,
  credentialFields: ['api_key', 'public_key'],

  send(account, messages, signal) {
    return Promise.all(messages.map((message) => sendOne(account, message, signal)));
  },

  /**
   * Ed25519 over `${telnyx-timestamp}|${raw body}` with the account's public key. The timestamp
   * (Unix seconds) must be within 5 minutes of now, either way: an old callback replayed later, or
   * one signed for the future, is refused.
   */
  verify(account, callback, now = new Date()) {
    const signature = callback.headers['telnyx-signature-ed25519'];
    const timestamp = callback.headers['telnyx-timestamp'];
    const key = telnyxPublicKey(account.credentials.public_key ?? '');
    if (!signature || !timestamp || !key || !/^\d{1,12}$/.test(timestamp.trim())) return false;
    if (Math.abs(now.getTime() - Number(timestamp.trim()) * 1000) > TELNYX_WEBHOOK_TOLERANCE_MS) return false;
    const bytes = Buffer.from(signature.trim(), 'base64');
    if (bytes.length !== 64) return false;
    const signed = Buffer.concat([Buffer.from(`${timestamp.trim()}|`, 'utf8'), callback.rawBody]);
    try {
      return crypto.verify(null, signed, key, bytes);
    } catch {
      return false;
    }
  },

  statuses(callback) {
    const event = envelope(callback);
    if (!event || !['message.queued', 'message.sent', 'message.finalized'].includes(event.eventType) || !event.payload.id) return [];
    const reported = event.payload.to?.[0]?.status ?? 'queued';
    const status = telnyxStatus(reported);
    if (status === 'pending' || status === 'delivered') return [{ providerId: event.payload.id, status }];
    const code = event.payload.errors?.[0]?.code;
    const errorCode = code !== undefined ? String(code) : reported;
    return [{ providerId: event.payload.id, status, errorCode, ...(errorCode === OPTED_OUT ? { optedOut: true } : {}) }];
  },

  inbound(callback) {
    const event = envelope(callback);
    if (!event || event.eventType !== 'message.received') return [];
    const { id, from, to, text } = event.payload;
    if (!id || !from?.phone_number || !to?.[0]?.phone_number) return [];
    return [{ providerId: id, from: from.phone_number, to: to[0].phone_number, body: text ?? '' }];
  },
};

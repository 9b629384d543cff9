/**
 * Plivo's SMS API, as its public documentation describes it:
 * - send: https://www.plivo.com/docs/messaging/api/message/send-a-message and
 *   https://www.plivo.com/docs/messaging/api/message/bulk-messaging (`POST /v1/Account/{auth_id}/Message/`,
 *   HTTP Basic `auth_id:auth_token`, JSON `{src, dst, text, url, method}`; up to 1,000 unique destinations
 *   joined by `<`; HTTP 202 `{api_id, message, message_uuid: [...], invalid_number: [...]}`);
 * - HTTP answers and limits: https://www.plivo.com/docs/messaging/api/overview (400, 401, 404, 405,
 *   429 "Too many requests, rate limited", 500) and https://docs.plivo.com/docs/voice/concepts/account-limits;
 * - status callbacks: https://www.plivo.com/docs/messaging/api/message/message-status-callbacks
 *   (form POST to `url`: `MessageUUID`, `Status`, `ErrorCode`, `ParentMessageUUID`…);
 * - error codes: https://www.plivo.com/docs/messaging/troubleshooting/error-codes (200 opted out, 900 no credit…);
 * - signatures: https://www.plivo.com/docs/messaging/concepts/signature-validation (`X-Plivo-Signature-V3`
 *   and `X-Plivo-Signature-V3-Nonce`, HMAC-SHA256 with the auth token), as plivo/plivo-node
 *   `lib/utils/v3Security.js` computes it;
 * - inbound: https://www.plivo.com/docs/messaging/api/message/receive-a-message (`From`, `To`, `Text`, `MessageUUID`).
 *
 * Plivo sends one text to many destinations: messages of a hand-over are grouped by sender and text,
 * and a group never repeats a destination (Plivo would drop the duplicate), one call per group.
 */
import crypto from 'node:crypto';
import { httpCall, retryAfterMs } from './http-call';
import type { ProviderAccount, ProviderAdapter, ProviderCallback, ProviderInbound, ProviderOutcome, ProviderSms, ProviderStatus } from './provider';

/** Destinations one Plivo call may carry. */
export const PLIVO_MAX_BATCH = 1000;

type PlivoAnswer = { api_id?: string; message?: string; message_uuid?: string[]; invalid_number?: string[]; error?: unknown };

const digits = (phone: string) => phone.replace(/\D/g, '');
/** Plivo writes numbers without `+` in its callbacks; Herald keeps E.164 (a short code or an alphanumeric ID stays as is). */
const e164 = (phone: string) => (/^\d{8,15}$/.test(phone) ? `+${phone}` : phone);

/** Groups of messages that one call can carry: same sender and text, distinct destinations, at most 1,000. */
export function plivoGroups(messages: ProviderSms[]): ProviderSms[][] {
  const groups: ProviderSms[][] = [];
  const open = new Map<string, ProviderSms[][]>();
  for (const message of messages) {
    const key = `${message.from}\u0000${message.body}`;
    const candidates = open.get(key) ?? [];
    open.set(key, candidates);
    let group = candidates.find((g) => g.length < PLIVO_MAX_BATCH && !g.some((m) => digits(m.to) === digits(message.to)));
    if (!group) {
      group = [];
      candidates.push(group);
      groups.push(group);
    }
    group.push(message);
  }
  return groups;
}

function errorText(answer: PlivoAnswer | undefined, fallback: string): string {
  const error = answer?.error;
  if (typeof error === 'string') return error;
  if (error && typeof error === 'object') return JSON.stringify(error);
  return answer?.message ?? fallback;
}

function parse(body: string): PlivoAnswer | undefined {
  try {
    const value: unknown = JSON.parse(body);
    return value && typeof value === 'object' ? (value as PlivoAnswer) : undefined;
  } catch {
    return undefined;
  }
}

async function sendGroup(account: ProviderAccount, group: ProviderSms[], signal?: AbortSignal): Promise<ProviderOutcome[]> {
  const { auth_id: authId = '', auth_token: authToken = '' } = account.credentials;
  const payload = {
    src: group[0]!.from,
    dst: group.map((m) => m.to).join('<'),
    text: group[0]!.body,
    url: account.statusCallbackUrl,
    method: 'POST',
  };
  const result = await httpCall({
    method: 'POST',
    url: `${account.baseUrl.replace(/\/+$/, '')}/v1/Account/${encodeURIComponent(authId)}/Message/`,
    headers: {
      authorization: `Basic ${Buffer.from(`${authId}:${authToken}`).toString('base64')}`,
      'content-type': 'application/json',
      accept: 'application/json',
    },
    body: JSON.stringify(payload),
    timeoutMs: account.timeoutMs,
    signal,
    agent: account.agent,
  });
  if (result.kind === 'not_sent')
    return group.map((m) => ({ clientRef: m.clientRef, kind: 'refused', errorClass: 'transient', code: result.error, message: `not sent: ${result.error}` }));
  if (result.kind === 'in_doubt') return group.map((m) => ({ clientRef: m.clientRef, kind: 'in_doubt', error: result.error }));

  const { status, headers, body } = result.answer;
  const answer = parse(body);
  if (status >= 200 && status < 300) {
    // 202, or 206 for a partial success: one uuid per valid destination, in the order given; the
    // invalid ones listed apart.
    const invalid = new Set((answer?.invalid_number ?? []).map(digits));
    const uuids = [...(answer?.message_uuid ?? [])];
    return group.map((m): ProviderOutcome => {
      if (invalid.has(digits(m.to)))
        return {
          clientRef: m.clientRef,
          kind: 'refused',
          errorClass: 'recipient',
          code: 'invalid_number',
          message: `Plivo listed ${m.to} as an invalid number`,
        };
      const uuid = uuids.shift();
      return uuid
        ? { clientRef: m.clientRef, kind: 'accepted', providerId: uuid }
        : { clientRef: m.clientRef, kind: 'in_doubt', error: `Plivo answered ${status} without a message_uuid for ${m.to}` };
    });
  }
  const text = errorText(answer, body.slice(0, 200) || `HTTP ${status}`);
  const code = String(status);
  const refuse = (errorClass: 'transient' | 'account' | 'recipient', retryAfter?: number) =>
    group.map((m): ProviderOutcome => ({
      clientRef: m.clientRef,
      kind: 'refused',
      errorClass,
      code,
      message: text,
      ...(retryAfter !== undefined ? { retryAfterMs: retryAfter } : {}),
    }));
  if (status === 429 || status >= 500) return refuse('transient', retryAfterMs(headers));
  if (status === 401 || status === 403 || status === 402) return refuse('account');
  // 400: a destination Plivo cannot take is the recipient's; anything else (src, credit, a
  // parameter) is the account's configuration: another connection may do better, and admins hear of it.
  if (/\b(dst|destination)\b/i.test(text) && !/\b(src|source|credit)\b/i.test(text)) return refuse('recipient');
  return refuse('account');
}

/** Plivo's final statuses; `queued` and `sent` are intermediate. Error code 200: the recipient opted out. */
/** The statuses of a message sent (https://www.plivo.com/docs/messaging/api/message/message-status-callbacks). */
const SENT_STATUSES = new Set(['queued', 'sent', 'delivered', 'undelivered', 'failed', 'rejected', 'read']);

export function plivoStatus(status: string): ProviderStatus['status'] {
  switch (status.toLowerCase()) {
    case 'delivered':
      return 'delivered';
    case 'undelivered':
    case 'failed':
    case 'rejected':
      return 'failed';
    default:
      return 'pending';
  }
}

/** The parameters of a callback: the query's, and a form body's (Plivo posts form data). */
function callbackParams(callback: ProviderCallback): { query: URLSearchParams; body: URLSearchParams } {
  const url = new URL(callback.url);
  const type = callback.headers['content-type'] ?? '';
  const body =
    callback.method.toUpperCase() === 'POST' && !type.includes('json') ? new URLSearchParams(callback.rawBody.toString('utf8')) : new URLSearchParams();
  return { query: url.searchParams, body };
}

function grouped(params: URLSearchParams[]): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const set of params) for (const [key, value] of set) map.set(key, [...(map.get(key) ?? []), value]);
  return map;
}

/**
 * The string Plivo signs (V3): the URL without its query, then `?` and the sorted `key=value` query
 * pairs; for a POST with parameters, `.` between the query and the body when both exist, then the
 * sorted body parameters as `keyvalue`; then `.` and the nonce.
 */
export function plivoV3Base(method: string, url: string, body: URLSearchParams, nonce: string): string {
  const target = new URL(url);
  const base = `${target.protocol}//${target.host}${target.pathname}`;
  const isGet = method.toUpperCase() === 'GET';
  const query = grouped(isGet ? [target.searchParams, body] : [target.searchParams]);
  const queryString = [...query.keys()]
    .sort()
    .flatMap((key) => [...query.get(key)!].sort().map((value) => `${key}=${value}`))
    .join('&');
  const posted = isGet ? new Map<string, string[]>() : grouped([body]);
  let signed = base;
  if (queryString.length > 0 || posted.size > 0) signed += `?${queryString}`;
  if (queryString.length > 0 && posted.size > 0) signed += '.';
  signed += [...posted.keys()]
    .sort()
    .flatMap((key) => [...posted.get(key)!].sort().map((value) => `${key}${value}`))
    .join('');
  return `${signed}.${nonce}`;
}

function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && crypto.timingSafeEqual(left, right);
}

export const plivoAdapter: ProviderAdapter = {
  name: 'plivo',
  defaultBaseUrl: 'https://api.plivo.com',
  maxBatch: PLIVO_MAX_BATCH,
  credentialFields: ['auth_id', 'auth_token'],

  async send(account, messages, signal) {
    const outcomes = await Promise.all(plivoGroups(messages).map((group) => sendGroup(account, group, signal)));
    const byRef = new Map(outcomes.flat().map((o) => [o.clientRef, o]));
    return messages.map((m) => byRef.get(m.clientRef)!);
  },

  /**
   * V3 signature: base64 HMAC-SHA256 (auth token) of `plivoV3Base`; the header may carry several
   * signatures separated by commas, any one matching passes. Plivo's scheme has a nonce and no
   * timestamp, so there is no staleness window to apply: a replayed status is harmless (statuses
   * never go back from a final one) and a replayed inbound is caught by its `MessageUUID`.
   */
  verify(account, callback) {
    const token = account.credentials.auth_token;
    const signatures = callback.headers['x-plivo-signature-v3'];
    const nonce = callback.headers['x-plivo-signature-v3-nonce'];
    if (!token || !signatures || !nonce) return false;
    let base: string;
    try {
      base = plivoV3Base(callback.method, callback.url, callbackParams(callback).body, nonce);
    } catch {
      return false;
    }
    const expected = crypto.createHmac('sha256', token).update(base, 'utf8').digest('base64');
    let matched = false;
    for (const candidate of signatures.split(',')) if (safeEqual(candidate.trim(), expected)) matched = true;
    return matched;
  },

  statuses(callback) {
    const { query, body } = callbackParams(callback);
    const get = (key: string) => body.get(key) ?? query.get(key) ?? undefined;
    const uuid = get('ParentMessageUUID') || get('MessageUUID');
    const status = get('Status');
    if (!uuid || !status) return [];
    const mapped = plivoStatus(status);
    const errorCode = get('ErrorCode');
    const failed = mapped === 'failed';
    return [
      {
        providerId: uuid,
        status: mapped,
        ...(failed && errorCode ? { errorCode } : {}),
        ...(failed && errorCode !== undefined && Number(errorCode) === 200 ? { optedOut: true } : {}),
      },
    ];
  },

  inbound(callback): ProviderInbound[] {
    const { query, body } = callbackParams(callback);
    const get = (key: string) => body.get(key) ?? query.get(key) ?? undefined;
    const from = get('From');
    const to = get('To');
    const uuid = get('MessageUUID');
    // A status callback has From, To and MessageUUID too, and the Status of the message sent.
    const status = get('Status')?.toLowerCase();
    if (!from || !to || !uuid || (status !== undefined && SENT_STATUSES.has(status))) return [];
    return [{ providerId: uuid, from: e164(from), to: e164(to), body: get('Text') ?? '' }];
  },
};

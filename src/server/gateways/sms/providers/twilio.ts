/**
 * Twilio Programmable Messaging, spoken as its documentation describes it:
 * - send: https://www.twilio.com/docs/messaging/api/message-resource (create a Message: form POST on
 *   `/2010-04-01/Accounts/{AccountSid}/Messages.json`, HTTP Basic `AccountSid:AuthToken`, fields
 *   `To`, `From`, `Body`, `StatusCallback`; 201 with the Message resource, `sid` and `status`);
 *   https://www.twilio.com/docs/iam/api (Basic auth); https://www.twilio.com/docs/usage/twilios-response
 *   (`.json`);
 * - errors: https://www.twilio.com/docs/api/errors and the pages of the codes below (e.g.
 *   https://www.twilio.com/docs/api/errors/20429: "Requests that receive 429 responses aren't
 *   processed and are safe to retry");
 * - status callbacks: https://www.twilio.com/docs/messaging/guides/outbound-message-status-in-status-callbacks
 *   (form POST with `MessageSid`, `MessageStatus`, `ErrorCode`);
 * - signature: https://www.twilio.com/docs/usage/webhooks/webhooks-security (`X-Twilio-Signature`:
 *   base64 HMAC-SHA1 keyed with the Auth Token over the full URL, query included, followed by every
 *   POST parameter sorted by name, name then value);
 * - inbound: https://www.twilio.com/docs/messaging/guides/webhook-request (`MessageSid`, `From`,
 *   `To`, `Body`).
 *
 * Twilio keeps no client reference on a Message, so Herald's `clientRef` travels nowhere: the
 * provider id (`sid`) is the only link, and maxBatch is 1 (one recipient a request).
 */
import crypto from 'node:crypto';
import { httpCall, retryAfterMs } from './http-call';
import type { ErrorClass, ProviderAccount, ProviderAdapter, ProviderCallback, ProviderInbound, ProviderOutcome, ProviderSms, ProviderStatus } from './provider';

/** Twilio error codes a send may answer, by what Herald does about them. Unlisted 4xx codes count as `account` (a set-up problem an admin must see). */
export const TWILIO_ERRORS: Record<string, { errorClass: ErrorClass; optedOut?: boolean }> = {
  // Throttled or queue full: never processed, safe elsewhere.
  '20429': { errorClass: 'transient' }, // too many concurrent requests
  '21611': { errorClass: 'transient' }, // the From number's queue is full
  '30001': { errorClass: 'transient' }, // queue overflow
  // The account or its sender.
  '20003': { errorClass: 'account' }, // authentication
  '20404': { errorClass: 'account' }, // no such account (wrong SID in the path)
  '21212': { errorClass: 'account' }, // invalid From
  '21606': { errorClass: 'account' }, // From not SMS-capable for this account
  '21608': { errorClass: 'account' }, // trial account: unverified To
  '21408': { errorClass: 'account' }, // no permission for the region
  '21603': { errorClass: 'account' }, // From missing
  // The recipient.
  '21211': { errorClass: 'recipient' }, // invalid To
  '21214': { errorClass: 'recipient' }, // To cannot be reached
  '21265': { errorClass: 'recipient' }, // To is a short code
  '21266': { errorClass: 'recipient' }, // To equals From
  '21612': { errorClass: 'recipient' }, // To unroutable from this From
  '21614': { errorClass: 'recipient' }, // To not SMS-capable
  '21635': { errorClass: 'recipient' }, // To is a landline
  '21610': { errorClass: 'recipient', optedOut: true }, // the recipient replied STOP
};

const FINAL_STATUSES: Record<string, ProviderStatus['status']> = {
  delivered: 'delivered',
  read: 'delivered',
  partially_delivered: 'delivered',
  undelivered: 'failed',
  failed: 'failed',
  canceled: 'failed',
};
/** Validity period expired (https://www.twilio.com/docs/api/errors/30036): the message expired rather than failed. */
const EXPIRED_CODE = '30036';

function form(raw: Buffer): URLSearchParams {
  return new URLSearchParams(raw.toString('utf8'));
}

function header(callback: ProviderCallback, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(callback.headers)) if (key.toLowerCase() === wanted) return value;
  return undefined;
}

/** The documented signature: base64 HMAC-SHA1(authToken, url + sorted name+value pairs). Repeated names keep each value, in the order sent. */
export function twilioSignature(authToken: string, url: string, params: URLSearchParams | Record<string, string>): string {
  const entries = params instanceof URLSearchParams ? [...params.entries()] : Object.entries(params);
  const names = [...new Set(entries.map(([name]) => name))].sort();
  let data = url;
  for (const name of names) for (const [key, value] of entries) if (key === name) data += name + value;
  return crypto.createHmac('sha1', authToken).update(data, 'utf8').digest('base64');
}

function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && crypto.timingSafeEqual(left, right);
}

/** The URL with and without its scheme's default port: Twilio's own validators accept either form. */
function urlForms(url: string): string[] {
  const parsed = new URL(url);
  const defaultPort = parsed.protocol === 'https:' ? '443' : '80';
  if (parsed.port === defaultPort || parsed.port === '') {
    const withPort = new URL(url);
    withPort.port = '';
    const bare = withPort.toString();
    const host = `${parsed.protocol}//${parsed.username ? `${parsed.username}:${parsed.password}@` : ''}${parsed.hostname}:${defaultPort}`;
    return [url, bare, host + parsed.pathname + parsed.search + parsed.hash];
  }
  return [url];
}

function refused(
  clientRef: string,
  errorClass: ErrorClass,
  code: string,
  message: string,
  extra: { retryAfterMs?: number; optedOut?: boolean } = {},
): ProviderOutcome {
  return { clientRef, kind: 'refused', errorClass, code, message, ...extra };
}

async function sendOne(account: ProviderAccount, sms: ProviderSms, signal?: AbortSignal): Promise<ProviderOutcome> {
  const sid = account.credentials.account_sid ?? '';
  const token = account.credentials.auth_token ?? '';
  const params = new URLSearchParams({ To: sms.to, From: sms.from, Body: sms.body });
  if (account.statusCallbackUrl) params.set('StatusCallback', account.statusCallbackUrl);
  const result = await httpCall({
    method: 'POST',
    url: `${account.baseUrl.replace(/\/+$/, '')}/2010-04-01/Accounts/${encodeURIComponent(sid)}/Messages.json`,
    headers: {
      authorization: `Basic ${Buffer.from(`${sid}:${token}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
    },
    body: params.toString(),
    timeoutMs: account.timeoutMs,
    connectTimeoutMs: Math.min(account.timeoutMs, 5000),
    agent: account.agent,
    signal,
  });
  if (result.kind === 'not_sent') return refused(sms.clientRef, 'transient', result.error, `not sent: ${result.error}`);
  if (result.kind === 'in_doubt') return { clientRef: sms.clientRef, kind: 'in_doubt', error: result.error };

  const { status, headers, body } = result.answer;
  let json: { sid?: unknown; code?: unknown; message?: unknown } = {};
  try {
    json = JSON.parse(body) as typeof json;
  } catch {
    // Not JSON (a proxy's page): classified by its status below.
  }
  if (status >= 200 && status < 300) {
    if (typeof json.sid === 'string' && json.sid) return { clientRef: sms.clientRef, kind: 'accepted', providerId: json.sid };
    // Taken, by the status, but no id to follow it by.
    return { clientRef: sms.clientRef, kind: 'in_doubt', error: `HTTP ${status} without a sid` };
  }
  const code = json.code === undefined || json.code === null ? `HTTP ${status}` : String(json.code);
  const message = typeof json.message === 'string' ? json.message : `HTTP ${status}`;
  const retryAfter = retryAfterMs(headers);
  const wait = retryAfter === undefined ? {} : { retryAfterMs: retryAfter };
  const known = TWILIO_ERRORS[code];
  if (status === 429 || status >= 500) return refused(sms.clientRef, 'transient', code, message, wait);
  if (known) return refused(sms.clientRef, known.errorClass, code, message, { ...(known.optedOut ? { optedOut: true } : {}), ...wait });
  return refused(sms.clientRef, 'account', code, message, wait);
}

export const twilioAdapter: ProviderAdapter = {
  name: 'twilio',
  defaultBaseUrl: 'https://api.twilio.com',
  maxBatch: 1,
  credentialFields: ['account_sid', 'auth_token'],

  async send(account, messages, signal) {
    return Promise.all(messages.map((sms) => sendOne(account, sms, signal)));
  },

  verify(account, callback) {
    const token = account.credentials.auth_token;
    const signature = header(callback, 'x-twilio-signature');
    if (!token || !signature) return false;
    const url = new URL(callback.url);
    // A JSON body is signed through a `bodySHA256` query parameter (the URL alone is signed).
    const bodyHash = url.searchParams.get('bodySHA256');
    let params: URLSearchParams;
    if (bodyHash !== null) {
      const actual = crypto.createHash('sha256').update(callback.rawBody).digest('hex');
      if (!safeEqual(actual, bodyHash.toLowerCase())) return false;
      params = new URLSearchParams();
    } else {
      params = callback.method.toUpperCase() === 'POST' ? form(callback.rawBody) : new URLSearchParams();
    }
    let matched = false;
    for (const candidate of urlForms(callback.url)) if (safeEqual(twilioSignature(token, candidate, params), signature)) matched = true;
    return matched;
  },

  statuses(callback) {
    const params = form(callback.rawBody);
    const providerId = params.get('MessageSid') ?? params.get('SmsSid');
    const reported = (params.get('MessageStatus') ?? params.get('SmsStatus') ?? '').toLowerCase();
    if (!providerId || !reported) return [];
    const errorCode = params.get('ErrorCode') || undefined;
    let status = FINAL_STATUSES[reported] ?? 'pending';
    if (status === 'failed' && errorCode === EXPIRED_CODE) status = 'expired';
    return [
      {
        providerId,
        status,
        ...(errorCode && status !== 'delivered' ? { errorCode } : {}),
        ...(errorCode && TWILIO_ERRORS[errorCode]?.optedOut ? { optedOut: true } : {}),
      },
    ];
  },

  inbound(callback) {
    const params = form(callback.rawBody);
    const providerId = params.get('MessageSid') ?? params.get('SmsMessageSid') ?? params.get('SmsSid');
    const from = params.get('From');
    const to = params.get('To');
    // A status callback has From, To and the sid too: only a message received is a handset's.
    const state = (params.get('MessageStatus') ?? params.get('SmsStatus') ?? 'received').toLowerCase();
    if (!providerId || !from || !to || state !== 'received') return [];
    const message: ProviderInbound = { providerId, from, to, body: params.get('Body') ?? '' };
    return [message];
  },
};

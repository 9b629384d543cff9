/**
 * Vonage SMS API (the `/sms/json` one, formerly Nexmo), spoken as its documentation describes it:
 * - send: https://developer.vonage.com/en/api/sms (form POST on `/sms/json`: `api_key` with
 *   `api_secret` or a signed `sig`, `from`, `to` in digits without `+`, `text`, `type`, `callback`,
 *   `client-ref`; always HTTP 200, the result in `messages[].status`, one entry per part);
 * - errors: https://developer.vonage.com/en/messaging/sms/guides/troubleshooting-sms and
 *   https://developer.vonage.com/en/api-errors/sms (status 1 throttled … 33 de-activated);
 * - delivery receipts: https://developer.vonage.com/en/messaging/sms/guides/delivery-receipts
 *   (`messageId`, `status`, `err-code`, `client-ref`, one per part; GET, POST or POST-JSON as set in
 *   the dashboard); opted-out numbers:
 *   https://developer.vonage.com/en/opt-out-assist/guides/messaging-opted-out-numbers (accepted,
 *   then a `failed`/`rejected` receipt with `err-code` 9);
 * - signatures: https://developer.vonage.com/en/getting-started/concepts/signing-messages (`sig` over
 *   every other parameter sorted by name as `&name=value`, `&` and `=` in values replaced by `_`;
 *   md5 hash of that string followed by the signature secret, or an HMAC keyed with it: MD5, SHA-1,
 *   SHA-256 or SHA-512, hex; `timestamp` is signed too);
 * - inbound: https://developer.vonage.com/en/messaging/sms/guides/inbound-sms (`msisdn`, `to`,
 *   `messageId`, `text`).
 *
 * One message a request (maxBatch 1). Herald's `clientRef` travels as `client-ref` and comes back in
 * every receipt, so a receipt for a later part of a long message (whose id Herald never kept) still
 * finds its message.
 */
import crypto from 'node:crypto';
import { httpCall, retryAfterMs } from './http-call';
import type { ErrorClass, ProviderAccount, ProviderAdapter, ProviderCallback, ProviderInbound, ProviderOutcome, ProviderSms, ProviderStatus } from './provider';

/** `messages[].status` of a send, by what Herald does about it. Unlisted codes count as `account`. */
export const VONAGE_SEND_STATUSES: Record<string, ErrorClass> = {
  '1': 'transient', // Throttled
  '5': 'transient', // Internal error
  '10': 'transient', // Too many existing binds
  '2': 'account', // Missing parameters
  '4': 'account', // Invalid credentials
  '8': 'account', // Partner account barred
  '9': 'account', // Partner quota violation (no credit)
  '11': 'account', // Account not enabled for HTTP
  '12': 'account', // Message too long
  '14': 'account', // Invalid signature
  '15': 'account', // Invalid sender address
  '22': 'account', // Invalid network code
  '23': 'account', // Invalid callback URL
  '29': 'account', // Non-whitelisted destination (demo account)
  '32': 'account', // Signature and API secret disallowed
  '6': 'recipient', // Invalid message: unrecognised number prefix
  '7': 'recipient', // Number barred
  '33': 'recipient', // Number de-activated
};

/** The signature methods the dashboard offers, by their SDK names. */
export type VonageSignatureMethod = 'md5hash' | 'md5' | 'sha1' | 'sha256' | 'sha512';
const HEX_LENGTHS: Record<number, VonageSignatureMethod[]> = { 32: ['md5hash', 'md5'], 40: ['sha1'], 64: ['sha256'], 128: ['sha512'] };

/** How far a signed callback's `timestamp` may be from now, either way. */
export const VONAGE_SIGNATURE_WINDOW_MS = 5 * 60 * 1000;

/** The documented signature of a set of parameters (`sig` itself left out). */
export function vonageSignature(params: Record<string, string>, secret: string, method: VonageSignatureMethod = 'md5hash'): string {
  const base = Object.keys(params)
    .filter((name) => name !== 'sig')
    .sort()
    .map((name) => `&${name}=${params[name]!.replace(/[&=]/g, '_')}`)
    .join('');
  if (method === 'md5hash')
    return crypto
      .createHash('md5')
      .update(base + secret, 'utf8')
      .digest('hex');
  return crypto.createHmac(method, secret).update(base, 'utf8').digest('hex');
}

/** Every parameter of a callback: its query string, then its body (form or JSON, as set in the dashboard). */
export function vonageParams(callback: ProviderCallback): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [name, value] of new URL(callback.url).searchParams) params[name] = value;
  const text = callback.rawBody.toString('utf8').trim();
  if (!text) return params;
  if (text.startsWith('{')) {
    try {
      const json = JSON.parse(text) as Record<string, unknown>;
      for (const [name, value] of Object.entries(json))
        if (value !== null && value !== undefined) params[name] = typeof value === 'object' ? JSON.stringify(value) : String(value);
    } catch {
      // Not JSON after all: nothing to read.
    }
    return params;
  }
  for (const [name, value] of new URLSearchParams(text)) params[name] = value;
  return params;
}

const GSM_7 = /^[@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&'()*+,\-./0-9:;<=>?¡A-ZÄÖÑÜ§¿a-zäöñüà^{}\\[~\]|€\f]*$/;

/** A number as Vonage writes it: digits only. */
const digits = (number: string) => number.replace(/^\+/, '').replace(/[\s-]/g, '');
/** A number as Herald writes it: E.164 with `+` (alphanumeric senders left alone). */
const e164 = (number: string) => (/^\d{7,15}$/.test(number) ? `+${number}` : number);

function safeHexEqual(a: string, b: string): boolean {
  const left = Buffer.from(a.toLowerCase());
  const right = Buffer.from(b.toLowerCase());
  return left.length === right.length && crypto.timingSafeEqual(left, right);
}

type SendAnswer = { messages?: Array<{ status?: unknown; 'message-id'?: unknown; 'error-text'?: unknown }> };

async function sendOne(account: ProviderAccount, sms: ProviderSms, signal?: AbortSignal): Promise<ProviderOutcome> {
  const { api_key: apiKey = '', api_secret: apiSecret, signature_secret: signatureSecret } = account.credentials;
  const fields: Record<string, string> = {
    api_key: apiKey,
    from: /^\+?\d+$/.test(sms.from) ? digits(sms.from) : sms.from,
    to: digits(sms.to),
    text: sms.body,
    type: GSM_7.test(sms.body) ? 'text' : 'unicode',
    'client-ref': sms.clientRef.slice(0, 40),
  };
  if (account.statusCallbackUrl) fields.callback = account.statusCallbackUrl;
  if (apiSecret) fields.api_secret = apiSecret;
  else if (signatureSecret) {
    // Signed request: no secret on the wire; the method is the dashboard's (md5 hash by default).
    fields.timestamp = String(Math.floor(Date.now() / 1000));
    fields.sig = vonageSignature(fields, signatureSecret, (account.credentials.signature_method as VonageSignatureMethod | undefined) ?? 'md5hash');
  }
  const result = await httpCall({
    method: 'POST',
    url: `${account.baseUrl.replace(/\/+$/, '')}/sms/json`,
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams(fields).toString(),
    timeoutMs: account.timeoutMs,
    connectTimeoutMs: Math.min(account.timeoutMs, 5000),
    agent: account.agent,
    signal,
  });
  const refused = (errorClass: ErrorClass, code: string, message: string, retryAfter?: number): ProviderOutcome => ({
    clientRef: sms.clientRef,
    kind: 'refused',
    errorClass,
    code,
    message,
    ...(retryAfter === undefined ? {} : { retryAfterMs: retryAfter }),
  });
  if (result.kind === 'not_sent') return refused('transient', result.error, `not sent: ${result.error}`);
  if (result.kind === 'in_doubt') return { clientRef: sms.clientRef, kind: 'in_doubt', error: result.error };

  const { status, headers, body } = result.answer;
  const retryAfter = retryAfterMs(headers);
  if (status === 429 || status >= 500) return refused('transient', `HTTP ${status}`, `HTTP ${status}`, retryAfter);
  if (status === 401 || status === 403) return refused('account', `HTTP ${status}`, `HTTP ${status}`);
  let json: SendAnswer = {};
  try {
    json = JSON.parse(body) as SendAnswer;
  } catch {
    // Below.
  }
  const parts = Array.isArray(json.messages) ? json.messages : [];
  if (status < 200 || status >= 300) return refused('account', `HTTP ${status}`, `HTTP ${status}`);
  // Taken, by the status, but nothing says what became of it.
  if (parts.length === 0) return { clientRef: sms.clientRef, kind: 'in_doubt', error: `HTTP ${status} without messages` };
  // A part that went out means the handset may get something: never another connection.
  const sent = parts.find((part) => String(part.status) === '0' && typeof part['message-id'] === 'string');
  if (sent) return { clientRef: sms.clientRef, kind: 'accepted', providerId: sent['message-id'] as string };
  const first = parts[0]!;
  const code = String(first.status);
  const text = typeof first['error-text'] === 'string' ? first['error-text'] : `status ${code}`;
  let errorClass = VONAGE_SEND_STATUSES[code] ?? 'account';
  // 3 "Invalid params" names the parameter: a bad `to` is the recipient's, anything else the set-up's.
  if (code === '3') errorClass = /\bto\b/i.test(text) ? 'recipient' : 'account';
  // Kept as `status N`, as Vonage names it, apart from a receipt's `err-code N`.
  return refused(errorClass, `status ${code}`, text, retryAfter);
}

const RECEIPT_STATUSES: Record<string, ProviderStatus['status']> = {
  delivered: 'delivered',
  expired: 'expired',
  failed: 'failed',
  rejected: 'failed',
  // accepted, buffered: on their way; unknown: no final word from the network (left to Herald's expiry).
};

export const vonageAdapter: ProviderAdapter = {
  name: 'vonage',
  defaultBaseUrl: 'https://rest.nexmo.com',
  maxBatch: 1,
  credentialFields: ['api_key', 'api_secret', 'signature_secret'],

  async send(account, messages, signal) {
    return Promise.all(messages.map((sms) => sendOne(account, sms, signal)));
  },

  verify(account, callback, now = new Date()) {
    const secret = account.credentials.signature_secret;
    if (!secret) return false;
    const params = vonageParams(callback);
    const sig = params.sig;
    const timestamp = params.timestamp;
    if (!sig || !timestamp || !/^\d+$/.test(timestamp)) return false;
    if (Math.abs(now.getTime() - Number(timestamp) * 1000) > VONAGE_SIGNATURE_WINDOW_MS) return false;
    if (account.credentials.api_key && params['api-key'] !== undefined && params['api-key'] !== account.credentials.api_key) return false;
    const configured = account.credentials.signature_method as VonageSignatureMethod | undefined;
    const methods = configured ? [configured] : (HEX_LENGTHS[sig.length] ?? []);
    let matched = false;
    for (const method of methods) if (safeHexEqual(vonageSignature(params, secret, method), sig)) matched = true;
    return matched;
  },

  statuses(callback) {
    const params = vonageParams(callback);
    const providerId = params.messageId;
    const reported = (params.status ?? '').toLowerCase();
    if (!providerId || !reported) return [];
    const status = RECEIPT_STATUSES[reported] ?? 'pending';
    const errorCode = params['err-code'];
    const failing = status === 'failed' || status === 'expired';
    return [
      {
        providerId,
        status,
        ...(failing && errorCode && errorCode !== '0' ? { errorCode: `err-code ${errorCode}` } : {}),
        ...(failing && errorCode === '9' ? { optedOut: true } : {}),
        ...(params['client-ref'] ? { clientRef: params['client-ref'] } : {}),
      },
    ];
  },

  inbound(callback) {
    const params = vonageParams(callback);
    // A delivery receipt has msisdn, to and messageId too, and a status where a message has its text.
    if (!params.messageId || !params.msisdn || !params.to || (params.status !== undefined && params.text === undefined)) return [];
    const message: ProviderInbound = { providerId: params.messageId, from: e164(params.msisdn), to: e164(params.to), body: params.text ?? '' };
    return [message];
  },
};

/**
 * Infobip SMS API v3, spoken as documented:
 * - send: the SMS API reference https://www.infobip.com/docs/api/channels/sms (`POST /sms/3/messages`, JSON
 *   `{messages: [{sender, destinations: [{to, messageId}], content: {text}, webhooks: {delivery: {url, intermediateReport}, contentType}}]}`,
 *   200 `{bulkId, messages: [{messageId, status: {groupId, groupName, id, name}, destination}]}`);
 * - auth `Authorization: App <api key>`: https://www.infobip.com/docs/developer-resources/authentication-and-access/api-authentication;
 * - errors `{errorCode: "E400", description, violations: [{property, violation}]}`, 401, 403, 5xx:
 *   https://www.infobip.com/docs/developer-resources/api-fundamentals/handling-errors; 429 `E429` with `Retry-After`:
 *   https://www.infobip.com/docs/developer-resources/api-fundamentals/rate-limits-and-throttling;
 * - statuses (groups PENDING 1, UNDELIVERABLE 2, DELIVERED 3, EXPIRED 4, REJECTED 5; `error.permanent`):
 *   https://www.infobip.com/docs/developer-resources/api-fundamentals/message-status-codes;
 * - delivery reports `{results: [{messageId, to, status, error, …}]}` and inbound `{results: [{messageId, from, to, text, …}]}`:
 *   https://www.infobip.com/docs/api/channels/sms and https://www.infobip.com/docs/developer-resources/about-infobip-apis/webhooks.
 *
 * Callback security. A per-message webhook (`webhooks.delivery.url`, which Herald passes so that each
 * connection's reports reach its own URL) carries no signature: Infobip offers Basic, HMAC and OAuth only
 * on Subscriptions-management notification profiles (https://www.infobip.com/docs/api/platform/subscriptions-api),
 * and its public docs do not say which header carries the HMAC nor what string it signs. So Herald uses
 * the fallback the issue names: a secret in the callback URL. The secret is derived from the account's
 * API key (HMAC-SHA256 of a fixed label, base64url), added as `token` to the status URL on every send and
 * to the inbound URL shown to the admin (`infobipCallbackUrl`), and checked in constant time. It has no
 * timestamp, so a replay cannot be refused by age: replays are harmless because statuses only move
 * forward. The API key is never in the URL; changing the key changes the token.
 *
 * Herald's message uuid is sent as the destination's `messageId` (≤200 characters) and so becomes
 * the provider id: a message resent after an in-doubt call is refused `REJECTED_DUPLICATE_MESSAGE_ID`,
 * which the adapter reads as "already taken" (accepted), never as a second message.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { httpCall, retryAfterMs, type HttpAnswer } from './http-call';
import type { ErrorClass, ProviderAccount, ProviderAdapter, ProviderCallback, ProviderInbound, ProviderOutcome, ProviderSms, ProviderStatus } from './provider';

/** Messages per request. Infobip documents bulk sends but no maximum count; 100 keeps a refused request small. */
export const INFOBIP_MAX_BATCH = 100;
const TOKEN_LABEL = 'herald infobip callback v1';

/** The secret token Herald puts in this account's callback URLs. */
export function infobipCallbackToken(apiKey: string): string {
  return createHmac('sha256', apiKey).update(TOKEN_LABEL).digest('base64url');
}

/** A callback URL (status or inbound) carrying the account's token. */
export function infobipCallbackUrl(url: string, apiKey: string): string {
  const signed = new URL(url);
  signed.searchParams.set('token', infobipCallbackToken(apiKey));
  return signed.toString();
}

type Refusal = { errorClass: ErrorClass; optedOut?: boolean };

/** Synchronous rejections (status group REJECTED) by status name: what the router does with each. */
const REJECTED: Record<string, Refusal> = {
  REJECTED_NETWORK: { errorClass: 'recipient' },
  REJECTED_PREFIX_MISSING: { errorClass: 'recipient' },
  REJECTED_DND: { errorClass: 'recipient' },
  REJECTED_SOURCE: { errorClass: 'account' },
  REJECTED_NOT_ENOUGH_CREDITS: { errorClass: 'account' },
  REJECTED_SENDER: { errorClass: 'account' },
  // The account's blocklist ("Do Not Contact"), which STOP keywords fill: an opt-out at the provider.
  REJECTED_DESTINATION_BLOCKLISTED: { errorClass: 'recipient', optedOut: true },
  REJECTED_PREPAID_PACKAGE_EXPIRED: { errorClass: 'account' },
  REJECTED_DESTINATION_NOT_REGISTERED: { errorClass: 'recipient' },
  REJECTED_ROUTE_NOT_AVAILABLE: { errorClass: 'account' },
  REJECTED_FLOODING_FILTER: { errorClass: 'transient' },
  REJECTED_SYSTEM_ERROR: { errorClass: 'transient' },
  REJECTED_INVALID_UDH: { errorClass: 'recipient' },
  REJECTED_MESSAGE_TOO_LONG: { errorClass: 'recipient' },
  MISSING_TO: { errorClass: 'recipient' },
  REJECTED_DESTINATION: { errorClass: 'recipient' },
};

type InfobipStatus = { groupId?: number; groupName?: string; id?: number; name?: string; description?: string };

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Infobip's digits: its `to` is the international number without `+`. */
const digits = (number: string) => number.replace(/\D/g, '');

type Refused = Omit<Extract<ProviderOutcome, { kind: 'refused' }>, 'clientRef'>;

/** An HTTP refusal of the whole request (not 200). */
function refusal(answer: HttpAnswer): Refused {
  const parsed = parseJson(answer.body) as
    | {
        errorCode?: unknown;
        description?: unknown;
        violations?: Array<{ property?: unknown }>;
        requestError?: { serviceException?: { messageId?: unknown; text?: unknown } };
      }
    | undefined;
  const legacy = parsed?.requestError?.serviceException;
  const code = typeof parsed?.errorCode === 'string' ? parsed.errorCode : typeof legacy?.messageId === 'string' ? legacy.messageId : `E${answer.status}`;
  const message = typeof parsed?.description === 'string' ? parsed.description : typeof legacy?.text === 'string' ? legacy.text : `HTTP ${answer.status}`;
  if (answer.status === 429 || answer.status >= 500)
    return { kind: 'refused', errorClass: 'transient', code, message, retryAfterMs: retryAfterMs(answer.headers) };
  if (answer.status === 400) {
    // A violation on the sender is the account's setup; any other (the number, the text) is the message's own.
    const properties = (parsed?.violations ?? []).map((violation) => String(violation.property ?? ''));
    const errorClass = properties.some((property) => /sender|from/i.test(property)) ? 'account' : 'recipient';
    return { kind: 'refused', errorClass, code, message: properties.length ? `${message} (${properties.join(', ')})` : message };
  }
  return { kind: 'refused', errorClass: 'account', code, message };
}

async function sendBulk(account: ProviderAccount, messages: ProviderSms[], signal?: AbortSignal): Promise<ProviderOutcome[]> {
  const apiKey = account.credentials.api_key ?? '';
  const deliveryUrl = infobipCallbackUrl(account.statusCallbackUrl, apiKey);
  const request = {
    messages: messages.map((message) => ({
      sender: message.from,
      destinations: [{ to: digits(message.to), messageId: message.clientRef }],
      content: { text: message.body },
      webhooks: { delivery: { url: deliveryUrl, intermediateReport: true }, contentType: 'application/json' },
    })),
  };
  const result = await httpCall({
    method: 'POST',
    url: `${account.baseUrl.replace(/\/+$/, '')}/sms/3/messages`,
    headers: { authorization: `App ${apiKey}`, 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(request),
    timeoutMs: account.timeoutMs,
    agent: account.agent,
    signal,
  });
  if (result.kind === 'not_sent')
    return messages.map((message) => ({ clientRef: message.clientRef, kind: 'refused', errorClass: 'transient', code: result.error, message: result.error }));
  if (result.kind === 'in_doubt') return messages.map((message) => ({ clientRef: message.clientRef, kind: 'in_doubt', error: result.error }));
  const { answer } = result;
  if (answer.status === 200) {
    const parsed = parseJson(answer.body) as { messages?: Array<{ messageId?: unknown; status?: InfobipStatus; destination?: unknown }> } | undefined;
    const byId = new Map((parsed?.messages ?? []).map((entry) => [String(entry.messageId), entry]));
    return messages.map((message): ProviderOutcome => {
      const entry = byId.get(message.clientRef);
      // Taken, but not named in the answer: the provider may deliver it.
      if (!entry) return { clientRef: message.clientRef, kind: 'in_doubt', error: 'HTTP 200 without this message' };
      const status = entry.status ?? {};
      if (status.name === 'REJECTED_DUPLICATE_MESSAGE_ID') return { clientRef: message.clientRef, kind: 'accepted', providerId: message.clientRef };
      if (status.groupName === 'REJECTED' || status.groupName === 'UNDELIVERABLE') {
        const name = status.name ?? status.groupName;
        const known = REJECTED[name] ?? { errorClass: 'recipient' };
        return { clientRef: message.clientRef, kind: 'refused', code: name, message: status.description ?? name, ...known };
      }
      return { clientRef: message.clientRef, kind: 'accepted', providerId: String(entry.messageId) };
    });
  }
  if (answer.status === 400 && messages.length > 1) {
    // The whole request was refused and nothing sent: find the message at fault, one at a time.
    const alone = await Promise.all(messages.map((message) => sendBulk(account, [message], signal)));
    return alone.flat();
  }
  const refused = refusal(answer);
  return messages.map((message) => ({ clientRef: message.clientRef, ...refused }));
}

type Report = { messageId?: unknown; status?: InfobipStatus; error?: { id?: number; name?: string; permanent?: boolean } };

function results(callback: ProviderCallback): Array<Record<string, unknown>> {
  const parsed = parseJson(callback.rawBody.toString('utf8')) as { results?: unknown } | undefined;
  return Array.isArray(parsed?.results) ? (parsed.results as Array<Record<string, unknown>>) : [];
}

function mapStatus(report: Report): ProviderStatus | undefined {
  if (typeof report.messageId !== 'string' || !report.status) return undefined;
  const providerId = report.messageId;
  const { groupName, name } = report.status;
  const errorCode = report.error && report.error.id !== 0 && report.error.name ? report.error.name : (name ?? groupName);
  switch (groupName) {
    case 'PENDING':
      return { providerId, status: 'pending' };
    case 'DELIVERED':
      // DELIVERED_TO_OPERATOR is on its way; only DELIVERED_TO_HANDSET is final.
      return name === 'DELIVERED_TO_HANDSET' ? { providerId, status: 'delivered' } : { providerId, status: 'pending' };
    case 'EXPIRED':
      return { providerId, status: 'expired', errorCode };
    case 'UNDELIVERABLE':
    case 'REJECTED':
      return name === 'REJECTED_DESTINATION_BLOCKLISTED'
        ? { providerId, status: 'failed', errorCode, optedOut: true }
        : { providerId, status: 'failed', errorCode };
    default:
      return { providerId, status: 'pending' };
  }
}

export const infobipAdapter: ProviderAdapter = {
  name: 'infobip',
  defaultBaseUrl: 'https://api.infobip.com',
  maxBatch: INFOBIP_MAX_BATCH,
  credentialFields: ['api_key'],

  async send(account, messages, signal) {
    const outcomes: ProviderOutcome[] = [];
    for (let start = 0; start < messages.length; start += INFOBIP_MAX_BATCH)
      outcomes.push(...(await sendBulk(account, messages.slice(start, start + INFOBIP_MAX_BATCH), signal)));
    return outcomes;
  },

  verify(account, callback) {
    const apiKey = account.credentials.api_key;
    if (!apiKey) return false;
    let token: string | null;
    try {
      token = new URL(callback.url).searchParams.get('token');
    } catch {
      return false;
    }
    if (!token) return false;
    const expected = Buffer.from(infobipCallbackToken(apiKey));
    const given = Buffer.from(token);
    return given.length === expected.length && timingSafeEqual(given, expected);
  },

  statuses(callback) {
    return results(callback)
      .map((report) => mapStatus(report as Report))
      .filter((status): status is ProviderStatus => status !== undefined);
  },

  inbound(callback) {
    return results(callback).flatMap((message): ProviderInbound[] => {
      const { messageId, from, to, text } = message;
      if (typeof messageId !== 'string' || typeof from !== 'string' || typeof to !== 'string' || typeof text !== 'string') return [];
      return [{ providerId: messageId, from, to, body: text }];
    });
  },
};

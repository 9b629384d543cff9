/**
 * A loopback fake of Infobip's SMS API v3, faithful to its documentation:
 * - https://www.infobip.com/docs/api/channels/sms (`POST /sms/3/messages`, JSON, 200
 *   `{bulkId, messages: [{messageId, status, destination, details}]}`; delivery reports and inbound
 *   messages `{results: […]}` posted to the message's `webhooks.delivery.url` / the number's forward URL);
 * - https://www.infobip.com/docs/developer-resources/authentication-and-access/api-authentication (`Authorization: App <key>`);
 * - https://www.infobip.com/docs/developer-resources/api-fundamentals/handling-errors (`{errorCode, description, violations}`);
 * - https://www.infobip.com/docs/developer-resources/api-fundamentals/message-status-codes (status and error objects).
 *
 * It refuses what Infobip refuses (wrong path 404, a missing or wrong key 401 `E401`, a malformed body
 * 400 `E400` with the violated properties), rejects a destination `messageId` it has seen before
 * (`REJECTED_DUPLICATE_MESSAGE_ID`), can reject given numbers synchronously with a given status
 * (`rejectNumber`), records each accepted message, and posts delivery reports and inbound messages.
 * Per-message webhooks carry no signature at Infobip: the fake calls the URL the message named, with
 * the `token` Herald put in it (or another, for a forged report).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { FakeServer, postCallback, type FakeAnswer, type FakeRequest } from './fake-server';

export type InfobipAccepted = {
  id: string;
  bulkId: string;
  to: string;
  from: string;
  body: string;
  callbackUrl: string | undefined;
  clientRef: string | undefined;
};

/** Infobip's status objects by name (id, group), from its message-status-codes page. */
export const INFOBIP_STATUSES: Record<string, { id: number; groupId: number; groupName: string; description: string }> = {
  PENDING_WAITING_DELIVERY: { id: 3, groupId: 1, groupName: 'PENDING', description: 'Message sent, waiting for delivery report' },
  PENDING_ENROUTE: { id: 7, groupId: 1, groupName: 'PENDING', description: 'Message sent to next instance' },
  PENDING_ACCEPTED: { id: 26, groupId: 1, groupName: 'PENDING', description: 'Message sent to next instance' },
  UNDELIVERABLE_REJECTED_OPERATOR: { id: 4, groupId: 2, groupName: 'UNDELIVERABLE', description: 'Message rejected by operator' },
  UNDELIVERABLE_NOT_DELIVERED: { id: 9, groupId: 2, groupName: 'UNDELIVERABLE', description: 'Message sent not delivered' },
  DELIVERED_TO_OPERATOR: { id: 2, groupId: 3, groupName: 'DELIVERED', description: 'Message delivered to operator' },
  DELIVERED_TO_HANDSET: { id: 5, groupId: 3, groupName: 'DELIVERED', description: 'Message delivered to handset' },
  EXPIRED_EXPIRED: { id: 15, groupId: 4, groupName: 'EXPIRED', description: 'Message expired' },
  EXPIRED_DLR_UNKNOWN: { id: 29, groupId: 4, groupName: 'EXPIRED', description: 'Message expired, delivery report unknown' },
  REJECTED_PREFIX_MISSING: { id: 8, groupId: 5, groupName: 'REJECTED', description: 'Number prefix missing' },
  REJECTED_NOT_ENOUGH_CREDITS: { id: 12, groupId: 5, groupName: 'REJECTED', description: 'Not enough credits' },
  REJECTED_SENDER: { id: 13, groupId: 5, groupName: 'REJECTED', description: 'Sender not allowed' },
  REJECTED_DESTINATION_BLOCKLISTED: { id: 14, groupId: 5, groupName: 'REJECTED', description: 'Destination blocklisted' },
  REJECTED_FLOODING_FILTER: { id: 20, groupId: 5, groupName: 'REJECTED', description: 'Flooding filter' },
  REJECTED_DUPLICATE_MESSAGE_ID: { id: 23, groupId: 5, groupName: 'REJECTED', description: 'Duplicate message id' },
};

export type InfobipDeliverOptions = {
  /** The report's error object (e.g. `{ id: 1, name: 'EC_UNKNOWN_SUBSCRIBER', permanent: true }`); none by default. */
  error?: { id: number; name: string; permanent: boolean };
  /** Replace the URL's `token` with this one (a forged report); `null` drops it. */
  token?: string | null;
};

const status = (name: string) => ({ ...INFOBIP_STATUSES[name]!, name });

export class InfobipFake {
  readonly server: FakeServer;
  readonly accepted: InfobipAccepted[] = [];
  private readonly rejections = new Map<string, string>();
  private readonly seenIds = new Set<string>();

  constructor(readonly account: { api_key: string }) {
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

  /** Forgets every message, rejection and request (between tests). */
  reset(): void {
    this.accepted.length = 0;
    this.server.requests.length = 0;
    this.rejections.clear();
    this.seenIds.clear();
  }

  /** Messages to this number are rejected synchronously with this status (e.g. REJECTED_DESTINATION_BLOCKLISTED). */
  rejectNumber(to: string, statusName: string): void {
    this.rejections.set(to.replace(/\D/g, ''), statusName);
  }

  private handle(request: FakeRequest): FakeAnswer {
    if (request.method !== 'POST' || request.path !== '/sms/3/messages')
      return { status: 404, body: { errorCode: 'E404', description: 'Resource not found.' } };
    if (request.headers.authorization !== `App ${this.account.api_key}`)
      return { status: 401, body: { errorCode: 'E401', description: 'Invalid login details.' } };
    const violations: Array<{ property: string; violation: string }> = [];
    const bad = (property: string, violation: string) => violations.push({ property, violation });
    let parsed: { messages?: unknown } | undefined;
    if (!String(request.headers['content-type'] ?? '').startsWith('application/json')) bad('body', 'must be application/json');
    else
      try {
        parsed = JSON.parse(request.body) as { messages?: unknown };
      } catch {
        bad('body', 'must be valid JSON');
      }
    const messages = Array.isArray(parsed?.messages) ? (parsed.messages as Array<Record<string, unknown>>) : [];
    if (parsed && messages.length === 0) bad('messages', 'must not be empty');
    messages.forEach((message, i) => {
      const at = `messages[${i}]`;
      if (typeof message.sender !== 'string' || message.sender === '') bad(`${at}.sender`, 'must not be blank');
      const content = message.content as { text?: unknown } | undefined;
      if (typeof content?.text !== 'string' || content.text === '') bad(`${at}.content.text`, 'must not be blank');
      const destinations = message.destinations;
      if (!Array.isArray(destinations) || destinations.length === 0) bad(`${at}.destinations`, 'must not be empty');
      else
        (destinations as Array<{ to?: unknown; messageId?: unknown }>).forEach((destination, j) => {
          if (typeof destination.to !== 'string' || !/^\+?\d{6,64}$/.test(destination.to)) bad(`${at}.destinations[${j}].to`, 'must be a valid number');
          if (destination.messageId !== undefined && (typeof destination.messageId !== 'string' || destination.messageId.length > 200))
            bad(`${at}.destinations[${j}].messageId`, 'size must be between 0 and 200');
        });
      const url = (message.webhooks as { delivery?: { url?: unknown } } | undefined)?.delivery?.url;
      if (url !== undefined && (typeof url !== 'string' || !/^https?:\/\//.test(url))) bad(`${at}.webhooks.delivery.url`, 'must be a valid URL');
    });
    if (violations.length)
      return {
        status: 400,
        body: {
          errorCode: 'E400',
          description: 'Request cannot be processed.',
          action: 'Check the syntax, violations and adjust the request.',
          violations,
          resources: [],
        },
      };

    const bulkId = randomUUID();
    const answered = messages.flatMap((message) => {
      const url = (message.webhooks as { delivery?: { url?: string } } | undefined)?.delivery?.url;
      return (message.destinations as Array<{ to: string; messageId?: string }>).map((destination) => {
        const id = destination.messageId ?? randomBytes(16).toString('hex');
        const to = destination.to.replace(/^\+/, '');
        const rejected = this.seenIds.has(id) ? 'REJECTED_DUPLICATE_MESSAGE_ID' : this.rejections.get(to);
        if (!rejected) {
          this.seenIds.add(id);
          this.accepted.push({
            id,
            bulkId,
            to,
            from: message.sender as string,
            body: (message.content as { text: string }).text,
            callbackUrl: url,
            clientRef: destination.messageId,
          });
        }
        return { messageId: id, status: status(rejected ?? 'PENDING_ACCEPTED'), destination: to, details: { messageCount: 1 } };
      });
    });
    return { status: 200, body: { bulkId, messages: answered } };
  }

  /** Posts a delivery report for an accepted message to the URL it named (with its token unless told otherwise); Herald's answer status. */
  async deliver(id: string, statusName: string, options: InfobipDeliverOptions = {}): Promise<number> {
    const message = this.accepted.find((candidate) => candidate.id === id);
    if (!message) throw new Error(`the Infobip fake accepted no message ${id}`);
    if (!message.callbackUrl) throw new Error(`message ${id} named no webhooks.delivery.url`);
    const now = new Date().toISOString();
    const error = options.error ?? { id: 0, name: 'NO_ERROR', permanent: false };
    const report = {
      results: [
        {
          bulkId: message.bulkId,
          messageId: message.id,
          to: message.to,
          sender: message.from,
          sentAt: now,
          doneAt: now,
          messageCount: 1,
          price: { pricePerMessage: 0.01, currency: 'EUR' },
          status: status(statusName),
          error: { groupId: error.id === 0 ? 0 : 1, groupName: error.id === 0 ? 'OK' : 'HANDSET_ERRORS', description: error.name, ...error },
        },
      ],
    };
    return postCallback(this.withToken(message.callbackUrl, options.token), { headers: { 'content-type': 'application/json' }, body: JSON.stringify(report) });
  }

  /** Posts an inbound message (MO_JSON_2) to a forward URL, as Infobip forwards a handset's message; Herald's answer status. */
  async inbound(url: string, message: { from: string; to: string; body: string }, options: Pick<InfobipDeliverOptions, 'token'> = {}): Promise<number> {
    const text = message.body;
    const result = {
      messageId: randomBytes(16).toString('hex'),
      from: message.from,
      to: message.to,
      text,
      cleanText: text,
      keyword: text.split(/\s+/)[0]!.toUpperCase(),
      receivedAt: new Date().toISOString(),
      smsCount: 1,
      price: { pricePerMessage: 0, currency: 'EUR' },
    };
    const body = JSON.stringify({ results: [result], messageCount: 1, pendingMessageCount: 0 });
    return postCallback(this.withToken(url, options.token), { headers: { 'content-type': 'application/json' }, body });
  }

  private withToken(url: string, token: string | null | undefined): string {
    if (token === undefined) return url;
    const changed = new URL(url);
    if (token === null) changed.searchParams.delete('token');
    else changed.searchParams.set('token', token);
    return changed.toString();
  }
}

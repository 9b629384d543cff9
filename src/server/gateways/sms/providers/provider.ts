import type http from 'node:http';

/** The HTTP SMS providers Herald speaks to directly (issue 34). */
export const PROVIDERS = ['twilio', 'vonage', 'infobip', 'plivo', 'telnyx', 'sinch'] as const;
export type ProviderName = (typeof PROVIDERS)[number];

/** One account at a provider, as an adapter needs it. Credentials are the contract's field names per provider. */
export type ProviderAccount = {
  /** `scheme://host[:port]`: the provider's public API host unless set (tests point it at a loopback fake). */
  baseUrl: string;
  credentials: Record<string, string>;
  /** Where the provider posts delivery statuses for this account (built from PUBLIC_URL). */
  statusCallbackUrl: string;
  /** A call's time limit, from the first byte to the last of the answer. */
  timeoutMs: number;
  /** Keep-alive connections to the provider (providerAgent in http-call.ts). */
  agent?: http.Agent;
};

/** One SMS to hand over. `clientRef` is Herald's message uuid, passed where the provider keeps a reference. */
export type ProviderSms = { clientRef: string; to: string; from: string; body: string };

/**
 * Why a provider refused a message, which decides what the router does next:
 * - `transient`: throttled or down (429, 5xx, never sent): try the next connection, back this one off;
 * - `account`: credentials, funds, an unverified sender: try the next connection and alert admins;
 * - `recipient`: the number cannot or must not get it (invalid, blocked, opted out): fail that
 *   message with the provider's code and never try elsewhere.
 */
export type ErrorClass = 'transient' | 'account' | 'recipient';

/** What became of one message of a hand-over. */
export type ProviderOutcome =
  | { clientRef: string; kind: 'accepted'; providerId: string }
  | {
      clientRef: string;
      kind: 'refused';
      errorClass: ErrorClass;
      /** The provider's own code (`21610`, `E429`, `status 1`…), kept as the failure's reason. */
      code: string;
      message: string;
      /** From `Retry-After`, when the provider said how long to wait. */
      retryAfterMs?: number;
      /** The provider says the recipient opted out there: Herald records an opt-out (source `provider`). */
      optedOut?: boolean;
    }
  /** The request left and no answer came: the provider may have taken it. */
  | { clientRef: string; kind: 'in_doubt'; error: string };

/** A status a provider reported for one of its messages, mapped onto Herald's. */
export type ProviderStatus = {
  providerId: string;
  /** `pending` for intermediate states (queued, sent, buffered…): recorded nowhere, never overwrites a final one. */
  status: 'pending' | 'delivered' | 'failed' | 'expired';
  /** The provider's error code for a failure, kept as its reason. */
  errorCode?: string;
  /** The provider says the recipient opted out (e.g. Vonage err-code 9). */
  optedOut?: boolean;
  /** Herald's `clientRef` when the callback carries it back (Vonage `client-ref`): matches a status whose provider id Herald never saw (another part of a long message). */
  clientRef?: string;
};

/** A message a handset sent to one of the account's numbers. */
export type ProviderInbound = { providerId: string; from: string; to: string; body: string };

/** A callback as Herald's HTTP layer received it, before any parsing: signatures cover the raw bytes. */
export type ProviderCallback = {
  method: string;
  /** The full URL the provider called (scheme, host, path and query), as it signed it. */
  url: string;
  headers: Record<string, string | undefined>;
  rawBody: Buffer;
};

/**
 * An adapter speaks one provider's documented protocol, over `httpCall` and node:crypto (no vendor
 * SDK). It sends, classifies what went wrong, verifies and reads the provider's callbacks.
 */
export interface ProviderAdapter {
  readonly name: ProviderName;
  /** The provider's public API host, when a connection names none. */
  readonly defaultBaseUrl: string;
  /** Messages one call may carry (1 for one message a call). */
  readonly maxBatch: number;
  /** The credential fields the contract names for this provider. */
  readonly credentialFields: readonly string[];
  /** Hands `messages` (at most maxBatch, all from one sender) to the provider: one outcome each. */
  send(account: ProviderAccount, messages: ProviderSms[], signal?: AbortSignal): Promise<ProviderOutcome[]>;
  /** Whether the callback is signed by this account as the provider documents it (false: refuse with 403). */
  verify(account: ProviderAccount, callback: ProviderCallback, now?: Date): boolean;
  /** The statuses a verified status callback reports (a callback may carry several). */
  statuses(callback: ProviderCallback): ProviderStatus[];
  /** The messages a verified inbound callback carries. */
  inbound(callback: ProviderCallback): ProviderInbound[];
}

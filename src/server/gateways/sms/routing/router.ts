import { setMaxListeners } from 'node:events';
import type { ProviderAccount, ProviderAdapter, ProviderOutcome, ProviderSms } from '../providers/provider';
import type { OutgoingSms, SmsGateway, SubmitOptions, SubmitResult } from '../sms-gateway';
import type { CircuitBreakers } from './circuit-breaker';
import type { Pacer } from './pacer';
import { providerGatewayId } from './provider-ids';
import { countryOfNumber, ruleFor, senderFor, type RouteRule } from './route-rules';

/** One of a team's enabled connections, ready to send through. */
export type RoutedConnection = {
  id: number;
  uuid: string;
  name: string;
  provider: string;
  /** The HTTP provider's adapter; null for an `smpp` connection (its own bind, `gateway`) or a `simulator` one (the installation's gateway). */
  adapter: ProviderAdapter | null;
  /** An `smpp` connection's own bind; its gateway ids are recorded as `c<connection>:<id>`, like a provider's. */
  gateway?: SmsGateway;
  account: ProviderAccount;
  senders: string[];
  maxPerSecond: number;
  /** Another process opened this connection's circuit until then (epoch ms; 0: not open). */
  sharedOpenUntil: number;
};

/** A team's routing as the router applies it: the rules, and the enabled connections by uuid. */
export type TeamRoutes = { rules: RouteRule[]; connections: Map<string, RoutedConnection> };

/** What the router tells about each attempt, for metrics, the connections' state and failover events. */
export type RouterObserver = {
  /** One request to a provider and how it ended (`accepted`, `refused_<class>`, `in_doubt`, `not_sent`), with its messages. */
  request?(connection: RoutedConnection, outcome: string, messages: number, latencyMs: number, error?: string): void;
  /** A message moved on to the next connection of its route after `from` failed it transiently or for its account. */
  failedOver?(teamId: number, message: OutgoingSms, from: RoutedConnection, to: RoutedConnection | null, reason: string): void;
  /** The provider says these numbers opted out there (a send refused as such): recorded as opt-outs, source `provider`. */
  optedOut?(teamId: number, phoneNumbers: string[]): Promise<void>;
  /** An account error (credentials, funds, sender): an admin must look. */
  accountError?(connection: RoutedConnection, code: string, message: string): void;
};

export type RouterDeps = {
  breakers: CircuitBreakers;
  pacer: Pacer;
  /** SMS_IN_DOUBT: `resend` offers a message in doubt once more (through its route again), `fail` never. */
  inDoubt: 'fail' | 'resend';
  /** The installation's gateway: where a `simulator` connection's messages go. */
  installation: SmsGateway;
  observer?: RouterObserver;
  now?: () => number;
};

/** An SMPP refusal that means "not now" (the SMSC is throttling or its queue is full), not "never to this number". */
const isThrottled = (reason: string) => /ESME_RTHROTTLED|ESME_RMSGQFUL/.test(reason);

/** The most messages the engine hands the router at once: its requests to each connection overlap, up to the pacer's concurrency. */
export const ROUTER_BATCH_LIMIT = 1000;

type Pending = {
  sms: OutgoingSms;
  /** The connections of its route, in order, and where it stands in them. */
  candidates: RoutedConnection[];
  next: number;
  ruleSender: string | null;
  /** Whether it was already offered again after a send in doubt (SMS_IN_DOUBT=resend: at most once). */
  resent: boolean;
  /** The last transient or account error met on its way, if any. */
  lastError?: string;
};

/**
 * The router: hands a team's messages to its connections as its routes say. For each message, the
 * first rule matching its country (libphonenumber) gives the connections to try, in order:
 * - accepted: submitted, with the gateway id `c<connection>:<provider id>`;
 * - a recipient error (invalid, blocked, opted out at the provider): failed with the provider's code,
 *   never tried elsewhere (an opt-out is also recorded);
 * - a transient error (throttled, 5xx, never sent) or an account error: tried on the next connection;
 *   the failing one counts a failure on its circuit breaker (Retry-After rests it as long as asked);
 *   when no connection is left, the message is not sent now and waits for the next tick;
 * - in doubt (the request left, no answer came): never tried elsewhere under `fail` (the engine
 *   fails it `in_doubt`); under `resend`, offered once more through its route, then left in doubt.
 * A message whose country no rule covers fails with `no_route`.
 */
export function createRouter(deps: RouterDeps) {
  const now = deps.now ?? (() => Date.now());

  async function deliver(
    teamId: number,
    connection: RoutedConnection,
    items: Pending[],
    options: SubmitOptions,
  ): Promise<Map<Pending, ProviderOutcome | SubmitResult>> {
    const outcomes = new Map<Pending, ProviderOutcome | SubmitResult>();
    if (!connection.adapter) {
      // An SMPP connection's own bind, or (simulator) the installation's gateway, recorded as this connection's.
      const gateway = connection.gateway ?? deps.installation;
      const started = performance.now();
      const results = await gateway.submit(
        items.map((item) => ({ ...item.sms, from: senderFor(item.ruleSender, item.sms.from, connection.senders) })),
        options,
      );
      const byRef = new Map(results.map((result) => [result.clientRef, result]));
      let failed: string | undefined;
      for (const item of items) {
        const result = byRef.get(item.sms.clientRef);
        if (!result) continue;
        if (connection.gateway && 'gatewayId' in result) outcomes.set(item, { ...result, gatewayId: providerGatewayId(connection.id, result.gatewayId) });
        else outcomes.set(item, result);
        if ('notSent' in result || ('rejected' in result && isThrottled(result.rejected))) failed ??= 'notSent' in result ? 'not bound' : result.rejected;
      }
      if (connection.gateway) {
        if (failed) deps.breakers.failure(connection.id, now());
        else deps.breakers.success(connection.id);
        deps.observer?.request?.(connection, failed ? 'refused_transient' : 'accepted', items.length, performance.now() - started, failed);
      }
      return outcomes;
    }
    const adapter = connection.adapter;
    // One call carries messages from one sender, up to the provider's batch.
    const calls: Array<{ from: string; items: Pending[] }> = [];
    const bySender = new Map<string, { from: string; items: Pending[] }>();
    for (const item of items) {
      const from = senderFor(item.ruleSender, item.sms.from, connection.senders);
      let call = bySender.get(from);
      if (!call || call.items.length >= adapter.maxBatch) {
        call = { from, items: [] };
        bySender.set(from, call);
        calls.push(call);
      }
      call.items.push(item);
    }
    const send = async ({ from, items: call }: { from: string; items: Pending[] }, signal: AbortSignal | undefined): Promise<void> => {
      const release = await deps.pacer.take(connection.id, call.length, connection.maxPerSecond, signal);
      if (!release) return; // aborted while waiting: never sent (left out of the map, settled as not sent below)
      const started = performance.now();
      try {
        if (!deps.breakers.admit(connection.id, now(), connection.sharedOpenUntil)) {
          // Opened while this call waited for its turn: treated as the connection refusing it.
          for (const item of call)
            outcomes.set(item, { clientRef: item.sms.clientRef, kind: 'refused', errorClass: 'transient', code: 'circuit_open', message: 'circuit open' });
          return;
        }
        const messages: ProviderSms[] = call.map((item) => ({
          clientRef: item.sms.clientRef,
          to: item.sms.to.startsWith('+') ? item.sms.to : `+${item.sms.to}`,
          from,
          body: item.sms.body,
        }));
        const answered = await adapter.send(connection.account, messages, signal);
        // One message a call (Twilio, Vonage, Telnyx): its outcome is the one answered, no lookup needed.
        const byRef = call.length === 1 ? undefined : new Map(answered.map((outcome) => [outcome.clientRef, outcome]));
        let failed: ProviderOutcome | undefined;
        for (const item of call) {
          const outcome = (byRef ? byRef.get(item.sms.clientRef) : answered.find((one) => one.clientRef === item.sms.clientRef)) ?? {
            clientRef: item.sms.clientRef,
            kind: 'in_doubt' as const,
            error: 'no outcome for this message',
          };
          outcomes.set(item, outcome);
          if (outcome.kind === 'refused' && outcome.errorClass !== 'recipient') failed ??= outcome;
        }
        const latencyMs = performance.now() - started;
        const first = answered[0];
        if (failed && failed.kind === 'refused') {
          deps.breakers.failure(connection.id, now());
          if (failed.retryAfterMs !== undefined) deps.breakers.rest(connection.id, now() + failed.retryAfterMs);
          if (failed.errorClass === 'account') deps.observer?.accountError?.(connection, failed.code, failed.message);
          deps.observer?.request?.(connection, `refused_${failed.errorClass}`, call.length, latencyMs, `${failed.code}: ${failed.message}`);
        } else if (first?.kind === 'in_doubt') {
          // No answer: the provider may be slow or gone; it counts against the circuit like a failure.
          deps.breakers.failure(connection.id, now());
          deps.observer?.request?.(connection, 'in_doubt', call.length, latencyMs, first.error);
        } else {
          deps.breakers.success(connection.id);
          deps.observer?.request?.(connection, first?.kind === 'refused' ? 'refused_recipient' : 'accepted', call.length, latencyMs);
        }
      } catch (error) {
        deps.breakers.release(connection.id);
        throw error;
      } finally {
        release();
      }
    };
    // The calls go in order through as many workers as the connection has request slots, rather than
    // all at once: a batch of a thousand one-message calls would otherwise hold a thousand waits for a
    // slot (each a promise and an abort listener) for what 128 loops do. Each worker listens for the
    // abort through a signal of its own, so its request adds a listener to a signal that has none
    // (Node's EventTarget looks through every listener on each add: 128 on one signal cost more than
    // the router's own work did).
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(calls.length, deps.pacer.concurrency) }, async () => {
        const own = options.signal ? follow(options.signal) : undefined;
        try {
          while (next < calls.length) await send(calls[next++]!, own?.signal);
        } finally {
          own?.stop();
        }
      }),
    );
    return outcomes;
  }

  /** Hands one team's messages over through its routes: one result each, except those in doubt (left out). */
  async function submit(teamId: number, routes: TeamRoutes, batch: OutgoingSms[], given: SubmitOptions = {}): Promise<SubmitResult[]> {
    // Every request of the batch (and every wait for a slot) listens for the engine's abort: they
    // listen to a signal of the router's own, which follows the engine's with one listener, so
    // Node does not warn of a leak at its eleventh listener and the engine's signal stays light.
    const followed = given.signal ? follow(given.signal) : undefined;
    try {
      return await submitFollowing(teamId, routes, batch, followed ? { ...given, signal: followed.signal } : given);
    } finally {
      followed?.stop();
    }
  }

  async function submitFollowing(teamId: number, routes: TeamRoutes, batch: OutgoingSms[], options: SubmitOptions): Promise<SubmitResult[]> {
    const results: SubmitResult[] = [];
    let pending: Pending[] = [];
    for (const sms of batch) {
      const rule = ruleFor(routes.rules, countryOfNumber(sms.to));
      const candidates = (rule?.connections ?? []).flatMap((uuid) => routes.connections.get(uuid) ?? []);
      if (candidates.length === 0) results.push({ clientRef: sms.clientRef, rejected: 'no_route' });
      else pending.push({ sms, candidates, next: 0, ruleSender: rule?.sender ?? null, resent: false });
    }
    const optedOut: string[] = [];
    while (pending.length > 0) {
      // Each message goes to the first connection of its route, from where it stands, that is not
      // resting or open; one with none left waits for the next tick (never sent).
      const groups = new Map<RoutedConnection, Pending[]>();
      const at = now();
      for (const item of pending) {
        while (
          item.next < item.candidates.length &&
          !deps.breakers.available(item.candidates[item.next]!.id, at, item.candidates[item.next]!.sharedOpenUntil)
        ) {
          item.next += 1;
        }
        const connection = item.candidates[item.next];
        if (!connection) {
          results.push({ clientRef: item.sms.clientRef, notSent: true });
          continue;
        }
        const group = groups.get(connection) ?? [];
        group.push(item);
        groups.set(connection, group);
      }
      if (options.signal?.aborted) {
        for (const items of groups.values()) for (const item of items) results.push({ clientRef: item.sms.clientRef, notSent: true });
        break;
      }
      const again: Pending[] = [];
      await Promise.all(
        [...groups.entries()].map(async ([connection, items]) => {
          const outcomes = await deliver(teamId, connection, items, options);
          for (const item of items) {
            const outcome = outcomes.get(item);
            if (!outcome) {
              // Aborted before its call left (or the installation's gateway left it in doubt, which
              // the engine's policy for it decides: never the case for the simulator).
              if (connection.adapter) results.push({ clientRef: item.sms.clientRef, notSent: true });
              continue;
            }
            if (!('kind' in outcome)) {
              // A bind that could not take it now (unbound, throttled) is like a provider's transient
              // error: the next connection of the route takes it. (Never after an abort: nothing goes then.)
              const transient = 'notSent' in outcome ? !options.signal?.aborted : 'rejected' in outcome && isThrottled(outcome.rejected);
              if (transient && connection.gateway) {
                item.lastError = 'rejected' in outcome ? outcome.rejected : 'not bound';
                item.next += 1;
                deps.observer?.failedOver?.(teamId, item.sms, connection, item.candidates[item.next] ?? null, item.lastError);
                again.push(item);
                continue;
              }
              results.push(
                'gatewayId' in outcome
                  ? { ...outcome, connectionId: connection.id }
                  : 'rejected' in outcome
                    ? { ...outcome, connectionId: connection.id }
                    : outcome,
              );
              continue;
            }
            if (outcome.kind === 'accepted') {
              results.push({ clientRef: item.sms.clientRef, gatewayId: providerGatewayId(connection.id, outcome.providerId), connectionId: connection.id });
            } else if (outcome.kind === 'in_doubt') {
              if (deps.inDoubt === 'resend' && !item.resent) {
                item.resent = true;
                again.push(item);
              }
              // Otherwise left out: in doubt, for the engine's policy (`fail` for a team's routes).
            } else if (outcome.errorClass === 'recipient') {
              results.push({ clientRef: item.sms.clientRef, rejected: outcome.code, connectionId: connection.id });
              if (outcome.optedOut) optedOut.push(item.sms.to);
            } else {
              item.lastError = `${outcome.code}: ${outcome.message}`;
              item.next += 1;
              deps.observer?.failedOver?.(teamId, item.sms, connection, item.candidates[item.next] ?? null, item.lastError);
              again.push(item);
            }
          }
        }),
      );
      pending = again;
    }
    if (optedOut.length > 0) await deps.observer?.optedOut?.(teamId, optedOut);
    return results;
  }

  return {
    submit,
    /** A team's routes as an SmsGateway for the engine. Its receipts come by the providers' callbacks (modules/sms-callbacks), not through it. */
    gatewayOf(teamId: number, routes: TeamRoutes): SmsGateway {
      return {
        submit: (batch, options) => submit(teamId, routes, batch, options),
        onReceipts: () => undefined,
        onInbound: () => undefined,
        close: async () => undefined,
        batchLimit: ROUTER_BATCH_LIMIT,
      };
    },
  };
}
export type Router = ReturnType<typeof createRouter>;

/** A signal that aborts when `parent` does, and takes any number of listeners; `stop` leaves the parent alone. */
function follow(parent: AbortSignal): { signal: AbortSignal; stop(): void } {
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  const abort = () => controller.abort(parent.reason);
  if (parent.aborted) abort();
  else parent.addEventListener('abort', abort, { once: true });
  return { signal: controller.signal, stop: () => parent.removeEventListener('abort', abort) };
}

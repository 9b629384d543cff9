import type { Db } from '../../../db/client';
import type { SecretBox } from '../../../lib/secret-box';
import type { InboundSms, Receipt, SmsGateway } from '../sms-gateway';
import { createCircuitBreakers, DEFAULT_BREAKER, type BreakerOptions } from './circuit-breaker';
import { createConnectionRate } from './connection-rate';
import { createConnectionStates } from './connection-states';
import { createPacer } from './pacer';
import { providerGatewayId } from './provider-ids';
import { createRouter, type RoutedConnection } from './router';
import { CONNECTION_CONCURRENCY, createTeamRoutingLoader } from './team-routing';

/** What the router reports to (prom-client series; absent in tests that do not look). */
export type ProviderMetrics = {
  observeProviderRequest(connection: string, outcome: string, seconds: number): void;
  setProviderCircuit(connection: string, open: boolean): void;
};

/** A message that left a connection for the next one of its route (`to` null: none was left; it waits for the next tick). */
export type FailoverEvent = {
  teamId: number;
  /** The message's uuid (its client reference) and number, as the engine handed it over. */
  messageUuid: string;
  phoneNumber: string;
  from: { uuid: string; name: string };
  to: { uuid: string; name: string } | null;
  /** The provider's error, `code: message`. */
  reason: string;
  at: Date;
};

/**
 * Sending through teams' own SMS connections (docs/providers.md): the router over each team's
 * routes, with its circuit breakers, pace, connection states, metrics and provider opt-outs wired
 * together. The engine asks it for a team's gateway (`gatewayFor`); a team without connections gets
 * null and sends through SMS_GATEWAY (`installation`).
 */
export function createTeamRouter(deps: {
  db: Db;
  secrets: SecretBox;
  publicUrl: string;
  installation: SmsGateway;
  inDoubt: 'fail' | 'resend';
  /** A provider request's time limit: a request sent and unanswered by then is in doubt. */
  timeoutMs: number;
  metrics?: ProviderMetrics;
  /** Records opt-outs the providers reported, source `provider`. */
  optOut(teamId: number, phoneNumbers: string[]): Promise<void>;
  /** Account errors (credentials, funds, senders): an admin must look. */
  alert?(connection: { id: number; uuid: string; name: string }, message: string): void;
  /**
   * Records failovers (the `message.failed_over` events and the overview's count): called with those
   * of a submit once it is over, never once a message, so a failover storm costs one statement a
   * submit. Its failure is logged, never the submit's: the messages were handed over by then.
   */
  failedOver?(events: FailoverEvent[]): Promise<void>;
  log?: (message: string) => void;
  breaker?: BreakerOptions;
  loaderTtlMs?: number;
  /**
   * SMPP connections: makes the bind of one (`createSmppGateway` in production). Its receipts are
   * written as the connection's (`c<id>:<message id>`) through `receipts`, its inbound messages go to
   * `inbound` as the connection's team's. Absent: SMPP connections are left out of the routes.
   */
  smpp?: {
    bind(url: string): SmsGateway;
    receipts(receipts: Receipt[]): Promise<void>;
    inbound(teamId: number, message: InboundSms): Promise<void>;
  };
}) {
  // One bind per SMPP connection and URL, opened when its team first sends and kept until stop (a
  // changed URL opens a new one; the old one is closed).
  const binds = new Map<number, { url: string; gateway: SmsGateway }>();
  const smppGateway = deps.smpp
    ? ({ id, teamId, url }: { id: number; teamId: number; url: string }): SmsGateway => {
        const smpp = deps.smpp!;
        const open = binds.get(id);
        if (open?.url === url) return open.gateway;
        if (open) void open.gateway.close();
        const gateway = smpp.bind(url);
        gateway.onReceipts((receipts) => smpp.receipts(receipts.map((receipt) => ({ ...receipt, gatewayId: providerGatewayId(id, receipt.gatewayId) }))));
        gateway.onInbound((message) => smpp.inbound(teamId, { ...message, key: message.key === undefined ? undefined : providerGatewayId(id, message.key) }));
        binds.set(id, { url, gateway });
        return gateway;
      }
    : undefined;
  const loader = createTeamRoutingLoader({
    db: deps.db,
    secrets: deps.secrets,
    publicUrl: deps.publicUrl,
    timeoutMs: deps.timeoutMs,
    ttlMs: deps.loaderTtlMs,
    smppGateway,
  });
  const states = createConnectionStates({ db: deps.db, log: deps.log });
  // Connection ids to uuids, for the metrics' labels (the breaker knows only ids).
  const uuids = new Map<number, string>();
  const breakers = createCircuitBreakers(deps.breaker ?? DEFAULT_BREAKER, (change) => {
    states.circuit(change.connectionId, change.state, change.openUntil);
    const uuid = uuids.get(change.connectionId);
    if (uuid) deps.metrics?.setProviderCircuit(uuid, change.state === 'open');
    deps.log?.(`SMS connection ${uuid ?? change.connectionId}: circuit ${change.state}${change.openUntil ? ` until ${change.openUntil.toISOString()}` : ''}`);
  });
  // Failovers met since the last write (submits run side by side: whichever ends first writes them all).
  let failovers: FailoverEvent[] = [];
  const writeFailovers = async (): Promise<void> => {
    if (failovers.length === 0 || !deps.failedOver) return;
    const events = failovers;
    failovers = [];
    try {
      await deps.failedOver(events);
    } catch (error) {
      deps.log?.(`${events.length} failovers not recorded: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  const router = createRouter({
    breakers,
    // Each connection's max_per_second is shared by every sending process (connection_rate).
    pacer: createPacer({ concurrency: CONNECTION_CONCURRENCY, shared: createConnectionRate(deps.db) }),
    inDoubt: deps.inDoubt,
    installation: deps.installation,
    observer: {
      request(connection: RoutedConnection, outcome, messages, latencyMs, error) {
        uuids.set(connection.id, connection.uuid);
        deps.metrics?.observeProviderRequest(connection.uuid, outcome, latencyMs / 1000);
        if (outcome === 'accepted' || outcome === 'refused_recipient') states.messages(connection.id, messages);
        else states.error(connection.id, error ?? outcome);
      },
      failedOver(teamId, message, from, to, reason) {
        states.failovers(from.id, 1);
        if (deps.failedOver)
          failovers.push({
            teamId,
            messageUuid: message.clientRef,
            phoneNumber: message.to,
            from: { uuid: from.uuid, name: from.name },
            to: to && { uuid: to.uuid, name: to.name },
            reason,
            at: new Date(),
          });
      },
      optedOut: (teamId, phoneNumbers) => deps.optOut(teamId, phoneNumbers),
      accountError(connection, code, message) {
        deps.alert?.(connection, `${code}: ${message}`);
      },
    },
  });

  return {
    /** The gateway of a team's routes, or null for a team without connections. */
    async gatewayFor(teamId: number): Promise<SmsGateway | null> {
      const routes = await loader.load(teamId);
      if (!routes) return null;
      const gateway = router.gatewayOf(teamId, routes);
      return {
        ...gateway,
        async submit(batch, options) {
          try {
            return await gateway.submit(batch, options);
          } finally {
            await writeFailovers();
          }
        },
      };
    },
    start(): void {
      states.start();
    },
    async stop(): Promise<void> {
      await writeFailovers();
      await states.stop();
      loader.close();
      await Promise.all([...binds.values()].map((bind) => bind.gateway.close()));
      binds.clear();
    },
  };
}
export type TeamRouter = ReturnType<typeof createTeamRouter>;

import type { Db } from '../../../db/client';
import type { SecretBox } from '../../../lib/secret-box';
import type { SmsGateway } from '../sms-gateway';
import { createCircuitBreakers, DEFAULT_BREAKER, type BreakerOptions } from './circuit-breaker';
import { createConnectionStates } from './connection-states';
import { createPacer } from './pacer';
import { createRouter, type RoutedConnection } from './router';
import { CONNECTION_CONCURRENCY, createTeamRoutingLoader } from './team-routing';

/** What the router reports to (prom-client series; absent in tests that do not look). */
export type ProviderMetrics = {
  observeProviderRequest(connection: string, outcome: string, seconds: number): void;
  setProviderCircuit(connection: string, open: boolean): void;
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
  log?: (message: string) => void;
  breaker?: BreakerOptions;
  loaderTtlMs?: number;
}) {
  const loader = createTeamRoutingLoader({ db: deps.db, secrets: deps.secrets, publicUrl: deps.publicUrl, timeoutMs: deps.timeoutMs, ttlMs: deps.loaderTtlMs });
  const states = createConnectionStates({ db: deps.db, log: deps.log });
  // Connection ids to uuids, for the metrics' labels (the breaker knows only ids).
  const uuids = new Map<number, string>();
  const breakers = createCircuitBreakers(deps.breaker ?? DEFAULT_BREAKER, (change) => {
    states.circuit(change.connectionId, change.state, change.openUntil);
    const uuid = uuids.get(change.connectionId);
    if (uuid) deps.metrics?.setProviderCircuit(uuid, change.state === 'open');
    deps.log?.(`SMS connection ${uuid ?? change.connectionId}: circuit ${change.state}${change.openUntil ? ` until ${change.openUntil.toISOString()}` : ''}`);
  });
  const router = createRouter({
    breakers,
    pacer: createPacer({ concurrency: CONNECTION_CONCURRENCY }),
    inDoubt: deps.inDoubt,
    installation: deps.installation,
    observer: {
      request(connection: RoutedConnection, outcome, messages, latencyMs, error) {
        uuids.set(connection.id, connection.uuid);
        deps.metrics?.observeProviderRequest(connection.uuid, outcome, latencyMs / 1000);
        if (outcome === 'accepted' || outcome === 'refused_recipient') states.messages(connection.id, messages);
        else states.error(connection.id, error ?? outcome);
      },
      failedOver(_teamId, _message, from) {
        states.failovers(from.id, 1);
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
      return routes ? router.gatewayOf(teamId, routes) : null;
    },
    start(): void {
      states.start();
    },
    async stop(): Promise<void> {
      await states.stop();
      loader.close();
    },
  };
}
export type TeamRouter = ReturnType<typeof createTeamRouter>;

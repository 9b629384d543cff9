import type http from 'node:http';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../../db/client';
import { MomentSchema, rowsOf } from '../../../db/rows';
import type { SecretBox } from '../../../lib/secret-box';
import { infobipAdapter } from '../providers/infobip';
import { plivoAdapter } from '../providers/plivo';
import { providerAgent } from '../providers/http-call';
import type { ProviderAdapter, ProviderName } from '../providers/provider';
import { sinchAdapter } from '../providers/sinch';
import { telnyxAdapter } from '../providers/telnyx';
import { twilioAdapter } from '../providers/twilio';
import { vonageAdapter } from '../providers/vonage';
import type { SmsGateway } from '../sms-gateway';
import { rulesOrDefault } from './route-rules';
import type { RoutedConnection, TeamRoutes } from './router';

/** The HTTP adapters, by provider: a connection to one of them is sent through it. */
export const ADAPTERS: Record<ProviderName, ProviderAdapter> = {
  twilio: twilioAdapter,
  vonage: vonageAdapter,
  infobip: infobipAdapter,
  plivo: plivoAdapter,
  telnyx: telnyxAdapter,
  sinch: sinchAdapter,
};

export const adapterOf = (provider: string): ProviderAdapter | undefined => ADAPTERS[provider as ProviderName];

/** Where a provider posts a connection's statuses or inbound messages (paste it in its console). */
export const connectionCallbackUrl = (publicUrl: string, uuid: string, kind: 'status' | 'inbound') => `${publicUrl}/api/2.0/sms-connections/${uuid}/${kind}`;

const ConnectionRowSchema = z.object({
  id: z.number(),
  uuid: z.string(),
  name: z.string(),
  provider: z.string(),
  base_url: z.string().nullable(),
  credentials_encrypted: z.instanceof(Buffer),
  senders: z.array(z.string()),
  max_per_second: z.number(),
  enabled: z.boolean(),
  open_until: MomentSchema.nullable(),
});
const RulesRowSchema = z.object({
  rules: z.array(z.object({ countries: z.array(z.string()), connections: z.array(z.string()), sender: z.string().nullable() })),
});

/** Requests in flight to one connection at most (the pacer's slots), and so its keep-alive sockets. */
export const CONNECTION_CONCURRENCY = 128;

/**
 * Reads a team's routing from the database: its connections (credentials opened), their shared
 * circuit state, and its rules. Kept for `ttlMs` so the engine reads it once a tick or so, not once
 * a batch; a change made through the API is seen within that time.
 */
export function createTeamRoutingLoader(deps: {
  db: Db;
  secrets: SecretBox;
  publicUrl: string;
  timeoutMs: number;
  ttlMs?: number;
  /** An `smpp` connection's bind (kept open across reloads by whoever makes it); absent: SMPP connections are left out. */
  smppGateway?: (connection: { id: number; teamId: number; url: string }) => SmsGateway;
}) {
  const ttlMs = deps.ttlMs ?? 2_000;
  const cache = new Map<number, { at: number; value: Promise<TeamRoutes | null> }>();
  // One keep-alive agent per API host: warm sockets survive the cache's reloads.
  const agents = new Map<string, http.Agent>();
  const agentOf = (baseUrl: string) => {
    let agent = agents.get(baseUrl);
    if (!agent) {
      agent = providerAgent(baseUrl, CONNECTION_CONCURRENCY);
      agents.set(baseUrl, agent);
    }
    return agent;
  };

  async function read(teamId: number): Promise<TeamRoutes | null> {
    const rows = await rowsOf(
      deps.db,
      ConnectionRowSchema,
      sql`
      SELECT c.id::int AS id, c.uuid::text AS uuid, c.name, c.provider, c.base_url, c.credentials_encrypted, c.senders, c.max_per_second, c.enabled,
             CASE WHEN s.circuit = 'open' THEN s.open_until END AS open_until
        FROM sms_connections c LEFT JOIN sms_connection_states s ON s.connection_id = c.id
       WHERE c.team_id = ${teamId} ORDER BY c.created_at, c.id`,
    );
    // A team without connections sends through the installation's gateway.
    if (rows.length === 0) return null;
    const connections = new Map<string, RoutedConnection>();
    for (const row of rows) {
      if (!row.enabled) continue;
      const adapter = adapterOf(row.provider) ?? null;
      const credentials = JSON.parse(deps.secrets.open(row.credentials_encrypted)) as Record<string, string>;
      let gateway: SmsGateway | undefined;
      if (row.provider === 'smpp') {
        if (!deps.smppGateway || !credentials.url) continue;
        gateway = deps.smppGateway({ id: row.id, teamId, url: credentials.url });
      } else if (!adapter && row.provider !== 'simulator') continue;
      const baseUrl = row.base_url ?? adapter?.defaultBaseUrl ?? '';
      connections.set(row.uuid, {
        id: row.id,
        uuid: row.uuid,
        name: row.name,
        provider: row.provider,
        adapter,
        gateway,
        account: {
          baseUrl,
          credentials,
          statusCallbackUrl: connectionCallbackUrl(deps.publicUrl, row.uuid, 'status'),
          timeoutMs: deps.timeoutMs,
          agent: adapter ? agentOf(baseUrl) : undefined,
        },
        senders: row.senders,
        maxPerSecond: row.max_per_second,
        sharedOpenUntil: row.open_until?.getTime() ?? 0,
      });
    }
    const [stored] = await rowsOf(deps.db, RulesRowSchema, sql`SELECT rules FROM sms_routes WHERE team_id = ${teamId}`);
    const rules = rulesOrDefault(stored?.rules, [...connections.keys()]);
    return { rules, connections };
  }

  return {
    /** The team's routing, or null when it has no connection (it sends through SMS_GATEWAY). */
    load(teamId: number, now = Date.now()): Promise<TeamRoutes | null> {
      const cached = cache.get(teamId);
      if (cached && now - cached.at < ttlMs) return cached.value;
      const value = read(teamId);
      cache.set(teamId, { at: now, value });
      // A failed read is not kept: the next call tries again.
      value.catch(() => cache.delete(teamId));
      return value;
    },
    close(): void {
      for (const agent of agents.values()) agent.destroy();
      agents.clear();
    },
  };
}
export type TeamRoutingLoader = ReturnType<typeof createTeamRoutingLoader>;

import type { CampaignRouting } from '../../../shared/contract';
import { countryOfNumber, ruleFor, rulesOrDefault, type RouteRule } from '../../gateways/sms/routing/route-rules';
import type { RouteConnectionRow } from '../sms-routes/sms-routes.repository';

/** Connections the router sends through: the enabled ones. */
const routable = (connection: RouteConnectionRow) => connection.enabled;

/**
 * Where a campaign's messages are expected to go, per connection, and what they should cost: each
 * recipient's country (from its number) picks the first rule covering it, and the rule's first
 * enabled connection is where the message goes unless it fails over. Its price is that connection's
 * for the country (else its `*`), else the team's. A recipient no rule covers, or whose rule has no
 * enabled connection, is counted under `no_route` (the router fails it with reason `no_route`).
 *
 * `audience`: the recipients grouped by a prefix of their number (one sample number a group, and
 * its count), so a 100,000-recipient review parses a few hundred numbers, not every one. Parts are
 * spread evenly (`partsPerMessage`, the campaign's average), since personalisation varies them per
 * recipient and not per country. Undefined for a team without connections: it sends through the
 * installation's SMS_GATEWAY, which has no per-connection figures to show.
 */
export function routeEstimate(input: {
  rules: RouteRule[] | null;
  /** The team's connections, in the order they were made. */
  connections: RouteConnectionRow[];
  audience: ReadonlyArray<{ sample: string; n: number }>;
  partsPerMessage: number;
  teamPrice: number | null;
  currency: string;
}): CampaignRouting | undefined {
  if (input.connections.length === 0) return undefined;
  const byUuid = new Map(input.connections.map((connection) => [connection.uuid, connection]));
  const rules = rulesOrDefault(
    input.rules,
    input.connections.filter(routable).map((c) => c.uuid),
  );

  const byCountry = new Map<string | null, number>();
  for (const group of input.audience) {
    const country = countryOfNumber(group.sample);
    byCountry.set(country, (byCountry.get(country) ?? 0) + group.n);
  }

  const lines = new Map<string, { connection: RouteConnectionRow; messages: number; cost: number | null }>();
  let noRoute = 0;
  for (const [country, messages] of byCountry) {
    const rule = ruleFor(rules, country);
    const connection = rule?.connections.map((uuid) => byUuid.get(uuid)).find((c) => c !== undefined && routable(c));
    if (!connection) {
      noRoute += messages;
      continue;
    }
    const price = (country !== null ? connection.pricePerSegment?.[country] : undefined) ?? connection.pricePerSegment?.['*'] ?? input.teamPrice;
    const line = lines.get(connection.uuid) ?? { connection, messages: 0, cost: 0 };
    line.messages += messages;
    line.cost = price === null || line.cost === null ? null : line.cost + messages * input.partsPerMessage * price;
    lines.set(connection.uuid, line);
  }

  return {
    connections: [...lines.values()]
      .sort((a, b) => b.messages - a.messages || a.connection.name.localeCompare(b.connection.name))
      .map((line) => ({
        uuid: line.connection.uuid,
        name: line.connection.name,
        provider: line.connection.provider,
        messages: line.messages,
        cost: line.cost === null ? null : { amount: Math.round(line.cost * 100_000) / 100_000, currency: input.currency },
      })),
    no_route: noRoute,
  };
}

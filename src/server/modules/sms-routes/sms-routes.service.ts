import type { SmsRoutes, SmsRoutesInput } from '../../../shared/contract';
import type { Db } from '../../db/client';
import type { RouteRule } from '../../gateways/sms/routing/route-rules';
import type { AuthContext } from '../../http/auth';
import { ValidationError } from '../../lib/errors';
import type { AuditTrail } from '../audit/audit-trail';
import type { RouteConnectionRow, SmsRoutesRepository } from './sms-routes.repository';

/** Provider kinds the router cannot send through yet: a rule naming one is refused. */

/** The rules as the audit log shows them: a field per part of each rule (`routes.1.countries`), each small enough to be kept as it is. */
const audited = (rules: RouteRule[]): Record<string, unknown> =>
  Object.fromEntries(
    rules.flatMap((rule, index) => [
      [`routes.${index + 1}.countries`, rule.countries],
      [`routes.${index + 1}.connections`, rule.connections],
      [`routes.${index + 1}.sender`, rule.sender],
    ]),
  );

/**
 * A team's routes (docs/providers.md, Routes): the ordered rules choosing, by the recipient's
 * country, the connections to try. Stored as the router reads them (RouteRule); checked against the
 * team's own connections, each named by its uuid.
 */
export function createSmsRoutesService(deps: { db: Db; audit: Pick<AuditTrail, 'record'>; routes: SmsRoutesRepository }) {
  const present = (rules: RouteRule[] | null): SmsRoutes => ({
    routes: (rules ?? []).map((rule) => ({ countries: rule.countries, connections: rule.connections, sender: rule.sender })),
  });

  return {
    show: async (auth: AuthContext): Promise<SmsRoutes> => present(await deps.routes.rulesOf(auth.teamId)),

    /**
     * Replaces the whole list. Each connection must be one of the team's (another team's uuid is "no
     * such connection", as an unknown one: nothing leaks), of a kind the router sends through; a rule's
     * sender must be one of the senders of each of its connections that lists senders.
     */
    async replace(auth: AuthContext, input: SmsRoutesInput): Promise<SmsRoutes> {
      const rules: RouteRule[] = input.routes.map((route) => ({
        countries: route.countries,
        connections: route.connections.map((uuid) => uuid.toLowerCase()),
        sender: route.sender ?? null,
      }));
      return deps.db.transaction(async (tx) => {
        const wanted = [...new Set(rules.flatMap((rule) => rule.connections))];
        const connections = new Map((await deps.routes.connectionsAmong(auth.teamId, wanted, tx, true)).map((row) => [row.uuid, row]));
        const errors: Record<string, string[]> = {};
        rules.forEach((rule, index) => {
          rule.connections.forEach((uuid, position) => {
            const connection = connections.get(uuid);
            const field = `routes.${index}.connections.${position}`;
            if (!connection) errors[field] = ['No such connection: it must be the uuid of one of the team’s SMS connections.'];
          });
          if (rule.sender === null) return;
          const refusing = rule.connections
            .map((uuid) => connections.get(uuid))
            .filter((connection): connection is RouteConnectionRow => connection !== undefined)
            .filter((connection) => connection.senders.length > 0 && !connection.senders.includes(rule.sender!));
          if (refusing.length > 0)
            errors[`routes.${index}.sender`] = [
              `The sender must be one of the senders of each connection of the rule: ${refusing.map((connection) => `“${connection.name}” sends from ${connection.senders.join(', ')}`).join('; ')}.`,
            ];
        });
        if (Object.keys(errors).length > 0) throw new ValidationError(errors);

        const before = await deps.routes.rulesOf(auth.teamId, tx);
        await deps.routes.replace(tx, auth.teamId, rules);
        await deps.audit.record(tx, auth, { resourceType: 'sms_routes', resourceUuid: null, before: audited(before ?? []), after: audited(rules) });
        return present(rules);
      });
    },
  };
}
export type SmsRoutesService = ReturnType<typeof createSmsRoutesService>;

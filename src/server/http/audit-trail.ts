import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db/client';
import type { AuditChanges } from '../modules/audit/audit.repository';
import { shown, type AuditTrail } from '../modules/audit/audit-trail';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A read that takes contacts' data out of Herald (a group's CSV, a contact's data, a report's CSV or NDJSON): recorded like a change. */
    auditExport?: true;
  }
}

/**
 * The routes that read with a POST (their body is too large or too rich for a query) and change
 * nothing: they are not changes, so they are not recorded. Named here, in one place, by operationId.
 */
export const READS_BY_POST: ReadonlySet<string> = new Set(['previewCampaign', 'previewContactImport']);

/** `campaign`, `contact_group`, `member`… from a route pattern such as `/api/2.0/team/members/:user_uuid`. */
export function resourceTypeOf(pattern: string): string {
  const parts = pattern
    .replace(/^\/api\/2\.0\//, '')
    .split('/')
    .filter((part) => part !== '' && !part.startsWith(':'));
  const named: Record<string, string> = { 'team/settings': 'team', reporting: 'report', auth: 'session', 'audit-events.csv': 'audit_event', users: 'user' };
  const key = parts[0] === 'team' ? `team/${parts[1] ?? ''}` : parts[0]!;
  const noun = named[key] ?? named[parts[0]!] ?? (parts[0] === 'team' ? parts[1]! : parts[0]!);
  return noun.replace(/-/g, '_').replace(/(?<!s)s$/, '');
}

/** What an export was asked for (a report's filters), as the query said it: the rows it took are in the route's resource. */
const exportFilters = (request: FastifyRequest): AuditChanges =>
  Object.fromEntries(
    Object.entries((request.query ?? {}) as Record<string, unknown>)
      .filter(([, value]) => value !== undefined)
      .map(([field, value]) => [field, { after: shown(value) }]),
  );

const uuidParam = (request: FastifyRequest): string | null => {
  const params = (request.params ?? {}) as Record<string, string>;
  const name = Object.keys(params).find((key) => key.endsWith('uuid'));
  return name ? params[name]! : null;
};

/**
 * The HTTP side of the audit trail (modules/audit/audit-trail.ts writes every event). Which requests
 * are changes comes from the route table: every request of the API that may change something (not a
 * GET, not a computation open to readers, not a read by POST, not public). Each gets its own copy of
 * its AuthContext carrying the operation (the event's action) and the caller's address
 * (`auth.request`); the service that makes the change records it in the change's own transaction.
 * Here are recorded only what changes nothing: an edit refused as locked (423), and exports (routes
 * with `auditExport`: contacts' data leaving Herald), with the filters asked for. Sign-ins are
 * recorded where they are checked (the auth service).
 *
 * A successful change whose service recorded nothing is a bug: it is logged as an error, and with
 * `strict` (the tests) the request fails, so a route added without its record goes red at once.
 */
export function registerAuditTrail(app: FastifyInstance, deps: { trail: AuditTrail; db: Db; log: (error: unknown) => void; strict?: boolean }): void {
  const isExport = (request: FastifyRequest): boolean =>
    request.routeOptions.config?.auditExport === true &&
    request.method === 'GET' &&
    request.auth !== null &&
    request.routeOptions.url?.startsWith('/api/2.0/') === true;

  /** A request that may change something: its service records what it changed. */
  const isChange = (request: FastifyRequest): boolean => {
    const access = request.routeOptions.config?.access;
    return (
      request.routeOptions.url?.startsWith('/api/2.0/') === true &&
      request.method !== 'GET' &&
      request.method !== 'HEAD' &&
      access !== undefined &&
      access !== 'public' &&
      access !== 'read' &&
      !READS_BY_POST.has(String(request.routeOptions.schema?.operationId)) &&
      request.auth !== null
    );
  };

  const operationOf = (request: FastifyRequest) => String(request.routeOptions.schema?.operationId ?? `${request.method} ${request.routeOptions.url}`);

  app.addHook('preHandler', async (request) => {
    if (!isChange(request) && !isExport(request)) return;
    // The request's own copy: a token's AuthContext is shared by its requests (it is cached).
    request.auth = { ...request.auth!, request: { operation: operationOf(request), ip: request.ip, recorded: 0 } };
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const auth = request.auth;
    // A replayed answer (Idempotency-Key) changed nothing: its first request was recorded.
    if (!auth?.request || request.idempotency?.replayed === true) return payload;
    const status = reply.statusCode;
    try {
      if (isExport(request)) {
        if (status < 300)
          await deps.trail.record(deps.db, auth, {
            resourceType: resourceTypeOf(request.routeOptions.url!),
            resourceUuid: uuidParam(request),
            changes: exportFilters(request),
          });
        return payload;
      }
      if (status === 423) {
        // Refused: nothing changed (its transaction was rolled back), but the attempt is kept.
        await deps.trail.record(deps.db, auth, {
          action: `${auth.request.operation}.refused`,
          resourceType: resourceTypeOf(request.routeOptions.url!),
          resourceUuid: uuidParam(request),
          changes: null,
        });
        return payload;
      }
    } catch (error) {
      deps.log(error);
      return payload;
    }
    if (status < 300 && auth.request.recorded === 0) {
      const error = new Error(`${auth.request.operation} changed data and its service recorded no audit event`);
      deps.log(error);
      if (deps.strict) throw error;
    }
    return payload;
  });
}

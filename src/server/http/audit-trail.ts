import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db/client';
import type { AuditChanges } from '../modules/audit/audit.repository';
import { shown, type AuditTrail } from '../modules/audit/audit-trail';

declare module 'fastify' {
  interface FastifyRequest {
    /** The resource as it was before this request changed it (its GET's `data`), when it has one. */
    auditBefore?: Record<string, unknown>;
    /** What the request said besides the resource's fields (a reason for removing opt-outs), recorded as given. */
    auditNotes?: Record<string, string>;
  }
  interface FastifyContextConfig {
    /** `false`: the resource is not read before the change (its GET would put what is being erased into the log). */
    auditBefore?: false;
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

const dataOf = (payload: unknown): Record<string, unknown> | undefined => {
  if (typeof payload !== 'string' || payload.length > 1_000_000 || !payload.startsWith('{')) return undefined;
  try {
    const data = (JSON.parse(payload) as { data?: unknown }).data;
    return data !== null && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
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
 * TRANSITIONAL, while services take the recording over: a successful change its service did not
 * record is recorded here as before, from the resource's own GET read just before a PUT or DELETE
 * and the answer, after the commit.
 */
export function registerAuditTrail(app: FastifyInstance, deps: { trail: AuditTrail; db: Db; log: (error: unknown) => void; strict?: boolean }): void {
  const readable = new Set<string>();
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (methods.includes('GET')) readable.add(route.url);
  });

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

  /** The GET route of the resource a route acts on: its own path, or the resource path it is an action of (`/campaigns/:uuid/approve`). */
  const readerOf = (pattern: string): { pattern: string; dropped: number } | null => {
    // The resource itself (`/team/settings`, `/campaigns/:uuid`) …
    if (readable.has(pattern)) return { pattern, dropped: 0 };
    // … or the one an action acts on.
    let path = pattern;
    for (let dropped = 0; path.includes('/:'); dropped++) {
      if (readable.has(path) && /\/:[^/]+$/.test(path)) return { pattern: path, dropped };
      path = path.slice(0, path.lastIndexOf('/'));
    }
    return null;
  };

  app.addHook('preHandler', async (request) => {
    if (!isChange(request) && !isExport(request)) return;
    // The request's own copy: a token's AuthContext is shared by its requests (it is cached).
    request.auth = { ...request.auth!, request: { operation: operationOf(request), ip: request.ip, recorded: 0 } };
    // TRANSITIONAL: the before of a change its service may not record.
    if (!isChange(request) || (request.method !== 'PUT' && request.method !== 'DELETE')) return;
    if (request.routeOptions.config?.auditBefore === false) return;
    const reader = readerOf(request.routeOptions.url!);
    if (!reader) return;
    const segments = request.url.split('?')[0]!.split('/');
    const url = segments.slice(0, segments.length - reader.dropped).join('/');
    const before = await app.inject({
      method: 'GET',
      url,
      headers: { authorization: request.headers.authorization ?? '', cookie: request.headers.cookie ?? '' },
    });
    if (before.statusCode === 200) request.auditBefore = dataOf(before.body);
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
      if (status >= 300 || auth.request.recorded > 0) return payload;
      // TRANSITIONAL: HERALD_AUDIT_STRICT=1 (tests of converted modules) refuses the fallback.
      if (deps.strict) throw new Error(`${auth.request.operation} changed data and its service recorded no audit event`);
      // TRANSITIONAL: a change its service did not record, recorded after the commit as before.
      const after = dataOf(payload);
      // An action's answer may be another resource (an import of a group): then only what it made is shown.
      const before = after === undefined || after.uuid === undefined || after.uuid === request.auditBefore?.uuid ? request.auditBefore : undefined;
      await deps.trail.record(deps.db, auth, {
        resourceType: resourceTypeOf(request.routeOptions.url!),
        resourceUuid: uuidParam(request) ?? (typeof after?.uuid === 'string' ? after.uuid : null),
        before,
        after,
        created: request.method === 'POST' && before === undefined,
        notes: request.auditNotes,
      });
    } catch (error) {
      if (deps.strict) throw error;
      deps.log(error);
    }
    return payload;
  });
}

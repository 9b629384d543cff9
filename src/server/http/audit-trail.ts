import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuditChanges, AuditRecord, AuditRepository } from '../modules/audit/audit.repository';

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

/** Fields never written to the audit log, whatever the resource (a webhook's headers carry credentials). */
const SECRET = /password|secret|^token$|^headers$|authorization|api[-_]?key/i;
/** Fields that change with every write and say nothing of it. */
const NOISE = new Set(['updated_at', 'created_at', 'links', 'is_locked', 'uuid']);
const LONG = '(not shown)';

/**
 * The routes that read with a POST (their body is too large or too rich for a query) and change
 * nothing: they are not changes, so they are not recorded. Named here, in one place, by operationId.
 */
export const READS_BY_POST: ReadonlySet<string> = new Set(['previewCampaign', 'previewContactImport']);

/** A value small enough to keep as it is: scalars, short texts, short lists of short texts. */
function small(value: unknown): boolean {
  if (value === null || typeof value === 'boolean' || typeof value === 'number') return true;
  if (typeof value === 'string') return value.length <= 200;
  return Array.isArray(value) && value.length <= 20 && value.every((item) => typeof item === 'string' && item.length <= 100);
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Nested objects as dotted fields (`approval.status`), one level deep, so their small values show. */
function flatten(resource: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!resource) return undefined;
  const flat: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(resource)) {
    if (isObject(value) && Object.keys(value).length <= 20) for (const [inner, innerValue] of Object.entries(value)) flat[`${key}.${inner}`] = innerValue;
    else flat[key] = value;
  }
  return flat;
}

/** The fields that differ between the resource before and after, each with both values (or what stood in for them). */
export function changesBetween(
  resourceBefore: Record<string, unknown> | undefined,
  resourceAfter: Record<string, unknown> | undefined,
  options: { created: boolean } = { created: false },
): AuditChanges {
  const before = flatten(resourceBefore);
  const after = flatten(resourceAfter);
  const changes: AuditChanges = {};
  for (const key of new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])) {
    if (key.split('.').some((part) => SECRET.test(part)) || NOISE.has(key)) continue;
    const had = before !== undefined && key in before;
    const has = after !== undefined && key in after;
    if (had && has && JSON.stringify(before[key]) === JSON.stringify(after[key])) continue;
    // A new resource shows what was given, not every empty field it starts with.
    if (options.created && !had && has && (after[key] === '' || after[key] === null || (Array.isArray(after[key]) && (after[key] as unknown[]).length === 0)))
      continue;
    const change: { before?: unknown; after?: unknown } = {};
    if (had) change.before = small(before[key]) ? before[key] : LONG;
    if (has) change.after = small(after[key]) ? after[key] : LONG;
    changes[key] = change;
  }
  return changes;
}

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
      .map(([field, value]) => [field, { after: small(value) ? value : LONG }]),
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
 * The audit trail, kept in one place from the route table: every request of the API that may change
 * something (not a GET, not a computation open to readers, not a read by POST, not public) is recorded when it succeeds,
 * and when an edit is refused as locked (423) — who (the user or the API token), the action (the
 * route's operationId), the resource and the fields it changed, before and after. The before is the
 * resource's own GET, read just before a PUT or DELETE of it or of an action on it (`…/approve`).
 * Exports (routes with `auditExport`: contacts' data leaving Herald) are recorded too, with the
 * filters asked for; a contact's own export names no number. Sign-ins are recorded where they are
 * checked (the auth service). Secrets are never recorded.
 */
export function registerAuditTrail(app: FastifyInstance, deps: { audit: Pick<AuditRepository, 'record' | 'actorOf'>; log: (error: unknown) => void }): void {
  const readable = new Set<string>();
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (methods.includes('GET')) readable.add(route.url);
  });

  const audited = (request: FastifyRequest): boolean => {
    const access = request.routeOptions.config?.access;
    if (request.routeOptions.config?.auditExport === true)
      return request.method === 'GET' && request.auth !== null && request.routeOptions.url?.startsWith('/api/2.0/') === true;
    return (
      request.routeOptions.url?.startsWith('/api/2.0/') === true &&
      request.method !== 'GET' &&
      request.method !== 'HEAD' &&
      access !== undefined &&
      access !== 'public' &&
      access !== 'read' &&
      !READS_BY_POST.has(String(request.routeOptions.schema?.operationId)) &&
      request.auth !== null &&
      // A replayed answer (Idempotency-Key) changed nothing: its first request was recorded.
      request.idempotency?.replayed !== true
    );
  };

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
    // A PUT or DELETE changes a resource that was there before; a POST makes one, or starts some work.
    if (!audited(request) || (request.method !== 'PUT' && request.method !== 'DELETE')) return;
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
    if (!audited(request)) return payload;
    const status = reply.statusCode;
    if (status >= 300 && status !== 423) return payload;
    const auth = request.auth!;
    try {
      const actor = await deps.audit.actorOf(auth.tokenId);
      const after = status === 423 ? undefined : dataOf(payload);
      // An action's answer may be another resource (an import of a group): then only what it made is shown.
      const before = after === undefined || after.uuid === undefined || after.uuid === request.auditBefore?.uuid ? request.auditBefore : undefined;
      const operation = String(request.routeOptions.schema?.operationId ?? `${request.method} ${request.routeOptions.url}`);
      const record: AuditRecord = {
        teamId: auth.teamId,
        actor: actor
          ? actor.kind === 'session'
            ? { kind: 'user', uuid: actor.userUuid, name: actor.userName }
            : { kind: 'token', uuid: actor.userUuid, name: actor.tokenName }
          : { kind: 'user', uuid: auth.userUuid, name: '' },
        action: status === 423 ? `${operation}.refused` : operation,
        resourceType: resourceTypeOf(request.routeOptions.url!),
        resourceUuid: uuidParam(request) ?? (typeof after?.uuid === 'string' ? after.uuid : null),
        changes:
          status === 423
            ? null
            : {
                ...(request.method === 'GET'
                  ? exportFilters(request)
                  : changesBetween(before, after, { created: request.method === 'POST' && before === undefined })),
                ...Object.fromEntries(Object.entries(request.auditNotes ?? {}).map(([field, value]) => [field, { after: value }])),
              },
        ip: request.ip,
      };
      await deps.audit.record(record);
    } catch (error) {
      deps.log(error);
    }
    return payload;
  });
}

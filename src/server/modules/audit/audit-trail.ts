import type { Conn } from '../../db/rows';
import type { AuthContext } from '../../http/auth';
export type { AuditedRequest } from '../../http/auth';
import type { AuditChanges, AuditRecord, AuditRepository } from './audit.repository';

/** Fields never written to the audit log, whatever the resource (a webhook's headers carry credentials). */
const SECRET = /password|secret|^token$|^headers$|authorization|api[-_]?key/i;
/** Fields that change with every write and say nothing of it. */
const NOISE = new Set(['updated_at', 'created_at', 'links', 'is_locked', 'uuid']);
const LONG = '(not shown)';

/** A value small enough to keep as it is: scalars, short texts, short lists of short texts. */
function small(value: unknown): boolean {
  if (value === null || typeof value === 'boolean' || typeof value === 'number') return true;
  if (typeof value === 'string') return value.length <= 200;
  return Array.isArray(value) && value.length <= 20 && value.every((item) => typeof item === 'string' && item.length <= 100);
}
/** What stands in the log for a value too large to keep. */
export const shown = (value: unknown): unknown => (small(value) ? value : LONG);

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
    if (had) change.before = shown(before[key]);
    if (has) change.after = shown(after[key]);
    changes[key] = change;
  }
  return changes;
}

/** One change, as the service that made it knows it. */
export type AuditChange = {
  /** `campaign`, `contact_group`, `member`… */
  resourceType: string;
  resourceUuid: string | null;
  /** The resource as the API shows it before the change (absent: the change made it). */
  before?: Record<string, unknown>;
  /** The resource as the API shows it after the change (absent: the change removed it, or shows nothing). */
  after?: Record<string, unknown>;
  /** A new resource shows what was given, not the empty fields it starts with (default: no `before`). */
  created?: boolean;
  /** What the request said besides the resource's fields (a reason for removing opt-outs), recorded as given. */
  notes?: Record<string, string>;
  /** Fields recorded as they are, instead of a before-and-after of a resource (an export's filters). */
  changes?: AuditChanges | null;
  /** The action: the request's operation unless given (work done outside a request names its own). */
  action?: string;
};

/**
 * The audit trail, the one writer of audit events for changes: a service records each change where
 * it makes it, in the same transaction (`conn`), so the event and the change commit together or not
 * at all. Who (the user, or the API token and its user), the action, the resource and the fields it
 * changed, before and after; secrets and noise are left out (SECRET, NOISE), long values replaced.
 */
export function createAuditTrail(deps: { audit: Pick<AuditRepository, 'record' | 'actorOf'> }) {
  /** The actor as the log names it: a dashboard sign-in is its user, an API token its name (with its user's uuid). */
  const actorOf = async (auth: AuthContext, conn?: Conn): Promise<AuditRecord['actor']> => {
    const actor = await deps.audit.actorOf(auth.tokenId, conn);
    if (!actor) return { kind: 'user', uuid: auth.userUuid, name: '' };
    return actor.kind === 'session'
      ? { kind: 'user', uuid: actor.userUuid, name: actor.userName }
      : { kind: 'token', uuid: actor.userUuid, name: actor.tokenName };
  };

  return {
    actorOf,

    /** Records `change`, made by `auth`, in the transaction `conn` that makes it. */
    async record(conn: Conn, auth: AuthContext, change: AuditChange): Promise<void> {
      const action = change.action ?? auth.request?.operation;
      if (!action) throw new Error(`An audit event for a ${change.resourceType} outside a request must name its action.`);
      const changes =
        change.changes === null
          ? null
          : {
              ...(change.changes ?? changesBetween(change.before, change.after, { created: change.created ?? change.before === undefined })),
              ...Object.fromEntries(Object.entries(change.notes ?? {}).map(([field, value]) => [field, { after: value }])),
            };
      await deps.audit.record(
        {
          teamId: auth.teamId,
          actor: await actorOf(auth, conn),
          action,
          resourceType: change.resourceType,
          resourceUuid: change.resourceUuid,
          changes,
          ip: auth.request?.ip ?? null,
        },
        conn,
      );
      if (auth.request) auth.request.recorded++;
    },
  };
}
export type AuditTrail = ReturnType<typeof createAuditTrail>;

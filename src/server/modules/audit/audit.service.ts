import type { AuditEvent, AuditQuery } from '../../../shared/contract';
import type { PageWindow } from '../../db/pages';
import type { AuthContext } from '../../http/auth';
import { csvLine } from '../../lib/csv';
import { ValidationError } from '../../lib/errors';
import { formatTimestamp, parseTimestamp } from '../../lib/time';
import type { AuditEventRow, AuditFilters, AuditRepository } from './audit.repository';

/** Reads the team's audit log: a page of it, or all of it as CSV. */
export function createAuditService(deps: { audit: AuditRepository; config: { appTimezone: string } }) {
  const zone = deps.config.appTimezone;
  const present = (row: AuditEventRow): AuditEvent => ({
    uuid: row.uuid,
    created_at: formatTimestamp(row.createdAt, zone),
    actor: { kind: row.actorKind, uuid: row.actorUuid, name: row.actorName },
    action: row.action,
    resource_type: row.resourceType ?? '',
    resource_uuid: row.resourceUuid ?? '',
    changes: row.changes ?? {},
    ip: row.ip ?? '',
  });

  const filtersOf = (query: AuditQuery): AuditFilters => {
    const errors: Record<string, string[]> = {};
    const moment = (field: 'from' | 'to') => {
      const value = query[field];
      if (!value) return undefined;
      const parsed = parseTimestamp(value, zone);
      if (!parsed) errors[field] = [`The ${field} is not a valid date.`];
      return parsed ?? undefined;
    };
    const filters = {
      actor: query.actor?.trim() || undefined,
      action: query.action || undefined,
      resourceUuid: query.resource_uuid,
      from: moment('from'),
      to: moment('to'),
    };
    if (Object.keys(errors).length > 0) throw new ValidationError(errors);
    return filters;
  };

  return {
    async list(auth: AuthContext, query: AuditQuery, window: PageWindow) {
      const { rows, total } = await deps.audit.list(auth.teamId, filtersOf(query), window);
      return { items: rows.map(present), total };
    },

    /** The CSV export: a header line, then every matching event, newest first, written as it is read. */
    async *csv(auth: AuthContext, query: AuditQuery): AsyncGenerator<string> {
      const filters = filtersOf(query);
      yield csvLine(['time', 'actor_kind', 'actor_uuid', 'actor', 'action', 'resource_type', 'resource_uuid', 'changes', 'ip']);
      for await (const rows of deps.audit.each(auth.teamId, filters)) {
        let chunk = '';
        for (const row of rows) {
          const event = present(row);
          chunk += csvLine([
            event.created_at,
            event.actor.kind,
            event.actor.uuid ?? '',
            event.actor.name,
            event.action,
            event.resource_type,
            event.resource_uuid,
            Object.keys(event.changes).length === 0 ? '' : JSON.stringify(event.changes),
            event.ip,
          ]);
        }
        yield chunk;
      }
    },
  };
}
export type AuditService = ReturnType<typeof createAuditService>;

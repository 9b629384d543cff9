import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { isApiError } from '../../api/api-error';
import type { ListAuditEventsData } from '../../api/gen/types.gen';

/** The audit log's filters, named as the API and the URL name them; '' when not set. */
export interface AuditFilters {
  /** A user's uuid, or part of an actor's name. */
  actor: string;
  /** One action, exactly (`updateCampaign`, `login`, `updateCampaign.refused`…). */
  action: string;
  resource_uuid: string;
  /** `YYYY-MM-DD HH:MM:SS` in the service's zone: events at or after it. */
  from: string;
  /** `YYYY-MM-DD HH:MM:SS` in the service's zone: events before it. */
  to: string;
}

export const AUDIT_FILTER_NAMES = ['actor', 'action', 'resource_uuid', 'from', 'to'] as const satisfies readonly (keyof AuditFilters)[];

export const NO_AUDIT_FILTERS: AuditFilters = { actor: '', action: '', resource_uuid: '', from: '', to: '' };

/** The filters in `?actor=&action=&resource_uuid=&from=&to=`, as typed (the service checks them: a 422 names the field). */
export function parseAuditFilters(search: URLSearchParams): AuditFilters {
  const filters = { ...NO_AUDIT_FILTERS };
  for (const name of AUDIT_FILTER_NAMES) filters[name] = (search.get(name) ?? '').trim();
  return filters;
}

/** The filters as the API's query: only those set. */
export function auditQuery(filters: AuditFilters): NonNullable<ListAuditEventsData['query']> {
  const query: NonNullable<ListAuditEventsData['query']> = {};
  for (const name of AUDIT_FILTER_NAMES) if (filters[name]) query[name] = filters[name];
  return query;
}

export function hasAuditFilters(filters: AuditFilters): boolean {
  return AUDIT_FILTER_NAMES.some((name) => filters[name] !== '');
}

/**
 * The filters live in the URL: a filtered view can be shared or reloaded, and each new set of
 * filters is a history entry, so the back button returns to the previous one.
 */
export function useAuditFilters() {
  const [searchParams, setSearchParams] = useSearchParams();
  // One object per set of filters (not per render): the form resets to it only when they change.
  const key = JSON.stringify(parseAuditFilters(searchParams));
  const filters = useMemo(() => JSON.parse(key) as AuditFilters, [key]);

  const setFilters = useCallback(
    (next: AuditFilters) =>
      setSearchParams((current) => {
        const updated = new URLSearchParams(current);
        for (const name of AUDIT_FILTER_NAMES) {
          const value = next[name].trim();
          if (value) updated.set(name, value);
          else updated.delete(name);
        }
        // Other filters have other pages: start from the first.
        updated.delete('page');
        return updated;
      }),
    [setSearchParams],
  );

  const resetFilters = useCallback(() => setFilters(NO_AUDIT_FILTERS), [setFilters]);

  return { filters, setFilters, resetFilters };
}

/** The service's 422 on the filters, per filter (its first message); null for any other failure. */
export function auditFilterErrors(error: unknown): Partial<Record<keyof AuditFilters, string>> | null {
  if (!isApiError(error) || error.status !== 422) return null;
  const found: Partial<Record<keyof AuditFilters, string>> = {};
  for (const name of AUDIT_FILTER_NAMES) {
    const [message] = error.fieldErrors[name] ?? [];
    if (message) found[name] = message;
  }
  return Object.keys(found).length > 0 ? found : null;
}

import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { listAuditEvents } from '../../api/gen/sdk.gen';
import { auditQuery, type AuditFilters } from './audit-filters';

export interface AuditListParams {
  page: number;
  per_page: number;
  filters: AuditFilters;
}

export const auditKeys = {
  all: ['audit-events'] as const,
  lists: () => [...auditKeys.all, 'list'] as const,
  list: (params: AuditListParams) => [...auditKeys.lists(), params] as const,
};

export const auditQueries = {
  list: ({ page, per_page, filters }: AuditListParams) =>
    queryOptions({
      queryKey: auditKeys.list({ page, per_page, filters }),
      queryFn: async ({ signal }) => (await listAuditEvents({ query: { page, per_page, ...auditQuery(filters) }, signal, throwOnError: true })).data,
      placeholderData: keepPreviousData,
      // Every change anywhere adds events: each visit (a click on "Audit log" too) and each return to the tab reads the latest.
      staleTime: 0,
    }),
};

import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { listContactImportErrors, listContactImports } from '../../api/gen/sdk.gen';
import type { ContactImport } from '../../api/gen/types.gen';
import { contactGroupKeys } from './contact-group-queries';

export interface ContactImportPageParams {
  page: number;
  per_page: number;
}

/** How often a list with an import under way is read again. */
export const IMPORT_POLL_MS = 1000;

export function isImportUnderWay(contactImport: Pick<ContactImport, 'status'>): boolean {
  return contactImport.status === 'receiving' || contactImport.status === 'merging';
}

/**
 * A group's imports sit under the group's key, so invalidating the group refreshes them too; an
 * import's error rows never change once it has finished, so they have their own key.
 */
export const contactImportKeys = {
  ofGroup: (groupUuid: string) => [...contactGroupKeys.detail(groupUuid), 'imports'] as const,
  page: (groupUuid: string, params: ContactImportPageParams) => [...contactImportKeys.ofGroup(groupUuid), params] as const,
  errors: (importUuid: string, params: ContactImportPageParams) => ['contact-imports', importUuid, 'errors', params] as const,
};

export const contactImportQueries = {
  /** Newest first; read again every second while one of them is under way. */
  list: (groupUuid: string, params: ContactImportPageParams) =>
    queryOptions({
      queryKey: contactImportKeys.page(groupUuid, params),
      queryFn: async ({ signal }) => (await listContactImports({ path: { contact_group_uuid: groupUuid }, query: params, signal, throwOnError: true })).data,
      placeholderData: keepPreviousData,
      refetchInterval: (query) => (query.state.data?.data.some(isImportUnderWay) ? IMPORT_POLL_MS : false),
    }),
  errors: (importUuid: string, params: ContactImportPageParams) =>
    queryOptions({
      queryKey: contactImportKeys.errors(importUuid, params),
      queryFn: async ({ signal }) => (await listContactImportErrors({ path: { import_uuid: importUuid }, query: params, signal, throwOnError: true })).data,
      placeholderData: keepPreviousData,
    }),
};

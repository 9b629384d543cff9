import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { XLSX_CONTENT_TYPE } from '../../../shared/contract/imports';
import { ApiError } from '../../api/api-error';
import { listContactImportErrors, listContactImports } from '../../api/gen/sdk.gen';
import type { ContactImport, ContactImportPreview } from '../../api/gen/types.gen';
import { uploadWithProgress } from '../../api/upload';
import { isWorkbook, type ContactImportOptions } from './contact-import-mutations';
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
  /** A file is known by its name, size and time, as the browser gives them; never invalidated (nothing it shows changes). */
  preview: (groupUuid: string, file: File | null, options: ContactImportOptions) =>
    ['contact-import-preview', groupUuid, file?.name, file?.size, file?.lastModified, options] as const,
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

function isPreviewAnswer(body: unknown): body is { data: ContactImportPreview } {
  return typeof body === 'object' && body !== null && Array.isArray((body as { data?: { rows?: unknown } }).data?.rows);
}

/** The service reads a CSV's first 64 KiB: a little more is sent, never the whole file. A workbook is sent whole (a zip is read to its end). */
const PREVIEW_SLICE = 256 * 1024;

/**
 * How the service would read the file with these options (nothing is written): the wizard's
 * mapping step. Read again whenever the options change.
 */
export function contactImportPreviewQuery(groupUuid: string, file: File | null, options: ContactImportOptions) {
  return queryOptions({
    queryKey: contactImportKeys.preview(groupUuid, file, options),
    enabled: file !== null,
    placeholderData: keepPreviousData,
    retry: false,
    staleTime: Infinity,
    queryFn: async ({ signal }) => {
      if (!file) throw new Error('No file');
      const workbook = isWorkbook(file);
      const body = await uploadWithProgress({
        path: `/api/2.0/contact-groups/${encodeURIComponent(groupUuid)}/imports/preview`,
        query: { ...options },
        body: workbook ? file : file.slice(0, PREVIEW_SLICE),
        contentType: workbook ? XLSX_CONTENT_TYPE : 'text/csv',
        signal,
      });
      if (!isPreviewAnswer(body)) throw new ApiError(502, 'The service answered without the preview.');
      return body.data;
    },
  });
}

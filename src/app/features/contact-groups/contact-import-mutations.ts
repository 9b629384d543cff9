import { useMutation, useQueryClient } from '@tanstack/react-query';
import { IMPORT_MAX_BYTES, XLSX_CONTENT_TYPE } from '../../../shared/contract/imports';
import { ApiError } from '../../api/api-error';
import { downloadContactImportErrors } from '../../api/gen/sdk.gen';
import type { ContactImport } from '../../api/gen/types.gen';
import { uploadWithProgress, type UploadProgress } from '../../api/upload';
import { contactGroupKeys } from './contact-group-queries';

/** How the file is read, as the import's query options (docs/interface.md, contact files): each overrides a guess. */
export interface ContactImportOptions {
  delimiter?: string;
  encoding?: string;
  phone_column?: string;
  /** The consent column ("Accepts SMS Marketing": yes/no), by position from 1: no rows are suppressed, yes rows get a consent record. */
  consent_column?: string;
  /** JSON: header → field name, or null to leave the column out. */
  fields?: string;
  default_country?: string;
  sheet?: string;
  /** 'true': an empty cell clears the field of a contact the group has (kept by default). */
  empty_cells_clear?: 'true';
}

/** A workbook by its name or type; anything else is sent as CSV text. */
export function isWorkbook(file: File): boolean {
  return file.type === XLSX_CONTENT_TYPE || /\.xlsx$/i.test(file.name);
}

export interface ContactImportUpload {
  file: File;
  options?: ContactImportOptions;
  signal?: AbortSignal;
  onProgress?: (progress: UploadProgress) => void;
  onUploaded?: () => void;
}

function isImportAnswer(body: unknown): body is { data: ContactImport } {
  return typeof body === 'object' && body !== null && typeof (body as { data?: { uuid?: unknown } }).data?.uuid === 'string';
}

/** Sends the file as the request body; the service answers once every row is in the group (or none is). */
export function useImportContacts(groupUuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ file, options, signal, onProgress, onUploaded }: ContactImportUpload) => {
      if (file.size > IMPORT_MAX_BYTES) throw new ApiError(413, `The file is larger than ${IMPORT_MAX_BYTES / 1024 / 1024} MiB.`);
      const body = await uploadWithProgress({
        path: `/api/2.0/contact-groups/${encodeURIComponent(groupUuid)}/imports`,
        query: { ...options, file_name: file.name.slice(0, 255) },
        body: file,
        contentType: isWorkbook(file) ? XLSX_CONTENT_TYPE : 'text/csv',
        signal,
        onProgress,
        onUploaded,
      });
      if (!isImportAnswer(body)) throw new ApiError(502, 'The service answered without the import.');
      return body.data;
    },
    // A failed import is listed too, and the group's status moved while it ran: refresh either way.
    onSettled: () => queryClient.invalidateQueries({ queryKey: contactGroupKeys.all }),
  });
}

/** Fetches the error report through the API client, with the session's credentials (a token session's token would not ride on a plain link) and saves it. */
export async function downloadContactImportErrorReport(contactImport: Pick<ContactImport, 'uuid'>): Promise<void> {
  const { data } = await downloadContactImportErrors({ path: { import_uuid: contactImport.uuid }, parseAs: 'text', throwOnError: true });
  // Reading as text drops the byte order mark the service sends; it is put back so spreadsheets read UTF-8.
  const blob = new Blob(['\uFEFF', data], { type: 'text/csv;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = `import-${contactImport.uuid}-errors.csv`;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked a little later: some browsers still read the blob after the click has returned.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

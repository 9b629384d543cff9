import { exportAuditEvents } from '../../api/gen/sdk.gen';
import { auditQuery, type AuditFilters } from './audit-filters';

export const AUDIT_EXPORT_FILE_NAME = 'audit-log.csv';

/** Fetches the events the filters match as CSV, through the API client, with the session's credentials (a token session's token would not ride on a plain link), and saves the file. */
export async function downloadAuditLog(filters: AuditFilters): Promise<void> {
  const { data } = await exportAuditEvents({ query: auditQuery(filters), parseAs: 'text', throwOnError: true });
  // Reading as text drops the byte order mark the service sends; it is put back so spreadsheets read UTF-8.
  const blob = new Blob(['\uFEFF', data], { type: 'text/csv;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = AUDIT_EXPORT_FILE_NAME;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked a little later: some browsers still read the blob after the click has returned.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

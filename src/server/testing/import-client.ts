/**
 * The import tests' client over a real socket: each group belongs to a team of its own (imports are
 * rate-limited per token, 10 a minute), files are posted as CSV or XLSX, and contacts read back as
 * a team reads them.
 */
import type { AddressInfo } from 'node:net';
import { XLSX_CONTENT_TYPE } from '../../shared/contract/imports';
import type { TestApp } from './test-app';

export type ImportGroup = { uuid: string; token: string };

/** Starts the app on a loopback port and returns the client; the caller closes the app. */
export async function importClient(t: TestApp) {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/2.0`;
  const headers = (group: ImportGroup) => ({ authorization: `Bearer ${group.token}` });

  return {
    base,
    headers,
    async newGroup(name: string): Promise<ImportGroup> {
      const user = await t.user();
      const response = await fetch(`${base}/contact-groups/`, {
        method: 'POST',
        headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name }),
      });
      return { uuid: ((await response.json()) as { data: { uuid: string } }).data.uuid, token: user.token };
    },
    /** POSTs a file to `…/imports` (or `…/imports/preview`): CSV text, or a workbook when `format` says so. */
    post(group: ImportGroup, file: string | Uint8Array, query: Record<string, string> = {}, path = 'imports', format: 'csv' | 'xlsx' = 'csv') {
      return fetch(`${base}/contact-groups/${group.uuid}/${path}?${new URLSearchParams(query)}`, {
        method: 'POST',
        headers: { ...headers(group), 'content-type': format === 'xlsx' ? XLSX_CONTENT_TYPE : 'text/csv' },
        body: typeof file === 'string' ? file : new Blob([new Uint8Array(file)]),
      });
    },
    async contactsOf(group: ImportGroup): Promise<Array<[string, Record<string, string>]>> {
      const response = await fetch(`${base}/contact-groups/${group.uuid}/contacts?per_page=100`, { headers: headers(group) });
      const { data } = (await response.json()) as { data: Array<{ phone_number: string; custom_fields: Record<string, string> }> };
      return data.map((contact) => [contact.phone_number, contact.custom_fields]);
    },
  };
}

import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockApi, page, signIn } from '../../testing/mock-api';
import { render, screen, within } from '../../testing/render';
import { completedImport, IMPORT_UUID } from './contact-import.fixtures';
import { ContactImportResult } from './contact-import-result';

const REPORT = '\uFEFFrow,value,reason\r\n5,12345,The phone number is not a valid phone number.\r\n';

describe('the import result', () => {
  afterEach(() => vi.restoreAllMocks());

  it('shows the counts, the rows left out, and downloads the report through the session', async () => {
    signIn();
    const fetchMock = mockApi((_request, url) => {
      if (url.pathname === `/api/2.0/contact-imports/${IMPORT_UUID}/errors`) {
        return json(page([{ row: 5, value: '12345', reason: 'The phone number is not a valid phone number.' }], { per_page: 10 }));
      }
      if (url.pathname === `/api/2.0/contact-imports/${IMPORT_UUID}/errors.csv`) {
        return new Response(REPORT, { headers: { 'Content-Type': 'text/csv; charset=utf-8' } });
      }
      return json({ error: { message: 'Unexpected request' } }, 500);
    });
    const saved: { href: string; download: string }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ href: this.href, download: this.download });
    });
    const blobs: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      blobs.push(blob as Blob);
      return 'blob:http://localhost/report';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);

    const { user } = render(<ContactImportResult contactImport={completedImport()} />);

    const result = screen.getByRole('region', { name: 'Import result' });
    expect(within(result).getByText('Import completed')).toBeInTheDocument();
    expect(within(result).getByRole('group', { name: 'Rows read' })).toHaveTextContent('4');
    expect(within(result).getByRole('group', { name: 'Added' })).toHaveTextContent('2');
    expect(within(result).getByRole('group', { name: 'Updated' })).toHaveTextContent('1');
    expect(within(result).getByRole('group', { name: 'Left out' })).toHaveTextContent('1');

    const errors = await screen.findByRole('table', { name: 'Rows left out' });
    const row = await within(errors).findByRole('row', { name: /12345/ });
    expect(row).toHaveTextContent('5');
    expect(row).toHaveTextContent('The phone number is not a valid phone number.');

    await user.click(screen.getByRole('button', { name: 'Download error report (CSV)' }));

    await vi.waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).toEqual({ href: 'blob:http://localhost/report', download: `import-${IMPORT_UUID}-errors.csv` });
    expect(await blobs[0]?.text()).toContain('5,12345,The phone number is not a valid phone number.');
    const download = fetchMock.mock.calls.map(([request]) => request).find((request) => request.url.endsWith('/errors.csv'));
    // A read: the session cookie alone (the browser sends it), no token in the page.
    expect(download?.headers.get('Authorization')).toBeNull();
  });

  it('offers no error report when every row was imported', () => {
    signIn();
    const fetchMock = mockApi(() => json(page([])));
    render(<ContactImportResult contactImport={completedImport({ rows_invalid: 0, rows_valid: 4, contacts_added: 3 })} />);

    expect(screen.getByRole('group', { name: 'Left out' })).toHaveTextContent('0');
    expect(screen.queryByRole('table', { name: 'Rows left out' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Download error report (CSV)' })).not.toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

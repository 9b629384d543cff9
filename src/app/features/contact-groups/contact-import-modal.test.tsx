import { describe, expect, it } from 'vitest';
import { apiError, json, mockApi, page, signIn, TEST_CSRF } from '../../testing/mock-api';
import { mockUpload } from '../../testing/mock-upload';
import { render, screen, within } from '../../testing/render';
import { completedImport, GROUP_UUID } from './contact-import.fixtures';
import { ContactImportModal } from './contact-import-modal';

const GROUP = { uuid: GROUP_UUID, name: 'Newsletter' };
const CSV = 'phone_number,first_name\n+447700900123,Ada\n12345,Grace\n';

function csvFile(name = 'customers.csv', content = CSV): File {
  // The browser's own label for .csv varies (here: none), so the upload must set text/csv itself.
  return new File([content], name, { type: '' });
}

function deferred<T>() {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

describe('the CSV import', () => {
  it('uploads the file as text/csv with the token, shows the merge, then the result', async () => {
    signIn();
    mockApi((_request, url) =>
      url.pathname.endsWith('/errors')
        ? json(page([{ row: 3, value: '12345', reason: 'The phone number is not a valid phone number.' }], { per_page: 10 }))
        : json(page([])),
    );
    const answer = deferred<Response>();
    const uploads = mockUpload(() => answer.promise);
    const { user } = render(<ContactImportModal group={GROUP} opened onClose={() => undefined} />);

    const dialog = await screen.findByRole('dialog', { name: 'Import contacts into Newsletter' });
    expect(dialog).toHaveTextContent('a failed import changes nothing');
    expect(within(dialog).getByRole('button', { name: 'Import contacts' })).toBeDisabled();
    await user.upload(within(dialog).getByLabelText('CSV file'), csvFile());
    expect(dialog).toHaveTextContent('customers.csv');
    await user.click(within(dialog).getByRole('button', { name: 'Import contacts' }));

    expect(await within(dialog).findByRole('progressbar', { name: 'Writing contacts to the group' })).toBeInTheDocument();
    expect(uploads).toHaveLength(1);
    const [upload] = uploads;
    expect(upload?.method).toBe('POST');
    expect(upload?.url.pathname).toBe(`/api/2.0/contact-groups/${GROUP_UUID}/imports`);
    expect(upload?.url.searchParams.get('file_name')).toBe('customers.csv');
    expect(upload?.headers['content-type']).toBe('text/csv');
    expect(upload?.headers.authorization).toBeUndefined();
    expect(upload?.headers['x-csrf-token']).toBe(TEST_CSRF);
    expect(await (upload?.body as Blob).text()).toBe(CSV);

    answer.resolve(json({ data: completedImport({ rows_total: 2, rows_valid: 1, contacts_added: 1, contacts_updated: 0 }) }, 201));

    const result = await within(dialog).findByRole('region', { name: 'Import result' });
    expect(within(result).getByRole('group', { name: 'Added' })).toHaveTextContent('1');
    expect(within(result).getByRole('group', { name: 'Left out' })).toHaveTextContent('1');
    expect(await within(result).findByRole('row', { name: /12345/ })).toHaveTextContent('The phone number is not a valid phone number.');
  });

  it('shows the service’s reason when it refuses the file (422 on file)', async () => {
    signIn();
    mockApi(() => json(page([])));
    mockUpload(() =>
      apiError(422, 'The given data was invalid.', {
        file: ['No column holds phone numbers. The first row has 2 columns: "Name", "Email" (read with the delimiter ",").'],
      }),
    );
    const { user } = render(<ContactImportModal group={GROUP} opened onClose={() => undefined} />);

    const dialog = await screen.findByRole('dialog', { name: 'Import contacts into Newsletter' });
    await user.upload(within(dialog).getByLabelText('CSV file'), csvFile('numbers.csv', 'number,name\n+447700900123,Ada\n'));
    await user.click(within(dialog).getByRole('button', { name: 'Import contacts' }));

    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'No column holds phone numbers. The first row has 2 columns: "Name", "Email" (read with the delimiter ",").',
    );
    expect(within(dialog).queryByRole('region', { name: 'Import result' })).not.toBeInTheDocument();
    // The file stays chosen, so a corrected one can be picked or the same sent again.
    expect(within(dialog).getByRole('button', { name: 'Import contacts' })).toBeEnabled();
  });

  it('shows the service’s message when the group is busy (409)', async () => {
    signIn();
    mockApi(() => json(page([])));
    mockUpload(() => apiError(409, 'The group is being imported into or changed; try again when that has finished.'));
    const { user } = render(<ContactImportModal group={GROUP} opened onClose={() => undefined} />);

    const dialog = await screen.findByRole('dialog', { name: 'Import contacts into Newsletter' });
    await user.upload(within(dialog).getByLabelText('CSV file'), csvFile());
    await user.click(within(dialog).getByRole('button', { name: 'Import contacts' }));

    expect(await within(dialog).findByRole('alert')).toHaveTextContent('The group is being imported into or changed');
  });
});

/**
 * The import wizard (issue 20, point 3): pick a file → the service's preview of its first rows with
 * the guessed mapping → change what is wrong → import with exactly the options shown → the result,
 * opted-out numbers flagged. What is checked is what the dashboard sends: the preview and import
 * requests, their options and bodies.
 *
 * Seen red: with `importOptions` leaving out the edited field names, the import's `fields` was
 * missing; with the preview failure not offering a phone column, the retry found no input; with the
 * "empty cells clear fields" choice not added to the import's options, `empty_cells_clear` was null.
 */
import { describe, expect, it } from 'vitest';
import type { ContactImportPreview } from '../../api/gen/types.gen';
import { apiError, json, mockApi, page, signIn, TEST_CSRF } from '../../testing/mock-api';
import { mockUpload, type SentUpload } from '../../testing/mock-upload';
import { render, screen, within } from '../../testing/render';
import { completedImport, GROUP_UUID } from './contact-import.fixtures';
import { ContactImportModal } from './contact-import-modal';

const GROUP = { uuid: GROUP_UUID, name: 'Newsletter' };
const CSV = 'Mobile;First Name;Notes\n+447700900123;Ada;vip\n12345;Grace;\n';

function csvFile(name = 'customers.csv', content = CSV): File {
  // The browser's own label for .csv varies (here: none), so the upload must set text/csv itself.
  return new File([content], name, { type: '' });
}

const PREVIEW: ContactImportPreview = {
  format: 'csv',
  encoding: 'utf-8',
  delimiter: ';',
  sheet: null,
  default_country: 'GB',
  has_header: true,
  headers: ['Mobile', 'First Name', 'Notes'],
  phone_column: { position: 1, header: 'Mobile', found_by: 'header' },
  columns: [
    { position: 2, header: 'First Name', field: 'first_name' },
    { position: 3, header: 'Notes', field: 'notes' },
  ],
  rows: [
    { row: 2, cells: ['+447700900123', 'Ada', 'vip'], phone_number: '447700900123', problem: null, warning: null },
    { row: 3, cells: ['12345', 'Grace', ''], phone_number: null, problem: 'The phone number is too short.', warning: null },
  ],
};

function deferred<T>() {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

const isPreview = (upload: SentUpload) => upload.url.pathname.endsWith('/imports/preview');

describe('the import wizard', { timeout: 20_000 }, () => {
  it('shows the first rows as the service reads them, takes the changes, and imports with exactly those options', async () => {
    signIn();
    mockApi((_request, url) =>
      url.pathname.endsWith('/errors') ? json(page([{ row: 3, value: '12345', reason: 'The phone number is too short.' }], { per_page: 10 })) : json(page([])),
    );
    const answer = deferred<Response>();
    const uploads = mockUpload((upload) => (isPreview(upload) ? json({ data: PREVIEW }) : answer.promise));
    const { user } = render(<ContactImportModal group={GROUP} opened onClose={() => undefined} />);

    const dialog = await screen.findByRole('dialog', { name: 'Import contacts into Newsletter' });
    expect(dialog).toHaveTextContent('a failed import changes nothing');
    expect(within(dialog).getByRole('button', { name: 'Import contacts' })).toBeDisabled();
    await user.upload(within(dialog).getByLabelText('Contacts file'), csvFile());

    const table = await within(dialog).findByRole('table', { name: 'First rows of the file' });
    expect(dialog).toHaveTextContent('Reading UTF-8 text with semicolons between cells. The phone numbers are in “Mobile” (found by its header).');
    expect(within(table).getByRole('row', { name: /Ada/ })).toHaveTextContent('+447700900123');
    expect(within(table).getByRole('row', { name: /Grace/ })).toHaveTextContent('Left out: The phone number is too short.');
    const [preview] = uploads;
    expect(preview?.url.pathname).toBe(`/api/2.0/contact-groups/${GROUP_UUID}/imports/preview`);
    expect(preview?.headers['content-type']).toBe('text/csv');
    expect(preview?.headers['x-csrf-token']).toBe(TEST_CSRF);
    expect(await (preview?.body as Blob).text()).toBe(CSV);

    // Rename one field, leave another column out.
    const name = within(table).getByRole('textbox', { name: 'Field name for First Name' });
    await user.clear(name);
    await user.type(name, 'given_name');
    await user.click(within(table).getByRole('checkbox', { name: 'Import the column Notes' }));
    expect(within(table).queryByRole('textbox', { name: 'Field name for Notes' })).not.toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Import contacts' }));
    expect(await within(dialog).findByRole('progressbar', { name: 'Writing contacts to the group' })).toBeInTheDocument();
    const imports = uploads.filter((upload) => !isPreview(upload));
    expect(imports).toHaveLength(1);
    const [upload] = imports;
    expect(upload?.url.pathname).toBe(`/api/2.0/contact-groups/${GROUP_UUID}/imports`);
    expect(Object.fromEntries(upload?.url.searchParams ?? [])).toEqual({
      file_name: 'customers.csv',
      delimiter: ';',
      encoding: 'utf-8',
      phone_column: '1',
      default_country: 'GB',
      fields: JSON.stringify({ 'First Name': 'given_name', Notes: null }),
    });
    expect(upload?.headers['content-type']).toBe('text/csv');
    expect(await (upload?.body as Blob).text()).toBe(CSV);

    answer.resolve(json({ data: completedImport({ rows_total: 2, rows_valid: 1, contacts_added: 1, contacts_updated: 0, contacts_opted_out: 1 }) }, 201));
    const result = await within(dialog).findByRole('region', { name: 'Import result' });
    expect(within(result).getByRole('group', { name: 'Added' })).toHaveTextContent('1');
    expect(within(result).getByRole('group', { name: 'Left out' })).toHaveTextContent('1');
    expect(result).toHaveTextContent('One number of the file has opted out');
    expect(await within(result).findByRole('row', { name: /12345/ })).toHaveTextContent('The phone number is too short.');
  });

  it('says why the service could not read the file, and reads it again with the phone column given', async () => {
    signIn();
    mockApi(() => json(page([])));
    const uploads = mockUpload((upload) =>
      upload.url.searchParams.get('phone_column') === 'Tel'
        ? json({ data: { ...PREVIEW, phone_column: { position: 1, header: 'Tel', found_by: 'option' } } })
        : apiError(422, 'The given data was invalid.', {
            file: ['No column holds phone numbers. The first row has 2 columns: "Tel", "Name" (read with the delimiter ",").'],
          }),
    );
    const { user } = render(<ContactImportModal group={GROUP} opened onClose={() => undefined} />);

    const dialog = await screen.findByRole('dialog', { name: 'Import contacts into Newsletter' });
    await user.upload(within(dialog).getByLabelText('Contacts file'), csvFile('numbers.csv', 'Tel,Name\n+447700900123,Ada\n'));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('No column holds phone numbers. The first row has 2 columns: "Tel", "Name"');
    expect(within(dialog).getByRole('button', { name: 'Import contacts' })).toBeDisabled();

    await user.type(within(dialog).getByRole('textbox', { name: /Phone numbers in/ }), 'Tel');
    await user.click(within(dialog).getByRole('button', { name: 'Read again' }));
    expect(await within(dialog).findByRole('table', { name: 'First rows of the file' })).toBeInTheDocument();
    expect(dialog).toHaveTextContent('The phone numbers are in “Mobile” (as chosen).');
    expect(uploads.at(-1)?.url.searchParams.get('phone_column')).toBe('Tel');
    expect(within(dialog).getByRole('button', { name: 'Import contacts' })).toBeEnabled();
  });

  it('sends "empty cells clear fields" only when chosen, and shows the service’s message when the group is busy (409)', async () => {
    signIn();
    mockApi(() => json(page([])));
    const uploads = mockUpload((upload) =>
      isPreview(upload) ? json({ data: PREVIEW }) : apiError(409, 'The group is being imported into or changed; try again when that has finished.'),
    );
    const { user } = render(<ContactImportModal group={GROUP} opened onClose={() => undefined} />);

    const dialog = await screen.findByRole('dialog', { name: 'Import contacts into Newsletter' });
    await user.upload(within(dialog).getByLabelText('Contacts file'), csvFile());
    await within(dialog).findByRole('table', { name: 'First rows of the file' });
    const clear = within(dialog).getByRole('checkbox', { name: /Empty cells clear fields/ });
    expect(clear).not.toBeChecked();
    await user.click(clear);
    await user.click(within(dialog).getByRole('button', { name: 'Import contacts' }));

    expect(await within(dialog).findByRole('alert')).toHaveTextContent('The group is being imported into or changed');
    expect(uploads.filter((upload) => !isPreview(upload)).map((upload) => upload.url.searchParams.get('empty_cells_clear'))).toEqual(['true']);
    // The preview reads the file the same either way: it was not asked again.
    expect(uploads.filter(isPreview)).toHaveLength(1);
  });
});

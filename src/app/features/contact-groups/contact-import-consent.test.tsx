/**
 * The import wizard's consent column (issue 36, point 3): the column the preview read as consent is
 * marked so, the choice can be changed or turned off (sent as `consent_column`), and the result says
 * how many numbers were suppressed.
 *
 * Seen red: with the consent branch of the column header removed, "Consent (yes/no)" was nowhere in
 * the table; without the suppressed numbers taken from the repeats, the result said the suppressed
 * rows repeated a number (seen in the e2e screenshot).
 */
import { describe, expect, it, vi } from 'vitest';
import type { ContactImportPreview } from '../../api/gen/types.gen';
import { render, screen, within } from '../../testing/render';
import { completedImport } from './contact-import.fixtures';
import { ContactImportMapping } from './contact-import-mapping';
import { ContactImportResult } from './contact-import-result';

const PREVIEW: ContactImportPreview = {
  format: 'csv',
  encoding: 'utf-8',
  delimiter: ',',
  sheet: null,
  default_country: 'GB',
  has_header: true,
  headers: ['Phone', 'Name', 'Accepts SMS Marketing'],
  phone_column: { position: 1, header: 'Phone', found_by: 'header' },
  columns: [{ position: 2, header: 'Name', field: 'name' }],
  consent_column: { position: 3, header: 'Accepts SMS Marketing' },
  rows: [{ row: 2, cells: ['07700900601', 'Ada', 'yes'], phone_number: '447700900601', problem: null, warning: null }],
};

describe('the consent column', { timeout: 20_000 }, () => {
  it('marks the consent column, and turning it off sends no consent column', async () => {
    const onOptionsChange = vi.fn();
    const { user } = render(
      <ContactImportMapping preview={PREVIEW} options={{ consent_column: '3' }} onOptionsChange={onOptionsChange} fieldEdits={{}} onFieldEdit={() => {}} />,
    );
    const table = screen.getByRole('table', { name: 'First rows of the file' });
    expect(within(table).getByText('Consent (yes/no)')).toBeInTheDocument();
    await user.click(screen.getAllByLabelText(/Consent \(yes\/no\) in/)[0]!);
    await user.click(await screen.findByRole('option', { name: 'No consent column' }));
    expect(onOptionsChange).toHaveBeenLastCalledWith({ consent_column: undefined });
  });

  it('says how many numbers were suppressed', () => {
    render(
      <ContactImportResult
        contactImport={completedImport({
          rows_total: 3,
          rows_valid: 3,
          rows_invalid: 0,
          contacts_added: 1,
          contacts_updated: 0,
          contacts_unchanged: 0,
          contacts_suppressed: 2,
        })}
      />,
    );
    expect(screen.getByText('2 suppressed')).toBeInTheDocument();
    // The suppressed rows are not counted as repeated numbers.
    expect(screen.queryByText(/repeated a number/)).toBeNull();
    expect(screen.getByText(/did not accept SMS marketing/)).toBeInTheDocument();
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { dismissToasts, screenshot, signInWithPassword } from './support';

function writeCsv(name: string, content: string): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'herald-import-')), name);
  fs.writeFileSync(file, content);
  return file;
}

/** Picks the file the way a person does: the button opens the browser's file chooser. */
async function chooseFile(page: Page, button: string, file: string) {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: button }).click();
  await (await chooser).setFiles(file);
}

test('a marketer imports a CSV file into a group, reads what was left out, and downloads the report', async ({ page }) => {
  // Three valid rows, one number given twice (national and international: the later row wins), one invalid row.
  const customers = writeCsv('customers.csv', 'phone_number,first_name\n+447700900111,Ada\n07700900222,Grace\n07700900111,Ada Lovelace\n12345,Nobody\n');
  const noHeader = writeCsv('no-header.csv', 'number,first_name\n+447700900333,Alan\n');

  await page.goto('/contact-groups');
  await signInWithPassword(page);
  await page.getByRole('button', { name: 'New group' }).click();
  const createDialog = page.getByRole('dialog', { name: 'New contact group' });
  await createDialog.getByRole('textbox', { name: 'Name' }).fill('Spring fair');
  await createDialog.getByRole('button', { name: 'Create group' }).click();
  await expect(page.getByRole('heading', { name: 'Spring fair', level: 1 })).toBeVisible();
  await expect(page.getByText('No contacts yet')).toBeVisible();
  const imports = page.getByRole('region', { name: 'Recent imports' });
  await expect(imports).toContainText('No CSV file has been imported into this group yet.');

  // A file without a phone_number column: the service's reason, in the modal; nothing written.
  await page.getByRole('button', { name: 'Import CSV' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Import contacts into Spring fair' });
  await expect(dialog).toContainText('a failed import changes nothing');
  await chooseFile(page, 'Choose CSV file', noHeader);
  await expect(dialog).toContainText('no-header.csv');
  await dialog.getByRole('button', { name: 'Import contacts' }).click();
  await expect(dialog.getByRole('alert')).toContainText('The first row must be the header, with a phone_number column.');
  await dismissToasts(page);
  await screenshot(page, 'contact-import-refused');

  // The real file: read, merged, and reported.
  await chooseFile(page, 'Choose another file', customers);
  await expect(dialog).toContainText('customers.csv');
  await dialog.getByRole('button', { name: 'Import contacts' }).click();
  const result = dialog.getByRole('region', { name: 'Import result' });
  await expect(result).toContainText('Import completed');
  await expect(result).toContainText('1 repeated a number given earlier in the file; the later row was kept.');
  await expect(result.getByRole('group', { name: 'Rows read' })).toContainText('4');
  await expect(result.getByRole('group', { name: 'Added' })).toContainText('2');
  await expect(result.getByRole('group', { name: 'Left out' })).toContainText('1');
  const leftOut = result.getByRole('table', { name: 'Rows left out' }).getByRole('row').filter({ hasText: '12345' });
  await expect(leftOut).toContainText('5');
  await expect(leftOut).toContainText('The phone number');

  await dismissToasts(page);
  await screenshot(page, 'contact-import-result');

  const downloading = page.waitForEvent('download');
  await result.getByRole('button', { name: 'Download error report (CSV)' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^import-[0-9a-f-]{36}-errors\.csv$/);
  const report = fs.readFileSync(await download.path(), 'utf8');
  expect(report).toMatch(/^\uFEFFrow,value,reason\r?\n/);
  expect(report).toMatch(/\n5,12345,"?The phone number[^\n]*/);

  await dialog.getByRole('button', { name: 'Close' }).last().click();
  await expect(dialog).toBeHidden();

  // The page reads the group again: its new count, the file's custom field as a column, the later row's value.
  await expect(page.getByRole('region', { name: 'Group summary' })).toContainText('2');
  const contacts = page.getByRole('table', { name: 'Contacts' });
  await expect(contacts.getByRole('columnheader', { name: 'first_name' })).toBeVisible();
  await expect(contacts.getByRole('row').filter({ hasText: '+447700900111' })).toContainText('Ada Lovelace');
  await expect(contacts.getByRole('row').filter({ hasText: '+447700900222' })).toContainText('Grace');
  await expect(contacts.getByRole('row').filter({ hasText: '12345' })).toHaveCount(0);

  // The import is listed; the refused header never started one (nothing was written).
  const importRows = imports.getByRole('table', { name: 'Recent imports' }).getByRole('row');
  await expect(importRows).toHaveCount(2);
  await expect(importRows.nth(1)).toContainText('customers.csv');
  await expect(importRows.nth(1)).toContainText('Completed');
  await screenshot(page, 'contact-group-after-import');
});

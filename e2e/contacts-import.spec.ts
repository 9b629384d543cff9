/**
 * The import wizard (issue 20, point 3), as a marketer goes through it with the files they have: an
 * Excel export from much of Europe (UTF-8 with a BOM, semicolons, CRLF, "Mobile;First Name"), a CRM
 * export ("Phone,Email") and an XLSX workbook. Each is previewed, its mapping changed where needed,
 * imported with progress, and its result read; the group's contacts are then what the files held.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { expect, test, type Page } from '@playwright/test';
import { axeViolations, dismissToasts, screenshot, signInWithPassword } from './support';

function writeFile(name: string, content: string | Buffer): string {
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

test('a marketer imports an Excel export, a CRM export and a workbook through the wizard', async ({ page }) => {
  // Three valid rows, one number given twice (national and international: the later row wins), one invalid row.
  const excel = writeFile(
    'excel-export.csv',
    '\uFEFFMobile;First Name;City\r\n+447700900111;Zoë;Leeds\r\n07700900222;Grace;York\r\n07700900111;Ada Lovelace;London\r\n12345;Nobody;Hull\r\n',
  );
  const crm = writeFile('crm.csv', 'Phone,Email\n07700900333,alan@example.com\n');
  const noPhone = writeFile('names.csv', 'Name,Email\nAda,ada@example.com\n');
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Leads');
  sheet.addRow(['Cell', 'First Name']);
  sheet.addRow([447700900444, 'Barbara']);
  const workbook = writeFile('leads.xlsx', Buffer.from(await book.xlsx.writeBuffer()));

  await page.goto('/contact-groups');
  await signInWithPassword(page);
  await page.getByRole('button', { name: 'New group' }).click();
  const createDialog = page.getByRole('dialog', { name: 'New contact group' });
  await createDialog.getByRole('textbox', { name: 'Name' }).fill('Spring fair');
  await createDialog.getByRole('button', { name: 'Create group' }).click();
  await expect(page.getByRole('heading', { name: 'Spring fair', level: 1 })).toBeVisible();
  const imports = page.getByRole('region', { name: 'Recent imports' });
  await expect(imports).toContainText('No file has been imported into this group yet.');

  // A file with no phone column: the service says what it read; nothing can be imported yet.
  await page.getByRole('button', { name: 'Import a file' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Import contacts into Spring fair' });
  await expect(dialog).toContainText('a failed import changes nothing');
  await chooseFile(page, 'Choose a file', noPhone);
  await expect(dialog.getByRole('alert')).toContainText('No column holds phone numbers. The first row has 2 columns: "Name", "Email"');
  await expect(dialog.getByRole('button', { name: 'Import contacts' })).toBeDisabled();
  await dismissToasts(page);
  await screenshot(page, 'contact-import-refused');

  // The Excel export: previewed as it will be read, one field renamed, then imported.
  await chooseFile(page, 'Choose another file', excel);
  const table = dialog.getByRole('table', { name: 'First rows of the file' });
  await expect(dialog).toContainText('Reading UTF-8 text with semicolons between cells. The phone numbers are in “Mobile” (found by its header).');
  await expect(table.getByRole('row').filter({ hasText: 'Nobody' })).toContainText('Left out: The phone number');
  await expect(table.getByRole('textbox', { name: 'Field name for First Name' })).toHaveValue('first_name');
  await table.getByRole('textbox', { name: 'Field name for City' }).fill('town');
  // An empty cell keeps a contact's value unless chosen otherwise (issue 32): off by default.
  await expect(dialog.getByRole('checkbox', { name: /Empty cells clear fields/ })).not.toBeChecked();
  expect(await axeViolations(page, '.mantine-Modal-content')).toEqual([]);
  await screenshot(page, 'contact-import-preview');
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: 'test-results/screenshots/contact-import-preview-1440.png' });
  await page.setViewportSize({ width: 390, height: 844 });
  await dialog.getByRole('checkbox', { name: /Empty cells clear fields/ }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/screenshots/contact-import-preview-390.png' });
  await page.setViewportSize({ width: 1280, height: 800 });
  await dialog.getByRole('button', { name: 'Import contacts' }).click();
  const result = dialog.getByRole('region', { name: 'Import result' });
  await expect(result).toContainText('Import completed');
  await expect(result).toContainText('1 repeated a number given earlier in the file; the later row was kept.');
  await expect(result.getByRole('group', { name: 'Rows read' })).toContainText('4');
  await expect(result.getByRole('group', { name: 'Added' })).toContainText('2');
  await expect(result.getByRole('group', { name: 'Left out' })).toContainText('1');
  const leftOut = result.getByRole('table', { name: 'Rows left out' }).getByRole('row').filter({ hasText: '12345' });
  await expect(leftOut).toContainText('5');
  await dismissToasts(page);
  await screenshot(page, 'contact-import-result');

  const downloading = page.waitForEvent('download');
  await result.getByRole('button', { name: 'Download error report (CSV)' }).click();
  const report = fs.readFileSync(await (await downloading).path(), 'utf8');
  expect(report).toMatch(/^\uFEFFrow,value,reason\r?\n/);
  expect(report).toMatch(/\n5,12345,"?The phone number[^\n]*/);
  await dialog.getByRole('button', { name: 'Close' }).last().click();
  await expect(dialog).toBeHidden();

  // The CRM export, with no change.
  await page.getByRole('button', { name: 'Import a file' }).first().click();
  await chooseFile(page, 'Choose a file', crm);
  await expect(dialog).toContainText('The phone numbers are in “Phone” (found by its header).');
  await expect(table.getByRole('textbox', { name: 'Field name for Email' })).toHaveValue('email');
  await dialog.getByRole('button', { name: 'Import contacts' }).click();
  await expect(result.getByRole('group', { name: 'Added' })).toContainText('1');
  await dialog.getByRole('button', { name: 'Close' }).last().click();

  // The workbook: its sheet is read like the others.
  await page.getByRole('button', { name: 'Import a file' }).first().click();
  await chooseFile(page, 'Choose a file', workbook);
  await expect(dialog).toContainText('Reading the sheet “Leads” of the workbook. The phone numbers are in “Cell” (found by its header).');
  await expect(table.getByRole('row').filter({ hasText: 'Barbara' })).toContainText('+447700900444');
  await dialog.getByRole('button', { name: 'Import contacts' }).click();
  await expect(result.getByRole('group', { name: 'Added' })).toContainText('1');
  await dialog.getByRole('button', { name: 'Close' }).last().click();
  await expect(dialog).toBeHidden();

  // The group holds what the files held, in the fields as mapped.
  await expect(page.getByRole('region', { name: 'Group summary' })).toContainText('4');
  const contacts = page.getByRole('table', { name: 'Contacts' });
  await expect(contacts.getByRole('columnheader', { name: 'first_name' })).toBeVisible();
  await expect(contacts.getByRole('columnheader', { name: 'town' })).toBeVisible();
  await expect(contacts.getByRole('row').filter({ hasText: '+447700900111' })).toContainText('Ada Lovelace');
  await expect(contacts.getByRole('row').filter({ hasText: '+447700900111' })).toContainText('London');
  await expect(contacts.getByRole('row').filter({ hasText: '+447700900333' })).toContainText('alan@example.com');
  await expect(contacts.getByRole('row').filter({ hasText: '+447700900444' })).toContainText('Barbara');
  const importRows = imports.getByRole('table', { name: 'Recent imports' }).getByRole('row');
  await expect(importRows).toHaveCount(4);
  await screenshot(page, 'contact-group-after-import');
});

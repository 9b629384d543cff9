/**
 * The import wizard's consent column (issue 36, point 3): a shop's export with "Accepts SMS
 * Marketing" is previewed, the column is chosen as consent (marked in the first rows), and the
 * result says how many numbers were suppressed instead of imported. The dialog passes axe;
 * screenshots at 1440 and 390 px wide.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { axeViolations, dismissToasts, screenshot, signInWithPassword } from './support';

test('a marketer maps the consent column of a shop export; the no rows are suppressed', async ({ page }) => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'herald-consent-')), 'shop-customers.csv');
  fs.writeFileSync(file, 'Phone,First Name,Accepts SMS Marketing\n07700900801,Ada,yes\n07700900802,Bo,no\n07700900803,Cy,TRUE\n');

  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/contact-groups');
  await signInWithPassword(page);
  await page.getByRole('button', { name: 'New group' }).click();
  const createDialog = page.getByRole('dialog', { name: 'New contact group' });
  await createDialog.getByRole('textbox', { name: 'Name' }).fill('Shop customers');
  await createDialog.getByRole('button', { name: 'Create group' }).click();
  await expect(page.getByRole('heading', { name: 'Shop customers', level: 1 })).toBeVisible();

  await page.getByRole('button', { name: 'Import a file' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Import contacts into Shop customers' });
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Choose a file' }).click();
  await (await chooser).setFiles(file);
  const table = dialog.getByRole('table', { name: 'First rows of the file' });
  await expect(table).toContainText('Ada');
  await dialog.getByRole('combobox', { name: 'Consent (yes/no) in' }).click();
  await page.getByRole('option', { name: 'Accepts SMS Marketing' }).click();
  await expect(table.getByText('Consent (yes/no)')).toBeVisible();
  await dismissToasts(page);
  expect(await axeViolations(page, '.mantine-Modal-content')).toEqual([]);
  await page.screenshot({ path: 'test-results/screenshots/import-consent-preview-1440.png' });
  await page.setViewportSize({ width: 390, height: 844 });
  await table.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/screenshots/import-consent-preview-390.png' });
  await page.setViewportSize({ width: 1440, height: 900 });

  await dialog.getByRole('button', { name: 'Import contacts' }).click();
  const result = dialog.getByRole('region', { name: 'Import result' });
  await expect(result).toContainText('Import completed');
  await expect(result).toContainText('1 suppressed');
  await expect(result).not.toContainText('repeated a number');
  await expect(result.getByRole('group', { name: 'Added' })).toContainText('2');
  await dismissToasts(page);
  await screenshot(page, 'import-consent-result-1440');
});

/**
 * The audit log (issue 18, point 7), end to end: a change made through the API shows in the log
 * with its fields before and after; filtering by action keeps only those events (the filter in the
 * URL); a resource's "History" shows only its events; the CSV export downloads the filtered events
 * with the header the service writes.
 *
 * Seen red: with `auditQuery` leaving out `action` (the table and the CSV still held the sign-in,
 * the "Signed in" row count was 1, not 0).
 */
import fs from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { screenshot, signInWithPassword, sessionHeaders } from './support';

/** As the signed-in session (its cookie), to make changes through the API. */
async function api(page: Page, method: 'POST' | 'PUT', path: string, body: unknown): Promise<{ uuid: string }> {
  const response = await page.request.fetch(`/api/2.0${path}`, { method, headers: await sessionHeaders(page), data: body });
  expect(response.ok(), `${method} ${path}: ${await response.text()}`).toBe(true);
  return ((await response.json()) as { data: { uuid: string } }).data;
}

test('a change shows in the audit log with its fields, filters by action and exports as CSV', async ({ page }) => {
  await page.goto('/audit');
  await signInWithPassword(page);
  await expect(page.getByRole('heading', { name: 'Audit log', level: 1 })).toBeVisible();

  const template = await api(page, 'POST', '/templates/', { name: 'E2E audit template', sender: '88440', body: 'Hello from the audit journey.' });
  await api(page, 'PUT', `/templates/${template.uuid}`, { name: 'E2E audit template (renamed)', sender: '88440', body: 'Hello again from the audit journey.' });

  // Reached from the navigation, as a person would.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit log' }).click();
  const table = page.getByRole('table', { name: 'Audit events' });
  const updated = table.getByRole('row').filter({ hasText: 'Updated template' });
  await expect(updated).toHaveCount(1);
  await expect(updated).toContainText('Admin');
  await expect(updated.getByRole('listitem').filter({ hasText: /^name:/ })).toHaveText('name: E2E audit template → E2E audit template (renamed)');
  await expect(updated.getByRole('link', { name: `Template ${template.uuid.slice(0, 8)}`, exact: true })).toHaveAttribute(
    'href',
    `/templates/${template.uuid}`,
  );
  await expect(table.getByRole('row').filter({ hasText: 'Signed in' }).first()).toBeVisible();
  await screenshot(page, 'audit-log');

  // Filter by action: picked by what the log calls it, by keyboard alone.
  const filters = page.getByRole('search', { name: 'Filter the audit log' });
  await filters.getByRole('combobox', { name: 'Action' }).fill('updated templ');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(filters.getByRole('combobox', { name: 'Action' })).toHaveValue('updateTemplate');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/[?&]action=updateTemplate(&|$)/);
  await expect(table.getByRole('row').filter({ hasText: 'Signed in' })).toHaveCount(0);
  await expect(table.getByRole('row').filter({ hasText: 'Updated template' })).toHaveCount(1);
  await expect(page.getByText('1–1 of 1 event')).toBeVisible();

  // The CSV of the filtered events, fetched with the session and saved.
  const downloading = page.waitForEvent('download');
  await filters.getByRole('button', { name: 'Export CSV' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('audit-log.csv');
  const csv = await fs.readFile(await download.path(), 'utf8');
  expect(csv.startsWith('\uFEFFtime,actor_kind,actor_uuid,actor,action,resource_type,resource_uuid,changes,ip')).toBe(true);
  const lines = csv.trim().split(/\r?\n/);
  expect(lines).toHaveLength(2);
  expect(lines[1]).toContain('updateTemplate');
  expect(lines[1]).toContain(template.uuid);

  // Reset, then the template's own history: its creation and its edit, nothing else.
  await filters.getByRole('button', { name: 'Reset' }).click();
  await expect(page).toHaveURL(/\/audit$/);
  await expect(table.getByRole('row').filter({ hasText: 'Signed in' }).first()).toBeVisible();
  await updated.getByRole('link', { name: `History of template ${template.uuid.slice(0, 8)}` }).click();
  await expect(page).toHaveURL(new RegExp(`resource_uuid=${template.uuid}`));
  await expect(filters.getByRole('textbox', { name: 'Resource uuid' })).toHaveValue(template.uuid);
  await expect(table.getByRole('row')).toHaveCount(3);
  await expect(table.getByRole('row').nth(1)).toContainText('Updated template');
  await expect(table.getByRole('row').nth(2)).toContainText('Created template');

  // Back returns to the whole log.
  await page.goBack();
  await expect(page).toHaveURL(/\/audit$/);
  await expect(table.getByRole('row').filter({ hasText: 'Signed in' }).first()).toBeVisible();
});

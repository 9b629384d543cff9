import { expect, test } from '@playwright/test';
import { screenshot, signInWithPassword } from './support';

test('an API token is shown once, signs in to the dashboard, and stops working once revoked', async ({ page }) => {
  await page.goto('/api-tokens');
  await signInWithPassword(page);
  await expect(page.getByRole('heading', { name: 'API tokens', level: 1 })).toBeVisible();

  await page.getByRole('textbox', { name: 'Token name' }).fill('E2E integration');
  await page.getByRole('button', { name: 'Create token' }).click();
  const secret = (await page.getByLabel('New API token').textContent())?.trim() ?? '';
  expect(secret).toMatch(/^hrld_/);
  await expect(page.getByRole('table', { name: 'API tokens' }).getByRole('cell', { name: 'E2E integration', exact: true })).toBeVisible();

  // A read-only token that expires: its team, its access and its expiry are in the list.
  await page.getByRole('textbox', { name: 'Token name' }).fill('E2E dashboard TV');
  await page.getByRole('radio', { name: 'Read-only' }).check();
  await page.getByRole('textbox', { name: /Expires/ }).fill('2099-01-31 18:00');
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Create token' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Token “E2E dashboard TV” created' })).toBeVisible();
  const readOnly = page.getByRole('row').filter({ hasText: 'E2E dashboard TV' });
  await expect(readOnly.getByText('Read-only', { exact: true })).toBeVisible();
  await expect(readOnly.getByRole('cell', { name: 'Herald', exact: true })).toBeVisible();
  await expect(readOnly.getByRole('cell', { name: '31 Jan 2099, 18:00' })).toBeVisible();
  await screenshot(page, 'api-tokens');

  // Sign out, then in again with the token instead of a password.
  await page.getByRole('button', { name: /^Account of/ }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await page.getByRole('tab', { name: 'API token' }).click();
  await page.getByRole('textbox', { name: 'API token', exact: true }).fill('hrld_not-a-real-token');
  await page.getByRole('button', { name: 'Sign in with token' }).click();
  await expect(page.getByText('The service did not accept this token.')).toBeVisible();
  await page.getByRole('textbox', { name: 'API token', exact: true }).fill(secret);
  await page.getByRole('button', { name: 'Sign in with token' }).click();
  // Back to the page where the user signed out.
  await expect(page.getByRole('heading', { name: 'API tokens', level: 1 })).toBeVisible();

  // Revoking the token in use ends this session at its next request.
  await page.getByRole('button', { name: 'Revoke E2E integration' }).click();
  await page.getByRole('dialog', { name: 'Revoke API token' }).getByRole('button', { name: 'Revoke token' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in to Herald' })).toBeVisible();
});

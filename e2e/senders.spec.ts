import { expect, test } from '@playwright/test';
import { screenshot, signInWithPassword } from './support';

test('a marketer manages senders from sign-in to deletion, and deep links survive a reload', async ({ page }) => {
  // Asking for a page while signed out leads to sign-in, and back to that page after.
  await page.goto('/senders?page=1&per_page=25');
  await expect(page).toHaveURL(/\/sign-in\?redirect=/);
  await screenshot(page, 'sign-in');
  await signInWithPassword(page);

  await expect(page).toHaveURL(/\/senders\?page=1&per_page=25$/);
  await expect(page.getByRole('heading', { name: 'Senders', level: 1 })).toBeVisible();
  const senders = page.getByRole('table', { name: 'Senders' });
  await expect(senders.getByRole('cell', { name: '88440', exact: true })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Page size' })).toHaveValue('25 per page');
  await screenshot(page, 'senders-list');

  // Create: the 3–11 rule shows while typing and nothing is sent.
  await page.getByRole('link', { name: 'New sender' }).click();
  await expect(page.getByRole('heading', { name: 'New sender' })).toBeVisible();
  const senderField = page.getByRole('textbox', { name: 'Sender' });
  await senderField.fill('AB');
  await expect(page.getByText('The sender must be between 3 and 11 characters.')).toBeVisible();
  await screenshot(page, 'sender-form-error');
  await senderField.fill('E2EShop');
  await expect(page.getByText('The sender must be between 3 and 11 characters.')).toBeHidden();
  await page.getByRole('button', { name: 'Create sender' }).click();
  await expect(page.getByText('The sender E2EShop was created.')).toBeVisible();
  await expect(senders.getByRole('cell', { name: 'E2EShop', exact: true })).toBeVisible();

  // A duplicate is refused by the service, and its message lands on the field.
  await page.getByRole('link', { name: 'New sender' }).click();
  await page.getByRole('textbox', { name: 'Sender' }).fill('E2EShop');
  await page.getByRole('button', { name: 'Create sender' }).click();
  await expect(page.getByRole('textbox', { name: 'Sender' })).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText(/already been taken/i).first()).toBeVisible();
  await page.getByRole('button', { name: 'Cancel' }).click();

  // Edit.
  await senders.getByRole('link', { name: 'Edit E2EShop' }).click();
  await expect(page.getByRole('heading', { name: 'Edit sender' })).toBeVisible();
  const editUrl = page.url();
  await page.getByRole('textbox', { name: 'Sender' }).fill('E2EStore');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('The sender E2EStore was saved.')).toBeVisible();
  await expect(senders.getByRole('cell', { name: 'E2EStore', exact: true })).toBeVisible();
  await expect(senders.getByRole('cell', { name: 'E2EShop', exact: true })).toBeHidden();

  // A deep link to an edit page survives a reload.
  await page.goto(editUrl);
  await page.reload();
  await expect(page.getByRole('textbox', { name: 'Sender' })).toHaveValue('E2EStore');
  await page.getByRole('button', { name: 'Cancel' }).click();

  // Delete, after confirming.
  await senders.getByRole('button', { name: 'Delete E2EStore' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete sender' });
  await expect(dialog).toContainText('E2EStore');
  await screenshot(page, 'sender-delete-confirmation');
  await dialog.getByRole('button', { name: 'Delete sender' }).click();
  await expect(page.getByText('The sender E2EStore was deleted.')).toBeVisible();
  await expect(senders.getByRole('cell', { name: 'E2EStore', exact: true })).toBeHidden();
  await expect(senders.getByRole('cell', { name: '88440', exact: true })).toBeVisible();

  // Page and page size live in the URL: a reload keeps them.
  await page.getByRole('combobox', { name: 'Page size' }).click();
  await page.getByRole('option', { name: '50 per page' }).click();
  await expect(page).toHaveURL(/per_page=50/);
  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Page size' })).toHaveValue('50 per page');
  await expect(senders.getByRole('cell', { name: '88440', exact: true })).toBeVisible();
});

test('the Reports page leads to sent campaigns’ reports and lists report e-mails; no part is marked as coming', async ({ page }) => {
  await page.goto('/reports');
  await signInWithPassword(page);
  await expect(page.getByRole('heading', { name: 'Reports', level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Recently sent campaigns' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Your report e-mails' })).toBeVisible();
  await screenshot(page, 'reports-page');

  const navigation = page.getByRole('navigation', { name: 'Main' });
  for (const name of ['Campaigns', 'Reports']) await expect(navigation.getByRole('link', { name })).not.toContainText('Soon');

  // On a phone the navbar folds behind the burger.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('button', { name: 'Toggle navigation' }).click();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Senders' }).click();
  // The campaigns table (which names senders too) is left behind: look in the senders' one.
  await expect(page.getByRole('table', { name: 'Senders' }).getByRole('cell', { name: '88440', exact: true })).toBeVisible();
  await screenshot(page, 'senders-phone');
});

test('a session whose cookie is refused ends, and signing out returns to sign-in', async ({ page }) => {
  await page.goto('/sign-in');
  // A password session the service no longer knows: the marker says signed in, the cookie is stale.
  await page.evaluate(() => localStorage.setItem('herald.session', JSON.stringify({ baseUrl: location.origin, kind: 'password' })));
  await page.context().addCookies([{ name: 'herald_session', value: 'hrld_revoked', url: page.url() }]);
  await page.goto('/senders');
  await expect(page).toHaveURL(/\/sign-in\?redirect=%2Fsenders/);

  await signInWithPassword(page);
  await expect(page.getByRole('heading', { name: 'Senders', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: /^Account of/ }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in to Herald' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('herald.session'))).toBeNull();
});

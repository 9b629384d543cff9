/**
 * Conversions in the dashboard (issue 35, point 3): an admin sets the team's attribution windows on
 * the Team page and connects a Shopify shop in a dialog (by keyboard), then sees its webhook URL with
 * a copy button and the secret only as its hint; axe finds nothing serious in the dialog or the
 * Integrations section. The shop is disconnected and the windows put back afterwards, so no other
 * spec sees them. Screenshots at 1440 and 390 px wide.
 */
import { expect, test } from '@playwright/test';
import { axeViolations, dismissToasts, screenshot, signInWithPassword } from './support';

test('an admin connects a shop and sets the attribution windows on the Team page', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/team');
  await signInWithPassword(page);
  await expect(page.getByRole('heading', { name: 'Team', level: 1 })).toBeVisible();

  const windows = page.getByRole('form', { name: 'Revenue attribution' });
  await windows.getByRole('textbox', { name: /Click window/ }).fill('7');
  await windows.getByRole('button', { name: 'Save attribution windows' }).click();
  await expect(page.getByRole('alert').or(page.getByRole('status')).filter({ hasText: 'up to 7 days before it' }).first()).toBeVisible();
  await dismissToasts(page);

  await page.getByRole('button', { name: 'Connect a shop' }).click();
  const dialog = page.getByRole('dialog', { name: 'Connect a shop' });
  await expect(dialog).toBeVisible();
  await page.keyboard.type('Acme tea shop');
  await dialog.getByLabel(/Webhook secret/).fill('shpss_e2e_0000000000000000c0ffee');
  await screenshot(page, 'shop-connection-dialog-1440');
  expect(await axeViolations(page, '[role="dialog"]')).toEqual([]);
  await dialog.getByRole('button', { name: 'Connect shop' }).click();
  await expect(dialog).toBeHidden();
  await dismissToasts(page);

  const table = page.getByRole('table', { name: 'Shop connections' });
  const row = table.getByRole('row').filter({ hasText: 'Acme tea shop' });
  await expect(row).toContainText('/hooks/shop/');
  await expect(row).toContainText('********ffee');
  await expect(row.getByRole('button', { name: 'Copy the webhook URL of Acme tea shop' })).toBeVisible();
  expect(await axeViolations(page, 'section[aria-labelledby="integrations-title"]')).toEqual([]);
  expect(await axeViolations(page, 'section[aria-labelledby="revenue-attribution-title"]')).toEqual([]);
  await page.getByRole('heading', { name: 'Revenue attribution' }).scrollIntoViewIfNeeded();
  await screenshot(page, 'team-conversions-1440');
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, 'team-conversions-390');
  await page.setViewportSize({ width: 1440, height: 900 });

  // Put back what this spec changed.
  await row.getByRole('button', { name: 'Disconnect Acme tea shop' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Disconnect' }).click();
  await expect(table.getByRole('row').filter({ hasText: 'Acme tea shop' })).toHaveCount(0);
  await windows.getByRole('textbox', { name: /Click window/ }).fill('5');
  await windows.getByRole('button', { name: 'Save attribution windows' }).click();
  await expect(page.getByRole('alert').or(page.getByRole('status')).filter({ hasText: 'up to 5 days before it' }).first()).toBeVisible();
});

/**
 * Consent you can prove (issue 36, point 3): an admin turns on double opt-in on the Team page (the
 * card recommends it and says why); a number texts a keyword and its contact page shows it waiting
 * for YES; it replies YES and the page shows its consent record with the evidence. The Team card and
 * the contact page pass axe; screenshots at 1440 and 390 px wide. The setting is turned off and the
 * keyword deleted afterwards, so no other spec sees them.
 */
import { expect, test, type Page } from '@playwright/test';
import { axeViolations, dismissToasts, screenshot, sessionHeaders, signInWithPassword } from './support';

const NUMBER = '447700900791';

async function api(page: Page) {
  const headers = await sessionHeaders(page);
  return async <T = { uuid: string }>(method: 'POST' | 'PUT' | 'DELETE', route: string, body?: unknown) => {
    const response = await page.request.fetch(`/api/2.0${route}`, { method, headers, data: body });
    expect(response.ok(), `${method} ${route}: ${await response.text()}`).toBe(true);
    return response.status() === 204 ? (undefined as T) : ((await response.json()) as { data: T }).data;
  };
}

test('double opt-in: the Team card recommends it, a sign-up waits for YES, and YES is recorded as consent', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/team');
  await signInWithPassword(page);
  await expect(page.getByRole('heading', { name: 'Team', level: 1 })).toBeVisible();

  const form = page.getByRole('form', { name: 'Double opt-in' });
  await form.getByRole('switch', { name: /reply YES \(recommended\)/ }).check();
  await form.getByRole('button', { name: 'Save double opt-in' }).click();
  await expect(page.getByRole('alert').or(page.getByRole('status')).filter({ hasText: 'asked to reply YES' }).first()).toBeVisible();
  await dismissToasts(page);
  expect(await axeViolations(page, 'section[aria-labelledby="double-opt-in-title"]')).toEqual([]);
  await page.getByRole('heading', { name: 'Double opt-in' }).scrollIntoViewIfNeeded();
  await screenshot(page, 'team-double-opt-in-1440');
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, 'team-double-opt-in-390');
  await page.setViewportSize({ width: 1440, height: 900 });

  const call = await api(page);
  const group = await call('POST', '/contact-groups/', { name: 'E2E consent club' });
  const keyword = await call('POST', '/keywords/', {
    keyword: 'CONSENTE2E',
    message: 'Welcome to the club!',
    add_contact_to_group: true,
    contact_groups_uuid: [group.uuid],
  });
  await call('POST', '/inbound-messages/', { from: `+${NUMBER}`, body: 'CONSENTE2E' });

  await page.goto(`/contacts/${NUMBER}`);
  const consent = page.getByRole('region', { name: 'Consent' });
  await expect(consent.getByText('Waiting for YES')).toBeVisible();
  await screenshot(page, 'contact-consent-pending-1440');

  await call('POST', '/inbound-messages/', { from: `+${NUMBER}`, body: 'Yes' });
  await page.reload();
  const row = page.getByRole('table', { name: 'Consent' }).getByRole('row').nth(1);
  await expect(row).toContainText('Texted a keyword');
  await expect(row).toContainText('reply YES to confirm');
  await expect(row).toContainText('YES message:');
  expect(await axeViolations(page, 'main')).toEqual([]);
  await screenshot(page, 'contact-consent-1440');
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, 'contact-consent-390');

  // Put back what this spec changed.
  await call('DELETE', `/keywords/${keyword.uuid}`);
  await call('PUT', '/team/settings', { double_opt_in: false });
});

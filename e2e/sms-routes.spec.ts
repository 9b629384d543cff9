/**
 * Routes (issue 34, points 2 and 5): an admin with two connections (Twilio and Vonage, made through
 * the API) routes the United Kingdom and Ireland to Twilio with Vonage as fallback, and every other
 * country to Vonage, by keyboard; the rules survive a reload; a sender neither connection sends from
 * is refused on the rule's field; moving the "any country" rule above the others is refused (a rule
 * after it could never match). axe finds nothing serious; the page works at 390 px wide. The routes
 * and the connections are removed at the end: a later spec's campaigns must go through the
 * installation's gateway. The editor's own rules are in src/app/features/sms-routes/*.test.tsx.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { axeViolations, dismissToasts, screenshot, sessionHeaders, signInWithPassword } from './support';

const RUN = Date.now().toString(36);

async function api(page: Page, method: 'POST' | 'PUT' | 'DELETE', url: string, data?: unknown) {
  const response = await page.request.fetch(`/api/2.0${url}`, { method, headers: await sessionHeaders(page), data });
  expect(response.ok(), await response.text()).toBe(true);
  return response.status() === 204 ? null : response.json();
}

/** Types into a rule's combobox and picks the option by keyboard (arrow down to it, Enter). */
async function pick(page: Page, combobox: Locator, search: string, option: string) {
  await combobox.focus();
  await page.keyboard.type(search);
  const listbox = page.locator(`#${await combobox.getAttribute('aria-controls')}`);
  await expect(listbox.getByRole('option', { name: option, exact: true })).toBeVisible();
  // The first option matching the search is the one wanted (each search below names one).
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Escape');
}

test('an admin routes the United Kingdom to Twilio with Vonage as fallback, by keyboard', async ({ page }) => {
  test.setTimeout(90_000);
  await page.goto('/');
  await signInWithPassword(page);
  await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
  const twilio = (
    await api(page, 'POST', '/sms-connections/', {
      name: `Twilio ${RUN}`,
      provider: 'twilio',
      base_url: 'http://127.0.0.1:9',
      credentials: { account_sid: 'AC00000000000000000000000000000000', auth_token: 'e2e-token-000000' },
      senders: ['+447700900001', 'Herald'],
    })
  ).data.uuid as string;
  const vonage = (
    await api(page, 'POST', '/sms-connections/', {
      name: `Vonage ${RUN}`,
      provider: 'vonage',
      base_url: 'http://127.0.0.1:9',
      credentials: { api_key: 'e2e-key-000000', api_secret: 'e2e-secret-000000', signature_secret: 'e2e-signature-000000' },
      senders: ['Herald'],
    })
  ).data.uuid as string;
  try {
    await page.goto('/sending');
    await expect(page.getByRole('heading', { name: 'Sending', level: 1 })).toBeVisible();
    await expect(page.getByText(/No routes: every message goes through the team’s enabled connections/)).toBeVisible();
    await screenshot(page, 'sms-routes-empty');

    // Rule 1: the United Kingdom and Ireland, Twilio then Vonage.
    await page.getByRole('button', { name: 'Add a rule' }).focus();
    await page.keyboard.press('Enter');
    const first = page.getByRole('group', { name: 'Rule 1' });
    const countries = first.getByRole('combobox', { name: /Countries/ });
    await pick(page, countries, 'United King', 'United Kingdom (GB)');
    await pick(page, countries, 'Irela', 'Ireland (IE)');
    const connections = first.getByRole('combobox', { name: /Connections/ });
    await pick(page, connections, 'Twilio', `Twilio ${RUN} (twilio)`);
    await pick(page, connections, 'Vonage', `Vonage ${RUN} (vonage)`);
    await expect(first.getByText(`Tried in this order: 1. Twilio ${RUN}, 2. Vonage ${RUN}.`)).toBeVisible();

    // Rule 2: any other country, Vonage.
    await page.getByRole('button', { name: 'Add a rule' }).focus();
    await page.keyboard.press('Enter');
    const second = page.getByRole('group', { name: 'Rule 2' });
    await pick(page, second.getByRole('combobox', { name: /Countries/ }), 'Any', 'Any country');
    await pick(page, second.getByRole('combobox', { name: /Connections/ }), 'Vonage', `Vonage ${RUN} (vonage)`);
    await page.getByRole('button', { name: 'Save routes' }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('alert').filter({ hasText: 'The routes were saved.' })).toBeVisible();
    await dismissToasts(page);

    const saved = await (await page.request.get('/api/2.0/sms-routes', { headers: await sessionHeaders(page) })).json();
    expect(saved).toEqual({
      routes: [
        { countries: ['GB', 'IE'], connections: [twilio, vonage], sender: null },
        { countries: ['*'], connections: [vonage], sender: null },
      ],
    });
    await page.reload();
    await expect(page.getByRole('group', { name: 'Rule 1' }).getByText('United Kingdom (GB)')).toBeVisible();
    await expect(page.getByRole('group', { name: 'Rule 2' }).getByText('Any country', { exact: true })).toBeVisible();
    await page.setViewportSize({ width: 1440, height: 900 });
    await screenshot(page, 'sms-routes-1440');
    expect(await axeViolations(page, 'main')).toEqual([]);

    // A sender Twilio does not send from: the service's 422, on the rule's sender.
    await page
      .getByRole('group', { name: 'Rule 1' })
      .getByRole('textbox', { name: /Sender/ })
      .fill('Other');
    await page.getByRole('button', { name: 'Save routes' }).click();
    await expect(page.getByRole('group', { name: 'Rule 1' }).getByText(/sends from \+447700900001, Herald/)).toBeVisible();
    await page
      .getByRole('group', { name: 'Rule 1' })
      .getByRole('textbox', { name: /Sender/ })
      .fill('');

    // "Any country" first: the rule after it could never match.
    await page.getByRole('button', { name: 'Move rule 2 up' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Save routes' }).click();
    await expect(page.getByRole('group', { name: 'Rule 2' }).getByText(/This rule can never match/)).toBeVisible();
    expect(await axeViolations(page, 'main')).toEqual([]);
    await screenshot(page, 'sms-routes-refused');

    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await expect(page.getByRole('group', { name: 'Rule 1' })).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'sms-routes-390');
  } finally {
    await api(page, 'PUT', '/sms-routes', { routes: [] });
    await api(page, 'DELETE', `/sms-connections/${twilio}`);
    await api(page, 'DELETE', `/sms-connections/${vonage}`);
  }
});

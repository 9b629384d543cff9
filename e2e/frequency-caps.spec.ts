/**
 * Frequency caps in the dashboard (issue 36, point 3): an admin turns the team's cap on from the Team
 * page by keyboard (the switch, the two numbers, the save button), and the review of a draft says
 * what the cap will skip if it were sent now. axe finds nothing serious in the card or the review.
 * The cap is turned off again afterwards, so no other spec sees it. Screenshots at 1440 and 390 px.
 */
import { expect, test, type Page } from '@playwright/test';
import { axeViolations, campaignBody, dismissToasts, screenshot, sessionHeaders, signInWithPassword } from './support';

const RUN = Date.now().toString(36);

async function api(page: Page) {
  const headers = await sessionHeaders(page);
  const send = async (method: 'POST' | 'PUT', path: string, body: unknown) => {
    const response = await page.request.fetch(`/api/2.0${path}`, { method, headers, data: body });
    expect(response.ok(), `${method} ${path}: ${await response.text()}`).toBe(true);
    return ((await response.json()) as { data: { uuid: string } }).data;
  };
  const get = async <T>(path: string) => ((await (await page.request.get(`/api/2.0${path}`, { headers })).json()) as { data: T }).data;
  return { post: (path: string, body: unknown) => send('POST', path, body), put: (path: string, body: unknown) => send('PUT', path, body), get };
}

test('an admin sets the frequency cap on the Team page, and the review says what it will skip', async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/team');
  await signInWithPassword(page);
  await expect(page.getByRole('heading', { name: 'Team', level: 1 })).toBeVisible();

  const card = page.getByRole('form', { name: 'Frequency cap' });
  const toggle = card.getByRole('switch', { name: 'Limit marketing messages per number' });
  await toggle.focus();
  await page.keyboard.press('Space');
  await expect(toggle).toBeChecked();
  await page.keyboard.press('Tab');
  await expect(card.getByRole('textbox', { name: /At most/ })).toBeFocused();
  await page.keyboard.press('Control+A');
  await page.keyboard.type('3');
  await page.keyboard.press('Tab');
  await expect(card.getByRole('textbox', { name: /Within/ })).toBeFocused();
  await page.keyboard.press('Control+A');
  await page.keyboard.type('7');
  await card.getByRole('button', { name: 'Save frequency cap' }).focus();
  await page.keyboard.press('Enter');
  await expect(
    page.getByRole('alert').or(page.getByRole('status')).filter({ hasText: 'At most 3 marketing messages to a number in any 7 days' }).first(),
  ).toBeVisible();
  await dismissToasts(page);
  expect(await axeViolations(page, 'section[aria-labelledby="frequency-cap-title"]')).toEqual([]);
  await page.getByRole('heading', { name: 'Frequency cap' }).scrollIntoViewIfNeeded();
  await screenshot(page, 'team-frequency-cap-1440');
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, 'team-frequency-cap-390');
  // The card alone at the phone's width, to look at closely.
  await page.locator('section[aria-labelledby="frequency-cap-title"]').screenshot({ path: 'test-results/screenshots/team-frequency-cap-card-390.png' });
  await page.setViewportSize({ width: 1440, height: 900 });

  // A draft to a small list: its review gives the cap's line.
  const { post, put, get } = await api(page);
  const { app_timezone: zone } = await get<{ app_timezone: string }>('/users/me');
  const template = await post('/templates/', { name: `E2E capped ${RUN}`, sender: '88440', body: 'Winter sale: 20% off today.' });
  const group = await post('/contact-groups/bulk-contacts', { name: `E2E capped list ${RUN}`, contacts: ['+447700900861', '+447700900862'] });
  const draft = await post(
    '/campaigns/',
    campaignBody(`E2E capped ${RUN}`, { template: template.uuid, group: group.uuid }, Date.now() + 86_400_000, zone, { is_draft: true }),
  );
  await page.goto(`/campaigns/${draft.uuid}`);
  await expect(page.getByRole('heading', { name: `E2E capped ${RUN}`, level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Review and schedule' }).click();
  const review = page.getByRole('dialog', { name: 'Review and schedule' });
  const line = review.getByTestId('review-frequency-capped');
  await expect(line).toHaveText('The team’s frequency cap (3 marketing messages in 7 days) skips no recipient if it is sent now.');
  expect(await axeViolations(page, '[role="dialog"]')).toEqual([]);
  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await line.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `test-results/screenshots/review-frequency-cap-${width}.png` });
  }

  // Put back what this spec changed.
  await put('/team/settings', { frequency_cap: null });
});

import { expect, test, type Page } from '@playwright/test';
import { axeViolations, campaignBody, dismissToasts, screenshot, sessionHeaders, signInWithPassword } from './support';

/** As the signed-in session, to set up data through the API rather than the UI. */
async function api(page: Page) {
  const headers = await sessionHeaders(page);
  const post = async (path: string, body?: unknown) => {
    const response = await page.request.post(`/api/2.0${path}`, { headers, data: body ?? {} });
    expect(response.ok(), `${path}: ${await response.text()}`).toBe(true);
    return ((await response.json()) as { data: { uuid: string } }).data;
  };
  const get = async <T>(path: string) => ((await (await page.request.get(`/api/2.0${path}`, { headers })).json()) as { data: T }).data;
  return { post, get };
}

/** Each page at 1440 and 390 px wide, and axe on it. */
async function capture(page: Page, name: string) {
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await screenshot(page, `${name}-${width}`);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  expect(await axeViolations(page, 'main')).toEqual([]);
}

test('local time in the review, duplicate and the calendar, and a template from a starter', async ({ page }) => {
  await page.goto('/campaigns');
  await signInWithPassword(page);
  await expect(page.getByRole('heading', { name: 'Campaigns', level: 1 })).toBeVisible();
  const { post, get } = await api(page);
  const { app_timezone: zone } = await get<{ app_timezone: string }>('/users/me');
  const template = await post('/templates/', { name: 'E2E local', sender: '88440', body: 'Good morning {{first_name|there}}! Reply STOP to opt out.' });
  const group = await post('/contact-groups/bulk-contacts', { name: 'E2E world', contacts: ['+447700900021', '+12125550121', '+61291234521'] });
  const sendAt = Date.now() + 3 * 86_400_000;
  const campaign = await post(
    '/campaigns/',
    campaignBody('E2E local morning', { template: template.uuid, group: group.uuid }, sendAt, zone, { local_time: true, is_draft: true }),
  );

  // The campaign page: its actions, and the review's span per zone.
  await page.goto(`/campaigns/${campaign.uuid}`);
  await expect(page.getByRole('heading', { name: 'E2E local morning', level: 1 })).toBeVisible();
  await expect(page.getByRole('switch', { name: /Send at each recipient's local time/ })).toBeChecked();
  await capture(page, 'campaign-actions');
  await page.getByRole('button', { name: 'Duplicate' }).click();
  await expect(page.getByRole('heading', { name: 'E2E local morning (copy)', level: 1 })).toBeVisible();
  await dismissToasts(page);

  const review = await get<{ local_time: { zones: unknown[] } }>(`/campaigns/${campaign.uuid}/review`);
  expect(review.local_time.zones).toHaveLength(3);
  await page.goto(`/campaigns/${campaign.uuid}`);
  await page
    .getByRole('button', { name: /Review and schedule|Schedule/ })
    .first()
    .click();
  const span = page.getByRole('region', { name: 'Local time span' });
  await expect(span).toBeVisible();
  await expect(span.getByRole('row')).toHaveCount(4);
  await capture(page, 'review-local-time');
  await page.keyboard.press('Escape');

  // The calendar: the campaign on its day, previous and next by keyboard.
  await page.goto('/calendar');
  await expect(page.getByRole('heading', { name: 'Calendar', level: 1 })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Drafts' }).getByRole('link', { name: 'E2E local morning', exact: true })).toBeVisible();
  await capture(page, 'calendar-month');
  await page.getByRole('radio', { name: 'Month' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('heading', { name: /^Week of/ })).toBeVisible();
  await capture(page, 'calendar-week');
  await page.getByRole('button', { name: 'Next week' }).focus();
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: 'Today' }).focus();
  await page.keyboard.press('Enter');

  // A template from a starter.
  await page.goto('/templates/new');
  await page.getByRole('combobox', { name: 'Start from a starter' }).click();
  await page.getByRole('option', { name: /^Sale:/ }).click();
  await expect(page.getByRole('textbox', { name: 'Name' })).toHaveValue('Sale');
  await capture(page, 'template-starter');
});

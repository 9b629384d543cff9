/**
 * A/B tests (issue 35, point 2) in the browser against the real service: an A/B campaign sent a
 * moment from now shows its test on the campaign page (each variant's recipients, the probability of
 * being best, "Pick as winner" for the admin); the form offers the A/B test with its variants and
 * settings. Screenshots at 1440 and 390 px; axe finds nothing serious in either. The rules (split,
 * decision, pick) are tested in src/server/engine/ab-tests.test.ts, each seen red there.
 */
import { expect, test, type Page } from '@playwright/test';
import { axeViolations, campaignBody, screenshot, sessionHeaders, signInWithPassword } from './support';

const RUN = Date.now().toString(36);

async function api(page: Page) {
  const headers = await sessionHeaders(page);
  const post = async (path: string, body: unknown) => {
    const response = await page.request.post(`/api/2.0${path}`, { headers, data: body });
    expect(response.ok(), `${path}: ${await response.text()}`).toBe(true);
    return ((await response.json()) as { data: { uuid: string } }).data;
  };
  const get = async <T>(path: string) => ((await (await page.request.get(`/api/2.0${path}`, { headers })).json()) as { data: T }).data;
  return { post, get };
}

test('an A/B campaign shows its test on the campaign page, and the form offers one', async ({ page }) => {
  await page.goto('/campaigns');
  await signInWithPassword(page);
  await expect(page.getByRole('heading', { name: 'Campaigns', level: 1 })).toBeVisible();
  const { post, get } = await api(page);
  const { app_timezone: zone } = await get<{ app_timezone: string }>('/users/me');
  const a = await post('/templates/', { name: `E2E offer A ${RUN}`, sender: '88440', body: 'Summer sale: 20% off today.' });
  const b = await post('/templates/', { name: `E2E offer B ${RUN}`, sender: '88440', body: 'Summer sale ends tonight: 20% off.' });
  const contacts = Array.from({ length: 12 }, (_, i) => `+4477009002${String(i).padStart(2, '0')}`);
  const group = await post('/contact-groups/bulk-contacts', { name: `E2E A/B list ${RUN}`, contacts });
  const campaign = await post(
    '/campaigns/',
    campaignBody(`E2E A/B ${RUN}`, { template: a.uuid, group: group.uuid }, Date.now() + 2_000, zone, {
      variants: [
        { name: 'Today', template_uuid: a.uuid },
        { name: 'Tonight', template_uuid: b.uuid },
      ],
      ab_test: { test_share: 50, metric: 'human_click_rate', decide_after_minutes: 120, min_recipients_per_variant: 3 },
    }),
  );

  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`/campaigns/${campaign.uuid}`);
    const card = page.getByRole('region', { name: 'A/B test' });
    await expect(card.getByLabel('Variant Tonight')).toContainText('3 recipients', { timeout: 30_000 });
    await expect(card.getByLabel('Variant Today')).toContainText('Probability of being best');
    await expect(card.getByRole('button', { name: 'Pick Tonight as winner' })).toBeVisible();
    await expect(card).toContainText('of 120 minutes of sending time counted');
    await card.scrollIntoViewIfNeeded();
    await card.screenshot({ path: `test-results/screenshots/ab-test-card-${width}.png` });
    expect(await axeViolations(page, 'section[aria-labelledby="ab-test-title"]')).toEqual([]);
  }

  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/campaigns/new');
    await page.getByRole('switch', { name: /^A\/B test/ }).check();
    const editor = page.getByRole('group', { name: 'A/B test' });
    await expect(editor.getByRole('textbox', { name: /First variant/ })).toHaveValue('A');
    await editor.getByRole('button', { name: 'Add a variant' }).click();
    await expect(editor.getByRole('textbox', { name: 'Variant 3 name' })).toHaveValue('C');
    await editor.screenshot({ path: `test-results/screenshots/ab-test-form-${width}.png` });
    expect(await axeViolations(page, '[role="group"][aria-label="A/B test"]')).toEqual([]);
  }
  await screenshot(page, 'ab-test-form-page-390');
});

/**
 * Revenue per segment (issue 35, point 3) in the browser against the real service: a campaign to two
 * segments and a group goes out through the simulator, orders arrive through `POST /conversions`
 * (one in another currency), and the campaign page's Revenue card lists each segment's figures while
 * the segment's page has a Revenue card of the campaigns that sent to it. Screenshots at 1440 and
 * 390 px; axe finds nothing serious in either card. The figures themselves are counted by hand in
 * src/server/modules/segments/segment-revenue.test.ts.
 */
import { expect, test, type Page } from '@playwright/test';
import { axeViolations, campaignBody, screenshot, sessionHeaders, signInWithPassword } from './support';

const RUN = Date.now().toString(36);
const FIELD = `level_${RUN}`;
const number = (i: number) => `+4477009006${String(i).padStart(2, '0')}`;

async function api(page: Page) {
  const headers = await sessionHeaders(page);
  const call = async <T = { uuid: string }>(method: 'GET' | 'POST' | 'PUT', route: string, body?: unknown) => {
    const response = await page.request.fetch(`/api/2.0${route}`, { method, headers, data: body });
    expect(response.ok(), `${method} ${route}: ${await response.text()}`).toBe(true);
    return ((await response.json()) as { data: T }).data;
  };
  return call;
}

test('revenue per segment shows on the campaign page and on the segment page', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto('/campaigns');
  await signInWithPassword(page);
  await expect(page.getByRole('heading', { name: 'Campaigns', level: 1 })).toBeVisible();
  const call = await api(page);
  const { app_timezone: zone } = await call<{ app_timezone: string }>('GET', '/users/me');
  const { currency } = await call<{ currency: string }>('GET', '/team/settings');
  const other = currency === 'EUR' ? 'USD' : 'EUR';

  const levels = ['gold', 'gold', 'gold vip', 'vip', 'silver'];
  const members = await call('POST', '/contact-groups/bulk-contacts', { name: `E2E revenue members ${RUN}`, contacts: levels.map((_, i) => number(i)) });
  await call('PUT', `/contact-groups/${members.uuid}/add-contacts`, {
    contacts: levels.map((level, i) => ({ phone_number: number(i), custom_fields: { [FIELD]: level } })),
  });
  const extra = await call('POST', '/contact-groups/bulk-contacts', { name: `E2E revenue extra ${RUN}`, contacts: [number(9)] });
  const segment = (name: string, value: string) =>
    call('POST', '/segments/', { name, match: 'all', conditions: [{ type: 'field', field: FIELD, op: 'contains', value }] });
  const gold = await segment(`E2E Gold buyers ${RUN}`, 'gold');
  const vip = await segment(`E2E VIP ${RUN}`, 'vip');
  const template = await call('POST', '/templates/', { name: `E2E revenue ${RUN}`, sender: '88440', body: 'Our summer sale starts today.' });
  const campaign = await call(
    'POST',
    '/campaigns/',
    campaignBody(`E2E segment revenue ${RUN}`, { template: template.uuid, group: extra.uuid }, Date.now() + 2_000, zone, {
      included_segments: [gold.uuid, vip.uuid],
    }),
  );
  await expect.poll(async () => (await call<{ delivered: number }>('GET', `/campaigns/${campaign.uuid}/summary`)).delivered, { timeout: 60_000 }).toBe(5);
  const orders: Array<[number, number, string]> = [
    [0, 24.5, currency],
    [2, 60, currency],
    [3, 18, other],
    [9, 12, currency],
  ];
  for (const [i, value, code] of orders) await call('POST', '/conversions/', { phone_number: number(i), order_id: `E2E-${RUN}-${i}`, value, currency: code });

  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`/campaigns/${campaign.uuid}`);
    const card = page.getByRole('region', { name: 'Revenue' });
    const table = card.getByRole('table', { name: 'Revenue by segment' });
    await expect(table.getByRole('row').filter({ hasText: `E2E Gold buyers ${RUN}` })).toContainText('3');
    await expect(table.getByRole('row').filter({ hasText: `E2E VIP ${RUN}` })).toContainText('(1 order)');
    await card.scrollIntoViewIfNeeded();
    await card.screenshot({ path: `test-results/screenshots/campaign-revenue-segments-${width}.png` });
    expect(await axeViolations(page, 'section[aria-labelledby="campaign-revenue-title"]')).toEqual([]);
  }

  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`/segments/${gold.uuid}`);
    await expect(page.getByRole('heading', { name: `E2E Gold buyers ${RUN}`, level: 1 })).toBeVisible();
    const card = page.getByRole('region', { name: 'Revenue' });
    const row = card
      .getByRole('table', { name: 'Revenue by campaign' })
      .getByRole('row')
      .filter({ hasText: `E2E segment revenue ${RUN}` });
    await expect(row).toContainText('Started');
    await card.scrollIntoViewIfNeeded();
    await card.screenshot({ path: `test-results/screenshots/segment-revenue-${width}.png` });
    await screenshot(page, `segment-page-revenue-${width}`);
    expect(await axeViolations(page, 'section[aria-labelledby="segment-revenue-title"]')).toEqual([]);
  }
});

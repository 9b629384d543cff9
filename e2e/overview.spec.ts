/**
 * The Overview (issue 21, point 1): signing in lands on it; a small campaign sent through the
 * simulator moves its figures without a reload (the page reads itself again while a campaign is due,
 * sends, and while its receipts come in); the period changes from the chooser and from the
 * calendar, in the URL; and axe (WCAG 2.0/2.1 A and AA) finds nothing serious or critical.
 *
 * Other specs send too, and share the service: the figures are compared with what the API says for
 * the same days, before and after.
 *
 * Seen red: with the refresh interval fixed at a minute (the sent figure did not move in the
 * expect's 30 seconds).
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { formatTimestamp } from '../src/shared/time/local-timestamps';
import { campaignBody, screenshot, sessionHeaders, signInWithPassword } from './support';

const RECIPIENTS = 5;
const RUN = Date.now().toString(36);

interface Totals {
  sent: number;
  delivered: number;
}

/** As the signed-in session (its cookie), to set up data through the API rather than the UI. */
async function api(page: Page) {
  const headers = await sessionHeaders(page);
  const post = async (route: string, body: unknown) => {
    const response = await page.request.post(`/api/2.0${route}`, { headers, data: body });
    expect(response.ok(), `POST ${route}: ${await response.text()}`).toBe(true);
    return ((await response.json()) as { data: { uuid: string } }).data;
  };
  const get = async <T>(route: string) => {
    const response = await page.request.get(`/api/2.0${route}`, { headers });
    expect(response.ok(), `${route}: ${await response.text()}`).toBe(true);
    return ((await response.json()) as { data: T }).data;
  };
  return { post, get };
}

/** A figure's tile, found by its label (the <dt>). */
function figure(page: Page, label: string): Locator {
  return page.locator('dl > div').filter({ has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }) });
}

/** A count as the page writes it ("12,345"), read back as a number. */
const numberIn = (text: string | null) => Number((text ?? '').replace(/[^\d]/g, ''));

/** The "Messages sent" figure on screen. */
async function sentOnScreen(page: Page): Promise<number> {
  return numberIn(await figure(page, 'Messages sent').locator('dd').first().textContent());
}

/** The count under the "Delivered" rate ("1,234 delivered"). */
async function deliveredOnScreen(page: Page): Promise<number> {
  return numberIn(await figure(page, 'Delivered').locator('dd').nth(1).textContent());
}

async function sentFromApi(get: <T>(route: string) => Promise<T>, from: string, to: string): Promise<number> {
  return (await get<{ totals: Totals }>(`/overview?from=${from}&to=${to}`)).totals.sent;
}

async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).include('main').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

test('a marketer lands on the overview, watches a campaign move its figures, and changes the period', async ({ page }) => {
  await page.goto('/');
  await signInWithPassword(page);
  await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
  expect(new URL(page.url()).pathname).toBe('/');
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Overview' })).toHaveAttribute('aria-current', 'page');

  const { post, get } = await api(page);
  const { app_timezone: zone } = await get<{ app_timezone: string }>('/users/me');
  const today = formatTimestamp(new Date(), zone).slice(0, 10);
  const before = (await get<{ totals: Totals }>('/overview')).totals;
  expect(await sentOnScreen(page)).toBeGreaterThanOrEqual(before.sent);

  // A group of five and a campaign due in a few seconds: the simulator sends and delivers it.
  const numbers = Array.from({ length: RECIPIENTS }, (_, index) => `+44770090061${index}`);
  const group = await post('/contact-groups/bulk-contacts', { name: `E2E overview ${RUN}`, contacts: numbers });
  const template = await post('/templates/', { name: `E2E overview ${RUN}`, sender: '88440', body: 'The overview counts this one.' });
  const sendAt = Date.now() + 4_000;
  const campaign = await post('/campaigns/', campaignBody(`E2E overview ${RUN}`, { template: template.uuid, group: group.uuid }, sendAt, zone));

  // Opened again, the page knows a campaign is due, and follows it out without another reload.
  // (Other journeys may be sending too: the figures grow by at least this campaign.)
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
  await expect.poll(() => sentOnScreen(page), { timeout: 30_000 }).toBeGreaterThanOrEqual(before.sent + RECIPIENTS);
  await expect.poll(async () => (await get<Totals>(`/campaigns/${campaign.uuid}/summary`)).delivered, { timeout: 30_000 }).toBe(RECIPIENTS);
  await expect.poll(() => deliveredOnScreen(page), { timeout: 30_000 }).toBeGreaterThanOrEqual(before.delivered + RECIPIENTS);
  const chart = page.getByRole('region', { name: 'Sent and delivered per day' });
  await expect(chart.getByRole('img')).toHaveAccessibleName(/sent and .* delivered by day from .+ to .+; the most sent/);
  await screenshot(page, 'overview');

  // The last 7 days: in the URL, and what the service says for those days.
  await page.locator('label', { hasText: /^7 days$/ }).click();
  await expect(page).toHaveURL(/\/\?days=7$/);
  await expect(page.getByRole('heading', { name: /^Figures for/ })).toHaveText(/^Figures for .+ – .+$/);
  await expect.poll(async () => (await sentOnScreen(page)) === (await sentFromApi(get, addDays(today, -6), today))).toBe(true);

  // Today alone, picked on the calendar.
  await page.getByRole('button', { name: 'Days of the period' }).click();
  const todayButton = page.getByRole('button', { name: dayLabel(today), exact: true });
  await todayButton.click();
  await todayButton.click();
  await expect(page).toHaveURL(new RegExp(`\\?from=${today}&to=${today}$`));
  await expect(page.getByRole('radio', { name: '7 days' })).not.toBeChecked();
  expect(await sentFromApi(get, today, today)).toBeGreaterThanOrEqual(RECIPIENTS);
  await expect.poll(async () => (await sentOnScreen(page)) === (await sentFromApi(get, today, today))).toBe(true);

  // Back returns to the 7 days.
  await page.goBack();
  await expect(page).toHaveURL(/\/\?days=7$/);
  await expect(page.getByRole('radio', { name: '7 days' })).toBeChecked();

  expect(await seriousViolations(page)).toEqual([]);

  // On a phone: nothing wider than the screen, and still nothing for axe.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  expect(await seriousViolations(page)).toEqual([]);
  await screenshot(page, 'overview-phone');
});

function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** How the calendar names a day: "26 November 2026". */
function dayLabel(day: string): string {
  return new Date(`${day}T00:00:00Z`).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
}

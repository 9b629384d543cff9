import fs from 'node:fs/promises';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { simpleParser } from 'mailparser';
import { REPORT_COLUMNS } from '../src/shared/contract';
import { formatTimestamp } from '../src/shared/time/local-timestamps';
import { campaignBody, ADMIN, axeViolations, dismissToasts, screenshot, signInWithPassword, sessionHeaders } from './support';

const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const RECIPIENTS = 20;

function toast(page: Page, text: string) {
  return page.getByRole('alert').filter({ hasText: text });
}

/** As the signed-in session (its cookie), to set up data through the API rather than the UI. */
async function api(page: Page) {
  const headers = await sessionHeaders(page);
  const send = async <T = { uuid: string }>(method: 'POST' | 'PUT', route: string, body: unknown) => {
    const response = await page.request.fetch(`/api/2.0${route}`, { method, headers, data: body });
    expect(response.ok(), `${method} ${route}: ${await response.text()}`).toBe(true);
    return ((await response.json()) as { data: T }).data;
  };
  const post = <T = { uuid: string }>(route: string, body: unknown) => send<T>('POST', route, body);
  const put = <T = { uuid: string }>(route: string, body: unknown) => send<T>('PUT', route, body);
  const get = async <T>(route: string) => {
    const response = await page.request.get(`/api/2.0${route}`, { headers });
    expect(response.ok(), `${route}: ${await response.text()}`).toBe(true);
    return ((await response.json()) as { data: T }).data;
  };
  return { post, put, get };
}

/** One part of the page at full size (from the top, so the fixed header does not cover it). */
async function regionScreenshot(page: Page, region: Locator, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  const box = await region.boundingBox();
  expect(box).not.toBeNull();
  await page.screenshot({ path: `test-results/screenshots/${name}.png`, fullPage: true, clip: box! });
}

/** The newest e-mail the service wrote to DATA_DIR/outbox (no SMTP_URL in the Playwright server). */
async function newestMail() {
  const outbox = path.join(process.env.HERALD_E2E_DATA_DIR!, 'outbox');
  const names = (await fs.readdir(outbox)).filter((name) => name.endsWith('.eml')).sort();
  const newest = names.at(-1);
  expect(newest, 'an e-mail in the outbox').toBeDefined();
  return simpleParser(await fs.readFile(path.join(outbox, newest!)));
}

test('a marketer reads a sent campaign’s reports page by page, has one e-mailed, and downloads it from the link', async ({ page }) => {
  await page.goto('/campaigns');
  await signInWithPassword(page);
  await expect(page.getByRole('heading', { name: 'Campaigns', level: 1 })).toBeVisible();

  // A group of 20 with custom fields, a template with a tracked link, a campaign due in two seconds.
  const { post, put, get } = await api(page);
  const { app_timezone: zone } = await get<{ app_timezone: string }>('/users/me');
  const numbers = Array.from({ length: RECIPIENTS }, (_, index) => `+4477009002${String(index).padStart(2, '0')}`);
  const group = await post('/contact-groups/bulk-contacts', { name: 'E2E report readers', contacts: numbers });
  await put(`/contact-groups/${group.uuid}/add-contacts`, {
    contacts: numbers.map((phone_number, index) => ({ phone_number, custom_fields: { first_name: `Reader${index + 1}`, city: index % 2 ? 'Leeds' : 'York' } })),
  });
  const template = await post('/templates/', { name: 'E2E report template', sender: '88440', body: 'Hi {{first_name}}, the spring sale is on: ::SALE::' });
  const domains = await get<Array<{ uuid: string; is_default: boolean }>>('/vanity-domains/');
  await post('/links/', {
    vanity_domain_uuid: domains.find((domain) => domain.is_default)!.uuid,
    template_uuid: template.uuid,
    name: 'SALE',
    destination: 'https://shop.example.com/spring',
  });
  const sendAt = Date.now() + 2_000;
  const campaign = await post('/campaigns/', campaignBody('E2E spring report', { template: template.uuid, group: group.uuid }, sendAt, zone));

  // The simulator gateway delivers within seconds.
  await expect.poll(async () => (await get<{ delivered: number }>(`/campaigns/${campaign.uuid}/summary`)).delivered, { timeout: 30_000 }).toBe(RECIPIENTS);

  // Five recipients follow their short link from a phone.
  const copies = await get<Array<{ Message_Copy: string }>>(`/reporting/${campaign.uuid}/delivery?per_page=5`);
  for (const { Message_Copy: copy } of copies) {
    const link = /http:\/\/localhost:\d+\/l\/[0-9A-Za-z]+/.exec(copy)?.[0];
    expect(link, copy).toBeDefined();
    const response = await page.request.get(link!, { maxRedirects: 0, headers: { 'User-Agent': IPHONE } });
    expect(response.status()).toBe(302);
  }

  // The campaign page: charts, then the Delivery report, 15 rows a page.
  await page.goto(`/campaigns/${campaign.uuid}`);
  await expect(page.getByRole('heading', { name: 'E2E spring report', level: 1 })).toBeVisible();
  const reports = page.getByRole('region', { name: 'Reports' });
  await expect(reports.getByRole('heading', { name: 'Reports', level: 2 })).toBeVisible();
  await expect(reports.getByRole('list', { name: 'Delivery outcomes of 20 recipients' })).toContainText('Delivered20 (100%)');
  await expect(reports.getByRole('img', { name: /^5 clicks/ })).toBeVisible();
  await expect(reports.getByRole('tab', { name: 'Delivery', exact: true })).toHaveAttribute('aria-selected', 'true');
  const delivery = reports.getByRole('table', { name: 'Delivery report' });
  await expect(delivery.getByRole('row')).toHaveCount(16);
  await expect(reports.getByText('Rows 1–15 of 20')).toBeVisible();
  await expect(delivery.getByRole('row').nth(1)).toContainText('Success');
  await screenshot(page, 'reports-delivery');

  // Page 2 lives in the URL: a reload opens it again.
  await reports.getByRole('button', { name: 'Page 2' }).click();
  await expect(reports.getByText('Rows 16–20 of 20')).toBeVisible();
  await expect(delivery.getByRole('row')).toHaveCount(6);
  await expect(page).toHaveURL(/[?&]page=2/);
  await page.reload();
  await expect(page.getByRole('region', { name: 'Reports' }).getByText('Rows 16–20 of 20')).toBeVisible();

  // Delivery with fields: custom fields as name: value pairs; 50 a page puts every row on one page.
  await reports.getByRole('tab', { name: 'Delivery with fields' }).click();
  await expect(page).toHaveURL(/report=alt_delivery/);
  const altDelivery = reports.getByRole('table', { name: 'Delivery with fields report' });
  await expect(altDelivery.getByRole('row').nth(1)).toContainText('first_name: Reader1');
  await expect(altDelivery.getByRole('row').nth(1)).toContainText('city: York');
  await expect(reports.getByText('Rows 1–15 of 20')).toBeVisible();
  await reports.getByRole('combobox', { name: 'Rows per page' }).click();
  await page.getByRole('option', { name: '50' }).click();
  await expect(reports.getByText('Rows 1–20 of 20')).toBeVisible();
  await expect(altDelivery.getByRole('row')).toHaveCount(21);
  await expect(page).toHaveURL(/per_page=50/);
  await screenshot(page, 'reports-alt-delivery');

  // By keyboard: the arrow keys move along the tabs.
  await reports.getByRole('tab', { name: 'Delivery with fields' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(reports.getByRole('tab', { name: 'Recipients' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(reports.getByRole('table', { name: 'Recipients report' }).getByRole('row').nth(1)).toContainText('E2E report readers');

  await reports.getByRole('tab', { name: 'Not sent' }).click();
  await expect(reports.getByText('Nothing unsent.')).toBeVisible();
  await reports.getByRole('tab', { name: 'Clicks' }).click();
  // The headline counts people: five of the twenty delivered clicked.
  const figures = reports.getByRole('list', { name: 'Clicks in figures' });
  await expect(figures.getByRole('listitem', { name: 'Unique human clicks: 5' })).toBeVisible();
  await expect(figures.getByRole('listitem', { name: 'Click rate: 25%' })).toBeVisible();
  await expect(figures.getByRole('listitem', { name: 'Link previews: 0' })).toBeVisible();
  const clicks = reports.getByRole('table', { name: 'Clicks report' });
  await expect(clicks.getByRole('row')).toHaveCount(6);
  await expect(clicks.getByRole('row').nth(1)).toContainText('https://shop.example.com/spring');
  await expect(clicks.getByRole('row').nth(1)).toContainText('mobile');
  await screenshot(page, 'reports-clicks');
  await regionScreenshot(page, reports.getByRole('region', { name: 'Clicks over time' }), 'reports-clicks-chart');

  // E-mail the Delivery report: the toast names the address, the job shows up and reaches "Sent".
  await reports.getByRole('tab', { name: 'Delivery', exact: true }).click();
  // The tab follows the URL: the Clicks panel (and its button) stays until the navigation lands.
  await expect(reports.getByRole('table', { name: 'Delivery report' })).toBeVisible();
  await expect(reports.getByRole('table', { name: 'Clicks report' })).toHaveCount(0);
  await reports.getByRole('button', { name: 'E-mail me this report' }).click();
  await expect(toast(page, `The Delivery report is on its way to ${ADMIN.email}: a download link arrives shortly.`)).toBeVisible();
  await dismissToasts(page);
  const jobs = reports.getByRole('table', { name: 'Report e-mails' });
  const job = jobs.getByRole('row').filter({ hasText: 'E2E spring report' }).first();
  await expect(job).toContainText('Delivery');
  await expect(job.getByText('Sent', { exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(job.getByRole('cell', { name: '20', exact: true })).toBeVisible();
  const download = job.getByRole('link', { name: 'Download CSV of the Delivery report of E2E spring report' });
  const downloadUrl = await download.getAttribute('href');
  expect(downloadUrl).toMatch(/\/api\/2\.0\/report-downloads\//);
  await screenshot(page, 'reports-jobs');
  await regionScreenshot(page, reports, 'reports-section');

  // The e-mail carries the same link.
  const mail = await newestMail();
  expect(mail.to && !Array.isArray(mail.to) ? mail.to.text : '').toContain(ADMIN.email);
  expect(mail.subject).toContain('E2E spring report');
  expect(mail.text).toContain(`Download it here: ${downloadUrl}`);

  // Downloading it from the link gives the CSV, header row first.
  const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
  const csv = (await fs.readFile((await file.path())!, 'utf8')).replace(/^\uFEFF/, '');
  const [header, ...rows] = csv.trim().split(/\r?\n/);
  expect(header).toBe(REPORT_COLUMNS.delivery.join(','));
  expect(rows).toHaveLength(RECIPIENTS);
});

test('a campaign that has not started says why its reports are empty', async ({ page }) => {
  await page.goto('/campaigns');
  await signInWithPassword(page);
  await expect(page.getByRole('heading', { name: 'Campaigns', level: 1 })).toBeVisible();
  const { post } = await api(page);
  const template = await post('/templates/', { name: 'E2E later', sender: '88440', body: 'See you in July.' });
  const group = await post('/contact-groups/bulk-contacts', { name: 'E2E later list', contacts: ['+447700900301'] });
  const later = await post('/campaigns/', {
    name: 'E2E summer later',
    sender: '88440',
    template_uuid: template.uuid,
    scheduled_send_date: '2030-07-01 09:00:00',
    expiry_date: '2030-07-02 09:00:00',
    included_contact_groups: [group.uuid],
    excluded_contact_groups: [],
  });

  await page.goto(`/campaigns/${later.uuid}?report=sent`);
  const reports = page.getByRole('region', { name: 'Reports' });
  await expect(reports.getByRole('tab', { name: 'Send details' })).toHaveAttribute('aria-selected', 'true');
  await expect(reports.getByText('No rows yet: the campaign has not started sending.')).toBeVisible();
  await expect(reports.getByText(/No clicks yet/)).toBeVisible();
  await expect(reports.getByRole('list', { name: 'Delivery outcomes of 1 recipient' })).toContainText('Pending1 (100%)');
  await screenshot(page, 'reports-pending');
});

test('a marketer filters a campaign’s failures, reads why each failed, and compares it with another campaign', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto('/reports');
  await signInWithPassword(page);
  await expect(page.getByRole('heading', { name: 'Reports', level: 1 })).toBeVisible();

  // Twelve recipients, throttled over a minute: a few go out, then the campaign is stopped and the
  // rest are never sent (Failed in the delivery report, with the reason "stopped").
  const { post, put, get } = await api(page);
  const { app_timezone: zone } = await get<{ app_timezone: string }>('/users/me');
  const numbers = Array.from({ length: 12 }, (_, index) => `+4477009003${String(index).padStart(2, '0')}`);
  const group = await post('/contact-groups/bulk-contacts', { name: 'E2E failures list', contacts: numbers });
  const template = await post('/templates/', { name: 'E2E failures template', sender: '88440', body: 'Autumn prices are in.' });
  const sendAt = Date.now() + 2_000;
  const campaign = await post(
    '/campaigns/',
    campaignBody('E2E autumn stopped', { template: template.uuid, group: group.uuid }, sendAt, zone, {
      scheduled_finish_date: formatTimestamp(new Date(sendAt + 60_000), zone),
      throttled: true,
    }),
  );
  await expect.poll(async () => (await get<{ delivered: number }>(`/campaigns/${campaign.uuid}/summary`)).delivered, { timeout: 30_000 }).toBeGreaterThan(0);
  await put(`/campaigns/${campaign.uuid}/stop`, {});
  await expect
    .poll(
      async () => {
        const summary = await get<{ queued: number; submitted: number; unsent: number }>(`/campaigns/${campaign.uuid}/summary`);
        return summary.queued + summary.submitted === 0 && summary.unsent > 0;
      },
      { timeout: 30_000 },
    )
    .toBe(true);
  const failures = (await get<{ failed: number }>(`/reporting/${campaign.uuid}/summary`)).failed;
  expect(failures).toBeGreaterThan(0);

  // The delivery report, failures only: the number leads, the reason says why, and the URL keeps the filter.
  await page.goto(`/campaigns/${campaign.uuid}?report=delivery`);
  const reports = page.getByRole('region', { name: 'Reports' });
  const delivery = reports.getByRole('table', { name: 'Delivery report' });
  await expect(delivery.getByRole('columnheader')).toHaveText(['Recipient', 'Status', 'Sent at', 'Delivered at', 'Failure reason', 'Message', 'Message ID']);
  await reports.getByRole('combobox', { name: 'Status' }).click();
  await page.getByRole('option', { name: 'Failed' }).click();
  await expect(page).toHaveURL(/status=Failed/);
  await expect(reports.getByText(new RegExp(`^Rows 1–${Math.min(failures, 15)} of ${failures}$`))).toBeVisible();
  const firstFailure = delivery.getByRole('row').nth(1);
  await expect(firstFailure).toContainText('Failed');
  await expect(firstFailure).toContainText('Campaign stopped (stopped)');
  await expect(firstFailure.getByRole('cell').first()).toHaveText(/^4477009003\d\d$/);

  // One number among them, as people type it; a reload opens the same rows.
  const failedNumber = (await firstFailure.getByRole('cell').first().textContent())!;
  await reports.getByRole('textbox', { name: 'Number' }).fill(`+${failedNumber.slice(0, 2)} ${failedNumber.slice(2)}`);
  await expect(page).toHaveURL(new RegExp(`search=${failedNumber}`));
  await expect(reports.getByText('Rows 1–1 of 1')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('region', { name: 'Reports' }).getByRole('table', { name: 'Delivery report' }).getByRole('row')).toHaveCount(2);
  await expect(page.getByRole('region', { name: 'Reports' }).getByRole('textbox', { name: 'Number' })).toHaveValue(failedNumber);
  expect(await axeViolations(page, 'main')).toEqual([]);
  await screenshot(page, 'reports-failures-filtered');

  // The same number in the Not sent report, then every reason there.
  await reports.getByRole('tab', { name: 'Not sent' }).click();
  await expect(reports.getByRole('table', { name: 'Not sent report' }).getByRole('row')).toHaveCount(2);
  await reports.getByRole('button', { name: 'Clear filters' }).click();
  await expect(page).not.toHaveURL(/search=/);

  // The Reports page: both campaigns side by side, then compared.
  await page.goto('/reports');
  const figures = page.getByRole('table', { name: 'Campaign figures' });
  await expect(figures.getByRole('row').filter({ hasText: 'E2E autumn stopped' })).toBeVisible();
  await expect(figures.getByRole('row').filter({ hasText: 'E2E spring report' })).toContainText('25%');
  // The ticks live in the URL: each shows once the navigation it makes has landed.
  for (const name of ['E2E spring report', 'E2E autumn stopped']) {
    await figures.getByRole('checkbox', { name: `Compare ${name}` }).click();
    await expect(figures.getByRole('checkbox', { name: `Compare ${name}` })).toBeChecked();
  }
  await expect(page).toHaveURL(/compare=/);
  const comparison = page.getByRole('table', { name: 'Comparison of two campaigns' });
  await expect(comparison.getByRole('columnheader')).toContainText(['Figure', 'E2E spring report', 'E2E autumn stopped', 'Change']);
  await expect(comparison.getByRole('row').filter({ hasText: 'Click rate' })).toContainText('25%');
  await expect(comparison.getByRole('row').filter({ hasText: /^Failed/ })).toContainText(String(failures));
  expect(await axeViolations(page, 'main')).toEqual([]);
  await screenshot(page, 'reports-compare');
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, 'reports-compare-phone');
});

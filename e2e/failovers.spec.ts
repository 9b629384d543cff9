import { expect, test, type Page } from '@playwright/test';
import { axeViolations, campaignBody, screenshot, sessionHeaders, signInWithPassword } from './support';

// Issue 34, point 5: a team sending through its own SMS connections sees, for each message, the
// connection that carried it and the provider's error (a campaign's delivery report, the contact
// page), and on the Overview how many messages failed over. The team's first connection is a Twilio
// account whose API cannot be reached (connection refused: a transient error), so every message
// fails over to the second, the simulator, which delivers it. Both connections are deleted at the
// end, so the journeys that follow send through SMS_GATEWAY as before.

const RECIPIENTS = 6;

async function api(page: Page) {
  const headers = await sessionHeaders(page);
  const call = async <T = { uuid: string }>(method: 'GET' | 'POST' | 'DELETE', route: string, body?: unknown) => {
    const response = await page.request.fetch(`/api/2.0${route}`, { method, headers, data: body });
    expect(response.ok(), `${method} ${route}: ${await response.text()}`).toBe(true);
    return response.status() === 204 ? (undefined as T) : ((await response.json()) as { data: T }).data;
  };
  return {
    get: <T>(route: string) => call<T>('GET', route),
    post: <T = { uuid: string }>(route: string, body: unknown) => call<T>('POST', route, body),
    del: (route: string) => call('DELETE', route),
  };
}

/** How far the page reaches past the screen's width (a table wider than a phone scrolls inside its own box). */
const pageOverflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

test('messages sent through the team’s connections name their connection, and the Overview counts the failovers', async ({ page }) => {
  await page.goto('/campaigns');
  await signInWithPassword(page);
  await expect(page.getByRole('heading', { name: 'Campaigns', level: 1 })).toBeVisible();
  const { get, post, del } = await api(page);
  const { app_timezone: zone } = await get<{ app_timezone: string }>('/users/me');

  const twilio = await post('/sms-connections/', {
    name: 'Twilio UK',
    provider: 'twilio',
    base_url: 'http://127.0.0.1:9',
    credentials: { account_sid: 'AC0123456789abcdef0123456789abcdef', auth_token: 'twilio-auth-token-0123456789' },
    senders: ['+447700900001'],
    max_per_second: 50,
  });
  const simulator = await post('/sms-connections/', {
    name: 'Fallback simulator',
    provider: 'simulator',
    credentials: {},
    senders: ['88440'],
    max_per_second: 50,
  });
  try {
    const numbers = Array.from({ length: RECIPIENTS }, (_, index) => `+4477009008${String(index).padStart(2, '0')}`);
    const group = await post('/contact-groups/bulk-contacts', { name: 'E2E routed recipients', contacts: numbers });
    const template = await post('/templates/', { name: 'E2E routed template', sender: '88440', body: 'Hello from our own SMS account' });
    const campaign = await post('/campaigns/', campaignBody('E2E routed campaign', { template: template.uuid, group: group.uuid }, Date.now() + 2_000, zone));
    await expect.poll(async () => (await get<{ delivered: number }>(`/campaigns/${campaign.uuid}/summary`)).delivered, { timeout: 40_000 }).toBe(RECIPIENTS);

    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: width > 800 ? 900 : 844 });

      await page.goto(`/campaigns/${campaign.uuid}?report=delivery`);
      const report = page.getByRole('table', { name: 'Delivery report' });
      await expect(report.getByRole('columnheader', { name: 'Connection' })).toBeVisible();
      await expect(report.getByRole('columnheader', { name: 'Provider error' })).toBeAttached();
      await expect(report.getByText('Fallback simulator').first()).toBeAttached();
      expect(await pageOverflow(page), 'the page is no wider than the screen').toBe(0);
      await screenshot(page, `failovers-report-${width}`);
      expect(await axeViolations(page, 'main')).toEqual([]);

      await page.goto(`/contacts/${numbers[0]!.slice(1)}`);
      const history = page.getByRole('table', { name: 'Messages received' });
      await expect(history.getByRole('columnheader', { name: 'Connection' })).toBeAttached();
      await expect(history.getByText('Fallback simulator')).toBeAttached();
      expect(await pageOverflow(page), 'the page is no wider than the screen').toBe(0);
      await screenshot(page, `failovers-contact-${width}`);
      expect(await axeViolations(page, 'main')).toEqual([]);

      await page.goto('/');
      await expect(page.getByText(/\d+ failed over to another connection/)).toBeVisible();
      await screenshot(page, `failovers-overview-${width}`);
      expect(await axeViolations(page, 'main')).toEqual([]);
    }
  } finally {
    await del(`/sms-connections/${twilio.uuid}`);
    await del(`/sms-connections/${simulator.uuid}`);
  }
});

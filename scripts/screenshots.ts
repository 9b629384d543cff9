/**
 * `npm run screenshots`: every page of the dashboard at 1440 and 390 px wide, in the light and the
 * dark scheme, into docs/screenshots/ (`<page>-<width>-<scheme>.png`, the visible window). It starts
 * its own Herald on a fresh data folder (embedded database, simulated SMS gateway), signs in, fills
 * it through the API with what a small team would have after a week (templates, a group with
 * contacts, campaigns sent, due and drafted, a segment, a keyword, a welcome flow with runs, inbound messages and an opt-out, an event
 * endpoint that a small receiver of the script's own answers, two SMS connections), then visits each page. Needs the built
 * dashboard (`npm run build`; the npm script builds it when missing).
 *
 * `npm run screenshots -- event-endpoint webhooks`: only the pages whose names start so.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { formatTimestamp } from '../src/shared/time/local-timestamps';
import { CHROME_FLAGS, CHROMIUM } from './chromium';

const PORT = 8479;
const ORIGIN = `http://localhost:${PORT}`;
const ADMIN = { email: 'admin@herald.test', password: 'correct-horse-battery' };
const OUT = path.resolve('docs/screenshots');
const WIDTHS = [1440, 390] as const;
const SCHEMES = ['light', 'dark'] as const;

async function startHerald(dataDir: string): Promise<ChildProcess> {
  const server = spawn(process.execPath, ['--max-semi-space-size=64', '--import', 'tsx', 'src/server/main.ts'], {
    env: {
      ...process.env,
      PORT: String(PORT),
      PUBLIC_URL: ORIGIN,
      DATA_DIR: dataDir,
      HERALD_ADMIN_EMAIL: ADMIN.email,
      HERALD_ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'warn',
      // The event endpoint's receiver is this script's, on 127.0.0.1.
      WEBHOOK_ALLOW_PRIVATE: 'true',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let attempt = 0; attempt < 240; attempt++) {
    if (server.exitCode !== null) throw new Error(`Herald stopped (exit ${server.exitCode}) before it answered.`);
    const ready = await fetch(`${ORIGIN}/healthz`)
      .then((response) => response.ok)
      .catch(() => false);
    if (ready) return server;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error('Herald did not answer /healthz within two minutes.');
}

/** The API as the signed-in dashboard (its session cookie, the CSRF secret echoed). */
async function apiOf(page: Page) {
  const csrf = (await page.context().cookies()).find((cookie) => cookie.name === 'herald_csrf')?.value ?? '';
  const headers = { Accept: 'application/json', 'X-CSRF-Token': csrf };
  const call = async <T>(method: 'GET' | 'POST' | 'PUT', route: string, body?: unknown): Promise<T> => {
    const response = await page.request.fetch(`${ORIGIN}/api/2.0${route}`, { method, headers, data: body });
    if (!response.ok()) throw new Error(`${method} ${route}: ${response.status()} ${await response.text()}`);
    return ((await response.json()) as { data: T }).data;
  };
  return {
    get: <T>(route: string) => call<T>('GET', route),
    post: <T = { uuid: string }>(route: string, body: unknown) => call<T>('POST', route, body),
    put: <T = { uuid: string }>(route: string, body: unknown) => call<T>('PUT', route, body),
  };
}

const FIRST_NAMES = ['Ada', 'Bo', 'Cleo', 'Dev', 'Esme', 'Finn', 'Gita', 'Hugo', 'Iris', 'Jon', 'Kai', 'Lena', 'Milo', 'Nia', 'Otto'];
const CITIES = ['Leeds', 'York', 'Hull', 'Bath', 'Ely'];

/** A receiver for the event endpoint: it answers 204 to every call. */
async function startReceiver(): Promise<http.Server> {
  const receiver = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(204).end());
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  return receiver;
}

/** What a small team has after a week; the uuids the detail pages need. */
async function seed(page: Page, receiverUrl: string) {
  const api = await apiOf(page);
  // First, so the campaign's deliveries and the inbound messages below are sent to it.
  const endpoint = await api.post('/event-endpoints/', {
    url: receiverUrl,
    description: 'CRM: deliveries, opt-outs and replies',
    events: ['message.delivered', 'message.failed', 'campaign.started', 'campaign.finished', 'contact.opted_out', 'inbound.received'],
    headers: { Authorization: 'Bearer crm-token' },
  });
  const { app_timezone: zone } = await api.get<{ app_timezone: string }>('/users/me');
  const at = (offsetMs: number) => formatTimestamp(new Date(Date.now() + offsetMs), zone);
  const numbers = Array.from({ length: 45 }, (_, index) => `+4477009003${String(index).padStart(2, '0')}`);
  const group = await api.post('/contact-groups/', { name: 'Newsletter subscribers', description: 'Signed up in the shop or on the website' });
  await api.put(`/contact-groups/${group.uuid}/add-contacts`, {
    contacts: numbers.map((phone_number, index) => ({
      phone_number,
      custom_fields: { first_name: FIRST_NAMES[index % FIRST_NAMES.length], city: CITIES[index % CITIES.length] },
    })),
  });
  const vip = await api.post('/contact-groups/', { name: 'VIP customers' });
  await api.put(`/contact-groups/${vip.uuid}/add-contacts`, { contacts: numbers.slice(0, 8).map((phone_number) => ({ phone_number })) });
  await api.post('/senders/', { sender: 'AcmeShop' });
  const template = await api.post('/templates/', {
    name: 'Autumn sale',
    sender: 'AcmeShop',
    body: 'Hi {{first_name}}, our autumn sale starts today: 20% off everything in {{city}}. ::SALE::',
  });
  await api.post('/templates/', { name: 'Opening hours', sender: 'AcmeShop', body: 'We are open until 8pm every day this week.' });
  const domains = await api.get<Array<{ uuid: string; is_default: boolean }>>('/vanity-domains/');
  await api.post('/links/', {
    vanity_domain_uuid: domains.find((domain) => domain.is_default)!.uuid,
    template_uuid: template.uuid,
    name: 'SALE',
    destination: 'https://shop.example.com/autumn',
  });
  const campaign = (name: string, sendInMs: number, extra: Record<string, unknown> = {}) =>
    api.post('/campaigns/', {
      name,
      sender: 'AcmeShop',
      template_uuid: template.uuid,
      scheduled_send_date: at(sendInMs),
      expiry_date: at(sendInMs + 86_400_000),
      included_contact_groups: [group.uuid],
      excluded_contact_groups: [],
      ...extra,
    });
  const sent = await campaign('Autumn sale', 1_000);
  await campaign('Winter preview', 3 * 86_400_000);
  await campaign('Spring teaser (draft)', 30 * 86_400_000, { is_draft: true });
  await api.post('/keywords/', { keyword: 'SALE', message: 'Thanks! The sale runs until Sunday.' });
  for (const [from, body] of [
    [numbers[3], 'STOP'],
    [numbers[7], 'SALE'],
    [numbers[9], 'What time do you open on Sunday?'],
  ] as const)
    await api.post('/inbound-messages/', { from, body });
  // The simulator delivers within seconds.
  for (let attempt = 0; attempt < 60; attempt++) {
    const summary = await api.get<{ delivered: number; recipients: number }>(`/campaigns/${sent.uuid}/summary`);
    if (summary.recipients > 0 && summary.delivered >= summary.recipients - 2) break;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  // A welcome flow on a keyword: a message, a day's wait, then a reminder to those who did not click.
  // Five numbers start it (as the dashboard's test does) before quiet hours are set, so its first
  // message is sent and the editor shows counts.
  const join = await api.post('/keywords/', { keyword: 'JOIN', message: 'Welcome to Acme! Your first message follows.' });
  const welcome = await api.post('/templates/', {
    name: 'Welcome',
    sender: 'AcmeShop',
    body: 'Welcome {{first_name}}! Here is 10% off your first order: ::SALE::',
  });
  const flow = await api.post('/flows/', {
    name: 'Welcome series',
    enabled: true,
    trigger: { type: 'keyword', keyword_uuid: join.uuid },
    steps: [
      { type: 'send', template_uuid: welcome.uuid },
      { type: 'wait', minutes: 1440 },
      {
        type: 'branch',
        condition: { type: 'last_message', event: 'clicked' },
        then: [{ type: 'add_to_group', group_uuid: vip.uuid }],
        else: [
          { type: 'send', template_uuid: template.uuid },
          { type: 'wait', until_time: '10:00' },
        ],
      },
      { type: 'end' },
    ],
  });
  for (const number of [numbers[0], numbers[1], numbers[2], numbers[4], numbers[5]]) await api.post(`/flows/${flow.uuid}/runs`, { phone_number: number });
  for (let attempt = 0; attempt < 30; attempt++) {
    const shown = await api.get<{ steps: Array<{ stats: { sent: number } }> }>(`/flows/${flow.uuid}`);
    if (shown.steps[0]!.stats.sent >= 5) break;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  // Quiet hours (21:00–08:00 in each recipient's zone) and a campaign to five zones: at any hour some are at night, held.
  await api.put('/team/settings', { quiet_hours: { start: '21:00', end: '08:00' } });
  const travellers = await api.post('/contact-groups/', { name: 'Customers abroad' });
  await api.put(`/contact-groups/${travellers.uuid}/add-contacts`, {
    contacts: ['+61291234567', '+61298765432', '+81312345678', '+12125550143', '+13105550143', '+33612345678'].map((phone_number, index) => ({
      phone_number,
      custom_fields: { first_name: FIRST_NAMES[index % FIRST_NAMES.length], city: CITIES[index % CITIES.length] },
    })),
  });
  const abroad = await campaign('Worldwide launch', 1_000, { included_contact_groups: [travellers.uuid] });
  // A throttled campaign inside a planned pause.
  const paused = await campaign('Weekend drip', 1_000, {
    throttled: true,
    scheduled_finish_date: at(6 * 3_600_000),
    pauses: [{ start_at: at(4_000), end_at: at(3 * 3_600_000) }],
  });
  for (let attempt = 0; attempt < 30; attempt++) {
    const abroadNow = await api.get<{ held_for_quiet_hours: number }>(`/campaigns/${abroad.uuid}/summary`);
    const pausedNow = await api.get<{ paused_until: string }>(`/campaigns/${paused.uuid}`);
    if (abroadNow.held_for_quiet_hours > 0 && pausedNow.paused_until !== '') break;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  // A campaign scheduled under the approval threshold whose group then grew: the engine holds it at its start.
  const withFields = (slice: string[]) =>
    slice.map((phone_number, index) => ({
      phone_number,
      custom_fields: { first_name: FIRST_NAMES[index % FIRST_NAMES.length], city: CITIES[index % CITIES.length] },
    }));
  const popUp = await api.post('/contact-groups/', { name: 'Pop-up shop visitors' });
  await api.put(`/contact-groups/${popUp.uuid}/add-contacts`, { contacts: withFields(numbers.slice(13, 14)) });
  const held = await campaign('Pop-up shop invitation', 4_000, { included_contact_groups: [popUp.uuid] });
  await api.put('/team/settings', { approval_threshold: 5, test_numbers: ['+447700900399', '+447700900398'] });
  await api.put(`/contact-groups/${popUp.uuid}/add-contacts`, { contacts: withFields(numbers.slice(14, 45)) });
  for (let attempt = 0; attempt < 30; attempt++) {
    const shown = await api.get<{ approval: { status: string } }>(`/campaigns/${held.uuid}`);
    if (shown.approval.status === 'pending') break;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  // The team's provider accounts (never called here: no campaign of the seed goes through them).
  const twilio = await api.post('/sms-connections/', {
    name: 'Twilio UK',
    provider: 'twilio',
    credentials: { account_sid: 'AC5f0c3b7e2a9d4f61b8e07c2d3a41f9e2', auth_token: 'c7e2a9d4f61b8e07c2d3a41f9e25f0c3' },
    senders: ['+447700900001', 'AcmeShop'],
    max_per_second: 30,
  });
  await api.post('/sms-connections/', {
    name: 'Vonage fallback',
    provider: 'vonage',
    credentials: { api_key: '3a41f9e2', api_secret: 'b8e07c2d3a41f9e2', signature_secret: 'f61b8e07c2d3a41f9e25f0c3b7e2a9d4' },
    senders: ['AcmeShop'],
  });
  const test = await api.post(`/event-endpoints/${endpoint.uuid}/test`, {});
  // The worker sends the events within a second or two.
  for (let attempt = 0; attempt < 30; attempt++) {
    const pending = await api.get<unknown[]>(`/event-endpoints/${endpoint.uuid}/deliveries?status=pending`);
    if (pending.length === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  // A segment of the newsletter's readers in two cities who received the sent campaign lately.
  const segment = await api.post('/segments/', {
    name: 'Leeds and York readers',
    description: 'Newsletter subscribers in two cities who received the autumn sale',
    match: 'all',
    conditions: [
      { type: 'group', op: 'in', group_uuid: group.uuid },
      {
        type: 'group_of_conditions',
        match: 'any',
        conditions: [
          { type: 'field', field: 'city', op: 'equals', value: 'Leeds' },
          { type: 'field', field: 'city', op: 'equals', value: 'York' },
        ],
      },
      { type: 'event', event: 'received', campaign_uuid: sent.uuid, within_days: 30 },
    ],
  });
  // A connected shop, and three orders from the sale's recipients (credited to it by its deliveries).
  await api.post('/shop-connections/', { name: 'Acme Shopify store', platform: 'shopify', secret: 'shpss_screenshots_0123456789abcdef' });
  const { currency } = await api.get<{ currency: string }>('/team/settings');
  for (const [index, value] of [42.5, 19.99, 120].entries())
    await api.post('/conversions', { phone_number: numbers[index + 10], order_id: `SHOT-${index + 1}`, value, currency });
  return {
    group: group.uuid,
    segment: segment.uuid,
    template: template.uuid,
    campaign: sent.uuid,
    heldCampaign: held.uuid,
    quietCampaign: abroad.uuid,
    pausedCampaign: paused.uuid,
    number: numbers[0]!.slice(1),
    eventEndpoint: endpoint.uuid,
    eventDelivery: test.uuid,
    smsConnection: twilio.uuid,
    flow: flow.uuid,
  };
}

/** The pages named on the command line (by the start of their names), or all. */
const only = process.argv.slice(2);
const chosen = (name: string) => only.length === 0 || only.some((prefix) => name.startsWith(prefix));

async function main(): Promise<void> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'herald-screenshots-'));
  await fs.chmod(dataDir, 0o755); // the embedded database runs as its own user when started by root
  let server: ChildProcess | undefined;
  let browser: Browser | undefined;
  const receiver = await startReceiver();
  try {
    server = await startHerald(dataDir);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROME_FLAGS });
    // The dashboard writes figures and times in the browser's language: a British team's, as the seed is.
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'en-GB' });
    const page = await context.newPage();
    await page.goto(`${ORIGIN}/`);
    await page.getByRole('textbox', { name: 'E-mail' }).fill(ADMIN.email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/sign-in'));
    const ids = await seed(page, `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/herald-events`);

    const allPages: Array<[string, string]> = [
      ['overview', '/'],
      ['campaigns', '/campaigns'],
      ['campaign', `/campaigns/${ids.campaign}`],
      ['campaign-delivery-report', `/campaigns/${ids.campaign}?report=delivery`],
      ['campaign-click-report', `/campaigns/${ids.campaign}?report=clicks`],
      ['campaign-new', '/campaigns/new'],
      ['campaign-held', `/campaigns/${ids.heldCampaign}`],
      ['campaign-quiet-hours', `/campaigns/${ids.quietCampaign}`],
      ['campaign-paused', `/campaigns/${ids.pausedCampaign}`],
      ['calendar', '/calendar'],
      ['templates', '/templates'],
      ['template-edit', `/templates/${ids.template}`],
      ['contact-groups', '/contact-groups'],
      ['contact-group', `/contact-groups/${ids.group}`],
      ['segments', '/segments'],
      ['segment-new', '/segments/new'],
      ['segment', `/segments/${ids.segment}`],
      ['contacts', '/contacts'],
      ['contact', `/contacts/${ids.number}`],
      ['contact-flows', `/contacts/${ids.number}`],
      ['flows', '/flows'],
      ['flow-new', '/flows/new'],
      ['flow', `/flows/${ids.flow}`],
      ['flow-steps', `/flows/${ids.flow}`],
      ['flow-branch', `/flows/${ids.flow}`],
      ['flow-runs', `/flows/${ids.flow}`],
      ['senders', '/senders'],
      ['sender-new', '/senders/new'],
      ['sending', '/sending'],
      ['sending-connection', `/sending/connections/${ids.smsConnection}`],
      ['keywords', '/keywords'],
      ['keyword-new', '/keywords/new'],
      ['webhooks', '/webhooks'],
      ['event-endpoints', '/event-endpoints'],
      ['event-endpoint', `/event-endpoints/${ids.eventEndpoint}`],
      ['event-delivery', `/event-endpoints/${ids.eventEndpoint}?delivery=${ids.eventDelivery}`],
      ['inbound-messages', '/inbound-messages'],
      ['reports', '/reports'],
      ['vanity-domains', '/vanity-domains'],
      ['signup-page', '/signup-page'],
      ['team', '/team'],
      ['team-test-numbers', '/team'],
      ['team-phone-numbers', '/team'],
      ['team-frequency-cap', '/team'],
      ['team-attribution', '/team'],
      ['team-integrations', '/team'],
      ['api-tokens', '/api-tokens'],
      ['audit', '/audit'],
      ['profile', '/profile'],
    ];
    const pages = allPages.filter(([name]) => chosen(name));
    await fs.mkdir(OUT, { recursive: true });
    for (const scheme of SCHEMES) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: width > 600 ? 900 : 844 });
        for (const [name, route] of pages) {
          await page.goto(`${ORIGIN}${route}`);
          await page.waitForLoadState('networkidle');
          // Loaders gone, fonts and charts drawn.
          await page
            .locator('.mantine-Loader-root')
            .first()
            .waitFor({ state: 'detached', timeout: 10_000 })
            .catch(() => undefined);
          // A report's page opens on the campaign: scroll to the report itself (below the fixed header).
          if (name.endsWith('-report'))
            await page
              .getByRole('tablist')
              .first()
              .evaluate((tabs) => {
                tabs.scrollIntoView({ block: 'start' });
                window.scrollBy(0, -80);
              });
          // The newest run opened on its history.
          if (name === 'flow-runs' || name === 'contact-flows')
            await page
              .getByRole('button', { name: /started/ })
              .first()
              .click();
          // The team's test numbers are its last settings card; its default country has a card of its own.
          const card = {
            'team-test-numbers': 'Test numbers',
            'team-phone-numbers': 'Phone numbers',
            'team-frequency-cap': 'Frequency cap',
            'team-attribution': 'Revenue attribution',
            'team-integrations': 'Integrations',
            'contact-flows': 'Flows',
            'flow-steps': 'Steps',
            'flow-runs': 'Runs',
          }[name];
          if (card)
            await page.getByRole('heading', { name: card, exact: true }).evaluate((heading) => {
              heading.scrollIntoView({ block: 'start' });
              window.scrollBy(0, -80);
            });
          // The welcome flow's branch, its two arms nested under it.
          if (name === 'flow-branch')
            await page.getByText('Step 3: Branch on a condition', { exact: true }).evaluate((title) => {
              title.scrollIntoView({ block: 'start' });
              window.scrollBy(0, -80);
            });
          await page.waitForTimeout(300);
          await page.screenshot({ path: path.join(OUT, `${name}-${width}-${scheme}.png`) });
        }
        console.log(`${scheme}, ${width} px: ${pages.length} pages`);
      }
    }
    // The sign-in page, signed out.
    if (chosen('sign-in')) {
      const signedOut = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'en-GB' });
      const signIn = await signedOut.newPage();
      for (const scheme of SCHEMES) {
        await signIn.emulateMedia({ colorScheme: scheme });
        for (const width of WIDTHS) {
          await signIn.setViewportSize({ width, height: width > 600 ? 900 : 844 });
          await signIn.goto(`${ORIGIN}/sign-in`);
          await signIn.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
          await signIn.screenshot({ path: path.join(OUT, `sign-in-${width}-${scheme}.png`) });
        }
      }
    }
    console.log(`written to ${path.relative(process.cwd(), OUT)}/`);
  } finally {
    receiver.close();
    await browser?.close();
    if (server && server.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise((resolve) => server!.once('exit', resolve));
    }
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

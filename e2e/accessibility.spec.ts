/**
 * Accessible everywhere (issue 21, point 3): every page of the dashboard (every entry of
 * src/app/paths.ts, and the 404 page), in the light and in the dark colour scheme, has no axe
 * violation of impact serious or critical under the WCAG 2.0/2.1 A and AA rules, colour contrast
 * included. The pages show a little of everything (seeded through the API): a template with a
 * tracked link, a sender, a group with contacts and fields, a campaign planned and one sent, a
 * keyword, a webhook with a delivery, an event endpoint with a failed delivery, an inbound message, an
 * API token, an invitation, an SMS connection, a segment with a group of conditions, a flow with a
 * nested branch and a run.
 *
 * The dark scheme is the system's (the browser says `prefers-color-scheme: dark`, nothing chosen in
 * the dashboard): the test checks that the page really is dark before it asks axe.
 *
 * A path added to paths.ts without a visit here fails the first test, so the sweep stays complete.
 *
 * Seen red: with the theme's dimmed text back to Mantine's gray.6 on gray.0 (color-contrast on every
 * page, 3.9:1), and with the dashboard fixed to the light scheme (the dark pages were not dark).
 *
 * The same pages at a phone's width (390 px): nothing scrolls the page sideways, a table wider than
 * its box shows that it scrolls, no field or cell cuts a date or a time, no title is squeezed to three
 * lines by its buttons. Seen red: with the campaign list back in a bare Table.ScrollContainer (the
 * table), with the page header's old no-wrap row (three titles on three lines), and with fields and
 * cells narrowed by an injected style sheet (every cut date and field named).
 */
import { expect, test, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { paths } from '../src/app/paths';
import { campaignBody, mailedLink, sessionHeaders, signInWithPassword } from './support';

interface Seed {
  senderUuid: string;
  templateUuid: string;
  groupUuid: string;
  segmentUuid: string;
  flowUuid: string;
  plannedCampaignUuid: string;
  sentCampaignUuid: string;
  keywordUuid: string;
  webhookUuid: string;
  eventEndpointUuid: string;
  eventDeliveryUuid: string;
  smsConnectionUuid: string;
  contact: string;
  invitationLink: string;
}

interface Visit {
  /** The entry of `paths` this visit covers, e.g. `senders.edit` (`notFound`: no entry). */
  covers: string;
  url: (seed: Seed) => string;
  /** The page's one heading, once its data is in. */
  heading: string | RegExp;
  /** Which of several visits of one entry. */
  label?: string;
  /** Signed out (the public pages). */
  public?: boolean;
}

const CONTACT = '+447700900851';
const RUN = Date.now().toString(36);

const visits: Visit[] = [
  { covers: 'signIn', url: () => paths.signIn.getHref(), heading: 'Sign in to Herald', public: true },
  { covers: 'forgotPassword', url: () => paths.forgotPassword.getHref(), heading: 'Forgot your password?', public: true },
  { covers: 'resetPassword', url: () => `${paths.resetPassword.getHref()}#not-a-real-secret`, heading: 'Choose a new password', public: true },
  {
    covers: 'invitation',
    url: (seed) => new URL(seed.invitationLink).pathname + new URL(seed.invitationLink).hash,
    heading: /^Join .+ as an? viewer$/,
    public: true,
  },
  { covers: 'home', url: () => paths.home.getHref(), heading: 'Overview' },
  { covers: 'campaigns.list', url: () => paths.campaigns.list.getHref(), heading: 'Campaigns' },
  { covers: 'calendar', url: () => paths.calendar.getHref(), heading: 'Calendar' },
  { covers: 'campaigns.new', url: () => paths.campaigns.new.getHref(), heading: 'New campaign' },
  {
    covers: 'campaigns.detail',
    url: (seed) => paths.campaigns.detail.getHref(seed.plannedCampaignUuid),
    heading: `A11y planned ${RUN}`,
    label: 'planned, editable',
  },
  {
    covers: 'campaigns.detail',
    url: (seed) => paths.campaigns.detail.getHref(seed.sentCampaignUuid),
    heading: `A11y sent ${RUN}`,
    label: 'sent, its progress',
  },
  {
    covers: 'campaigns.detail',
    url: (seed) => paths.campaigns.detail.getHref(seed.sentCampaignUuid, { report: 'sent' }),
    heading: `A11y sent ${RUN}`,
    label: 'sent, a report tab',
  },
  { covers: 'templates.list', url: () => paths.templates.list.getHref(), heading: 'Templates' },
  { covers: 'templates.new', url: () => paths.templates.new.getHref(), heading: 'New template' },
  { covers: 'templates.edit', url: (seed) => paths.templates.edit.getHref(seed.templateUuid), heading: `A11y offer ${RUN}` },
  { covers: 'contactGroups.list', url: () => paths.contactGroups.list.getHref(), heading: 'Contact groups' },
  { covers: 'contactGroups.detail', url: (seed) => paths.contactGroups.detail.getHref(seed.groupUuid), heading: `A11y readers ${RUN}` },
  { covers: 'segments.list', url: () => paths.segments.list.getHref(), heading: 'Segments' },
  { covers: 'segments.new', url: () => paths.segments.new.getHref(), heading: 'New segment' },
  { covers: 'segments.detail', url: (seed) => paths.segments.detail.getHref(seed.segmentUuid), heading: `A11y segment ${RUN}` },
  { covers: 'flows.list', url: () => paths.flows.list.getHref(), heading: 'Flows' },
  { covers: 'flows.new', url: () => paths.flows.new.getHref(), heading: 'New flow' },
  { covers: 'flows.detail', url: (seed) => paths.flows.detail.getHref(seed.flowUuid), heading: `A11y welcome ${RUN}` },
  { covers: 'contacts.list', url: () => paths.contacts.list.getHref({ search: '7700900851' }), heading: 'Contacts' },
  { covers: 'contacts.detail', url: (seed) => paths.contacts.detail.getHref(seed.contact), heading: CONTACT },
  { covers: 'senders.list', url: () => paths.senders.list.getHref(), heading: 'Senders' },
  { covers: 'senders.new', url: () => paths.senders.new.getHref(), heading: 'New sender' },
  { covers: 'senders.edit', url: (seed) => paths.senders.edit.getHref(seed.senderUuid), heading: 'Edit sender' },
  { covers: 'keywords.list', url: () => paths.keywords.list.getHref(), heading: 'Keywords' },
  { covers: 'keywords.new', url: () => paths.keywords.new.getHref(), heading: 'New keyword' },
  { covers: 'keywords.edit', url: (seed) => paths.keywords.edit.getHref(seed.keywordUuid), heading: 'Edit keyword' },
  { covers: 'webhooks.list', url: () => paths.webhooks.list.getHref(), heading: 'Webhooks' },
  { covers: 'webhooks.deliveries', url: (seed) => paths.webhooks.deliveries.getHref(seed.webhookUuid), heading: `Deliveries of A11y hook ${RUN}` },
  { covers: 'eventEndpoints.list', url: () => paths.eventEndpoints.list.getHref(), heading: 'Event endpoints' },
  { covers: 'eventEndpoints.detail', url: (seed) => paths.eventEndpoints.detail.getHref(seed.eventEndpointUuid), heading: `A11y events ${RUN}` },
  {
    covers: 'eventEndpoints.detail',
    url: (seed) => paths.eventEndpoints.detail.getHref(seed.eventEndpointUuid, { delivery: seed.eventDeliveryUuid }),
    heading: `A11y events ${RUN}`,
    label: 'a delivery open',
  },
  { covers: 'sending.list', url: () => paths.sending.list.getHref(), heading: 'Sending' },
  { covers: 'sending.connection', url: (seed) => paths.sending.connection.getHref(seed.smsConnectionUuid), heading: `A11y Twilio ${RUN}` },
  { covers: 'inbox.list', url: () => paths.inbox.list.getHref(), heading: 'Inbox' },
  // The seeded inbound message's conversation, with the contact's groups beside it.
  { covers: 'inbox.conversation', url: (seed) => paths.inbox.conversation.getHref(seed.contact), heading: 'Inbox' },
  { covers: 'inboundMessages.list', url: () => paths.inboundMessages.list.getHref(), heading: 'Inbound messages' },
  { covers: 'inboundMessages.keywordTester', url: () => paths.inboundMessages.keywordTester.getHref(), heading: 'Inbound messages' },
  { covers: 'reports', url: () => paths.reports.getHref(), heading: 'Reports' },
  { covers: 'vanityDomains', url: () => paths.vanityDomains.getHref(), heading: 'Vanity domains' },
  { covers: 'signupPage', url: () => paths.signupPage.getHref(), heading: 'Sign-up page' },
  { covers: 'team', url: () => paths.team.getHref(), heading: 'Team' },
  { covers: 'apiTokens', url: () => paths.apiTokens.getHref(), heading: 'API tokens' },
  { covers: 'audit', url: () => paths.audit.getHref(), heading: 'Audit log' },
  { covers: 'profile', url: () => paths.profile.getHref(), heading: 'Your profile' },
  { covers: 'notFound', url: () => '/no-such-page', heading: 'Page not found' },
];

/** Every entry of `paths` by its dotted name: an object with `getHref` is one page. */
function pathEntries(tree: object, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([name, value]) =>
    typeof value === 'object' && value !== null && !('getHref' in value) ? pathEntries(value as object, `${prefix}${name}.`) : [`${prefix}${name}`],
  );
}

/** What axe finds serious or critical, one readable block a rule: its help, then each element with its selector, HTML and why. */
async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) =>
      [
        `${violation.impact} ${violation.id}: ${violation.help} (${violation.nodes.length} element${violation.nodes.length === 1 ? '' : 's'})`,
        ...violation.nodes.map(
          (node) =>
            `  - ${node.target.join(' ')}\n    ${node.html.replace(/\s(style|class)="[^"]*"/g, '').slice(0, 160)}\n    ${(node.failureSummary ?? '').replace(/\s*\n\s*/g, ' / ').slice(0, 300)}`,
        ),
      ].join('\n'),
    );
}

/** The page as a person sees it: its heading, its data in (no skeletons or loaders left), nothing still moving. */
async function settled(page: Page, heading: string | RegExp): Promise<void> {
  await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
  await expect(page.locator('[aria-busy="true"], .mantine-Skeleton-root, .mantine-Loader-root').filter({ visible: true })).toHaveCount(0);
  await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running'));
}

let seed: Seed;
let storageState: Awaited<ReturnType<BrowserContext['storageState']>>;

test.beforeAll(async ({ browser }) => {
  test.setTimeout(90_000);
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(paths.campaigns.list.getHref());
  await signInWithPassword(page);
  await expect(page.getByRole('heading', { name: 'Campaigns', level: 1 })).toBeVisible();

  const headers = await sessionHeaders(page);
  const call = async <T = { uuid: string }>(method: 'GET' | 'POST' | 'PUT', route: string, body?: unknown) => {
    const response = await page.request.fetch(`/api/2.0${route}`, { method, headers, data: body });
    expect(response.ok(), `${method} ${route}: ${await response.text()}`).toBe(true);
    return ((await response.json()) as { data: T }).data;
  };
  const { app_timezone: zone } = await call<{ app_timezone: string }>('GET', '/users/me');

  const sender = await call('POST', '/senders/', { sender: `A11y${RUN.slice(-6)}` });
  const domain = await call('POST', '/vanity-domains/', { domain: `go${RUN}.a11y.example` });
  const template = await call('POST', '/templates/', {
    name: `A11y offer ${RUN}`,
    sender: '88440',
    body: 'Hi {{first_name|there}}, the offer ends Friday: ::OFFER::',
  });
  await call('POST', '/links/', {
    vanity_domain_uuid: domain.uuid,
    template_uuid: template.uuid,
    name: 'OFFER',
    destination: 'https://shop.example.com/offer',
  });
  const group = await call('POST', '/contact-groups/bulk-contacts', { name: `A11y readers ${RUN}`, contacts: [CONTACT, '+447700900852', '+447700900853'] });
  await call('PUT', `/contact-groups/${group.uuid}/add-contacts`, {
    contacts: [
      { phone_number: CONTACT, custom_fields: { first_name: 'Ada', city: 'London' } },
      { phone_number: '+447700900852', custom_fields: { first_name: 'Grace', city: 'York' } },
    ],
  });
  const segment = await call('POST', '/segments/', {
    name: `A11y segment ${RUN}`,
    match: 'all',
    conditions: [
      { type: 'group', op: 'in', group_uuid: group.uuid },
      {
        type: 'group_of_conditions',
        match: 'any',
        conditions: [
          { type: 'field', field: 'city', op: 'equals', value: 'London' },
          { type: 'event', event: 'received', within_days: 30 },
        ],
      },
    ],
  });
  const campaign = (name: string, sendAt: Date) => campaignBody(name, { template: template.uuid, group: group.uuid }, sendAt, zone);
  const planned = await call('POST', '/campaigns/', campaign(`A11y planned ${RUN}`, new Date('2031-03-03T09:00:00Z')));
  const sent = await call('POST', '/campaigns/', campaign(`A11y sent ${RUN}`, new Date(Date.now() + 1_000)));
  const webhook = await call('POST', '/webhooks/', { name: `A11y hook ${RUN}`, url: 'https://hooks.a11y.example/inbound' });
  const keyword = await call('POST', '/keywords/', {
    keyword: `A11Y${RUN.slice(-6).toUpperCase()}`,
    message: 'Thanks, you are on the list.',
    add_contact_to_group: true,
    contact_groups_uuid: [group.uuid],
    call_webhook: true,
    webhooks_uuid: [webhook.uuid],
  });
  // A loopback port nothing listens on: the test event fails at once, so the endpoint has a failed delivery with its error.
  const eventEndpoint = await call('POST', '/event-endpoints/', {
    url: 'http://127.0.0.1:9/a11y-events',
    description: `A11y events ${RUN}`,
    events: ['message.delivered', 'campaign.finished', 'inbound.received'],
    headers: { Authorization: 'Bearer a11y' },
  });
  const eventDelivery = await call('POST', `/event-endpoints/${eventEndpoint.uuid}/test`);
  await call('POST', '/inbound-messages/', { from: CONTACT, body: `A11Y${RUN.slice(-6).toUpperCase()} please` });
  // A flow on the keyword with a nested branch, and a run for the contact (the step counts, the runs, the contact page's Flows).
  const flow = await call('POST', '/flows/', {
    name: `A11y welcome ${RUN}`,
    enabled: true,
    trigger: { type: 'keyword', keyword_uuid: keyword.uuid },
    steps: [
      { type: 'send', template_uuid: template.uuid },
      { type: 'wait', minutes: 1440 },
      {
        type: 'branch',
        condition: { type: 'segment', op: 'in', segment_uuid: segment.uuid },
        then: [{ type: 'add_to_group', group_uuid: group.uuid }],
        else: [{ type: 'webhook', url: 'https://hooks.a11y.example/flow' }],
      },
    ],
  });
  // 409 when another spec of this service left the contact opted out: the flow's page is swept all the same.
  const started = await page.request.fetch(`/api/2.0/flows/${flow.uuid}/runs`, { method: 'POST', headers, data: { phone_number: CONTACT } });
  expect([201, 409], await started.text()).toContain(started.status());
  // And a test run of it (the runs' Test badge), refused alike for an opted-out contact.
  const tested = await page.request.fetch(`/api/2.0/flows/${flow.uuid}/runs`, { method: 'POST', headers, data: { phone_number: CONTACT, test: true } });
  expect([201, 409], await tested.text()).toContain(tested.status());
  await call('POST', '/tokens/', { name: `A11y script ${RUN}` });
  const invitee = `a11y.${RUN}@herald.test`;
  await call('POST', '/team/invitations', { email: invitee, role: 'viewer' });
  const invitationLink = await mailedLink(invitee, /https?:\/\/\S+\/invitation#[\w-]+/);
  // The sent campaign's messages are delivered (the simulator answers within a second or so).
  await expect.poll(async () => (await call<{ delivered: number }>('GET', `/campaigns/${sent.uuid}/summary`)).delivered, { timeout: 30_000 }).toBe(3);
  // Made once the campaign is delivered: from then on the team sends through its connections, and
  // this one is never called (its base URL is a loopback port nothing listens on).
  const smsConnection = await call('POST', '/sms-connections/', {
    name: `A11y Twilio ${RUN}`,
    provider: 'twilio',
    base_url: 'http://127.0.0.1:9',
    credentials: { account_sid: 'AC0123456789abcdef0123456789abcdef', auth_token: 'a11y-token-0123456789abcdef' },
    senders: ['+447700900001', 'Acme'],
  });

  seed = {
    senderUuid: sender.uuid,
    templateUuid: template.uuid,
    groupUuid: group.uuid,
    segmentUuid: segment.uuid,
    flowUuid: flow.uuid,
    plannedCampaignUuid: planned.uuid,
    sentCampaignUuid: sent.uuid,
    keywordUuid: keyword.uuid,
    webhookUuid: webhook.uuid,
    eventEndpointUuid: eventEndpoint.uuid,
    eventDeliveryUuid: eventDelivery.uuid,
    smsConnectionUuid: smsConnection.uuid,
    contact: CONTACT.slice(1),
    invitationLink,
  };
  storageState = await context.storageState();
  await context.close();
});

test('every page of paths.ts is in the sweep', () => {
  const covered = new Set(visits.map((visit) => visit.covers));
  expect(pathEntries(paths).filter((entry) => !covered.has(entry))).toEqual([]);
});

/**
 * Opens every page of the sweep, signed in or out as it needs, in browser contexts made with
 * `options`, waits until it has settled, and hands it to `check` (one step a page).
 */
async function visitEveryPage(browser: Browser, options: BrowserContextOptions, check: (page: Page, name: string) => Promise<void>): Promise<void> {
  const signedIn = await browser.newContext({ ...options, storageState });
  const signedOut = await browser.newContext(options);
  try {
    for (const visit of visits) {
      const name = `${visit.covers}${visit.label ? ` (${visit.label})` : ''}`;
      await test.step(name, async () => {
        const page = await (visit.public ? signedOut : signedIn).newPage();
        try {
          await page.goto(visit.url(seed));
          await settled(page, visit.heading);
          await check(page, name);
        } finally {
          await page.close();
        }
      });
    }
  } finally {
    await signedIn.close();
    await signedOut.close();
  }
}

for (const scheme of ['light', 'dark'] as const) {
  test(`every page in the ${scheme} scheme`, async ({ browser }) => {
    test.setTimeout(visits.length * 20_000);
    await visitEveryPage(browser, { colorScheme: scheme }, async (page, name) => {
      await expect.soft(page.locator('html'), `${name}: the page is ${scheme}`).toHaveAttribute('data-mantine-color-scheme', scheme);
      const violations = await seriousViolations(page);
      expect.soft(violations, `${name}, ${page.url()}, ${scheme} scheme:\n\n${violations.join('\n\n')}\n`).toEqual([]);
    });
  });
}

/**
 * What a phone (390 × 844) shows wrong on a page, one line a fault: the page scrolls sideways; a table
 * wider than its box that does not show it scrolls (TableScroll's shadows); a field or a label that
 * cuts a date or a time ("2026-1…"); a page title squeezed to three lines or more by its buttons.
 */
async function phoneFaults(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const faults: string[] = [];
    const describe = (element: Element) =>
      `<${element.tagName.toLowerCase()}${element.getAttribute('aria-label') ? ` aria-label="${element.getAttribute('aria-label')}"` : ''}> ${(element.textContent || (element as HTMLInputElement).value || '').trim().slice(0, 60)}`;
    const visible = (element: Element) => {
      const box = element.getBoundingClientRect();
      return box.width > 0 && box.height > 0 && getComputedStyle(element).visibility !== 'hidden';
    };
    if (document.documentElement.scrollWidth > window.innerWidth + 1)
      faults.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} px wide in a ${window.innerWidth} px window`);
    for (const table of document.querySelectorAll('main table')) {
      // The box that clips it: the nearest ancestor that scrolls or hides what overflows.
      let box: Element | null = table.parentElement;
      while (box && !['auto', 'scroll', 'hidden', 'clip'].includes(getComputedStyle(box).overflowX)) box = box.parentElement;
      const room = box ? box.clientWidth : window.innerWidth;
      const width = table.getBoundingClientRect().width;
      // A box of a pixel or so is a visually hidden table (a chart's figures for screen readers).
      if (visible(table) && room > 2 && width > room + 1 && !table.closest('.herald-table-scroll'))
        faults.push(`a table wider than its box (${Math.round(width)} > ${room} px) without the sign that it scrolls: ${describe(table)}`);
    }
    const dateLike = /\b(19|20)\d{2}-\d{2}-\d{2}\b|\b\d{1,2}:\d{2}\b|\b\d{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\b/;
    for (const input of document.querySelectorAll('input')) {
      if (visible(input) && dateLike.test(input.value) && input.scrollWidth > input.clientWidth + 1)
        faults.push(`a field cuts its date: "${input.value}" needs ${input.scrollWidth} px, has ${input.clientWidth}`);
    }
    for (const element of document.querySelectorAll('main *')) {
      if (element.children.length > 0 || !visible(element) || !dateLike.test(element.textContent ?? '')) continue;
      const style = getComputedStyle(element);
      if (style.textOverflow === 'ellipsis' && element.scrollWidth > element.clientWidth + 1) faults.push(`a date cut short: ${describe(element)}`);
    }
    for (const heading of document.querySelectorAll('main h1')) {
      const lineHeight = parseFloat(getComputedStyle(heading).lineHeight) || 1;
      const lines = Math.round(heading.getBoundingClientRect().height / lineHeight);
      const words = (heading.textContent ?? '').trim().split(/\s+/).length;
      if (lines >= 3 && lines > words / 2) faults.push(`the page title takes ${lines} lines: ${describe(heading)}`);
    }
    return faults;
  });
}

test('every page at a phone width: no sideways page, tables that show they scroll, no cut dates, titles not squeezed', async ({ browser }) => {
  test.setTimeout(visits.length * 10_000);
  const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
  await visitEveryPage(browser, phone, async (page, name) => {
    const faults = await phoneFaults(page);
    expect.soft(faults, `${name}, ${page.url()}, 390 px:\n${faults.join('\n')}\n`).toEqual([]);
  });
});

/**
 * Issue 36's journey against a running Herald, a day of it on a test clock: a customer texts JOIN
 * under double opt-in and receives only "reply YES"; after YES, the welcome flow's first message; a
 * day later (the clock moved on, not waited for), the follow-up, because they did not click; they ask
 * "Do you ship to Ireland?" and a member answers from the inbox page, typing in the composer; they
 * text STOP, the run is exited, and when the clock moves past the flow's last wait nothing more is
 * sent. What the customer received is read from their conversation (every message to and from the
 * number, each with its status): each message once, delivered by the simulator.
 *
 * The journey runs its own Herald (HERALD_TEST_CLOCK_FILE, its own port and data folder), started
 * here and stopped at the end: moving a clock a day on would disturb every other spec sharing the
 * main server, and a second server in playwright.config.ts would run (and take memory) in every e2e
 * run, for every spec. The same journey on the service test clock is
 * src/server/modules/flows/welcome-journey.test.ts.
 *
 * The last check needs to know that the flows' advance ran after the clock moved past the last wait:
 * a second number, in a flow of its own started over the API with the same two-day wait, receives
 * its message then. Seen red: with the journey's Herald started without HERALD_TEST_CLOCK_FILE (the
 * follow-up never came after the move), and with STOP's end of the number's runs left out of the
 * inbound pipeline (`flows.optedOut`: the run was still active after STOP).
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { childEnv, freePort, runHerald, signIn, stopHeralds, waitForHealthy, type ApiCall, type HeraldProcess } from '../src/server/testing/processes';
import { ADMIN, axeViolations, dismissToasts, screenshot, signInWithPassword } from './support';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const CUSTOMER = '+447700900777';
const DIGITS = CUSTOMER.slice(1);
/** The number whose own two-day wait shows that the flows' advance ran after the last move. */
const WITNESS = '+447700900778';

let dir: string;
let herald: HeraldProcess | undefined;
let base: string;
let clockFile: string;
let offsetMs = 0;
let api: ApiCall;

/** Moves the journey's Herald `ms` on: it reads the file within 0.1 s (written whole, then renamed, so it never reads half of it). */
async function advance(ms: number): Promise<void> {
  offsetMs += ms;
  await fs.writeFile(`${clockFile}.next`, String(offsetMs));
  await fs.rename(`${clockFile}.next`, clockFile);
}

type Message = { direction: 'inbound' | 'outbound'; body: string; status: string; kind: string };
/** The conversation with `number`, oldest first. */
const thread = async (number: string): Promise<Message[]> => (await api('GET', `/conversations/${number.slice(1)}?per_page=100`)).data;
/** What reached `number`'s handset: the outbound messages the simulator delivered, in order. */
const received = async (number = CUSTOMER): Promise<string[]> =>
  (await thread(number)).filter((message) => message.direction === 'outbound' && message.status === 'delivered').map((message) => message.body);
/** The customer texts `body` (the inbound API, as the keyword tester and the inbox spec bring messages in). */
const text = (body: string, from = CUSTOMER) => api('POST', '/inbound-messages/', { from, body });
const runsOf = async (number: string): Promise<Array<{ state: string; exit_reason: string | null }>> =>
  (await api('GET', `/contacts/${number.slice(1)}/flow-runs`)).data;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'herald-journey-'));
  clockFile = path.join(dir, 'clock-offset-ms');
  await fs.writeFile(clockFile, '0');
  const port = await freePort();
  base = `http://localhost:${port}`;
  herald = runHerald(
    'src/server/main.ts',
    [],
    childEnv({
      PORT: String(port),
      PUBLIC_URL: base,
      DATA_DIR: path.join(dir, 'data'),
      HERALD_ADMIN_EMAIL: ADMIN.email,
      HERALD_ADMIN_PASSWORD: ADMIN.password,
      HERALD_TEST_CLOCK_FILE: clockFile,
      SMS_SIMULATOR_LATENCY_MS: '200',
    }),
  );
  await waitForHealthy(port, herald, 150_000);
  api = await signIn(port, ADMIN.email, ADMIN.password);
});

test.afterAll(async () => {
  await stopHeralds(herald);
  if (dir) await fs.rm(dir, { recursive: true, force: true });
});

test('JOIN, YES, a welcome and a follow-up a day later, a question answered from the inbox, then STOP ends the flow', async ({ page }) => {
  test.setTimeout(240_000);
  const poll = { timeout: 30_000, intervals: [250, 500, 1_000] };

  await test.step('set up: double opt-in, the JOIN keyword, the welcome flow', async () => {
    await api('PUT', '/team/settings', { double_opt_in: true });
    const club = (await api('POST', '/contact-groups/', { name: 'Club' })).data.uuid;
    const keyword = (await api('POST', '/keywords/', { keyword: 'JOIN', message: '', add_contact_to_group: true, contact_groups_uuid: [club] })).data;
    const template = async (name: string, body: string) => (await api('POST', '/templates/', { name, body, sender: 'Shop' })).data.uuid as string;
    const welcome = await template('Welcome', 'Welcome to the club! 10% off: https://shop.example/new');
    const nudge = await template('Nudge', 'Your 10% is still waiting.');
    const last = await template('Last', 'Last chance for 10% off.');
    await api('POST', '/flows/', {
      name: 'Welcome series',
      enabled: true,
      trigger: { type: 'keyword', keyword_uuid: keyword.uuid },
      steps: [
        { type: 'send', template_uuid: welcome },
        { type: 'wait', minutes: 24 * 60 },
        {
          type: 'branch',
          condition: { type: 'last_message', event: 'clicked' },
          then: [{ type: 'end' }],
          else: [
            { type: 'send', template_uuid: nudge },
            { type: 'wait', minutes: 2 * 24 * 60 },
            { type: 'send', template_uuid: last },
          ],
        },
      ],
    });
  });

  await test.step('JOIN: only the request to confirm arrives', async () => {
    await text('JOIN');
    await expect.poll(() => received(), poll).toEqual([expect.stringMatching(/reply YES to confirm/)]);
    expect(await runsOf(CUSTOMER)).toEqual([]);
  });

  await test.step('YES: the welcome flow starts and its first message arrives', async () => {
    await text('YES');
    await expect.poll(async () => (await received()).length, poll).toBe(2);
    expect((await received())[1]).toBe('Welcome to the club! 10% off: https://shop.example/new');
    expect((await runsOf(CUSTOMER)).map((run) => run.state)).toEqual(['active']);
  });

  await test.step('a day later, not having clicked, the follow-up arrives', async () => {
    // Nearly a day: the wait is not over, and nothing more is sent.
    await advance(23 * HOUR_MS);
    await page.waitForTimeout(8_000); // the flows' advance is claimed every 5 s at most
    expect(await received()).toHaveLength(2);
    await advance(HOUR_MS + 60_000);
    await expect.poll(async () => (await received()).length, poll).toBe(3);
    expect((await received())[2]).toBe('Your 10% is still waiting.');
  });

  await test.step('the customer asks, and a member answers from the inbox page', async () => {
    await text('Do you ship to Ireland?');
    await page.goto(`${base}/inbox`);
    await signInWithPassword(page);
    await expect(page.getByRole('heading', { name: 'Inbox', level: 1 })).toBeVisible();
    const item = page.getByRole('list', { name: 'Conversations' }).getByRole('listitem').filter({ hasText: CUSTOMER });
    await expect(item).toContainText('Do you ship to Ireland?');
    await expect(item).toContainText('Unread');
    await item.getByRole('link').click();
    await expect(page).toHaveURL(new RegExp(`/inbox/${DIGITS}$`));
    const messages = page.getByRole('list', { name: 'Messages' });
    // The whole journey so far, in order: the request, YES, both flow messages, the question.
    await expect(messages.getByRole('listitem')).toHaveCount(6);
    await expect(messages.getByRole('listitem').last()).toContainText('Do you ship to Ireland?');

    const reply = page.getByRole('textbox', { name: 'Reply' });
    await reply.click();
    await page.keyboard.type('Yes, we ship to Ireland in 3 days.');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect(reply).toHaveValue('');
    const answer = messages.getByRole('listitem').filter({ hasText: 'Yes, we ship to Ireland in 3 days.' });
    await expect(answer).toContainText('Delivered', { timeout: 20_000 });
    await expect.poll(async () => (await received()).length, poll).toBe(4);
    expect((await received())[3]).toBe('Yes, we ship to Ireland in 3 days.');
    await dismissToasts(page);

    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await expect(answer).toBeVisible();
      await screenshot(page, `journey-inbox-thread-${width}`);
      expect(await axeViolations(page, 'main')).toEqual([]);
    }
    await page.setViewportSize({ width: 1440, height: 900 });
  });

  await test.step('STOP: the run is exited', async () => {
    // The witness waits two days from here, as the customer's run would before its last message.
    const witnessFlow = (
      await api('POST', '/flows/', {
        name: 'Witness',
        enabled: true,
        trigger: { type: 'api' },
        steps: [
          { type: 'wait', minutes: 2 * 24 * 60 },
          { type: 'send', template_uuid: (await api('POST', '/templates/', { name: 'Witness', body: 'Two days have passed.', sender: 'Shop' })).data.uuid },
        ],
      })
    ).data.uuid;
    // A contact of the team, so its conversation can be read.
    const witnesses = (await api('POST', '/contact-groups/', { name: 'Witnesses' })).data.uuid;
    await api('PUT', `/contact-groups/${witnesses}/add-contacts`, { contacts: [{ phone_number: WITNESS }] });
    await api('POST', `/flows/${witnessFlow}/runs`, { phone_number: WITNESS });

    await text('STOP');
    await expect.poll(() => runsOf(CUSTOMER), poll).toEqual([expect.objectContaining({ state: 'exited', exit_reason: 'opted_out' })]);
    await page.reload();
    await expect(page.getByText(/This number opted out/)).toBeVisible();
  });

  await test.step('past the flow’s last wait, nothing more reaches the customer', async () => {
    await advance(3 * DAY_MS);
    await expect.poll(() => received(WITNESS), poll).toEqual(['Two days have passed.']);
    const outbound = (await thread(CUSTOMER)).filter((message) => message.direction === 'outbound');
    // Each once, in order; the only message after STOP is its confirmation (a built-in word's reply).
    expect(outbound.map((message) => [message.kind, message.body])).toEqual([
      ['confirmation', expect.stringMatching(/reply YES to confirm/)],
      ['flow', 'Welcome to the club! 10% off: https://shop.example/new'],
      ['flow', 'Your 10% is still waiting.'],
      ['inbox_reply', 'Yes, we ship to Ireland in 3 days.'],
      ['keyword_reply', 'You will receive no more messages from us. Reply START to subscribe again.'],
    ]);
    expect(outbound.every((message) => message.status === 'delivered')).toBe(true);
  });
});

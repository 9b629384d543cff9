/**
 * The dashboard by keyboard alone (issue 21, point 3): a marketer signs in, goes from the top of the
 * page through the header and the navbar to a new campaign, picks its template, sender and group in
 * the pickers by typing and arrows, plans it for later, reviews and schedules it (the toast that says
 * so stays clear of the header); then chooses the dark colour scheme in the header, which a reload
 * keeps. No mouse: only page.keyboard (Tab, Shift+Tab, Enter, Space, arrows, Escape and typing) after the
 * first address is opened. Every control the Tab key lands on must show where the focus is (an
 * outline, or an input's border in the primary colour).
 *
 * The template, the sender and the group are made through the API first: choosing them is the test.
 *
 * Seen red: with the focus outline of Mantine's buttons and links turned off (`outline: none` on
 * .mantine-focus-auto:focus-visible: "the focus on button "E-mail and password" is visible"), with
 * the colour scheme's choices opening with the focus on Light instead of the one in use, and with the
 * toasts back at the top right ("the toast is below the header").
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { sessionHeaders, ADMIN } from './support';

const RUN = Date.now().toString(36);
const TEMPLATE = `Kb welcome ${RUN}`;
const GROUP = `Kb members ${RUN}`;
const SENDER = `Kb${RUN.slice(-6)}`;
const CAMPAIGN = `Kb launch ${RUN}`;

/**
 * Whether the focus can be seen on the element that has it: an outline or a box shadow on it, or on
 * what draws it (a visually hidden radio's or switch's label and track); a text field's border in
 * the primary colour (Mantine's inputs show focus so).
 */
const BODY = 'the page itself';

async function focusIndicator(page: Page): Promise<{ element: string; shown: boolean }> {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLInputElement | null;
    if (!element || element === document.body) return { element: 'the page itself', shown: false };
    const marked = (candidate: Element | null | undefined) => {
      if (!candidate) return false;
      const style = getComputedStyle(candidate);
      return (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== 'none';
    };
    const probe = document.createElement('span');
    probe.style.color = 'var(--mantine-primary-color-filled)';
    document.body.append(probe);
    const primary = getComputedStyle(probe).color;
    probe.remove();
    // A password field draws its border on the box around the input.
    const box = element.closest('.mantine-Input-input') ?? element;
    const textField = element.matches('input:not([type=radio]):not([type=checkbox]), textarea') && getComputedStyle(box).borderTopColor === primary;
    const drawnBeside = [...(element.labels ?? []), element.nextElementSibling].some(marked);
    const name = element.getAttribute('aria-label') ?? element.labels?.[0]?.textContent ?? element.textContent ?? '';
    return { element: `${element.tagName.toLowerCase()} "${name.trim().slice(0, 40)}"`, shown: marked(element) || textField || drawnBeside };
  });
}

/**
 * Presses Tab (or Shift+Tab) until `target` has the focus, at most `limit` times; every stop on the
 * way must show its focus. Fails when the target is never reached (a control out of the keyboard's reach).
 */
async function tabTo(page: Page, target: Locator, { backwards = false, limit = 60 } = {}): Promise<void> {
  for (let presses = 0; presses < limit; presses += 1) {
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
    // An input's border takes a tenth of a second to change colour.
    const { element } = await focusIndicator(page);
    // Past the page's last control the focus leaves the page (the browser's own bar), then comes back at its top.
    if (element === BODY) continue;
    await expect.poll(async () => (await focusIndicator(page)).shown, { message: `the focus on ${element} is visible`, timeout: 2000 }).toBe(true);
    if (await target.evaluate((element) => element === document.activeElement)) return;
  }
  throw new Error(`${target} was not reached with ${limit} presses of ${backwards ? 'Shift+Tab' : 'Tab'}`);
}

test('a marketer signs in and schedules a campaign with the keyboard alone', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto('/campaigns');

  // Sign in: the e-mail field has the focus; Tab to the password; Enter sends.
  await expect(page.getByRole('heading', { name: 'Sign in to Herald', level: 1 })).toBeVisible();
  const email = page.getByRole('textbox', { name: 'E-mail' });
  if (!(await email.evaluate((element) => element === document.activeElement))) await tabTo(page, email);
  await page.keyboard.type(ADMIN.email);
  await tabTo(page, page.getByRole('textbox', { name: 'Password', exact: true }));
  await page.keyboard.type(ADMIN.password);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Campaigns', level: 1 })).toBeVisible();

  // What the pickers offer, made through the API (the page reads it once reloaded).
  const headers = await sessionHeaders(page);
  for (const [route, body] of [
    ['/senders/', { sender: SENDER }],
    ['/templates/', { name: TEMPLATE, sender: '88440', body: 'Welcome aboard, {{first_name|friend}}.' }],
    ['/contact-groups/bulk-contacts', { name: GROUP, contacts: ['+447700900961', '+447700900962'] }],
  ] as const) {
    const response = await page.request.post(`/api/2.0${route}`, { headers, data: body });
    expect(response.ok(), `${route}: ${await response.text()}`).toBe(true);
  }
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Campaigns', level: 1 })).toBeVisible();

  // From the top of the page: through the header and the navbar to the page's New campaign button.
  const newCampaign = page.getByRole('link', { name: 'New campaign' }).first();
  await tabTo(page, newCampaign);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'New campaign', level: 1 })).toBeVisible();

  const name = page.getByRole('textbox', { name: 'Name' });
  await expect(name).toBeVisible();
  if (!(await name.evaluate((element) => element === document.activeElement))) await tabTo(page, name);
  await page.keyboard.type(CAMPAIGN);

  // The template: typed to search, then picked with the arrows.
  await tabTo(page, page.getByRole('combobox', { name: 'Template' }));
  await page.keyboard.type(TEMPLATE);
  await expect(page.getByRole('option', { name: TEMPLATE })).toBeVisible();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('combobox', { name: 'Template' })).toHaveValue(TEMPLATE);

  // The sender: the template's own (88440) came with it; another one is picked from the list instead.
  const sender = page.getByRole('combobox', { name: 'Sender' });
  await tabTo(page, sender);
  await expect(sender).toHaveValue('88440');
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Backspace');
  await page.keyboard.type(SENDER.slice(0, 4));
  await expect(page.getByRole('option', { name: SENDER })).toBeVisible();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(sender).toHaveValue(SENDER);

  // The group, from its picker; Escape closes the list.
  const groups = page.getByRole('combobox', { name: 'Send to these groups' });
  await tabTo(page, groups);
  await page.keyboard.type(GROUP);
  await expect(page.getByRole('option', { name: GROUP })).toBeVisible();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('recipient-estimate')).toHaveText('≈ 2 recipients');

  // Back up one field (Shift+Tab) and forward again: the sender kept its pick.
  await tabTo(page, sender, { backwards: true });
  await expect(sender).toHaveValue(SENDER);

  // When: "Send now", then back to "Schedule for later" with the arrows; the time is typed.
  await tabTo(page, page.getByRole('radio', { name: 'Schedule for later' }));
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByRole('radio', { name: 'Send now' })).toBeChecked();
  await expect(page.getByRole('textbox', { name: /Send at/ })).toBeHidden();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('radio', { name: 'Schedule for later' })).toBeChecked();
  const sendAt = page.getByRole('textbox', { name: /Send at/ });
  await tabTo(page, sendAt);
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('2031-05-04 10:30');
  await expect(page.getByRole('textbox', { name: /Expires at/ })).toHaveValue('2031-05-05 10:30');

  // Review, then schedule from the dialog.
  await tabTo(page, page.getByRole('button', { name: 'Review and schedule' }));
  await page.keyboard.press('Enter');
  const review = page.getByRole('dialog', { name: 'Review and schedule' });
  await expect(review.getByTestId('review-total')).toHaveText('2');
  await tabTo(page, review.getByRole('button', { name: 'Schedule', exact: true }));
  await page.keyboard.press('Enter');
  const scheduled = page.getByRole('alert').filter({ hasText: `The campaign ${CAMPAIGN} was scheduled.` });
  await expect(scheduled).toBeVisible();
  // Toasts come up at the bottom: never over the header's team switcher and account menu.
  const header = (await page.locator('header.mantine-AppShell-header').boundingBox())!; // not the closing dialog's header
  expect((await scheduled.boundingBox())!.y, 'the toast is below the header').toBeGreaterThan(header.y + header.height);
  await expect(page.getByRole('heading', { name: CAMPAIGN, level: 1 })).toBeVisible();
  await expect(page.getByRole('textbox', { name: /Send at/ })).toHaveValue('2031-05-04 10:30');
  await expect(page.getByRole('combobox', { name: 'Template' })).toHaveValue(TEMPLATE);
  await expect(page.getByRole('combobox', { name: 'Sender' })).toHaveValue(SENDER);

  // The colour scheme, from the header: Space opens its choices, arrows choose Dark, Escape closes.
  const scheme = page.getByRole('button', { name: /^Colour scheme/ });
  await tabTo(page, scheme, { limit: 120 });
  await page.keyboard.press('Space');
  await expect(page.getByRole('radio', { name: 'System' })).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByRole('radio', { name: 'Dark' })).toBeChecked();
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await page.keyboard.press('Escape');
  await expect(scheme).toBeFocused();
  await expect(scheme).toHaveAccessibleName('Colour scheme: Dark');
  // Remembered: a reload stays dark (whatever the system says), until System is chosen again.
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
});

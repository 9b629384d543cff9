/**
 * The inbox (issue 36, point 1), as a member uses it: a customer's message arrives (the inbound API,
 * as the keyword tester sends it) while the inbox is open and shows within 5 seconds, with the unread
 * count in the navigation; the member opens it, answers with the keyboard, and the reply reaches the
 * gateway (the simulator's receipt makes it Delivered in the thread). When the number texts STOP the
 * composer says why it cannot be used. Screenshots at 1440 and 390 px; axe on both. Saved replies are
 * renamed (by keyboard; Escape leaves a rename, then the dialog) and deleted from the composer's
 * "Manage saved replies" dialog, and the picker offers the new name.
 *
 * Seen red: with the list's refetchInterval removed (the conversation did not appear within 5 s), and
 * with the receipts of outbound_replies left unsettled (the reply stayed Submitted).
 */
import { expect, test, type Page } from '@playwright/test';
import { axeViolations, dismissToasts, screenshot, sessionHeaders, signInWithPassword } from './support';

// Not one of another journey's numbers (learning-journey's shoppers are 447700900650 to 661): this one texts STOP.
const CUSTOMER = '+447700900688';
const DIGITS = CUSTOMER.slice(1);

async function inject(page: Page, body: string) {
  const response = await page.request.post('/api/2.0/inbound-messages/', { headers: await sessionHeaders(page), data: { from: CUSTOMER, body } });
  expect(response.status(), await response.text()).toBe(201);
}

test('a customer writes, a member answers from the inbox, and the answer is delivered', async ({ page }) => {
  await page.goto('/inbox');
  await signInWithPassword(page);
  await expect(page.getByRole('heading', { name: 'Inbox', level: 1 })).toBeVisible();

  // The message arrives while the page is open: it shows within 5 s, unread, and the navbar counts it.
  await inject(page, 'Do you ship to Ireland?');
  const conversations = page.getByRole('list', { name: 'Conversations' });
  const item = conversations.getByRole('listitem').filter({ hasText: CUSTOMER });
  await expect(item).toBeVisible({ timeout: 5_000 });
  await expect(item).toContainText('Do you ship to Ireland?');
  await expect(item).toContainText('Unread');
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /Inbox.*unread conversation/ })).toBeVisible({ timeout: 5_000 });

  await item.getByRole('link').click();
  await expect(page).toHaveURL(new RegExp(`/inbox/${DIGITS}$`));
  const thread = page.getByRole('list', { name: 'Messages' });
  await expect(thread).toContainText('Do you ship to Ireland?');
  await expect(page.getByRole('region', { name: 'Contact' })).toBeVisible();

  // Answered with the keyboard: typed, then Ctrl+Enter.
  const reply = page.getByRole('textbox', { name: 'Reply' });
  await reply.focus();
  await page.keyboard.type('Yes, we ship to Ireland in 3 days.');
  await expect(page.getByText('34 characters · 1 SMS (GSM)')).toBeVisible();
  await page.keyboard.press('Control+Enter');
  await expect(reply).toHaveValue('');
  const answer = thread.getByRole('listitem').filter({ hasText: 'Yes, we ship to Ireland in 3 days.' });
  await expect(answer).toBeVisible();
  // The engine sends it ahead of campaigns; the simulator's receipt follows within seconds.
  await expect(answer).toContainText('Delivered', { timeout: 20_000 });
  await expect(item).not.toContainText('Unread');
  await dismissToasts(page);

  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    if (width === 390) await expect(page.getByRole('link', { name: 'All conversations' })).toBeVisible();
    await screenshot(page, `inbox-conversation-${width}`);
    expect(await axeViolations(page, 'main')).toEqual([]);
  }
  await page.getByRole('link', { name: 'All conversations' }).click();
  await expect(page.getByRole('list', { name: 'Conversations' })).toBeVisible();
  await screenshot(page, 'inbox-list-390');
  expect(await axeViolations(page, 'main')).toEqual([]);
  await page.setViewportSize({ width: 1440, height: 900 });

  // STOP: the composer gives way to the reason.
  await inject(page, 'STOP');
  await page.goto(`/inbox/${DIGITS}`);
  await expect(page.getByText(/This number opted out: it is on your suppression list/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Send' })).toHaveCount(0);
  // Opening it read it: the list says so at once (not at its next poll).
  await expect(item).toContainText('STOP');
  await expect(item).not.toContainText('Unread', { timeout: 3_000 });
  await screenshot(page, 'inbox-opted-out-1440');
  expect(await axeViolations(page, 'main')).toEqual([]);
  // The system's dark scheme (the dashboard follows it unless told otherwise).
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.getByText(/This number opted out/)).toBeVisible();
  await screenshot(page, 'inbox-opted-out-dark-1440');
  expect(await axeViolations(page, 'main')).toEqual([]);
});

test('saved replies are renamed and deleted from the composer, by keyboard', async ({ page }) => {
  // A number no other journey uses, so its conversation is ours to answer.
  const writer = '+447700900689';
  await page.goto('/inbox');
  await signInWithPassword(page);
  await expect(page.getByRole('heading', { name: 'Inbox', level: 1 })).toBeVisible();
  const headers = await sessionHeaders(page);
  for (const data of [
    { name: 'Shipping', body: 'We ship to Ireland in 2–3 working days.' },
    { name: 'Returns', body: 'You can return anything within 30 days for a full refund.' },
  ])
    expect((await page.request.post('/api/2.0/saved-replies/', { headers, data })).status()).toBe(201);
  expect((await page.request.post('/api/2.0/inbound-messages/', { headers, data: { from: writer, body: 'How long does delivery take?' } })).status()).toBe(201);
  await page.goto(`/inbox/${writer.slice(1)}`);
  await expect(page.getByRole('list', { name: 'Messages' })).toContainText('How long does delivery take?');

  const dialog = page.getByRole('dialog', { name: 'Saved replies' });
  // At each width (the page's layout changes between them), the dialog with a rename under way.
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await page.getByRole('button', { name: 'Manage saved replies' }).click();
    await expect(dialog.getByRole('listitem').filter({ hasText: 'Shipping' })).toBeVisible();
    // Renamed with the keyboard: the pencil focused, Enter, the name typed.
    await dialog.getByRole('button', { name: 'Rename Shipping' }).focus();
    await page.keyboard.press('Enter');
    const field = dialog.getByRole('textbox', { name: 'New name' });
    await expect(field).toBeFocused();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('Delivery times');
    await screenshot(page, `inbox-saved-replies-rename-${width}`);
    expect(await axeViolations(page, '.mantine-Modal-content')).toEqual([]);
    if (width === 390) {
      // Escape leaves the rename, then the dialog.
      await page.keyboard.press('Escape');
      await expect(field).toBeHidden();
      await expect(dialog).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
    }
  }
  await page.keyboard.press('Enter');
  await expect(dialog.getByRole('listitem').filter({ hasText: 'Delivery times' })).toBeVisible();
  await dismissToasts(page);
  await screenshot(page, 'inbox-saved-replies-1440');

  // Deleted once confirmed.
  await dialog.getByRole('button', { name: 'Delete Returns' }).click();
  await page.getByRole('dialog', { name: 'Delete this saved reply?' }).getByRole('button', { name: 'Delete saved reply' }).click();
  await expect(dialog.getByRole('listitem').filter({ hasText: 'Returns' })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  // The composer's picker offers the new name.
  await page
    .locator('input')
    .and(page.getByLabel('Saved reply', { exact: true }))
    .click();
  await expect(page.getByRole('option', { name: 'Delivery times' })).toBeVisible();
});

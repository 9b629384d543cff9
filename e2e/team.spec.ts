/**
 * Members (issue 18, point 3): an admin invites a new address as editor; the link in the e-mail the
 * worker writes opens the invitation page in another browser, where the person chooses a name and a
 * password (by keyboard alone), signs in with them and finds the team; back as admin, the new member
 * is in the list and the invitation is no longer pending.
 * The pages' own rules (the last admin's 409, the approval choices, the invalid link, checks before
 * sending) are in team.page.test.tsx and invitation.page.test.tsx, each seen red there.
 *
 * Team settings (issue 19): an admin sets the confirm threshold, a price per SMS part, quiet hours
 * with days and the team time zone, and a STOP reply, by keyboard alone; after a reload the page
 * shows what was saved, and axe finds nothing in the settings. They go back to what they were
 * whatever happens, so no other spec's campaign is held by quiet hours or answered with a reply.
 * Seen red: with the form sending null quiet hours whatever the switch said (quiet hours were off after
 * the reload).
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { ADMIN, dismissToasts, mailedLink, screenshot, sessionHeaders, signInWithPassword, axeViolations } from './support';

const NEWCOMER = { email: 'nina.newcomer@herald.test', name: 'Nina Newcomer', password: 'a-long-enough-passphrase' };

test('an admin invites a new editor by e-mail, who joins with the link and signs in to the team', async ({ page, browser }) => {
  await page.goto('/team');
  await signInWithPassword(page, ADMIN);
  await expect(page.getByRole('heading', { name: 'Team', level: 1 })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Members' }).getByRole('row').filter({ hasText: ADMIN.email })).toContainText('You');

  // Editor unless chosen otherwise.
  const form = page.getByRole('form', { name: 'Invite someone' });
  await form.getByRole('textbox', { name: 'E-mail' }).fill(NEWCOMER.email);
  await expect(form.getByRole('combobox', { name: 'Role' })).toHaveValue('Editor');
  await form.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Invitation sent' })).toContainText(
    `An e-mail inviting ${NEWCOMER.email} to join as an editor is on its way.`,
  );
  await expect(page.getByRole('table', { name: 'Pending invitations' }).getByRole('row').filter({ hasText: NEWCOMER.email })).toContainText('Editor');
  await screenshot(page, 'team-admin');

  const link = await mailedLink(NEWCOMER.email, /https?:\/\/\S+\/invitation#[\w-]+/);
  expect(new URL(link).pathname).toBe('/invitation');

  // The newcomer, in a browser of their own, by keyboard alone.
  const context = await browser.newContext();
  const newcomer = await context.newPage();
  await newcomer.goto(link);
  await expect(newcomer.getByRole('heading', { name: 'Join Herald as an editor', level: 1 })).toBeVisible();
  await expect(newcomer.getByRole('textbox', { name: 'E-mail' })).toHaveValue(NEWCOMER.email);
  await screenshot(newcomer, 'invitation-new-user');
  await newcomer.getByRole('textbox', { name: /Your name/ }).focus();
  await newcomer.keyboard.type(NEWCOMER.name);
  await newcomer.keyboard.press('Tab');
  await newcomer.keyboard.type(NEWCOMER.password);
  await newcomer.keyboard.press('Tab');
  await newcomer.keyboard.type(NEWCOMER.password);
  await newcomer.keyboard.press('Enter');
  await expect(newcomer.getByRole('status')).toContainText(`You are now an editor of Herald. Sign in with ${NEWCOMER.email} to start.`);

  // The link works once.
  const reopened = await context.newPage();
  await reopened.goto(link);
  await expect(reopened.getByRole('heading', { name: 'This invitation cannot be used', level: 1 })).toBeVisible();
  await expect(reopened.getByText(/Ask an admin of the team for a new invitation/)).toBeVisible();
  await reopened.close();

  await newcomer.getByRole('link', { name: 'Sign in' }).click();
  await signInWithPassword(newcomer, NEWCOMER);
  await expect(newcomer.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
  await expect(newcomer.getByRole('combobox', { name: 'Team' })).toHaveValue('Herald');
  await newcomer.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Team' }).click();
  await expect(newcomer.getByRole('heading', { name: 'Team', level: 1 })).toBeVisible();
  await expect(newcomer.getByRole('note')).toHaveText(
    'Only admins of Herald can change the team’s members, invitations and settings; you have the editor role.',
  );
  await expect(newcomer.getByRole('table', { name: 'Members' }).getByRole('row').filter({ hasText: NEWCOMER.email })).toContainText(`${NEWCOMER.name}You`);
  await context.close();

  // Back as admin: a member now, no longer pending; the admin changes the role by keyboard.
  await page.reload();
  const row = page.getByRole('table', { name: 'Members' }).getByRole('row').filter({ hasText: NEWCOMER.email });
  await expect(row.getByRole('combobox', { name: `Role of ${NEWCOMER.name}` })).toHaveValue('Editor');
  await expect(page.getByText('No invitations are waiting to be accepted.')).toBeVisible();
  await row.getByRole('combobox', { name: `Role of ${NEWCOMER.name}` }).focus();
  await page.keyboard.press('Enter');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('alert').filter({ hasText: `${NEWCOMER.name} is now a viewer.` })).toBeVisible();
  await expect(row.getByRole('combobox', { name: `Role of ${NEWCOMER.name}` })).toHaveValue('Viewer');
  await dismissToasts(page);
});

/** Puts the focus on `field` and types as a person would, replacing what is there. */
async function typeInto(page: Page, field: Locator, text: string) {
  await field.focus();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(text);
}

test.describe('team settings', () => {
  test('an admin sets the sending safety, cost, quiet hours and replies by keyboard, and finds them after a reload', async ({ page }) => {
    await page.goto('/team');
    await signInWithPassword(page, ADMIN);
    await expect(page.getByRole('heading', { name: 'Team', level: 1 })).toBeVisible();
    const before = await page.request.get('/api/2.0/team/settings', { headers: await sessionHeaders(page) });
    const { name: _name, ...saved } = ((await before.json()) as { data: Record<string, unknown> }).data;
    try {
      // Sending safety: Enter in the number saves.
      const safety = page.getByRole('form', { name: 'Sending safety' });
      await typeInto(page, safety.getByRole('textbox', { name: /Confirm the recipient count from/ }), '250');
      await page.keyboard.press('Enter');
      await expect(
        page.getByRole('alert').filter({ hasText: 'Scheduling a campaign of at least 250 recipients asks to type that number first.' }),
      ).toBeVisible();

      // Cost estimate: a price, and the currency picked by searching.
      const cost = page.getByRole('form', { name: 'Cost estimate' });
      await typeInto(page, cost.getByRole('textbox', { name: 'Price per SMS part' }), '0.045');
      await page.keyboard.press('Tab');
      await expect(cost.getByRole('combobox', { name: /Currency/ })).toBeFocused();
      await page.keyboard.type('GBP');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      await expect(cost.getByRole('combobox', { name: /Currency/ })).toHaveValue('GBP · British Pound');
      await cost.getByRole('button', { name: 'Save cost estimate' }).focus();
      await page.keyboard.press('Enter');
      await expect(page.getByRole('alert').filter({ hasText: '£0.045 per SMS part.' })).toBeVisible();

      // Quiet hours: on, 20:30 to 08:00, weekdays only, in New York's zone.
      const quiet = page.getByRole('form', { name: 'Quiet hours' });
      await quiet.getByRole('switch', { name: 'Keep quiet hours' }).focus();
      await page.keyboard.press('Space');
      await page.keyboard.press('Tab');
      await expect(quiet.getByLabel(/Quiet from/)).toBeFocused();
      // The browser's own time field, whatever its clock: the hour from 21 down to 20, then the minutes.
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowRight');
      await page.keyboard.type('30');
      await expect(quiet.getByLabel(/Quiet from/)).toHaveValue('20:30');
      await quiet.getByRole('checkbox', { name: 'Saturday' }).focus();
      await page.keyboard.press('Space');
      await page.keyboard.press('Tab');
      await page.keyboard.press('Space');
      await expect(quiet.getByText('Nothing is sent from 20:30 to 08:00 the next day, Monday to Friday.')).toBeVisible();
      await typeInto(page, quiet.getByRole('combobox', { name: /Team time zone/ }), 'New York');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      await expect(quiet.getByRole('combobox', { name: /Team time zone/ })).toHaveValue(/^America\/New York/);
      await quiet.getByRole('button', { name: 'Save quiet hours' }).focus();
      await page.keyboard.press('Enter');
      await expect(page.getByRole('alert').filter({ hasText: 'Team time zone: America/New_York.' })).toBeVisible();

      // Automatic replies: STOP answered, HELP left empty.
      const replies = page.getByRole('form', { name: 'Automatic replies' });
      await typeInto(page, replies.getByRole('textbox', { name: 'Reply to STOP' }), 'You will get no more messages from Herald.');
      await replies.getByRole('textbox', { name: 'Reply to HELP' }).focus();
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.press('Delete');
      await expect(replies.getByText('Empty: no reply is sent.')).toBeVisible();
      await expect(replies.getByText('1 SMS part · 42/160 characters')).toBeVisible();
      await replies.getByRole('button', { name: 'Save automatic replies' }).focus();
      await page.keyboard.press('Enter');
      await expect(page.getByRole('alert').filter({ hasText: 'The automatic replies are saved.' })).toBeVisible();
      await dismissToasts(page);

      // As saved, after a reload.
      await page.reload();
      await expect(safety.getByRole('textbox', { name: /Confirm the recipient count from/ })).toHaveValue('250');
      await expect(cost.getByRole('textbox', { name: 'Price per SMS part' })).toHaveValue('0.045');
      await expect(cost.getByRole('combobox', { name: /Currency/ })).toHaveValue('GBP · British Pound');
      await expect(quiet.getByRole('switch', { name: 'Keep quiet hours' })).toBeChecked();
      await expect(quiet.getByLabel(/Quiet from/)).toHaveValue('20:30');
      await expect(quiet.getByLabel(/Until/)).toHaveValue('08:00');
      await expect(quiet.getByRole('checkbox', { name: 'Saturday' })).not.toBeChecked();
      await expect(quiet.getByRole('checkbox', { name: 'Friday' })).toBeChecked();
      await expect(quiet.getByRole('combobox', { name: /Team time zone/ })).toHaveValue(/^America\/New York/);
      await expect(replies.getByRole('textbox', { name: 'Reply to STOP' })).toHaveValue('You will get no more messages from Herald.');
      await expect(replies.getByRole('textbox', { name: 'Reply to HELP' })).toHaveValue('');
      expect(await axeViolations(page, 'section[aria-labelledby="settings-title"]')).toEqual([]);
    } finally {
      const reset = await page.request.put('/api/2.0/team/settings', { headers: await sessionHeaders(page), data: saved });
      expect(reset.ok(), `resetting the settings: ${await reset.text()}`).toBe(true);
    }
  });
});

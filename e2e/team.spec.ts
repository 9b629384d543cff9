/**
 * Members (issue 18, point 3): an admin invites a new address as editor; the link in the e-mail the
 * worker writes opens the invitation page in another browser, where the person chooses a name and a
 * password (by keyboard alone), signs in with them and finds the team; back as admin, the new member
 * is in the list and the invitation is no longer pending.
 * The pages' own rules (the last admin's 409, the approval choices, the invalid link, checks before
 * sending) are in team.page.test.tsx and invitation.page.test.tsx, each seen red there.
 */
import { expect, test } from '@playwright/test';
import { ADMIN, dismissToasts, mailedLink, screenshot, signInWithPassword } from './support';

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
  await expect(newcomer.getByRole('heading', { name: 'Campaigns', level: 1 })).toBeVisible();
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

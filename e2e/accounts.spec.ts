/**
 * Accounts and approvals (issue 18, points 4 and 6). A member invited through the API forgets their
 * password: the sign-in page leads to a link by e-mail (the worker writes it to DATA_DIR/outbox),
 * the link sets a new password by keyboard alone, works once, and the new password signs in; on the
 * profile page they rename themselves (the header follows) and set their phone number for test sends
 * (a number that cannot be read is refused on the field; the saved one is kept), and change the password again, which
 * signs out their other sessions. With an approval threshold of 0, an editor's campaign waits for
 * an admin, who approves it from the campaign page by keyboard.
 *
 * The admin of the other specs keeps its password: only members made here have theirs changed. The
 * threshold goes back to none (null) whatever happens, so no other spec's campaign waits.
 *
 * Seen red: with the reset page reading `?token=` instead of the link's fragment (the page said the
 * link did not work), and with the approval panel offering no buttons to admins (Approve not found).
 */
import { expect, test, type APIRequestContext } from '@playwright/test';
import { ADMIN, dismissToasts, mailedLink, screenshot, signInWithPassword, axeViolations } from './support';

interface Person {
  email: string;
  name: string;
  password: string;
}

const ROSA: Person = { email: 'rosa.reset@herald.test', name: 'Rosa Reset', password: 'rosa-first-passphrase' };
const OMAR: Person = { email: 'omar.approvals@herald.test', name: 'Omar Approvals', password: 'omar-first-passphrase' };

/** Signs in through the API, as a script would, and calls it with that session's token. */
async function apiAs(request: APIRequestContext, { email, password }: Pick<Person, 'email' | 'password'>) {
  const login = await request.post('/api/2.0/auth/login', { data: { email, password } });
  expect(login.ok(), `sign-in of ${email}: ${await login.text()}`).toBe(true);
  const { token } = ((await login.json()) as { data: { token: string } }).data;
  const headers = { Authorization: `Bearer ${token}`, Accept: 'application/json' };
  const call = async <T>(method: 'post' | 'put' | 'get', apiPath: string, body?: unknown) => {
    const response = await request[method](`/api/2.0${apiPath}`, { headers, data: body });
    expect(response.ok(), `${method} ${apiPath}: ${await response.text()}`).toBe(true);
    return response.status() === 204 ? (undefined as T) : ((await response.json()) as { data: T }).data;
  };
  return {
    token,
    post: <T = { uuid: string }>(apiPath: string, body: unknown) => call<T>('post', apiPath, body),
    put: <T = unknown>(apiPath: string, body: unknown) => call<T>('put', apiPath, body),
  };
}

/** An admin invites `person` through the API; they accept the e-mailed link with a name and a password. */
async function join(request: APIRequestContext, person: Person, role: 'editor' | 'viewer') {
  const admin = await apiAs(request, ADMIN);
  await admin.post('/team/invitations', { email: person.email, role });
  const link = await mailedLink(person.email, /https?:\/\/\S+\/invitation#[\w-]+/);
  const accepted = await request.post('/api/2.0/invitations/accept', {
    data: { token: new URL(link).hash.slice(1), name: person.name, password: person.password },
  });
  expect(accepted.ok(), `accepting the invitation: ${await accepted.text()}`).toBe(true);
}

test('a member who forgot their password sets a new one from an e-mailed link, then renames themselves on the profile page', async ({ page, request }) => {
  await join(request, ROSA, 'editor');

  // The sign-in page leads to the forgotten-password page, with the address already typed.
  await page.goto('/campaigns');
  await expect(page.getByRole('heading', { name: 'Sign in to Herald' })).toBeVisible();
  await page.getByRole('textbox', { name: 'E-mail' }).fill(ROSA.email);
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await expect(page.getByRole('heading', { name: 'Forgot your password?', level: 1 })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'E-mail' })).toHaveValue(ROSA.email);
  await screenshot(page, 'forgot-password');
  await page.getByRole('button', { name: 'Send me a link' }).click();
  await expect(page.getByRole('status')).toContainText(`If an account uses this address, we have sent a link to ${ROSA.email}`);
  await screenshot(page, 'forgot-password-sent');

  // The e-mailed link, by keyboard alone.
  const link = await mailedLink(ROSA.email, /https?:\/\/\S+\/reset-password#[\w-]+/);
  const newPassword = 'rosa-second-passphrase';
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Choose a new password', level: 1 })).toBeVisible();
  await screenshot(page, 'reset-password');
  await page.getByRole('textbox', { name: 'New password', exact: true }).focus();
  await page.keyboard.type(newPassword);
  await page.keyboard.press('Tab');
  await expect(page.getByRole('textbox', { name: 'New password again', exact: true })).toBeFocused();
  await page.keyboard.type(newPassword);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Sign in to Herald' })).toBeVisible();
  await expect(page.getByRole('status')).toHaveText('Your password was changed. Sign in with your new password.');

  // The old password no longer signs in; the new one does.
  const old = await request.post('/api/2.0/auth/login', { data: { email: ROSA.email, password: ROSA.password } });
  expect(old.status()).toBe(401);
  await signInWithPassword(page, { email: ROSA.email, password: newPassword });
  await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();

  // The profile, from the user menu: a new name shows in the header at once.
  await page.getByRole('button', { name: `Account of ${ROSA.name}` }).click();
  await page.getByRole('menuitem', { name: 'Your profile' }).click();
  await expect(page.getByRole('heading', { name: 'Your profile', level: 1 })).toBeVisible();
  const profileForm = page.getByRole('form', { name: 'Your profile' });
  const phone = profileForm.getByRole('textbox', { name: 'Your phone number' });
  await profileForm.getByRole('textbox', { name: 'Name' }).fill('Rosa Renamed');
  // A number the service cannot read is refused on its field; a national one is read in the default country (GB).
  await phone.fill('12');
  await profileForm.getByRole('button', { name: 'Save profile' }).click();
  await expect(phone).toHaveAttribute('aria-invalid', 'true');
  await expect(phone).toBeFocused();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('07700 900555');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Account of Rosa Renamed' })).toBeVisible();
  await expect(phone).toHaveValue('+447700900555');
  await expect(phone).not.toHaveAttribute('aria-invalid', 'true');
  expect(await axeViolations(page, 'form[aria-label="Your profile"]')).toEqual([]);
  await dismissToasts(page);

  // Changing the password here signs out the member's other sessions, not this one.
  const elsewhere = await apiAs(request, { email: ROSA.email, password: newPassword });
  const passwordForm = page.getByRole('form', { name: 'Change your password' });
  await passwordForm.getByRole('textbox', { name: 'Current password', exact: true }).fill('not-the-password');
  await passwordForm.getByRole('textbox', { name: 'New password', exact: true }).fill('rosa-third-passphrase');
  await passwordForm.getByRole('textbox', { name: 'New password again', exact: true }).fill('rosa-third-passphrase');
  await passwordForm.getByRole('button', { name: 'Change password' }).click();
  await expect(passwordForm.getByText('The current password is not correct.')).toBeVisible();
  await passwordForm.getByRole('textbox', { name: 'Current password', exact: true }).fill(newPassword);
  await passwordForm.getByRole('button', { name: 'Change password' }).click();
  await expect(passwordForm.getByRole('status')).toContainText('Your other dashboard sessions were signed out');
  await screenshot(page, 'profile');
  const signedOut = await request.get('/api/2.0/users/me', { headers: { Authorization: `Bearer ${elsewhere.token}` } });
  expect(signedOut.status()).toBe(401);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Your profile', level: 1 })).toBeVisible();
  await expect(phone).toHaveValue('+447700900555');

  // The reset link worked once.
  await page.goto(link);
  await page.getByRole('textbox', { name: 'New password', exact: true }).fill('rosa-fourth-passphrase');
  await page.getByRole('textbox', { name: 'New password again', exact: true }).fill('rosa-fourth-passphrase');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByRole('alert')).toContainText('This link does not work');
  await page.getByRole('link', { name: 'Ask for a new link' }).click();
  await expect(page.getByRole('heading', { name: 'Forgot your password?', level: 1 })).toBeVisible();
});

test('an editor’s campaign waits for an admin’s approval, which the admin gives from the campaign page', async ({ page, request }) => {
  const admin = await apiAs(request, ADMIN);
  await admin.put('/team/settings', { approval_threshold: 0 });
  try {
    await join(request, OMAR, 'editor');
    const omar = await apiAs(request, OMAR);
    const template = await omar.post('/templates/', { name: 'E2E approvals', sender: '88440', body: 'Hello from the approvals journey.' });
    const group = await omar.post('/contact-groups/bulk-contacts', { name: 'E2E approvals group', contacts: ['+447700900201', '+447700900202'] });
    const campaign = await omar.post<{ uuid: string; approval: { status: string } }>('/campaigns/', {
      name: 'E2E campaign to approve',
      sender: '88440',
      template_uuid: template.uuid,
      included_contact_groups: [group.uuid],
      scheduled_send_date: '2099-08-01 09:00:00',
      expiry_date: '2099-08-02 09:00:00',
    });
    expect(campaign.approval.status).toBe('pending');

    // The admin, in the list then on the campaign's page.
    await page.goto('/campaigns');
    await signInWithPassword(page, ADMIN);
    const row = page.getByRole('row').filter({ hasText: 'E2E campaign to approve' });
    await expect(row.getByText('Awaiting approval')).toBeVisible();
    await row.getByRole('link', { name: 'E2E campaign to approve' }).click();
    await expect(page.getByRole('heading', { name: 'E2E campaign to approve', level: 1 })).toBeVisible();
    const approval = page.getByRole('region', { name: 'Approval' });
    await expect(approval).toContainText(`${OMAR.name} asked for approval on `);
    await expect(approval.getByText('Awaiting approval')).toBeVisible();
    await screenshot(page, 'campaign-approval-pending');

    // By keyboard: a comment, then Approve.
    await approval.getByRole('textbox', { name: 'Comment' }).focus();
    await page.keyboard.type('Checked the audience.');
    await page.keyboard.press('Tab');
    await expect(approval.getByRole('button', { name: 'Approve' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(approval).toContainText(new RegExp(`Approved by you on .+, asked by ${OMAR.name}\\.`));
    await expect(approval.getByText('Checked the audience.')).toBeVisible();
    await expect(approval.getByText('Approved', { exact: true })).toBeVisible();
    await expect(page.getByRole('alert').filter({ hasText: 'E2E campaign to approve is approved: it starts at its send time.' })).toBeVisible();
    await dismissToasts(page);
    await screenshot(page, 'campaign-approval-approved');

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Campaigns' }).click();
    await expect(page.getByRole('row').filter({ hasText: 'E2E campaign to approve' }).getByText('Approved', { exact: true })).toBeVisible();
  } finally {
    await admin.put('/team/settings', { approval_threshold: null });
  }
});

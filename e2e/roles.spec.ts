/**
 * Roles in the dashboard (issue 18, point 2): a viewer, made with the admin CLI as an operator would,
 * reads the campaigns but is offered nothing the service would refuse, and is told why once per page.
 *
 * Seen red: with `canEdit` forced to true in campaigns-list.page.tsx, the viewer was offered
 * "New campaign" (the count of those links was 1, not 0).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, test, type Page } from '@playwright/test';
import { ADMIN, screenshot, signInWithPassword, sessionHeaders } from './support';

const VIEWER = { email: 'viewer@herald.test', password: 'viewer-password-1' };
const VIEWER_NOTE =
  'You have the viewer role in Herald: you can read everything and e-mail reports, but not change anything. An admin of Herald can make you an editor.';

/** The admin CLI, as an operator runs it beside the service: it borrows the service's database. */
async function cli(...args: string[]): Promise<void> {
  try {
    await promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/server/cli/main.ts', ...args], {
      env: { ...process.env, DATA_DIR: process.env.HERALD_E2E_DATA_DIR },
    });
  } catch (error) {
    // A retried spec finds the user already made.
    if (!String((error as { stderr?: string }).stderr).includes('already been taken')) throw error;
  }
}

/** As the signed-in session (its cookie), to set up data through the API rather than the UI. */
async function post(page: Page, path: string, body: unknown): Promise<{ uuid: string }> {
  const response = await page.request.post(`/api/2.0${path}`, { headers: await sessionHeaders(page), data: body });
  expect(response.ok(), `${path}: ${await response.text()}`).toBe(true);
  return ((await response.json()) as { data: { uuid: string } }).data;
}

async function signOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: /^Account of/ }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in to Herald' })).toBeVisible();
}

test('a viewer reads the campaigns, with no way to change them and a sentence that says why', async ({ page }) => {
  await cli('user:create', '--email', VIEWER.email, '--password', VIEWER.password, '--team', 'Herald', '--name', 'Vera Viewer', '--role', 'viewer');

  // An admin of the same team plans a campaign for the viewer to read.
  await page.goto('/campaigns');
  await signInWithPassword(page, ADMIN);
  await expect(page.getByRole('link', { name: 'New campaign' }).first()).toBeVisible();
  const template = await post(page, '/templates/', { name: 'E2E roles', sender: '88440', body: 'Hello from the roles journey.' });
  const group = await post(page, '/contact-groups/bulk-contacts', { name: 'E2E roles group', contacts: ['+447700900101'] });
  await post(page, '/campaigns/', {
    name: 'E2E read-only campaign',
    sender: '88440',
    template_uuid: template.uuid,
    included_contact_groups: [group.uuid],
    scheduled_send_date: '2099-07-01 09:00:00',
    expiry_date: '2099-07-02 09:00:00',
  });
  await signOut(page);

  await signInWithPassword(page, VIEWER);
  await expect(page.getByRole('heading', { name: 'Campaigns', level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: 'E2E read-only campaign' })).toBeVisible();
  await expect(page.getByRole('note')).toHaveText(VIEWER_NOTE);
  await expect(page.getByRole('link', { name: 'New campaign' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Delete E2E read-only campaign' })).toHaveCount(0);
  await screenshot(page, 'roles-viewer-campaigns');

  // The campaign reads, without the buttons the service would refuse.
  await page.getByRole('link', { name: 'E2E read-only campaign' }).click();
  await expect(page.getByRole('heading', { name: 'E2E read-only campaign', level: 1 })).toBeVisible();
  await expect(page.getByRole('note')).toHaveText(VIEWER_NOTE);
  await expect(page.getByRole('textbox', { name: 'Name' })).toHaveValue('E2E read-only campaign');
  await expect(page.getByRole('button', { name: 'Save changes' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Send a test' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Delete' })).toHaveCount(0);

  // Typed straight into the address bar, the new-campaign page says why instead of offering a form.
  await page.goto('/campaigns/new');
  await expect(page.getByRole('heading', { name: 'New campaign', level: 1 })).toBeVisible();
  await expect(page.getByRole('note')).toHaveText(VIEWER_NOTE);
  await expect(page.getByRole('button', { name: 'Create campaign' })).toHaveCount(0);
  await page.getByRole('link', { name: 'Back to campaigns' }).click();
  await expect(page.getByRole('heading', { name: 'Campaigns', level: 1 })).toBeVisible();
});

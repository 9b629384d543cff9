/**
 * The Contacts pages (issue 20, point 4): an admin finds a number across the team's groups by its
 * digits or by a field's value, opens it (its groups and fields, the campaign message it received,
 * its opt-out state), downloads everything Herald holds about it as JSON, and erases it: it is then
 * gone from the search. Both pages pass axe (WCAG 2.1 A and AA, colour contrast included).
 */
import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { campaignBody, axeViolations, dismissToasts, screenshot, sessionHeaders, signInWithPassword } from './support';

const ADA = '+447700900701';
const GRACE = '+447700900702';

/** As the signed-in session (its cookie), to set up data through the API rather than the UI. */
async function api(page: Page) {
  const headers = await sessionHeaders(page);
  const send = async <T = { uuid: string }>(method: 'POST' | 'PUT', route: string, body: unknown) => {
    const response = await page.request.fetch(`/api/2.0${route}`, { method, headers, data: body });
    expect(response.ok(), `${method} ${route}: ${await response.text()}`).toBe(true);
    return ((await response.json()) as { data: T }).data;
  };
  const get = async <T>(route: string) => {
    const response = await page.request.get(`/api/2.0${route}`, { headers });
    expect(response.ok(), `${route}: ${await response.text()}`).toBe(true);
    return ((await response.json()) as { data: T }).data;
  };
  const post = <T = { uuid: string }>(route: string, body: unknown) => send<T>('POST', route, body);
  const put = <T = { uuid: string }>(route: string, body: unknown) => send<T>('PUT', route, body);
  return { post, put, get };
}

test('an admin finds a number across the groups, downloads what Herald holds about it, and erases it', async ({ page }) => {
  await page.goto('/contacts');
  await signInWithPassword(page);
  await expect(page.getByRole('heading', { name: 'Contacts', level: 1 })).toBeVisible();

  // Two groups that share Ada's number, with her fields in each; Grace opted out; a campaign sent to Ada.
  const { post, put, get } = await api(page);
  const { app_timezone: zone } = await get<{ app_timezone: string }>('/users/me');
  const members = await post('/contact-groups/bulk-contacts', { name: 'E2E directory members', contacts: [ADA, GRACE] });
  await put(`/contact-groups/${members.uuid}/add-contacts`, {
    contacts: [
      { phone_number: ADA, custom_fields: { first_name: 'Ada', city: 'London' } },
      { phone_number: GRACE, custom_fields: { first_name: 'Grace', city: 'York' } },
    ],
  });
  const vip = await post('/contact-groups/bulk-contacts', { name: 'E2E directory VIP', contacts: [ADA] });
  await put(`/contact-groups/${vip.uuid}/add-contacts`, { contacts: [{ phone_number: ADA, custom_fields: { first_name: 'Ada', email: 'ada@example.com' } }] });
  const groups = await get<Array<{ uuid: string; name: string }>>('/contact-groups/?search=default_optouts');
  const optouts = groups.find((group) => group.name === 'default_optouts')!;
  await put(`/contact-groups/${optouts.uuid}/add-contacts`, { contacts: [{ phone_number: GRACE }] });
  const template = await post('/templates/', { name: 'E2E directory note', sender: '88440', body: 'Hi {{first_name}}, your VIP evening is on Friday.' });
  const sendAt = Date.now() + 2_000;
  const campaign = await post('/campaigns/', campaignBody('E2E directory evening', { template: template.uuid, group: vip.uuid }, sendAt, zone));
  // The simulator gateway delivers within seconds; nothing queued is left, so the number can be erased.
  await expect.poll(async () => (await get<{ delivered: number }>(`/campaigns/${campaign.uuid}/summary`)).delivered, { timeout: 30_000 }).toBe(1);

  // Search by the number's digits: kept in the URL.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Contacts', exact: true }).click();
  const search = page.getByRole('textbox', { name: 'Search' });
  const table = page.getByRole('table', { name: 'Contacts' });
  await search.fill('770090070');
  await expect(page).toHaveURL(/search=770090070/);
  await expect(table.getByRole('row').filter({ hasText: ADA })).toContainText('E2E directory VIP');
  await expect(table.getByRole('row').filter({ hasText: ADA })).toContainText('E2E directory members');
  await expect(table.getByRole('row').filter({ hasText: GRACE })).toContainText('Opted out');
  expect(await axeViolations(page, 'main')).toEqual([]);
  await screenshot(page, 'contacts-directory-search');

  // Or by a field's value.
  await search.fill('ada');
  await expect(page).toHaveURL(/search=ada/);
  await expect(table.getByRole('row').filter({ hasText: GRACE })).toBeHidden();
  await expect(table.getByRole('row').filter({ hasText: ADA })).toBeVisible();

  // Her page: groups with her fields, the message she received, her opt-out state.
  await table.getByRole('link', { name: ADA }).click();
  await expect(page).toHaveURL(/\/contacts\/447700900701$/);
  await expect(page.getByRole('heading', { name: ADA, level: 1 })).toBeVisible();
  await expect(page.getByRole('group', { name: 'Opt-out' })).toContainText('Receives campaigns');
  const groupsSection = page.getByRole('region', { name: 'Groups' });
  await expect(groupsSection.getByRole('table', { name: 'Fields in E2E directory members' })).toContainText('London');
  await expect(groupsSection.getByRole('link', { name: 'E2E directory VIP' })).toHaveAttribute('href', `/contact-groups/${vip.uuid}`);
  const messages = page.getByRole('table', { name: 'Messages received' });
  await expect(messages.getByRole('row').filter({ hasText: 'E2E directory evening' })).toContainText('Delivered');
  expect(await axeViolations(page, 'main')).toEqual([]);
  await screenshot(page, 'contact-page');

  // Everything Herald holds about her, as a file named after the number.
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download data (JSON)' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('contact-447700900701.json');
  const exported = JSON.parse(fs.readFileSync(await download.path(), 'utf8')) as {
    data: {
      phone_number: string;
      groups: Array<{ name: string; custom_fields: Record<string, string> }>;
      messages: Array<{ body: string | null; status: string }>;
    };
  };
  expect(exported.data.phone_number).toBe('447700900701');
  expect(exported.data.groups.find((group) => group.name === 'E2E directory members')?.custom_fields).toEqual({ first_name: 'Ada', city: 'London' });
  expect(exported.data.messages).toEqual([expect.objectContaining({ status: 'delivered', body: 'Hi Ada, your VIP evening is on Friday.' })]);

  // Erased, after typing the number: back on the list, where the search no longer finds her.
  await page.getByRole('button', { name: 'Erase this contact' }).click();
  const dialog = page.getByRole('dialog', { name: 'Erase this contact' });
  await expect(dialog.getByRole('button', { name: 'Erase contact' })).toBeDisabled();
  await dialog.getByRole('textbox', { name: `Type ${ADA} to confirm` }).fill(ADA);
  expect(await axeViolations(page, '.mantine-Modal-content')).toEqual([]);
  await dialog.getByRole('button', { name: 'Erase contact' }).click();
  await expect(page.getByRole('alert').filter({ hasText: `${ADA} was erased from` })).toBeVisible();
  await expect(page).toHaveURL(/\/contacts$/);
  await dismissToasts(page);
  await page.getByRole('textbox', { name: 'Search' }).fill('900701');
  await expect(page.getByText('No contact matches')).toBeVisible();
  await page.goto('/contacts/447700900701');
  await expect(page.getByText('Nothing is held about this number')).toBeVisible();
});

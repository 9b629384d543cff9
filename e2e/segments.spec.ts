/**
 * Segments in the dashboard (issue 35, point 1): a marketer builds a segment with the keyboard alone
 * (a field condition, then a group condition), watches the live count change as the conditions do,
 * saves it and reads its contacts. The builder passes axe (WCAG 2.1 A and AA, colour contrast included).
 *
 * The contacts and the group are made through the API first: building the segment is the test. The
 * field name is this run's own, so contacts other journeys left in the team do not count.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { axeViolations, dismissToasts, screenshot, sessionHeaders, signInWithPassword } from './support';

const RUN = Date.now().toString(36);
const FIELD = `tier_${RUN}`;
const SEGMENT = `E2E gold members ${RUN}`;
const VIP = `E2E segment VIP ${RUN}`;
const GOLD = '+447700900931';
const GOLDEN = '+447700900932';
const SILVER = '+447700900933';

async function api(page: Page) {
  const headers = await sessionHeaders(page);
  const call = async <T = { uuid: string }>(method: 'GET' | 'POST' | 'PUT', route: string, body?: unknown) => {
    const response = await page.request.fetch(`/api/2.0${route}`, { method, headers, data: body });
    expect(response.ok(), `${method} ${route}: ${await response.text()}`).toBe(true);
    return ((await response.json()) as { data: T }).data;
  };
  return call;
}

/** Presses Tab until `target` has the focus (at most `limit` times). */
async function tabTo(page: Page, target: Locator, limit = 40): Promise<void> {
  for (let presses = 0; presses < limit; presses += 1) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((element) => element === document.activeElement)) return;
  }
  throw new Error(`${target} was not reached with ${limit} presses of Tab`);
}

/** Opens a select that has the focus with the arrows and picks `option` by typing nothing: arrows until it is active, then Enter. */
async function pickWithArrows(page: Page, select: Locator, option: string): Promise<void> {
  await page.keyboard.press('ArrowDown');
  const wanted = page.getByRole('option', { name: option, exact: true });
  await expect(wanted).toBeVisible();
  for (let presses = 0; presses < 15 && (await wanted.getAttribute('data-combobox-selected')) === null; presses += 1) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(select).toHaveValue(option);
}

test('a marketer builds a segment by keyboard, watches the live count, saves it and reads its contacts', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto('/segments');
  await signInWithPassword(page);
  await expect(page.getByRole('heading', { name: 'Segments', level: 1 })).toBeVisible();

  const call = await api(page);
  const members = await call('POST', '/contact-groups/bulk-contacts', { name: `E2E segment members ${RUN}`, contacts: [GOLD, GOLDEN, SILVER] });
  await call('PUT', `/contact-groups/${members.uuid}/add-contacts`, {
    contacts: [
      { phone_number: GOLD, custom_fields: { [FIELD]: 'gold', first_name: 'Ada' } },
      { phone_number: GOLDEN, custom_fields: { [FIELD]: 'golden', first_name: 'Bo' } },
      { phone_number: SILVER, custom_fields: { [FIELD]: 'silver', first_name: 'Cleo' } },
    ],
  });
  await call('POST', '/contact-groups/bulk-contacts', { name: VIP, contacts: [GOLDEN] });

  // The navbar's Segments entry, then New segment.
  await page.reload();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Segments', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Segments', level: 1 })).toBeVisible();
  const newSegment = page.getByRole('link', { name: 'New segment' }).first();
  await newSegment.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'New segment', level: 1 })).toBeVisible();

  // By keyboard alone from here: the name, then the first condition's field, comparison and value.
  const name = page.getByRole('textbox', { name: 'Name' });
  await expect(name).toBeVisible();
  if (!(await name.evaluate((element) => element === document.activeElement))) await tabTo(page, name);
  await page.keyboard.type(SEGMENT);
  const count = page.getByRole('status');
  await expect(count).toContainText('—');
  const first = page.getByRole('group', { name: 'Condition 1' });
  await tabTo(page, first.getByRole('combobox', { name: 'Field' }));
  await page.keyboard.type(FIELD);
  await page.keyboard.press('Escape');
  const comparison = first.getByRole('combobox', { name: 'Comparison' });
  await tabTo(page, comparison);
  await pickWithArrows(page, comparison, 'contains');
  await tabTo(page, first.getByRole('textbox', { name: 'Value' }));
  await page.keyboard.type('gold');
  await expect(first.getByTestId('condition-sentence')).toHaveText(
    `Reads: ${FIELD.charAt(0).toUpperCase()}${FIELD.slice(1).replace(/_/g, ' ')} contains “gold”`,
  );
  await expect(count).toHaveText(/^2\s*contacts match$/);

  // A second condition: not in the VIP group. The count follows.
  await tabTo(page, page.getByRole('button', { name: 'Add a condition' }));
  await page.keyboard.press('Enter');
  const second = page.getByRole('group', { name: 'Condition 2' });
  const type = second.getByRole('combobox', { name: 'Type' });
  await type.focus();
  await pickWithArrows(page, type, 'Contact group');
  const membership = second.getByRole('combobox', { name: 'Membership' });
  await tabTo(page, membership);
  await pickWithArrows(page, membership, 'Is not in the group');
  const group = second.getByRole('combobox', { name: 'Group' });
  await tabTo(page, group);
  await page.keyboard.type(VIP);
  await expect(page.getByRole('option', { name: VIP })).toBeVisible();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(second.getByTestId('condition-sentence')).toHaveText(`Reads: Is not in the group “${VIP}”`);
  await expect(count).toHaveText(/^1\s*contact matches$/);
  expect(await axeViolations(page, 'main')).toEqual([]);
  await screenshot(page, 'segment-builder');

  // Saved: its page lists its one contact.
  await tabTo(page, page.getByRole('button', { name: 'Create segment' }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: SEGMENT, level: 1 })).toBeVisible();
  const contacts = page.getByRole('table', { name: 'Contacts in the segment' });
  await expect(contacts.getByRole('row')).toHaveCount(2);
  await expect(contacts).toContainText(GOLD);
  await expect(contacts).toContainText('United Kingdom');
  await dismissToasts(page);
  await screenshot(page, 'segment-page');
});

/**
 * The flows dashboard (issue 36, point 2): an editor builds a flow in the vertical step editor (a
 * keyword trigger, a send, a wait, a branch with a nested step, all added and one moved by keyboard),
 * creates it disabled, finds it in the flows list with its trigger in words, tests it with a number
 * typed once (the page keeps it for the next test) whatever its trigger and though it is disabled,
 * sees the test run (marked as one) and its history on the flow's page with the steps' counts left
 * alone, a second test replacing the first, and the runs with their history in the Flows section of
 * the number's contact page. axe finds nothing on the
 * editor with its nested branch. The editor's own rules (moves within a list, ids kept on save, the
 * 422 at its field) are in src/app/features/flows/flow-editor.test.tsx, seen red there.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { axeViolations, dismissToasts, screenshot, sessionHeaders, signInWithPassword } from './support';

const RUN = Date.now().toString(36);
const FLOW = `E2E welcome ${RUN}`;
const KEYWORD = `FLOW${RUN.slice(-5).toUpperCase()}`;
/** A number of its own (the drama range, 07700 900…), so a retry or another spec never finds it in a run. */
const NUMBER = `+4477009${String(Date.now() % 100_000).padStart(5, '0')}`;

/** Presses Tab until `target` has the focus (at most `limit` times): a control the keyboard cannot reach fails. */
async function tabTo(page: Page, target: Locator, limit = 60): Promise<void> {
  for (let presses = 0; presses < limit; presses++) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${target.toString()}`);
}

/** Opens an "Add a step" menu by keyboard and picks the step type with the arrows and Enter. */
async function addStepByKeyboard(page: Page, list: string, type: string): Promise<void> {
  const button = page.getByRole('button', { name: `Add a step to ${list}`, exact: true });
  // The last menu closes (and hands the focus back to its button) before the next one opens.
  await expect(page.getByRole('menu')).toHaveCount(0);
  await button.focus();
  // Mantine hides a dropdown whose button is out of the window: bring it in, as the browser does for a Tab.
  await button.evaluate((element) => element.scrollIntoView({ block: 'center' }));
  await page.keyboard.press('Enter');
  const item = page.getByRole('menuitem', { name: type, exact: true });
  await expect(item).toBeVisible();
  for (let presses = 0; presses < 8 && !(await item.evaluate((element) => element === document.activeElement)); presses++)
    await page.keyboard.press('ArrowDown');
  await expect(item).toBeFocused();
  await page.keyboard.press('Enter');
}

async function choose(scope: Locator, page: Page, label: string, option: string | RegExp): Promise<void> {
  await scope
    .getByRole('textbox', { name: label, exact: true })
    .or(scope.getByRole('combobox', { name: label, exact: true }))
    .first()
    .click();
  await page.getByRole('option', { name: option }).click();
}

test('an editor builds a flow, tests it with a number and follows the run to the contact page', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto('/');
  await signInWithPassword(page);
  await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();

  // What the flow points at: a keyword, a template, and a group holding the number (its contact page).
  const headers = await sessionHeaders(page);
  const call = async (route: string, body: unknown, method = 'POST') => {
    const response = await page.request.fetch(`/api/2.0${route}`, { method, headers, data: body });
    expect(response.ok(), `${route}: ${await response.text()}`).toBe(true);
    return ((await response.json()) as { data: { uuid: string } }).data;
  };
  await call('/keywords/', { keyword: KEYWORD, message: 'Welcome aboard.' });
  await call('/templates/', { name: `E2E welcome text ${RUN}`, sender: '88440', body: 'Welcome {{first_name|there}}!' });
  await call('/contact-groups/bulk-contacts', { name: `E2E flow testers ${RUN}`, contacts: [NUMBER] });

  // The list, from the navigation; then a new flow.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Flows' }).click();
  await expect(page.getByRole('heading', { name: 'Flows', level: 1 })).toBeVisible();
  await page.getByRole('link', { name: 'New flow' }).first().click();
  await expect(page.getByRole('heading', { name: 'New flow', level: 1 })).toBeVisible();

  await page.getByRole('textbox', { name: 'Name' }).fill(FLOW);
  const trigger = page.getByRole('region', { name: 'Trigger' });
  await choose(trigger, page, 'Keyword', KEYWORD);

  // The steps, by keyboard: a send, a branch, a wait (then moved up above the branch), and an end in the branch's "then".
  await addStepByKeyboard(page, 'steps', 'Send a template');
  await choose(page.getByRole('group', { name: 'Step 1: Send a template' }), page, 'Template', `E2E welcome text ${RUN}`);
  await addStepByKeyboard(page, 'steps', 'Branch on a condition');
  await addStepByKeyboard(page, 'steps', 'Wait');
  const moveUp = page.getByRole('button', { name: 'Move step 3 up' });
  await tabTo(page, moveUp);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('group', { name: 'Step 2: Wait' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Move step 2 up' })).toBeFocused();
  await choose(page.getByRole('group', { name: 'Step 3: Branch on a condition' }), page, 'Condition', 'Replied since the last message');
  await addStepByKeyboard(page, 'step 3, then', 'End');
  await expect(page.getByRole('group', { name: 'Step 3, then step 1: End' })).toBeVisible();
  // Left disabled: a test run needs no live flow.

  expect(await axeViolations(page, 'main')).toEqual([]);
  await page.getByRole('button', { name: 'Create flow' }).click();

  // The flow's page: each saved step with its counts (none yet).
  await expect(page.getByRole('heading', { name: FLOW, level: 1 })).toBeVisible();
  await expect(page.getByRole('group', { name: 'Step 1: Send a template' }).getByLabel('Counts')).toContainText('0 entered');
  await dismissToasts(page);

  // Listed, with its trigger in words.
  await page.getByRole('link', { name: 'Flows', exact: true }).first().click();
  const row = page.getByRole('table', { name: 'Flows' }).getByRole('row').filter({ hasText: FLOW });
  await expect(row).toContainText(`When a number texts ${KEYWORD}`);
  await expect(row).toContainText('Disabled');
  await row.getByRole('link', { name: FLOW }).click();

  // Tested with a number, though its trigger is a keyword and it is disabled.
  const tester = page.getByRole('form', { name: 'Test with my number' });
  await expect(tester).toContainText('each wait lasts at most a minute');
  await tester.getByRole('textbox', { name: 'Your number' }).fill(NUMBER);
  await tester.getByRole('button', { name: 'Test with my number' }).click();
  await expect(tester.getByRole('status')).toContainText('Test run started');
  const runs = page.getByRole('region', { name: 'Runs' });
  const run = runs.getByRole('button', { name: new RegExp(`\\${NUMBER}\\s*Active\\s*Test`) });
  await expect(run).toBeVisible();
  await run.click();
  const history = runs.getByRole('table', { name: `History of the run for ${NUMBER}` });
  // The advance takes the run within seconds; the page reads the runs again while any is active.
  await expect(history.getByRole('row').filter({ hasText: 'Send a template' })).toBeVisible({ timeout: 30_000 });
  // A test run counts in none of the flow's figures.
  await page.reload();
  await expect(page.getByRole('group', { name: 'Step 1: Send a template' }).getByLabel('Counts')).toContainText('0 entered');

  // The number is kept for the next test; a second test replaces the first.
  await expect(tester.getByRole('textbox', { name: 'Your number' })).toHaveValue(NUMBER);
  await tester.getByRole('button', { name: 'Test with my number' }).click();
  await expect(tester.getByRole('status')).toContainText('Test run started');
  await expect(runs.getByRole('button', { name: /Exited: Replaced by a newer test/ })).toBeVisible({ timeout: 30_000 });
  const second = runs.getByRole('button', { name: new RegExp(`\\${NUMBER}\\s*Active\\s*Test`) });
  await second.click();
  await expect(
    runs
      .getByRole('table', { name: `History of the run for ${NUMBER}` })
      .first()
      .getByRole('row')
      .filter({ hasText: 'Send a template' }),
  ).toBeVisible({ timeout: 30_000 });
  await page.setViewportSize({ width: 1440, height: 900 });
  await screenshot(page, 'flow-tested');
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, 'flow-tested-phone');
  await page.setViewportSize({ width: 1280, height: 800 });

  // The contact page's Flows section: the run, and its history.
  await page.goto(`/contacts/${NUMBER.slice(1)}`);
  const section = page.getByRole('region', { name: 'Flows' });
  const contactRun = section.getByRole('button', { name: new RegExp(FLOW) }).first();
  await expect(contactRun).toBeVisible();
  await contactRun.click();
  await expect(
    section
      .getByRole('table', { name: `History of the run for ${NUMBER}` })
      .getByRole('row')
      .filter({ hasText: 'Send a template' }),
  ).toBeVisible();
  expect(await axeViolations(page, 'main')).toEqual([]);
  await screenshot(page, 'contact-flows');
});

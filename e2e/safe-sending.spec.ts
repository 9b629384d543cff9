import { expect, test, type Locator, type Page } from '@playwright/test';
import { axeViolations, dismissToasts, screenshot, sessionHeaders, signInWithPassword } from './support';

function toast(page: Page, text: string) {
  return page.getByRole('alert').filter({ hasText: text });
}

/** As the signed-in session (its cookie), to set up data through the API rather than the UI. */
async function api(page: Page) {
  const headers = await sessionHeaders(page);
  const send = async (method: 'POST' | 'PUT', path: string, body: unknown) => {
    const response = await page.request.fetch(`/api/2.0${path}`, { method, headers, data: body });
    expect(response.ok(), `${method} ${path}: ${await response.text()}`).toBe(true);
    return ((await response.json()) as { data: { uuid: string } }).data;
  };
  return { post: (path: string, body: unknown) => send('POST', path, body), put: (path: string, body: unknown) => send('PUT', path, body) };
}

/**
 * At 1440 and at 390 px wide, then back to the test's own width. A page is captured whole; an open
 * dialog as the viewport shows it (a full-page capture leaves the page below the fold undimmed),
 * with `inView` scrolled into it.
 */
async function screenshotsAtBothWidths(page: Page, name: string, dialog?: { inView: Locator }) {
  const original = page.viewportSize();
  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    if (dialog) {
      await dialog.inView.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `test-results/screenshots/${name}-${width}.png` });
    } else await screenshot(page, `${name}-${width}`);
  }
  if (original) await page.setViewportSize(original);
}

const RECIPIENTS = 1200;

test('a marketer fixes a blocking field, tests the draft, confirms the count, sends throttled, and stops it', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto('/campaigns');
  await signInWithPassword(page);
  await expect(page.getByRole('heading', { name: 'Campaigns', level: 1 })).toBeVisible();

  // Above the team's confirm threshold (1000 by default): 1,200 contacts whose only field is "First Name".
  const { post, put } = await api(page);
  const group = await post('/contact-groups/', { name: 'E2E safe list', headers: ['First Name'] });
  const contacts = Array.from({ length: RECIPIENTS }, (_, index) => ({
    phone_number: `+4477009${String(50_000 + index).padStart(5, '0')}`,
    custom_fields: { 'First Name': `Reader${index}` },
  }));
  for (let start = 0; start < contacts.length; start += 500) {
    await put(`/contact-groups/${group.uuid}/add-contacts`, { contacts: contacts.slice(start, start + 500) });
  }
  // The first reader is also in a second list under another name: the review says the groups disagree (issue 32).
  const newcomers = await post('/contact-groups/', { name: 'E2E safe newcomers', headers: ['First Name'] });
  await put(`/contact-groups/${newcomers.uuid}/add-contacts`, {
    contacts: [{ phone_number: contacts[0]!.phone_number, custom_fields: { 'First Name': 'Ada' } }],
  });
  // {{first_name}} is in no group, and has no fallback: it blocks scheduling.
  const template = await post('/templates/', { name: 'E2E safe hello', sender: '88440', body: 'Hi {{first_name}}!' });
  await page.reload();

  // The new campaign: the coverage warning names the blocking field as soon as template and group are picked.
  await page.getByRole('link', { name: 'New campaign' }).first().click();
  await expect(page.getByRole('heading', { name: 'New campaign', level: 1 })).toBeVisible();
  await page.getByRole('textbox', { name: 'Name' }).fill('E2E safe sending');
  await page.getByRole('combobox', { name: 'Template' }).click();
  await page.getByRole('option', { name: 'E2E safe hello' }).click();
  await page.getByRole('combobox', { name: 'Send to these groups' }).click();
  await page.getByRole('option', { name: 'E2E safe list' }).click();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('recipient-estimate')).toHaveText('≈ 1,200 recipients');
  const coverage = page.getByRole('region', { name: 'Personalisation' });
  await expect(coverage.getByRole('alert')).toContainText('{{first_name}} blocks scheduling');
  await expect(coverage).toContainText('No such field in E2E safe list.');
  // Throttled over the next four hours (the form's default finish), so it is still sending when stopped.
  await page.getByRole('switch', { name: 'Throttle the sending' }).check({ force: true });

  // A draft may keep the gap: it is never sent.
  await page.getByRole('button', { name: 'Save draft' }).click();
  await expect(toast(page, 'The draft E2E safe sending was saved: nothing is sent until it is scheduled.')).toBeVisible();
  await dismissToasts(page);
  await expect(page).toHaveURL(/\/campaigns\/[0-9a-f-]{36}$/);
  const campaignUrl = page.url();
  await expect(page.getByRole('heading', { name: 'E2E safe sending', level: 1 })).toBeVisible();
  await expect(page.getByText('Draft', { exact: true }).first()).toBeVisible();

  // The template gets the group's own field name, with a fallback (through the template page).
  await page.goto(`/templates/${template.uuid}`);
  const body = page.getByRole('textbox', { name: 'Message' });
  await expect(body).toHaveValue('Hi {{first_name}}!');
  await body.fill('Hi {{First Name|there}}!');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(toast(page, 'The template E2E safe hello was saved.')).toBeVisible();
  await dismissToasts(page);

  // Back to the draft: no gap any more.
  await page.goto(campaignUrl);
  await expect(page.getByRole('heading', { name: 'E2E safe sending', level: 1 })).toBeVisible();
  await expect(page.getByTestId('campaign-message-preview')).toContainText('Hi ');
  await expect(page.getByRole('region', { name: 'Personalisation' })).toBeHidden();
  await expect(page.getByRole('switch', { name: 'Throttle the sending' })).toBeChecked();

  // The review of the saved draft carries its test sends: one to a number, personalised from a contact.
  await page.getByRole('button', { name: 'Review and schedule' }).click();
  let review = page.getByRole('dialog', { name: 'Review and schedule' });
  const tests = review.getByRole('region', { name: 'Test sends' });
  await expect(tests).toContainText('No test sent yet.');
  await tests.getByRole('textbox', { name: 'Send a test to' }).fill('+447700900999');
  await tests.getByRole('textbox', { name: 'Fields from contact' }).fill(contacts[0]!.phone_number);
  await tests.getByRole('button', { name: 'Send a test' }).click();
  await expect(toast(page, 'A test goes to one number now.')).toBeVisible();
  await dismissToasts(page);
  await expect(tests.getByRole('list', { name: 'Tests sent' })).toContainText('447700900999');
  await review.getByRole('button', { name: 'Back to the form' }).first().click();
  await expect(review).toBeHidden();

  // The second list too: its one number is already a recipient, under another name.
  await page.getByRole('combobox', { name: 'Send to these groups' }).click();
  await page.getByRole('option', { name: 'E2E safe newcomers' }).click();
  await page.keyboard.press('Escape');

  // Send now, throttled: the review counts the recipients and the SMS parts, and asks for the count typed.
  await page.getByText('Send now', { exact: true }).click();
  await page.getByRole('button', { name: 'Review and schedule' }).click();
  review = page.getByRole('dialog', { name: 'Review and schedule' });
  await expect(review.getByTestId('review-total')).toHaveText('1,200');
  const conflicting = review.getByTestId('review-conflicting');
  await expect(conflicting).toHaveText('1 recipient is in groups that hold different values for a field the message uses: the group listed first wins.');
  await expect(review.getByRole('note', { name: '{{First Name}} differs between groups for 1 recipient' })).toBeVisible();
  await screenshotsAtBothWidths(page, 'safe-sending-review-conflict', { inView: conflicting });
  await expect(review.getByText('SMS parts per message').locator('..')).toContainText('1');
  await expect(review.getByText('SMS parts in all').locator('..')).toContainText('1,200');
  await expect(review.getByRole('region', { name: 'Personalisation' })).toContainText('Every personalised field is filled for every recipient');
  const schedule = review.getByRole('button', { name: 'Schedule' });
  const confirmation = review.getByRole('textbox', { name: 'Type 1200 to confirm the number of recipients' });
  await expect(schedule).toBeDisabled();
  await confirmation.fill('1,100');
  await expect(schedule).toBeDisabled();
  await confirmation.fill('1,200');
  await expect(schedule).toBeEnabled();
  expect(await axeViolations(page, '.mantine-Modal-content')).toEqual([]);
  await screenshotsAtBothWidths(page, 'safe-sending-review-confirmed', { inView: schedule });
  await schedule.click();
  await expect(toast(page, 'The campaign E2E safe sending was scheduled.')).toBeVisible();
  await dismissToasts(page);

  // The engine starts it within a tick or two; the page follows by itself.
  const progress = page.getByRole('region', { name: 'Sending progress' });
  await expect(progress.getByText(/Live · refreshes every 2 s/)).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('Sending', { exact: true }).first()).toBeVisible();
  await expect(progress.getByRole('listitem', { name: 'Recipients: 1,200' })).toBeVisible();
  await expect(progress.getByRole('listitem', { name: 'Opt-outs: 0' })).toBeVisible();

  // Stop: asked first, then nothing more is sent and what was queued is unsent with the reason "stopped".
  await page.getByRole('button', { name: 'Stop sending' }).click();
  const stopDialog = page.getByRole('dialog', { name: 'Stop sending' });
  await expect(stopDialog).toContainText('messages still queued are recorded as unsent with the reason “stopped”');
  await stopDialog.getByRole('button', { name: 'Stop sending' }).click();
  await expect(toast(page, 'E2E safe sending is stopped: nothing more is sent.')).toBeVisible();
  await dismissToasts(page);
  await expect(page.getByText('Stopped', { exact: true }).first()).toBeVisible();
  await expect(page.getByRole('note').filter({ hasText: /^Stopped at/ })).toContainText('Nothing more is sent.');
  await expect(page.getByRole('button', { name: 'Stop sending' })).toBeHidden();
  await expect(progress.getByText(/Live · refreshes/)).toBeHidden({ timeout: 15_000 });

  const reports = page.getByRole('region', { name: 'Reports' });
  await reports.getByRole('tab', { name: 'Not sent' }).click();
  const unsent = reports.getByRole('table', { name: 'Not sent report' });
  await expect(unsent.getByRole('row').nth(1)).toContainText('stopped', { timeout: 15_000 });
  await expect(reports.getByText(/^Rows 1–\d+ of 1,[12]\d\d$/)).toBeVisible();

  expect(await axeViolations(page, 'main')).toEqual([]);
  await screenshotsAtBothWidths(page, 'safe-sending-stopped');
});

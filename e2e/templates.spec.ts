import { expect, test, type Page } from '@playwright/test';
import { dismissToasts, screenshot, sessionHeaders, signInWithPassword } from './support';

function toast(page: Page, text: string) {
  return page.getByRole('alert').filter({ hasText: text });
}

test('a marketer writes a template, links it, and wires a keyword to a webhook', async ({ page }) => {
  await page.goto('/templates');
  await signInWithPassword(page);
  await expect(page.getByRole('heading', { name: 'Templates', level: 1 })).toBeVisible();

  // Write a new template: the counters follow each keystroke.
  await page.getByRole('link', { name: 'New template' }).first().click();
  await expect(page.getByRole('heading', { name: 'New template', level: 1 })).toBeVisible();
  await expect(page.getByText('Links can be added once the template is saved.').first()).toBeVisible();
  await page.getByRole('textbox', { name: 'Name' }).fill('Spring sale');
  await page.getByRole('combobox', { name: 'Sender' }).fill('884');
  await page.getByRole('option', { name: '88440' }).click();
  await expect(page.getByRole('combobox', { name: 'Sender' })).toHaveValue('88440');

  const body = page.getByRole('textbox', { name: 'Message' });
  const counter = page.getByTestId('segment-counter');
  await body.pressSequentially('Hi {{first_name}}, spring is here');
  await expect(page.getByText('GSM-7', { exact: true })).toBeVisible();
  await expect(counter).toHaveText('1 segment · 20/160');
  await body.pressSequentially(' 🌷');
  await expect(page.getByText('Unicode', { exact: true })).toBeVisible();
  await expect(counter).toHaveText('1 segment · 23/70');
  await body.pressSequentially(' Our biggest sale of the year starts now, come early!');
  await expect(counter).toHaveText('2 segments · 76/134');
  await expect(page.getByRole('group', { name: 'Segment 2 of 2' })).toBeVisible();

  // Curly quotes pasted from a document: one click makes the text GSM again.
  await body.fill('Hi {{first_name}}, the “Spring sale” starts now – don’t miss it: ::SALE::');
  await expect(page.getByText('Unicode', { exact: true })).toBeVisible();
  await expect(page.getByRole('listitem', { name: /U\+201C/ })).toBeVisible();
  await expect(page.getByText('::SALE:: names no link of this template; it will be sent as a blank space.')).toBeVisible();
  await screenshot(page, 'template-editor-non-gsm');
  await page.getByRole('button', { name: 'Replace look-alikes' }).click();
  await expect(body).toHaveValue('Hi {{first_name}}, the "Spring sale" starts now - don\'t miss it: ::SALE::');
  await expect(page.getByText('GSM-7', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Replace look-alikes' })).toBeHidden();

  await page.getByRole('button', { name: 'Create template' }).click();
  await expect(toast(page, 'The template Spring sale was created.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Spring sale', level: 1 })).toBeVisible();
  await expect(page).toHaveURL(/\/templates\/[0-9a-f-]{36}$/);

  // Add the link the body already names: the preview shows it as a short link at once.
  const preview = page.getByRole('region', { name: 'Message preview' });
  await expect(preview).toContainText('{first_name}');
  await expect(preview).toContainText('::SALE::');
  await page.getByRole('button', { name: 'Add link' }).click();
  const linkDialog = page.getByRole('dialog', { name: 'Add link' });
  await linkDialog.getByRole('textbox', { name: 'Name' }).fill('SALE');
  await linkDialog.getByRole('textbox', { name: 'Destination' }).fill('https://shop.example.com/spring');
  await expect(linkDialog.getByRole('combobox', { name: 'Vanity domain' })).toHaveValue(/Herald's own domain/);
  await linkDialog.getByRole('button', { name: 'Add link' }).click();
  await expect(toast(page, 'The link SALE was added.')).toBeVisible();
  const links = page.getByRole('table', { name: 'Links' });
  await expect(links.getByRole('cell', { name: '::SALE::', exact: true })).toBeVisible();
  await expect(links.getByRole('cell', { name: 'https://shop.example.com/spring', exact: true })).toBeVisible();
  await expect(preview).toContainText(/http:\/\/localhost:8199\/l\/[0-9a-f]{7}/);
  await expect(page.getByText('::SALE:: names no link of this template; it will be sent as a blank space.')).toBeHidden();
  await expect(page.getByTestId('segment-counter')).toHaveText('1 segment · 83/160');
  await dismissToasts(page);
  await screenshot(page, 'template-links-table');

  // Insert a second shorthand from the menu, and save.
  await body.click();
  await body.press('End');
  await body.pressSequentially(' Or visit ');
  await page.getByRole('button', { name: 'Insert link' }).click();
  await page.getByRole('menuitem', { name: '::SALE::' }).click();
  await expect(body).toHaveValue(/ Or visit ::SALE::$/);
  await body.press('End');
  await body.pressSequentially('. Reply STOP to opt out');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(toast(page, 'The template Spring sale was saved.')).toBeVisible();
  await dismissToasts(page);
  await screenshot(page, 'template-editor');

  // A web address typed as it is: offered as a tracked link, which then takes its place.
  await body.click();
  await body.press('End');
  await body.pressSequentially(' More: https://shop.example.com/autumn-deals');
  const plain = page.getByRole('alert').filter({ hasText: 'A plain web address' });
  await expect(plain).toBeVisible();
  await screenshot(page, 'template-plain-url');
  await plain.getByRole('button', { name: 'Track https://shop.example.com/autumn-deals as a link' }).click();
  const trackDialog = page.getByRole('dialog', { name: 'Track this link' });
  await expect(trackDialog.getByRole('textbox', { name: 'Name' })).toHaveValue('AUTUMN-DEALS');
  await expect(trackDialog.getByRole('textbox', { name: 'Destination' })).toHaveValue('https://shop.example.com/autumn-deals');
  await trackDialog.getByRole('button', { name: 'Add link and use it' }).click();
  await expect(body).toHaveValue(/ More: ::AUTUMN-DEALS::$/);
  await expect(plain).toBeHidden();
  // The link is made with the template's save, so an abandoned edit leaves none behind.
  await expect(links.getByRole('cell', { name: '::AUTUMN-DEALS::', exact: true })).toBeHidden();
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(toast(page, 'The template Spring sale was saved.').first()).toBeVisible();
  await dismissToasts(page);
  await expect(links.getByRole('cell', { name: '::AUTUMN-DEALS::', exact: true })).toBeVisible();

  // The service's own rendering, with its warnings (a field has no value without a contact).
  await page.getByRole('tab', { name: 'Server preview' }).click();
  await expect(page.getByTestId('server-preview-body')).toContainText(/Spring sale" starts now - don't miss it: http:\/\/localhost:8199\/l\/\w{7}/);
  await expect(page.getByText('{{first_name}} has no value without a contact; it shows as a blank space.')).toBeVisible();
  await screenshot(page, 'template-server-preview');

  // The list shows the template with its encoding and segments.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Templates' }).click();
  const templates = page.getByRole('table', { name: 'Templates' });
  const row = templates.getByRole('row').filter({ hasText: 'Spring sale' });
  await expect(row).toContainText('88440');
  await expect(row).toContainText('GSM-7');
  await screenshot(page, 'templates-list');

  // A webhook: its signing secret is shown once.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Webhooks' }).click();
  await expect(page.getByRole('heading', { name: 'Webhooks', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'New webhook' }).first().click();
  const webhookDialog = page.getByRole('dialog', { name: 'New webhook' });
  await webhookDialog.getByRole('textbox', { name: 'Name' }).fill('CRM sign-ups');
  await webhookDialog.getByRole('textbox', { name: 'URL' }).fill('https://crm.example.com/hooks/herald');
  await webhookDialog.getByRole('button', { name: 'Add header' }).click();
  await webhookDialog.getByRole('textbox', { name: 'Header 1 name' }).fill('Authorization');
  await webhookDialog.getByRole('textbox', { name: 'Header 1 value' }).fill('Bearer crm-secret');
  await webhookDialog.getByRole('button', { name: 'Create webhook' }).click();
  await expect(page.getByText('Copy it now: it will not be shown again.')).toBeVisible();
  const secret = (await page.getByLabel('Signing secret', { exact: true }).textContent())?.trim() ?? '';
  expect(secret).toMatch(/^whsec_/);
  await expect(page.getByRole('table', { name: 'Webhooks' }).getByRole('cell', { name: 'CRM sign-ups', exact: true })).toBeVisible();
  await dismissToasts(page);
  await screenshot(page, 'webhook-secret-notice');
  await page.getByRole('button', { name: 'Dismiss the signing secret' }).click();
  await expect(page.getByLabel('Signing secret', { exact: true })).toBeHidden();

  // A keyword that calls it, picked by name.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Keywords' }).click();
  await page.getByRole('link', { name: 'New keyword' }).first().click();
  await page.getByRole('textbox', { name: 'Keyword' }).fill('SPRING');
  await page.getByRole('textbox', { name: 'Reply message' }).fill('Thanks! Your spring code is SPRING10.');
  await page.getByRole('switch', { name: 'Call webhooks' }).check({ force: true });
  await expect(page.getByText('The webhooks uuid field is required when call webhook is true.')).toBeVisible();
  await page.getByRole('combobox', { name: 'Webhooks' }).click();
  await page.getByRole('option', { name: 'CRM sign-ups' }).click();
  await expect(page.getByText('The webhooks uuid field is required when call webhook is true.')).toBeHidden();
  await page.keyboard.press('Escape');
  await screenshot(page, 'keyword-form');
  await page.getByRole('button', { name: 'Create keyword' }).click();
  await expect(toast(page, 'The keyword SPRING was created.')).toBeVisible();
  const keywordRow = page.getByRole('table', { name: 'Keywords' }).getByRole('row').filter({ hasText: 'SPRING' });
  await expect(keywordRow).toContainText('CRM sign-ups');

  // The webhook cannot be deleted while the keyword calls it: the service says why.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Webhooks' }).click();
  await page.getByRole('button', { name: 'Delete CRM sign-ups' }).click();
  await page.getByRole('dialog', { name: 'Delete webhook' }).getByRole('button', { name: 'Delete webhook' }).click();
  await expect(toast(page, 'The webhook is called by the keyword SPRING; detach it first.')).toBeVisible();
});

test('vanity domains: Herald’s own domain is marked and fixed; others are added, edited and deleted', async ({ page }) => {
  await page.goto('/vanity-domains');
  await signInWithPassword(page);
  await expect(page.getByRole('heading', { name: 'Vanity domains', level: 1 })).toBeVisible();
  const domains = page.getByRole('table', { name: 'Vanity domains' });
  const own = domains.getByRole('row').filter({ hasText: "Herald's own domain" });
  await expect(own).toContainText('http://localhost:8199/l/…');
  await expect(own.getByRole('button')).toHaveCount(0);

  await page.getByRole('textbox', { name: 'Domain' }).fill('https://go.example.com');
  await page.getByRole('button', { name: 'Add domain' }).click();
  await expect(page.getByText('The domain must be a host name such as go.example.com (no scheme, port or path).')).toBeVisible();
  await page.getByRole('textbox', { name: 'Domain' }).fill('go.example.com');
  await page.getByRole('button', { name: 'Add domain' }).click();
  await expect(toast(page, 'The vanity domain go.example.com was added.')).toBeVisible();
  await expect(domains.getByRole('cell', { name: 'https://go.example.com/…', exact: true })).toBeVisible();

  await dismissToasts(page);
  await screenshot(page, 'vanity-domains');

  // The same domain twice is refused, on the field.
  await page.getByRole('textbox', { name: 'Domain' }).fill('go.example.com');
  await page.getByRole('button', { name: 'Add domain' }).click();
  await expect(page.getByText('The domain has already been taken.')).toBeVisible();

  await page.getByRole('button', { name: 'Edit go.example.com' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit vanity domain' });
  await dialog.getByRole('textbox', { name: 'Domain' }).fill('links.example.com');
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(toast(page, 'The vanity domain links.example.com was saved.')).toBeVisible();

  await page.getByRole('button', { name: 'Delete links.example.com' }).click();
  await page.getByRole('dialog', { name: 'Delete vanity domain' }).getByRole('button', { name: 'Delete domain' }).click();
  await expect(toast(page, 'The vanity domain links.example.com was deleted.')).toBeVisible();
  await expect(domains.getByRole('cell', { name: 'https://links.example.com/…', exact: true })).toBeHidden();
});

test('a template used by a scheduled campaign says so above the save button, and measures against its groups', async ({ page }) => {
  await page.goto('/templates');
  await signInWithPassword(page);
  await expect(page.getByRole('heading', { name: 'Templates', level: 1 })).toBeVisible();

  // Set up through the API, as the signed-in session: a group with names of different lengths, a template, a campaign.
  const headers = await sessionHeaders(page);
  const call = async (method: string, path: string, body: unknown) => {
    const response = await page.request.fetch(`/api/2.0${path}`, { method, headers, data: body });
    expect(response.ok(), `${method} ${path}: ${await response.text()}`).toBe(true);
    return ((await response.json()) as { data: { uuid: string } }).data;
  };
  const regulars = await call('POST', '/contact-groups/', { name: 'E2E regulars' });
  await call('PUT', `/contact-groups/${regulars.uuid}/add-contacts`, {
    contacts: [
      { phone_number: '+447700900101', custom_fields: { first_name: 'Al' } },
      { phone_number: '+447700900102', custom_fields: { first_name: 'Bo' } },
      { phone_number: '+447700900103', custom_fields: { first_name: 'Bartholomew-Maximilian Fitzgerald' } },
    ],
  });
  // 152 characters besides the name: a short name fits one part, the long one needs two.
  const body = `Hi {{first_name|there}}, ${'our weekend sale starts Saturday at nine with the best prices of the year on everything in store and online. '.repeat(2).slice(0, 150)}`;
  const template = await call('POST', '/templates/', { name: 'E2E weekend note', sender: '88440', body });
  await call('POST', '/campaigns/', {
    name: 'E2E weekend regulars',
    sender: '88440',
    template_uuid: template.uuid,
    scheduled_send_date: '2030-08-03 09:00:00',
    expiry_date: '2030-08-04 09:00:00',
    included_contact_groups: [regulars.uuid],
    excluded_contact_groups: [],
  });

  await page.goto(`/templates/${template.uuid}`);
  await expect(page.getByRole('heading', { name: 'E2E weekend note', level: 1 })).toBeVisible();
  const notice = page.getByRole('status', { name: 'Saving changes the message of 1 scheduled campaign:' });
  await expect(notice.getByRole('listitem')).toHaveText(['E2E weekend regulars sends 3 Aug 2030, 09:00']);
  await expect(notice.getByRole('link', { name: 'E2E weekend regulars' })).toHaveAttribute('href', /^\/campaigns\/[0-9a-f-]{36}$/);

  // The campaign's groups are preselected, and the service measures the body against their contacts.
  await expect(page.getByTestId('audience-segments')).toHaveText('For 3 recipients of E2E regulars: 1–2 SMS parts, typically 1');
  await page.getByRole('button', { name: 'Save changes' }).scrollIntoViewIfNeeded();
  await screenshot(page, 'template-scheduled-campaigns');
});

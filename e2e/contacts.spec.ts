import { expect, test, type Page } from '@playwright/test';
import { dismissToasts, screenshot, signInWithPassword } from './support';

function toast(page: Page, text: string | RegExp) {
  return page.getByRole('alert').filter({ hasText: text });
}

test('a marketer builds a contact group, tests a keyword that fills it, and reads a webhook’s deliveries', async ({ page }) => {
  await page.goto('/contact-groups');
  await signInWithPassword(page);
  await expect(page.getByRole('heading', { name: 'Contact groups', level: 1 })).toBeVisible();
  const groups = page.getByRole('table', { name: 'Contact groups' });
  const optouts = groups.getByRole('row').filter({ hasText: 'default_optouts' });
  await expect(optouts).toContainText('Opt-outs');
  await expect(optouts.getByRole('button')).toHaveCount(0);

  // A group with one custom field.
  await page.getByRole('button', { name: 'New group' }).click();
  const createDialog = page.getByRole('dialog', { name: 'New contact group' });
  await createDialog.getByRole('textbox', { name: 'Name' }).fill('VIP customers');
  await createDialog.getByRole('textbox', { name: 'Description' }).fill('Bought twice this year');
  await createDialog.getByRole('combobox', { name: 'Custom fields' }).fill('first_name');
  await createDialog.getByRole('combobox', { name: 'Custom fields' }).press('Enter');
  await createDialog.getByRole('button', { name: 'Create group' }).click();
  await expect(toast(page, 'The contact group VIP customers was created.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'VIP customers', level: 1 })).toBeVisible();
  await expect(page).toHaveURL(/\/contact-groups\/[0-9a-f-]{36}$/);
  const groupUrl = page.url();
  await expect(page.getByText('No contacts yet')).toBeVisible();

  // Two contacts; the service refuses the second row, and says so next to it.
  await page.getByRole('button', { name: 'Add contacts' }).first().click();
  const addDialog = page.getByRole('dialog', { name: 'Add contacts to VIP customers' });
  await addDialog.getByRole('textbox', { name: 'Phone number 1' }).fill('+447700900123');
  await addDialog.getByRole('textbox', { name: 'first_name 1' }).fill('Ada');
  await addDialog.getByRole('button', { name: 'Add another contact' }).click();
  await addDialog.getByRole('textbox', { name: 'Phone number 2' }).fill('12345');
  await addDialog.getByRole('textbox', { name: 'first_name 2' }).fill('Grace');
  await addDialog.getByRole('button', { name: 'Add 2 contacts' }).click();
  await expect(addDialog.getByRole('textbox', { name: 'Phone number 2' })).toHaveAttribute('aria-invalid', 'true');
  await expect(addDialog.getByRole('textbox', { name: 'Phone number 1' })).not.toHaveAttribute('aria-invalid', 'true');
  await expect(addDialog.getByText(/12345/)).toBeVisible();
  await dismissToasts(page);
  await screenshot(page, 'add-contacts-errors');
  await addDialog.getByRole('textbox', { name: 'Phone number 2' }).fill('07700900456');
  await addDialog.getByRole('button', { name: 'Add 2 contacts' }).click();
  await expect(toast(page, '2 contacts were added to VIP customers.')).toBeVisible();
  const contacts = page.getByRole('table', { name: 'Contacts' });
  await expect(contacts.getByRole('columnheader', { name: 'first_name' })).toBeVisible();
  await expect(contacts.getByRole('row').filter({ hasText: '+447700900123' })).toContainText('Ada');
  await expect(contacts.getByRole('row').filter({ hasText: '+447700900456' })).toContainText('Grace');
  await expect(page.getByRole('region', { name: 'Group summary' })).toContainText('2');
  await dismissToasts(page);
  await screenshot(page, 'contact-group-detail');

  // Search by number: kept in the URL.
  await page.getByRole('textbox', { name: 'Search by number' }).fill('0123');
  await expect(page).toHaveURL(/search=0123/);
  await expect(contacts.getByRole('row').filter({ hasText: '+447700900456' })).toBeHidden();
  await expect(contacts.getByRole('row').filter({ hasText: '+447700900123' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('textbox', { name: 'Search by number' })).toHaveValue('0123');
  await expect(contacts.getByRole('row').filter({ hasText: '+447700900123' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Search by number' }).fill('');
  await expect(page).not.toHaveURL(/search=/);

  // Remove one, after confirming.
  await contacts.getByRole('button', { name: 'Remove +447700900456' }).click();
  await page.getByRole('dialog', { name: 'Remove contact' }).getByRole('button', { name: 'Remove contact' }).click();
  await expect(toast(page, '+447700900456 was removed from VIP customers.')).toBeVisible();
  await expect(contacts.getByRole('row').filter({ hasText: '+447700900456' })).toBeHidden();

  // A webhook on a loopback port nothing listens on (the calls fail) and a keyword that uses it and the group.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Webhooks' }).click();
  await page.getByRole('button', { name: 'New webhook' }).first().click();
  const webhookDialog = page.getByRole('dialog', { name: 'New webhook' });
  await webhookDialog.getByRole('textbox', { name: 'Name' }).fill('Local CRM');
  await webhookDialog.getByRole('textbox', { name: 'URL' }).fill('http://127.0.0.1:9/hook');
  await webhookDialog.getByRole('button', { name: 'Create webhook' }).click();
  await expect(page.getByRole('table', { name: 'Webhooks' }).getByRole('cell', { name: 'Local CRM', exact: true })).toBeVisible();

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Keywords' }).click();
  await page.getByRole('link', { name: 'New keyword' }).first().click();
  await page.getByRole('textbox', { name: 'Keyword' }).fill('VIP');
  await page.getByRole('textbox', { name: 'Reply message' }).fill('Welcome to the VIP list!');
  await page.getByRole('switch', { name: 'Add the number to groups' }).check({ force: true });
  await page.getByRole('combobox', { name: 'Contact groups' }).click();
  await page.getByRole('option', { name: 'VIP customers' }).click();
  await page.keyboard.press('Escape');
  await page.getByRole('switch', { name: 'Call webhooks' }).check({ force: true });
  await page.getByRole('combobox', { name: 'Webhooks' }).click();
  await page.getByRole('option', { name: 'Local CRM' }).click();
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Create keyword' }).click();
  await expect(toast(page, 'The keyword VIP was created.')).toBeVisible();

  // The keyword tester, reached from the keywords page: the actions really happen.
  await page.getByRole('link', { name: 'Test a keyword' }).click();
  await expect(page.getByRole('heading', { name: 'Inbound messages', level: 1 })).toBeVisible();
  const tester = page.getByRole('region', { name: 'Test a keyword' });
  await expect(tester).toContainText('The actions really happen');
  await tester.getByRole('textbox', { name: 'From' }).fill('+447700900789');
  await tester.getByRole('textbox', { name: 'Message' }).fill('vip please');
  await tester.getByRole('button', { name: 'Send test message' }).click();
  const result = tester.getByRole('status', { name: 'Test result' });
  await expect(result).toContainText('VIP');
  const actions = result.getByRole('list', { name: 'Actions taken' }).getByRole('listitem');
  await expect(actions.filter({ hasText: /added to the group VIP customers/ })).toHaveCount(1);
  await expect(actions.filter({ hasText: /The webhook Local CRM failed: .*ECONNREFUSED/ })).toHaveCount(1);
  await expect(actions.filter({ hasText: /Welcome to the VIP list!/ })).toHaveCount(1);
  await expect(actions.filter({ hasText: /added to the group/ }).getByLabel('Done')).toBeVisible();
  await expect(actions.filter({ hasText: /Local CRM/ }).getByLabel('Failed')).toBeVisible();
  await dismissToasts(page);
  await screenshot(page, 'keyword-tester-result');

  const inbound = page.getByRole('table', { name: 'Inbound messages' });
  const received = inbound.getByRole('row').filter({ hasText: 'vip please' });
  await expect(received).toContainText('+447700900789');
  await expect(received).toContainText('VIP');
  await expect(received).toContainText('Test');
  await screenshot(page, 'inbound-messages');

  // The tested number is now in the group.
  await page.goto(groupUrl);
  await expect(contacts.getByRole('row').filter({ hasText: '+447700900789' })).toBeVisible();
  await expect(contacts.getByRole('row').filter({ hasText: '+447700900123' })).toBeVisible();

  // Remove all: the confirmation names the group and the count.
  await page.getByRole('button', { name: 'More' }).click();
  await page.getByRole('menuitem', { name: 'Remove all contacts' }).click();
  const flushDialog = page.getByRole('dialog', { name: 'Remove all contacts' });
  await expect(flushDialog).toContainText('Remove all 2 contacts from VIP customers?');
  await flushDialog.getByRole('button', { name: 'Remove 2 contacts' }).click();
  await expect(toast(page, 'Every contact of VIP customers was removed.')).toBeVisible();
  await expect(page.getByText('No contacts yet')).toBeVisible();

  // The group cannot be deleted while the keyword adds to it: the service says why.
  await page.getByRole('button', { name: 'More' }).click();
  await page.getByRole('menuitem', { name: 'Delete group' }).click();
  await page.getByRole('dialog', { name: 'Delete contact group' }).getByRole('button', { name: 'Delete group' }).click();
  await expect(toast(page, 'The group is used by the keyword VIP; detach it first.')).toBeVisible();

  // The webhook's deliveries: the keyword's call, then a test event, both unanswered.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Webhooks' }).click();
  await page.getByRole('link', { name: 'Deliveries of Local CRM' }).click();
  await expect(page.getByRole('heading', { name: 'Deliveries of Local CRM', level: 1 })).toBeVisible();
  const deliveries = page.getByRole('table', { name: 'Deliveries' });
  await expect(deliveries.getByRole('row').filter({ hasText: 'keyword.received' })).toContainText('No answer');
  await page.getByRole('button', { name: 'Send test event' }).click();
  await expect(toast(page, /The test event was not delivered.*ECONNREFUSED/)).toBeVisible();
  const testRow = deliveries.getByRole('row').filter({ hasText: 'webhook.test' });
  await expect(testRow).toContainText('ECONNREFUSED');
  await expect(deliveries.getByRole('row')).toHaveCount(3);
  await dismissToasts(page);
  await screenshot(page, 'webhook-deliveries');

  // The list of groups shows the new group, empty.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Contact groups' }).click();
  await expect(groups.getByRole('row').filter({ hasText: 'VIP customers' })).toContainText('Empty');
  await screenshot(page, 'contact-groups-list');
});

/**
 * Event endpoints (issue 23, point 1): an admin, by keyboard alone, points a new event endpoint at a
 * receiver this spec runs on 127.0.0.1 (the e2e service may call private addresses) and ticks the
 * events it wants; copies the signing secret shown once; opens the endpoint by the link Herald's
 * e-mail uses (`/event-endpoints/<uuid>`), sends a test event and sees it delivered in the
 * deliveries table; opens the delivery (its payload and attempt) and redelivers it. The receiver
 * checks every call's Standard Webhooks signature with the copied secret. A real event follows: an
 * inbound message reaches the receiver as `inbound.received`. The admin turns the endpoint off and
 * on, and deletes it, so no later spec's events are sent to a receiver that has stopped.
 * The pages' own rules (the picker's order, field errors, a viewer's read-only page) are in
 * src/app/routes/event-endpoints/*.test.tsx, each seen red there.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { Webhook } from 'standardwebhooks';
import { axeViolations, dismissToasts, screenshot, sessionHeaders, signInWithPassword } from './support';

const RUN = Date.now().toString(36);
const DESCRIPTION = `E2E receiver ${RUN}`;

interface Call {
  headers: Record<string, string>;
  body: string;
}

/** A receiver that answers 204 to every POST and keeps what it got. */
async function startReceiver(): Promise<{ url: string; calls: Call[]; stop: () => Promise<void> }> {
  const calls: Call[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      calls.push({ headers: request.headers as Record<string, string>, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/herald-events`,
    calls,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function toast(page: Page, text: string | RegExp) {
  return page.getByRole('alert').filter({ hasText: text });
}

/** Presses Tab until `target` has the focus (at most `limit` times): a control the keyboard cannot reach fails. */
async function tabTo(page: Page, target: Locator, limit = 40): Promise<void> {
  for (let presses = 0; presses < limit; presses++) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${target.toString()}`);
}

test('an admin sends events to a receiver: the secret shown once, a test event delivered, opened and redelivered', async ({ page, context }) => {
  test.setTimeout(90_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const receiver = await startReceiver();
  try {
    await page.goto('/');
    await signInWithPassword(page);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Event endpoints' }).click();
    await expect(page.getByRole('heading', { name: 'Event endpoints', level: 1 })).toBeVisible();

    // The new endpoint, by keyboard alone.
    const newEndpoint = page.getByRole('button', { name: 'New endpoint' }).first();
    await newEndpoint.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'New event endpoint' });
    await expect(dialog.getByRole('textbox', { name: 'URL' })).toBeFocused();
    await page.keyboard.type(receiver.url);
    await page.keyboard.press('Tab');
    await page.keyboard.type(DESCRIPTION);
    for (const type of ['message.delivered', 'contact.opted_out', 'inbound.received']) {
      await tabTo(page, dialog.getByRole('checkbox', { name: type }));
      await page.keyboard.press('Space');
      await expect(dialog.getByRole('checkbox', { name: type })).toBeChecked();
    }
    expect(await axeViolations(page, '[role="dialog"]')).toEqual([]);
    await screenshot(page, 'event-endpoint-new');
    await tabTo(page, dialog.getByRole('button', { name: 'Create endpoint' }));
    await page.keyboard.press('Enter');
    await expect(dialog).toBeHidden();

    // The secret, shown once: copied with the button.
    const secretBox = page.getByLabel('Signing secret', { exact: true });
    await expect(secretBox).toHaveText(/^whsec_[A-Za-z0-9+/=]+$/);
    const secret = (await secretBox.textContent())!;
    await page.getByRole('button', { name: 'Copy the signing secret' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    const row = page.getByRole('table', { name: 'Event endpoints' }).getByRole('row').filter({ hasText: receiver.url });
    await expect(row).toContainText('Enabled');
    await expect(row).toContainText(DESCRIPTION);
    await screenshot(page, 'event-endpoints-created');
    await page.getByRole('button', { name: 'Dismiss the signing secret' }).click();
    await expect(secretBox).toBeHidden();

    // The endpoint's page, at the address Herald's e-mail links to.
    const href = await row.getByRole('link', { name: receiver.url }).getAttribute('href');
    expect(href).toMatch(/^\/event-endpoints\/[0-9a-f-]{36}$/);
    await page.goto(href!);
    await expect(page.getByRole('heading', { name: DESCRIPTION, level: 1 })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Settings' })).toContainText(receiver.url);
    await expect(page.getByText('No deliveries yet')).toBeVisible();

    // A test event: delivered at once, listed, and signed with the copied secret.
    await page.getByRole('button', { name: 'Send test event' }).click();
    await expect(toast(page, 'The test event was delivered')).toContainText(/Your endpoint answered 204 in \d+ ms\./);
    const deliveries = page.getByRole('table', { name: 'Deliveries' });
    const testRow = deliveries.getByRole('row').filter({ hasText: 'event_endpoint.test' });
    await expect(testRow).toContainText('Delivered');
    await expect(testRow).toContainText('204');
    // Other specs' campaigns may still be settling (a late `message.delivered`), so only the test event's calls count.
    const testCalls = () => receiver.calls.filter((call) => call.body.includes('"event_endpoint.test"'));
    expect(testCalls()).toHaveLength(1);
    const verified = new Webhook(secret).verify(testCalls()[0]!.body, testCalls()[0]!.headers) as { type: string; data: { message: string } };
    expect(verified).toMatchObject({ type: 'event_endpoint.test', data: { message: 'A test event from Herald.' } });
    await dismissToasts(page);
    await screenshot(page, 'event-endpoint');

    // Opened by keyboard: the body it POSTed and its attempt; Redeliver sends it again.
    await testRow.getByRole('link', { name: /^event_endpoint\.test/ }).focus();
    await page.keyboard.press('Enter');
    const delivery = page.getByRole('dialog', { name: 'Delivery of event_endpoint.test' });
    await expect(delivery.getByRole('region', { name: 'Payload' })).toContainText('"message": "A test event from Herald."');
    await expect(delivery.getByRole('table', { name: 'Attempts' }).getByRole('row')).toHaveCount(2);
    await expect(delivery.getByRole('table', { name: 'Attempts' })).toContainText('204');
    await expect(delivery).toContainText(testCalls()[0]!.headers['webhook-id']!);
    expect(await axeViolations(page, '[role="dialog"]')).toEqual([]);
    await screenshot(page, 'event-delivery');
    await delivery.getByRole('button', { name: 'Redeliver' }).click();
    await expect(toast(page, 'The delivery is on its way again.')).toBeVisible();
    await expect.poll(() => testCalls().length, { timeout: 15_000 }).toBe(2);
    // The same call again: the same webhook-id, still signed with the secret.
    expect(testCalls()[1]!.headers['webhook-id']).toBe(testCalls()[0]!.headers['webhook-id']);
    new Webhook(secret).verify(testCalls()[1]!.body, testCalls()[1]!.headers);
    await expect(delivery.getByRole('table', { name: 'Attempts' }).getByRole('row')).toHaveCount(3, { timeout: 15_000 });
    await page.keyboard.press('Escape');
    await expect(delivery).toBeHidden();
    await expect(page).toHaveURL(new RegExp(`${href}$`));

    // A real event: an inbound message reaches the receiver as inbound.received.
    const response = await page.request.post('/api/2.0/inbound-messages/', {
      headers: await sessionHeaders(page),
      data: { from: '+447700900555', body: `Hello ${RUN}` },
    });
    expect(response.ok(), await response.text()).toBe(true);
    await expect.poll(() => receiver.calls.map((call) => (JSON.parse(call.body) as { type: string }).type), { timeout: 20_000 }).toContain('inbound.received');
    const inbound = receiver.calls.find((call) => call.body.includes('inbound.received'))!;
    expect(new Webhook(secret).verify(inbound.body, inbound.headers)).toMatchObject({ data: { inbound_message: { body: `Hello ${RUN}` } } });
    await page.reload();
    await expect(deliveries.getByRole('row').filter({ hasText: 'inbound.received' })).toContainText('Delivered');
    // The filter, by its arrows: All, Pending, Delivered, Failed.
    await page.getByRole('radio', { name: 'All' }).focus();
    for (let step = 0; step < 3; step++) await page.keyboard.press('ArrowRight');
    await expect(page.getByRole('radio', { name: 'Failed' })).toBeChecked();
    await expect(page).toHaveURL(/status=failed/);
    await expect(page.getByText('No failed deliveries')).toBeVisible();
    await page.keyboard.press('ArrowRight');
    await expect(deliveries.getByRole('row').filter({ hasText: 'event_endpoint.test' })).toBeVisible();

    // Off and on again, then deleted.
    const enabled = page.getByRole('switch', { name: 'Enabled' });
    // It follows what the service saved, so it turns once the answer is in.
    await enabled.focus();
    await page.keyboard.press('Space');
    await expect(toast(page, 'The endpoint is disabled')).toBeVisible();
    await expect(enabled).not.toBeChecked();
    await expect(page.getByRole('region', { name: 'Settings' })).toBeVisible();
    await page.keyboard.press('Space');
    await expect(toast(page, 'The endpoint is enabled')).toBeVisible();
    await expect(enabled).toBeChecked();
    await page.getByRole('button', { name: 'More' }).click();
    await page.getByRole('menuitem', { name: 'Delete endpoint' }).click();
    await page.getByRole('dialog', { name: 'Delete event endpoint' }).getByRole('button', { name: 'Delete endpoint' }).click();
    await expect(page.getByRole('heading', { name: 'Event endpoints', level: 1 })).toBeVisible();
    await expect(toast(page, `The event endpoint ${receiver.url} was deleted.`)).toBeVisible();
    await expect(page.getByRole('table', { name: 'Event endpoints' }).getByRole('row').filter({ hasText: receiver.url })).toHaveCount(0);
  } finally {
    await receiver.stop();
  }
});

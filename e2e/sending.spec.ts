/**
 * Sending (issue 34, point 5): an admin, by keyboard alone, adds a Twilio connection whose base URL
 * is a Twilio fake this spec runs on 127.0.0.1 (faithful to Twilio's documented API: Basic auth, the
 * form fields, a 201 with the message's `sid`); sees and copies its callback URLs; sends a test
 * message and sees the id the fake gave it; points the connection at a port nothing listens on and
 * sees the provider could not be reached (502); deletes it. Editors and viewers are not offered the
 * page, and typed in its address they are told it is for admins. axe finds nothing serious on the
 * list, the add form or the connection's page, at 1440 and at 390 px wide.
 * The form's own rules (fields per provider, required credentials, server errors per field, hints
 * on an edit) are in src/app/features/sms-connections/*.test.tsx and src/app/routes/sending/*.test.tsx,
 * each seen red there.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { TwilioFake } from '../src/server/testing/provider-fakes/twilio-fake';
import { ADMIN, axeViolations, dismissToasts, screenshot, signInWithPassword } from './support';

const RUN = Date.now().toString(36);
const NAME = `E2E Twilio ${RUN}`;
const ACCOUNT = { account_sid: 'AC0123456789abcdef0123456789abcdef', auth_token: 'e2e-token-0123456789abcdef' };

/** Presses Tab until `target` has the focus (at most `limit` times): a control the keyboard cannot reach fails. */
async function tabTo(page: Page, target: Locator, limit = 40): Promise<void> {
  for (let presses = 0; presses < limit; presses++) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${target.toString()}`);
}

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

async function signOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: /^Account of/ }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in to Herald' })).toBeVisible();
}

/** Both widths, one screenshot each, with axe run at each. */
async function captureAtBothWidths(page: Page, name: string, scope = 'body'): Promise<void> {
  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running'));
    expect(await axeViolations(page, scope), `${name} at ${width} px`).toEqual([]);
    // Nothing scrolls the page sideways.
    const wide = await page.evaluate(() =>
      document.documentElement.scrollWidth > window.innerWidth + 1
        ? `${document.documentElement.scrollWidth} px: ` +
          [...document.querySelectorAll('body *')]
            .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 1)
            .slice(0, 8)
            .map((element) => `${element.tagName}.${element.className.toString().slice(0, 60)}`)
            .join(' | ')
        : '',
    );
    expect(wide, `${name} at ${width} px`).toBe('');
    await screenshot(page, `sending-${name}-${width}`);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

test('an admin adds a Twilio connection, copies its callback URLs, sends a test message, edits and deletes it', async ({ page, context }) => {
  test.setTimeout(120_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const fake = await new TwilioFake(ACCOUNT).start();
  try {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto('/');
    await signInWithPassword(page);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sending' }).click();
    await expect(page.getByRole('heading', { name: 'Sending', level: 1 })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Routes', level: 2 })).toBeVisible();

    // The add form, by keyboard alone.
    await tabTo(page, page.getByRole('button', { name: 'Add connection' }).first());
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Add a connection' });
    await expect(dialog).toBeVisible();
    const provider = dialog.getByRole('combobox', { name: /Provider/ });
    await expect(provider).toBeFocused();
    await page.keyboard.type('Twilio');
    await expect(provider).toHaveValue('twilio');
    await tabTo(page, dialog.getByRole('textbox', { name: /Name/ }));
    await page.keyboard.type(NAME);
    await tabTo(page, dialog.getByRole('textbox', { name: /Account SID/ }));
    await expect(dialog.getByRole('textbox', { name: /Account SID/ })).toHaveAccessibleDescription(/Account Info → Account SID/);
    await page.keyboard.type(ACCOUNT.account_sid);
    await tabTo(page, dialog.getByLabel(/Auth Token/));
    await page.keyboard.type(ACCOUNT.auth_token);
    await tabTo(page, dialog.getByRole('combobox', { name: /Senders/ }));
    await page.keyboard.type('+447700900001');
    await page.keyboard.press('Enter');
    await tabTo(page, dialog.getByRole('button', { name: /Advanced/ }));
    await page.keyboard.press('Enter');
    await tabTo(page, dialog.getByRole('textbox', { name: /Base URL/ }));
    await page.keyboard.type(fake.baseUrl);
    await captureAtBothWidths(page, 'add-form', '[role="dialog"]');
    await tabTo(page, dialog.getByRole('button', { name: 'Add connection' }));
    await page.keyboard.press('Enter');

    // Its page: the callback URLs to paste, built from PUBLIC_URL.
    await expect(page.getByRole('heading', { name: NAME, level: 1 })).toBeVisible();
    const uuid = /\/sending\/connections\/([0-9a-f-]{36})$/.exec(page.url())?.[1];
    expect(uuid).toBeTruthy();
    const callbacks = page.getByRole('region', { name: 'Callback URLs' });
    const origin = new URL(page.url()).origin;
    await expect(callbacks.getByLabel('Status callback URL', { exact: true })).toHaveText(`${origin}/api/2.0/sms-connections/${uuid}/status`);
    await expect(callbacks.getByLabel('Inbound URL', { exact: true })).toHaveText(`${origin}/api/2.0/sms-connections/${uuid}/inbound`);
    await callbacks.getByRole('button', { name: 'Copy the status callback url' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${origin}/api/2.0/sms-connections/${uuid}/status`);
    await expect(page.getByRole('region', { name: 'State' })).toContainText('Circuit closed');
    await expect(page.getByRole('region', { name: 'Settings' })).toContainText('auth_token: ********cdef (saved)');

    // A test message through the fake: its id on the page, the fake's own record of it.
    const test = page.getByRole('region', { name: 'Send a test message' });
    await test.getByRole('textbox', { name: /Phone number/ }).fill('+447700900123');
    await test.getByRole('button', { name: 'Send test message' }).click();
    await expect(test.getByText('The provider took the test message')).toBeVisible();
    const id = (await test.locator('code').textContent()) ?? '';
    expect(id).toMatch(/^SM[0-9a-f]{32}$/);
    expect(fake.accepted.find((message) => message.id === id)).toMatchObject({
      to: '+447700900123',
      from: '+447700900001',
      callbackUrl: `${origin}/api/2.0/sms-connections/${uuid}/status`,
    });
    await dismissToasts(page);
    await captureAtBothWidths(page, 'connection');

    // Edited to a loopback port nothing listens on: the provider cannot be reached (502), said on the page.
    await page.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit connection' });
    await expect(edit.getByRole('textbox', { name: /Account SID/ })).toHaveAttribute('placeholder', '********cdef (saved)');
    await edit.getByRole('textbox', { name: /Base URL/ }).fill('http://127.0.0.1:9');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await expect(edit).toBeHidden();
    await expect(page.getByRole('region', { name: 'Settings' })).toContainText('http://127.0.0.1:9');
    await test.getByRole('button', { name: 'Send test message' }).click();
    await expect(test.getByText('The provider could not take the test message')).toBeVisible();
    await dismissToasts(page);

    // The list shows it with its state.
    await page.getByRole('link', { name: 'Sending' }).first().click();
    const row = page.getByRole('table', { name: 'Connections' }).getByRole('row').filter({ hasText: NAME });
    await expect(row).toContainText('Circuit closed');
    await expect(row).toContainText('+447700900001');
    await captureAtBothWidths(page, 'list');

    // Deleted: gone from the list.
    await row.getByRole('link', { name: NAME }).click();
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Delete connection' }).getByRole('button', { name: 'Delete connection' }).click();
    await expect(page.getByRole('heading', { name: 'Sending', level: 1 })).toBeVisible();
    await expect(page.getByRole('table', { name: 'Connections' }).getByRole('row').filter({ hasText: NAME })).toHaveCount(0);
  } finally {
    await fake.stop();
  }
});

test('editors and viewers are not offered Sending, and are told the page is for admins', async ({ page }) => {
  test.setTimeout(60_000);
  for (const role of ['editor', 'viewer'] as const) {
    const member = { email: `sending-${role}@herald.test`, password: `${role}-password-1` };
    await cli('user:create', '--email', member.email, '--password', member.password, '--team', 'Herald', '--name', `Sending ${role}`, '--role', role);
    await page.goto('/');
    await signInWithPassword(page, member);
    const navigation = page.getByRole('navigation', { name: 'Main' });
    await expect(navigation.getByRole('link', { name: 'Senders' })).toBeVisible();
    await expect(navigation.getByRole('link', { name: 'Sending' })).toHaveCount(0);
    await page.goto('/sending');
    await expect(page.getByRole('heading', { name: 'Sending', level: 1 })).toBeVisible();
    await expect(page.getByRole('note')).toContainText(role === 'viewer' ? 'viewer role' : 'Only admins');
    await expect(page.getByRole('table', { name: 'Connections' })).toHaveCount(0);
    await signOut(page);
  }
  // The admin still sees it.
  await signInWithPassword(page, ADMIN);
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sending' })).toBeVisible();
});

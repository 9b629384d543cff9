import fs from 'node:fs/promises';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import { simpleParser, type AddressObject } from 'mailparser';
import { formatTimestamp } from '../src/shared/time/local-timestamps';

export const ADMIN = { email: 'admin@herald.test', password: 'correct-horse-battery' };

/** Saved for people to look at (a page that works but looks broken is broken). */
export async function screenshot(page: Page, name: string): Promise<void> {
  // The header and navbar are fixed: from the top, a full-page capture shows them where a person sees them.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `test-results/screenshots/${name}.png`, fullPage: true });
}

export async function signInWithPassword(page: Page, { email, password } = ADMIN): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Sign in to Herald' })).toBeVisible();
  await page.getByRole('textbox', { name: 'E-mail' }).fill(email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** Closes the toasts on screen, so a screenshot shows the page under them. */
export async function dismissToasts(page: Page): Promise<void> {
  const open = page.locator('.mantine-Notification-root:not([data-closing]) .mantine-Notification-closeButton');
  // Toasts slide while they stack, so the click is dispatched rather than aimed; one may close by itself
  // between counting and clicking, so each round clicks the first still open until none is left.
  await expect(async () => {
    if ((await open.count()) > 0) await open.first().dispatchEvent('click', undefined, { timeout: 1_000 });
    await expect(page.locator('.mantine-Notification-root')).toHaveCount(0, { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
}

/**
 * Headers for `page.request` calls made as the signed-in dashboard: its session cookie goes by itself
 * (the page's request context shares the browser's cookies); a change echoes the CSRF secret.
 */
export async function sessionHeaders(page: Page): Promise<Record<string, string>> {
  const csrf = (await page.context().cookies()).find((cookie) => cookie.name === 'herald_csrf')?.value;
  return { Accept: 'application/json', ...(csrf ? { 'X-CSRF-Token': csrf } : {}) };
}

function addressesOf(field: AddressObject | AddressObject[] | undefined): string[] {
  return (Array.isArray(field) ? field : field ? [field] : []).flatMap((object) => object.value.map((address) => address.address ?? ''));
}

/** The newest link matching `pattern` e-mailed to `to`: the worker writes it to DATA_DIR/outbox (no SMTP_URL here) within about a second. */
export async function mailedLink(to: string, pattern: RegExp): Promise<string> {
  const outbox = path.join(process.env.HERALD_E2E_DATA_DIR!, 'outbox');
  let link = '';
  await expect
    .poll(
      async () => {
        const names = (await fs.readdir(outbox).catch(() => []))
          .filter((name) => name.endsWith('.eml'))
          .sort()
          .reverse();
        for (const name of names) {
          const mail = await simpleParser(await fs.readFile(path.join(outbox, name)));
          const found = addressesOf(mail.to).includes(to) ? pattern.exec(mail.text ?? '')?.[0] : undefined;
          if (found) return (link = found);
        }
        return '';
      },
      { message: `an e-mail to ${to} with a link like ${pattern}`, timeout: 15_000 },
    )
    .not.toBe('');
  return link;
}

/**
 * What axe (WCAG 2.0/2.1 A and AA rules, colour contrast included) finds wrong inside `scope`, one
 * line per rule. Every page is swept whole, in both colour schemes, by accessibility.spec.ts.
 */
export async function axeViolations(page: Page, scope: string): Promise<string[]> {
  const results = await new AxeBuilder({ page }).include(scope).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

/**
 * The body of `POST /campaigns/`: `name` sends the template to the group from `sendAt` (written in
 * the service's zone), as the sender 88440, expiring a day later; `extra` adds or overrides fields.
 */
export function campaignBody(
  name: string,
  ids: { template: string; group: string },
  sendAt: Date | number,
  zone: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  const at = new Date(sendAt);
  return {
    name,
    sender: '88440',
    template_uuid: ids.template,
    scheduled_send_date: formatTimestamp(at, zone),
    expiry_date: formatTimestamp(new Date(at.getTime() + 86_400_000), zone),
    included_contact_groups: [ids.group],
    excluded_contact_groups: [],
    ...extra,
  };
}

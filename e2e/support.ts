import { expect, type Page } from '@playwright/test';

export const ADMIN = { email: 'admin@herald.test', password: 'correct-horse-battery' };

/** Saved for people to look at (a page that works but looks broken is broken). */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `test-results/screenshots/${name}.png`, fullPage: true });
}

export async function signInWithPassword(page: Page, { email, password } = ADMIN): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Sign in to Herald' })).toBeVisible();
  await page.getByRole('textbox', { name: 'E-mail' }).fill(email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

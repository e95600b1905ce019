import type { Page } from 'playwright-core';
import type { TestApp } from '../../helpers/test-app';

/** A person's dashboard sign-in. */
export interface DashboardLogin {
  email: string;
  password: string;
}

/**
 * Signs in on the dashboard's form as a person (issue 36: no client secret any more): email and
 * password, then, when the page asks for it, the 2FA `code`. Opens /dashboard first unless `goto` is false.
 */
export async function signInWith(page: Page, app: TestApp, login: DashboardLogin, opts: { code?: string; goto?: boolean } = {}): Promise<void> {
  if (opts.goto !== false) await page.goto(`${app.url}/dashboard`);
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.getByLabel('Email', { exact: true }).fill(login.email);
  await form.getByLabel('Password', { exact: true }).fill(login.password);
  await form.getByRole('button', { name: 'Sign in' }).click();
  if (opts.code === undefined) return;
  const second = page.getByRole('form', { name: 'Two-factor code' });
  await second.getByLabel('Authentication code').fill(opts.code);
  await second.getByRole('button', { name: 'Verify' }).click();
}

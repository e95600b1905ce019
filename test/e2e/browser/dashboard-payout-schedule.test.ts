import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import type { MerchantCredentials } from '../../../src/modules/merchants/merchant.service';
import { DASHBOARD_DIST } from '../../../src/transport/dashboard/dashboard.routes';
import { launchBrowser, openScreen, type TestBrowser } from '../../helpers/browser';
import { request } from '../../helpers/http';
import { personOf } from '../../helpers/people';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { ownerLogin } from './owner-login';
import { signInWith } from './sign-in';

/** Issue 38 in the merchant dashboard, in headless Chromium: the Payout schedule page, changed by an owner, read-only for a viewer. */
describe('merchant dashboard: payout schedule (sandbox)', () => {
  let app: TestApp;
  let browser: TestBrowser;
  let merchant: MerchantCredentials;
  let token: string;

  beforeAll(async () => {
    if (!existsSync(path.join(DASHBOARD_DIST, 'index.html'))) throw new Error('dist/dashboard is missing: run `npm run build`');
    app = await createTestApp();
    merchant = await app.createMerchant('Schedule Merchant');
    token = (await app.token(merchant)).accessToken;
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  const open = async (page: Page) => {
    await page.getByRole('navigation', { name: 'Main' }).waitFor({ state: 'attached' });
    await openScreen(page, 'Payout schedule');
    await page.getByRole('heading', { name: 'Payout schedule', level: 2 }).waitFor();
  };

  it('an owner sees the default and sets a weekly schedule, which the API then answers', async () => {
    const page = await browser.newPage();
    await signInWith(page, app, await ownerLogin(app, merchant));
    await open(page);
    await page.getByRole('combobox', { name: 'Currency' }).selectOption('NGN');
    const form = page.getByRole('form', { name: 'Payout schedule' });
    await form.getByText('(the default schedule)').waitFor();
    expect(await form.getByTestId('next-payout').textContent()).toMatch(/^Next payout: /);
    await form.getByLabel('How often').selectOption('WEEKLY');
    await form.getByLabel('Weekday').selectOption('TUESDAY');
    await form.getByLabel('Time zone').fill('Africa/Nairobi');
    await form.getByLabel('Cut-off').fill('09:30');
    await form.getByRole('button', { name: 'Save schedule' }).click();
    await page.getByText('Schedule saved.').waitFor();
    const saved = await request(app.url, 'GET', '/v1/payout-schedule?currency=NGN', { token });
    expect(saved.body.data).toMatchObject({
      interval: 'weekly',
      weekly_anchor: 'tuesday',
      cutoff_time: '09:30',
      time_zone: 'Africa/Nairobi',
      is_default: false,
    });
    // The clock is Sunday 2026-11-22 12:00 UTC: the next Tuesday 09:30 in Nairobi is 06:30 UTC on the 24th.
    expect(saved.body.data.next_payout_at).toBe('2026-11-24T06:30:00.000Z');

    // A zone the service does not know: its refusal, naming the field, is shown; nothing changes.
    await page.getByRole('form', { name: 'Payout schedule' }).getByLabel('Time zone').fill('Mars/Olympus');
    await page.getByRole('form', { name: 'Payout schedule' }).getByRole('button', { name: 'Save schedule' }).click();
    expect(await page.getByRole('alert').textContent()).toContain('timeZone');
    expect((await request(app.url, 'GET', '/v1/payout-schedule?currency=NGN', { token })).body.data.time_zone).toBe('Africa/Nairobi');
    await page.close();
  });

  it('a viewer sees the schedule but cannot change it', async () => {
    const viewer = await personOf(app, merchant.merchant.id, 'viewer', { withPassword: true });
    // A browser of its own: the owner's session cookie stays in the first one.
    const viewers = await launchBrowser();
    const page = await viewers.newPage();
    await signInWith(page, app, { email: viewer.email, password: viewer.password });
    await open(page);
    await page.getByRole('combobox', { name: 'Currency' }).selectOption('NGN');
    const form = page.getByRole('form', { name: 'Payout schedule' });
    await form.getByText('Your role can see the schedule but not change it.').waitFor();
    expect(await form.getByLabel('How often').inputValue()).toBe('WEEKLY');
    expect(await form.getByLabel('How often').isDisabled()).toBe(true);
    expect(await form.getByRole('button', { name: 'Save schedule' }).count()).toBe(0);
    // Usable on a phone: no sideways scrolling at 360 px.
    await page.setViewportSize({ width: 360, height: 740 });
    expect(await page.evaluate('document.scrollingElement.scrollWidth')).toBe(360);
    await viewers.close();
  });
});

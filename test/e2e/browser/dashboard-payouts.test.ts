import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import type { MerchantCredentials } from '../../../src/modules/merchants/merchant.service';
import { DASHBOARD_DIST } from '../../../src/transport/dashboard/dashboard.routes';
import { launchBrowser, openScreen, screenshots, type TestBrowser } from '../../helpers/browser';
import { request } from '../../helpers/http';
import { personOf, sessionToken, type TestPerson } from '../../helpers/people';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { signInWith } from './sign-in';

/**
 * Issue 38, point 6 in the merchant dashboard, in headless Chromium: the Payouts page (the list, a currency filter),
 * a payout's page (its facts, report summary, the balance transactions it settles, the CSV report), the "Pay out now"
 * form's refusals, and the overview's next payouts; at a desktop's width and a phone's. With SCREENSHOTS=1 it
 * writes docs/dashboard/payouts-* and payout-detail-*. The sandbox names the holder of …0 "Adaeze Okafor", whom the
 * merchant is named after, so its destination passes the name check.
 */

const SHOTS = process.env.SCREENSHOTS === '1' ? path.resolve(__dirname, '../../../docs/dashboard') : null;
const DAY = 86_400_000;

describe('merchant dashboard: payouts (sandbox)', () => {
  let app: TestApp;
  let browser: TestBrowser;
  let merchant: MerchantCredentials;
  let owner: TestPerson;
  let token: string;
  let page: Page;
  /** The automatic payout (the window's top-up of 1,000) and the manual one (500), made through the API. */
  let automatic: string;
  let manual: string;

  /** Puts the test clock at `hh:mm` UTC, today or the next day once that has passed; tokens expire on that clock, so they are made again. */
  const clockAt = async (hh: number, mm: number) => {
    const now = app.clock.now();
    const at = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), hh, mm);
    app.clock.set(new Date(at <= now.getTime() ? at + DAY : at));
    token = (await app.token(merchant)).accessToken;
    owner.token = await sessionToken(app, merchant.merchant.id, owner.userId, 'owner');
  };
  const topUp = async (currency: string, amount: string) =>
    expect((await request(app.url, 'POST', '/v1/sandbox/balance/top-up', { token, body: { currency, amount } })).status).toBe(200);

  beforeAll(async () => {
    if (!existsSync(path.join(DASHBOARD_DIST, 'index.html'))) throw new Error('dist/dashboard is missing: run `npm run build`');
    // No opening balance, so every figure is the test's own; payouts run only when the test says.
    app = await createTestApp({ env: { SANDBOX_OPENING_BALANCE: '0', SANDBOX_SETTLE_MS: '600000', PAYOUT_RUN_INTERVAL_S: '0' } });
    merchant = await app.createMerchant('Adaeze Okafor');
    owner = await personOf(app, merchant.merchant.id, 'owner', { withPassword: true });
    token = (await app.token(merchant)).accessToken;
    const added = await request(app.url, 'POST', '/v1/payout-destinations', {
      token: owner.token,
      body: { country: 'NG', bank_code: '058', account_number: '0123456780' },
    });
    expect(added.status).toBe(201);

    // The default schedule (daily, cut-off 16:00, no delay in the sandbox): a top-up in the morning is paid at 16:00.
    await clockAt(10, 0);
    await topUp('NGN', '1000.00');
    await clockAt(16, 1);
    const run = await app.service.app.services.payouts.runWindow(merchant.merchant.id, 'NGN');
    expect(run?.amount.toFixed(2)).toBe('1000.00');
    automatic = run!.id;
    // A minute later, so that "newest first" has an order to show (at one test-clock time, the ids decide).
    await clockAt(16, 2);
    await topUp('NGN', '800.00');
    const made = await request(app.url, 'POST', '/v1/payouts', { token: owner.token, body: { currency: 'NGN', amount: '500' } });
    expect(made.status).toBe(201);
    manual = made.body.data.id;
    // KES: a balance without a destination.
    await topUp('KES', '600.00');

    browser = await launchBrowser();
    page = await browser.newPage();
    await signInWith(page, app, { email: owner.email, password: owner.password });
    await page.getByRole('navigation', { name: 'Main' }).waitFor({ state: 'attached' });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  /** No screen scrolls sideways (a wide table scrolls inside its card). */
  const fits = async (width: number) => expect(await page.evaluate('document.scrollingElement.scrollWidth')).toBe(width);

  describe.each([1280, 390])('at %i px', (width) => {
    beforeAll(() => page.setViewportSize({ width, height: width === 390 ? 844 : 800 }));

    it('the overview shows the next payout per currency: when, the expected amount, and where (or a link to add a destination)', async () => {
      await openScreen(page, 'Overview');
      const ngn = page.locator('li.next-payout[data-currency="NGN"]');
      await ngn.getByTestId('next-payout-amount').filter({ hasText: '300.00 NGN' }).waitFor();
      expect(await ngn.getByTestId('next-payout-when').textContent()).not.toBe('Manual');
      await ngn.getByText(/^Guaranty Trust Bank ••••6780 \(Adaeze Okafor\)$/).waitFor();
      const kes = page.locator('li.next-payout[data-currency="KES"]');
      // Without a destination nothing would be paid (the service expects 0 of the 600 available): a link to add one.
      const add = kes.getByTestId('next-payout-none').getByRole('link', { name: 'No payout destination: add one' });
      await add.waitFor();
      expect(await kes.getByTestId('next-payout-amount').count()).toBe(0);
      expect(await add.getAttribute('href')).toBe('/dashboard/payouts/destinations');
      // Only currencies holding something: no card for one with nothing available.
      expect(await page.locator('li.next-payout').count()).toBe(2);
      await fits(width);
    });

    it('the Payouts page lists them newest first, and filters by currency', async () => {
      await openScreen(page, 'Payouts');
      await page.getByRole('heading', { name: 'Payouts', level: 2 }).waitFor();
      const rows = page.locator('tr[data-payout]');
      await rows.nth(1).waitFor();
      expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-payout')))).toEqual([manual, automatic]);
      const texts = await rows.allTextContents();
      expect(texts[0]).toMatch(/500\.00 NGN.*in transit.*Manual.*Guaranty Trust Bank ••••6780/);
      expect(texts[1]).toMatch(/1,000\.00 NGN.*in transit.*Automatic.*••••6780/);
      await page.getByRole('form', { name: 'Filter payouts' }).getByLabel('Currency').selectOption('KES');
      await page.getByText('No payouts in KES').waitFor();
      expect(await rows.count()).toBe(0);
      await page.getByRole('form', { name: 'Filter payouts' }).getByLabel('Currency').selectOption('NGN');
      await rows.nth(1).waitFor();
      await fits(width);
      if (width === 1280) await screenshots(page, SHOTS, 'payouts');
    });

    it('“Pay out now” shows the refusal in place: 402 beyond what is available, 409 without a destination', async () => {
      const form = page.getByRole('form', { name: 'Pay out now' });
      await form.getByLabel('Currency').selectOption('NGN');
      await form.getByLabel('Amount').fill('300.01');
      await form.getByRole('button', { name: 'Pay out' }).click();
      await form.getByTestId('error-code').filter({ hasText: 'INSUFFICIENT_FUNDS' }).waitFor();
      await form.getByLabel('Currency').selectOption('KES');
      await form.getByLabel('Amount').fill('500');
      await form.getByRole('button', { name: 'Pay out' }).click();
      await form.getByTestId('error-code').filter({ hasText: 'INVALID_STATE' }).waitFor();
      expect(await form.getByRole('alert').textContent()).toContain('no active payout destination in KES');
      // Nothing was paid out.
      expect((await request(app.url, 'GET', '/v1/payouts', { token })).body.data).toHaveLength(2);
    });

    it('a payout’s page: its facts, the report summary, what it settles, and the CSV report', async () => {
      await page.locator(`tr[data-payout="${automatic}"]`).getByRole('link').click();
      await page.getByRole('heading', { name: new RegExp(automatic), level: 2 }).waitFor();
      expect(new URL(page.url()).pathname).toBe(`/dashboard/payouts/${automatic}`);
      const facts = page.getByRole('definition');
      await facts.filter({ hasText: /^Automatic \(window of \d{4}-\d{2}-\d{2}\)$/ }).waitFor();
      const summary = page.getByTestId('payout-summary');
      const line = (key: string) => summary.locator(`[data-line="${key}"] dd`).textContent();
      expect(await line('adjustments')).toBe('1,000.00');
      expect(await line('grossCollected')).toBe('0.00');
      expect(await line('carriedOut')).toBe('0.00');
      expect(await line('net')).toBe('1,000.00 NGN');
      const settled = page.getByRole('region', { name: 'Balance transactions it settles' }).locator('tbody tr');
      expect(await settled.count()).toBe(1);
      expect(await settled.first().textContent()).toMatch(/top up.*1,000\.00/);

      const download = page.waitForEvent('download');
      const asked = page.waitForRequest((req) => req.url().includes(`/v1/payouts/${automatic}/report`));
      await page.getByRole('button', { name: 'Download report (CSV)' }).click();
      expect((await asked).headers().authorization).toMatch(/^Bearer \S+$/);
      const file = await download;
      expect(file.suggestedFilename()).toBe(`payout-${automatic}.csv`);
      const lines = (await readFile((await file.path())!, 'utf8')).trimEnd().split(/\r?\n/);
      expect(lines[0]).toBe('row,id,type,currency,amount,fee,net,source_reference,created_at');
      expect(lines).toHaveLength(3);
      expect(lines[1]).toMatch(/^entry,[^,]+,top_up,NGN,1000\.00,0\.00,1000\.00,/);
      expect(lines[2]).toMatch(new RegExp(`^payout,${automatic},automatic,NGN,1000\\.00,,1000\\.00,,`));
      await page.getByText(`Downloaded ${file.suggestedFilename()}.`).waitFor();
      await fits(width);
      if (width === 1280) await screenshots(page, SHOTS, 'payout-detail');

      // A manual payout settles no particular transactions, and says so.
      await page.goto(`${app.url}/dashboard/payouts/${manual}`);
      await page.getByTestId('payout-summary').locator('[data-line="net"] dd', { hasText: '500.00 NGN' }).waitFor();
      await page.getByText(/a manual payout pays an amount you chose/).waitFor();
    });

    it('the payout pages link to each other; destinations are a page of their own', async () => {
      await page.getByRole('navigation', { name: 'Payout pages' }).getByRole('link', { name: 'Destinations' }).click();
      await page.getByRole('heading', { name: 'Payout destinations', level: 2 }).waitFor();
      await page.locator('tr', { hasText: '••••6780' }).getByText('active', { exact: true }).waitFor();
      await page.getByRole('navigation', { name: 'Payout pages' }).getByRole('link', { name: 'Schedule' }).click();
      await page.getByRole('heading', { name: 'Payout schedule', level: 2 }).waitFor();
      await page.getByRole('navigation', { name: 'Payout pages' }).getByRole('link', { name: 'Payouts' }).click();
      await page.getByRole('heading', { name: 'Payouts', level: 2 }).waitFor();
    });
  });

  it('“Pay out now” within what is available makes a payout, listed at the top, and the overview expects less', async () => {
    // A minute after the manual payout of the setup: at one test-clock time the ids would decide, and a `po_` id's
    // base64url text does not sort as its time-ordered bytes do (a CI run listed this one second).
    await clockAt(16, 3);
    await page.goto(`${app.url}/dashboard/payouts`);
    const form = page.getByRole('form', { name: 'Pay out now' });
    await form.getByLabel('Currency').selectOption('NGN');
    await form.getByLabel('Amount').fill('100');
    await form.getByRole('button', { name: 'Pay out' }).click();
    await form.getByText(/^Payout po_\S+ of 100\.00 NGN created\.$/).waitFor();
    const listed = (await request(app.url, 'GET', '/v1/payouts', { token })).body.data as Array<{ id: string; amount: number; automatic: boolean }>;
    expect(listed.map((p) => [p.amount, p.automatic])).toEqual([
      [100, false],
      [500, false],
      [1000, true],
    ]);
    await page.locator(`tr[data-payout="${listed[0]!.id}"]`).waitFor();
    expect(await page.locator('tr[data-payout]').count()).toBe(3);
    await openScreen(page, 'Overview');
    await page.locator('li.next-payout[data-currency="NGN"]').getByTestId('next-payout-amount').filter({ hasText: '200.00 NGN' }).waitFor();
  });

  it('a viewer reads the payouts but may not pay out, and sees no destinations page', async () => {
    const viewer = await personOf(app, merchant.merchant.id, 'viewer', { withPassword: true });
    // A browser of its own: the owner's session cookie stays in the first one.
    const viewers = await launchBrowser();
    try {
      const theirs = await viewers.newPage();
      await signInWith(theirs, app, { email: viewer.email, password: viewer.password });
      await openScreen(theirs, 'Payouts');
      await theirs.locator('tr[data-payout]').nth(2).waitFor();
      expect(await theirs.getByRole('form', { name: 'Pay out now' }).count()).toBe(0);
      expect(await theirs.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Payout destinations' }).count()).toBe(0);
      expect(await theirs.getByRole('navigation', { name: 'Payout pages' }).getByRole('link').allTextContents()).toEqual(['Payouts', 'Schedule']);
    } finally {
      await viewers.close();
    }
  });
});

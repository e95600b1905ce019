import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import type { MerchantCredentials } from '../../../src/modules/merchants/merchant.service';
import { EVENT_TYPES } from '../../../src/modules/outbox/event-types';
import { DASHBOARD_DIST } from '../../../src/transport/dashboard/dashboard.routes';
import { launchBrowser, type TestBrowser } from '../../helpers/browser';
import { approvedCustomer } from '../../helpers/factories';
import { request } from '../../helpers/http';
import { startReceiver, type Receiver } from '../../helpers/receiver';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { momoCollectionBody } from '../../helpers/transactions';
import { FAST_WEBHOOKS } from '../../helpers/webhooks';

/**
 * The merchant dashboard (issue #12) in headless Chromium against a real service: sign-in,
 * secret rotation, a webhook delivery in the event log, a status changing live, a refused
 * sign-in, production hiding the sandbox tools; plus the page's own promises (headers, no
 * secret kept in the browser, usable at 360 px). With SCREENSHOTS=1 it writes docs/dashboard/.
 */

const SHOTS = process.env.SCREENSHOTS === '1' ? path.resolve(__dirname, '../../../docs/dashboard') : null;

async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

async function signIn(page: Page, app: TestApp, merchant: MerchantCredentials, secret = merchant.clientSecret) {
  await page.goto(`${app.url}/dashboard`);
  await page.getByLabel('Client ID').fill(merchant.merchant.clientId);
  await page.getByLabel('Client secret').fill(secret);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Nothing of the session a script can read: no storage, no readable cookie (the session's is HttpOnly), no token or secret in the URL. */
async function expectNothingKept(page: Page, secrets: string[]) {
  const stored = await page.evaluate('JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage }, cookie: document.cookie })');
  expect(stored).toBe(JSON.stringify({ local: {}, session: {}, cookie: '' }));
  for (const secret of secrets) expect(page.url()).not.toContain(secret);
  expect(page.url()).not.toMatch(/token|secret/i);
}

describe('merchant dashboard (sandbox)', () => {
  let app: TestApp;
  let browser: TestBrowser;
  let receiver: Receiver;
  let merchant: MerchantCredentials;
  let token: string;
  let page: Page;

  beforeAll(async () => {
    if (!existsSync(path.join(DASHBOARD_DIST, 'index.html'))) throw new Error('dist/dashboard is missing: run `npm run build`');
    app = await createTestApp({ env: { ...FAST_WEBHOOKS, SANDBOX_SETTLE_MS: '600000' } });
    receiver = await startReceiver(() => 200);
    merchant = await app.createMerchant('Dashboard Merchant');
    token = (await app.token(merchant)).accessToken;
    browser = await launchBrowser();
    page = await browser.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await app?.close();
  });

  it('serves the page with its CSP and no-cache, and hashed assets for a year', async () => {
    const res = await request(app.url, 'GET', '/dashboard/transactions/anything');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    const script = /src="(\/dashboard\/assets\/[^"]+\.js)"/.exec(res.text)![1]!;
    const asset = await request(app.url, 'GET', script);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(asset.headers.get('content-type')).toMatch(/^text\/javascript/);
    const missing = await request(app.url, 'GET', '/dashboard/assets/nope.js');
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('NOT_FOUND');
  });

  it('a failed sign-in shows an error in plain words, and keeps nothing', async () => {
    await signIn(page, app, merchant, 'sk_wrong');
    await expect(page.getByRole('alert').textContent()).resolves.toContain('That client ID and secret do not match');
    await shot(page, 'sign-in-error');
    await expectNothingKept(page, ['sk_wrong']);
  });

  it('signs in on the overview; the transactions list is empty at first', async () => {
    await signIn(page, app, merchant);
    await page.getByRole('heading', { name: 'Overview', level: 2 }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Overview' }).getAttribute('aria-current')).toBe('page');
    await expectNothingKept(page, [merchant.clientSecret]);
    await page.getByRole('link', { name: 'Transactions' }).click();
    await page.getByRole('heading', { name: 'Transactions' }).waitFor();
    await page.getByText('No transactions match').waitFor();
  });

  it('rotates the webhook secret: the new one shown once, the overlap shown', async () => {
    await page.getByRole('link', { name: 'Credentials' }).click();
    await page.getByText(merchant.merchant.clientId).waitFor();
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Rotate webhook secret' }).click();
    const secret = (await page.getByTestId('new-secret').textContent())!;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    await page.getByTestId('overlap').waitFor();
    await shot(page, 'credentials');
    // The service signs with it from now on (the profile says the old one overlaps too).
    const profile = await request(app.url, 'GET', '/v1/merchant', { token });
    expect(profile.body.data.webhook_secret_overlap_until).toEqual(expect.any(String));
    await expectNothingKept(page, [secret, merchant.clientSecret]);
    await page.getByRole('button', { name: 'I have stored it' }).click();
    expect(await page.getByTestId('new-secret').count()).toBe(0);
  });

  it('sets an endpoint, and a delivery appears in the event log with its attempt', async () => {
    await page.getByRole('link', { name: 'Webhooks' }).click();
    const url = page.getByLabel('Endpoint URL');
    await url.fill('ftp://nowhere');
    await page.getByRole('button', { name: 'Save endpoint' }).click();
    await page.getByRole('alert').waitFor();
    await url.fill(receiver.url);
    await page.getByRole('button', { name: 'Save endpoint' }).click();
    await page.getByText('Endpoint saved.').waitFor();

    // An event: a collection decided through the API.
    const customer = (await approvedCustomer(app, token)).customer_uuid;
    const created = await request(app.url, 'POST', '/v1/crossborder/global-collection', { token, body: momoCollectionBody(customer) });
    const reference: string = created.body.data.reference;
    await request(app.url, 'POST', `/v1/sandbox/transactions/${reference}/simulate`, { token, body: { outcome: 'successful' } });

    const row = page.locator('li.row', { hasText: 'collection.successful' });
    await row.getByText('delivered').waitFor({ timeout: 20_000 });
    await shot(page, 'webhooks');
    // The type filter offers the service's own list (the webhookEventTypes query), and filters by it.
    const filter = page.getByLabel('Event type');
    await filter.locator('option', { hasText: EVENT_TYPES.at(-1) }).waitFor({ state: 'attached' });
    expect(await filter.locator('option').allTextContents()).toEqual(['All', ...EVENT_TYPES]);
    await filter.selectOption('collection.failed');
    await page.getByText('No events yet.').waitFor();
    await filter.selectOption('collection.successful');
    await row.waitFor();
    await filter.selectOption('');
    // Each event names what it is about: the collection's reference (a link to it), the KYC decision's customer.
    await row.getByRole('link', { name: reference }).waitFor();
    await page.locator('li.row', { hasText: 'customer.kyc.approved' }).getByText(`customer ${customer}`).waitFor();
    await row.getByRole('link', { name: 'collection.successful' }).click();
    await page.getByRole('link', { name: reference }).waitFor();
    await page.getByRole('columnheader', { name: 'Status code' }).waitFor();
    expect(await page.locator('tbody tr').first().textContent()).toContain('200');
    await page.getByRole('button', { name: 'Resend now' }).click();
    await page.locator('tbody tr').nth(1).waitFor();
    await shot(page, 'webhook-event');
  });

  it('a collection made through the API appears, and its status changes live, without a reload', async () => {
    await page.getByRole('link', { name: 'Transactions' }).click();
    await page.locator('li.row').first().waitFor();
    const customer = (await approvedCustomer(app, token)).customer_uuid;
    const body = momoCollectionBody(customer);
    const created = await request(app.url, 'POST', '/v1/crossborder/global-collection', { token, body });
    const reference: string = created.body.data.reference;
    const navigations: string[] = [];
    page.on('framenavigated', (frame) => navigations.push(frame.url()));
    await request(app.url, 'POST', `/v1/sandbox/transactions/${reference}/simulate`, { token, body: { outcome: 'failed' } });
    const row = page.locator(`li.row[data-reference="${reference}"]`);
    await row.getByText('failed').waitFor();
    expect(navigations).toEqual([]);
    await shot(page, 'transactions');

    await row.getByRole('link').click();
    await page.getByRole('list', { name: 'Status history' }).waitFor();
    expect(await page.getByRole('list', { name: 'Status history' }).locator('li').count()).toBe(2);
    await shot(page, 'transaction-detail');
  });

  it('the sandbox tools enroll a test customer, and decide a payment on the 3-D Secure page', async () => {
    await page.getByRole('link', { name: 'Sandbox tools' }).click();
    await page.getByRole('button', { name: 'Enroll' }).click();
    await page.getByText('Enrolled').waitFor();
    await page.locator('select[name="card"]').selectOption({ label: 'Needs 3-D Secure (…3155)' });
    const cardholder = page.context().waitForEvent('page');
    await page.getByRole('button', { name: 'Pay' }).click();
    const threeDs = await cardholder;
    await threeDs.getByRole('button', { name: 'Complete' }).click();
    await threeDs.waitForURL(/\/dashboard\/payments\/return/);
    await threeDs.getByRole('heading', { name: 'Payment successful' }).waitFor();
    await page.locator('.card', { hasText: 'Test card payment' }).getByText('successful').waitFor();
    await threeDs.close();
    await shot(page, 'sandbox');
  });

  it('is usable at 360 px: no sideways scrolling on the main screens', async () => {
    await page.setViewportSize({ width: 360, height: 740 });
    for (const screen of ['Overview', 'Transactions', 'Balance', 'Customers', 'Webhooks', 'Credentials', 'Sandbox tools']) {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: screen, exact: true }).click();
      await page.getByRole('heading', { level: 2 }).first().waitFor();
      const width = await page.evaluate('document.scrollingElement.scrollWidth');
      expect({ screen, width }).toEqual({ screen, width: 360 });
      if (screen === 'Transactions') await shot(page, 'transactions-360');
    }
    await page.setViewportSize({ width: 800, height: 640 });
  });

  it('works from the keyboard alone: labelled fields, Tab and Enter sign in', async () => {
    // A browser without a session (the tabs share the session's cookie; test/e2e/browser/dashboard-session.test.ts).
    await browser.context.clearCookies();
    const keyboard = await browser.newPage();
    await keyboard.goto(`${app.url}/dashboard`);
    await keyboard.getByLabel('Client ID').waitFor();
    await keyboard.keyboard.press('Tab');
    expect(await keyboard.evaluate('document.activeElement.name')).toBe('clientId');
    await keyboard.keyboard.type(merchant.merchant.clientId);
    await keyboard.keyboard.press('Tab');
    expect(await keyboard.evaluate('document.activeElement.name')).toBe('clientSecret');
    await keyboard.keyboard.type(merchant.clientSecret);
    await keyboard.keyboard.press('Enter');
    await keyboard.getByRole('heading', { name: 'Overview' }).waitFor();
    await keyboard.close();
  });

  it('refreshes the token before it expires (the page’s clock and the service’s, both moved on)', async () => {
    await browser.context.clearCookies();
    const clocked = await browser.newPage();
    await clocked.clock.install();
    await signIn(clocked, app, merchant);
    await clocked.getByRole('heading', { name: 'Overview' }).waitFor();
    const refreshed = clocked.waitForRequest((req) => req.url().endsWith('/dashboard/session/refresh'));
    app.clock.advance(59 * 60_000);
    await clocked.clock.fastForward('59:00');
    await refreshed;
    await clocked.waitForResponse((res) => res.url().endsWith('/graphql') && res.status() === 200);
    // Past the first token's hour by the service's clock: the page works on with the new one.
    app.clock.advance(2 * 60_000);
    await clocked.getByRole('link', { name: 'Customers' }).click();
    await clocked.getByRole('heading', { name: 'Customers' }).waitFor();
    await clocked.locator('li.row').first().waitFor();
    expect(await clocked.getByRole('alert').count()).toBe(0);
    await clocked.close();
    token = (await app.token(merchant)).accessToken;
  });

  it('signs out: the session is revoked and the sign-in form is back', async () => {
    const revoked = page.waitForResponse((res) => res.url().endsWith('/dashboard/session/sign-out') && res.status() === 200);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await revoked;
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await shot(page, 'sign-in');
  });
});

describe('merchant dashboard (production)', () => {
  let app: TestApp;
  let browser: TestBrowser;

  beforeAll(async () => {
    app = await createTestApp({ env: { PAYMENTS_ENV: 'production' } });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('hides the sandbox tools', async () => {
    const merchant = await app.createMerchant('Live Dashboard Merchant');
    const page = await browser.newPage();
    await signIn(page, app, merchant);
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    await page.getByRole('link', { name: 'Balance' }).waitFor();
    expect(await page.getByRole('link', { name: 'Sandbox tools' }).count()).toBe(0);
    expect(await page.locator('.env').textContent()).toBe('production');
  });
});

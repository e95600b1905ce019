import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import type { MerchantCredentials } from '../../../src/modules/merchants/merchant.service';
import { DASHBOARD_DIST } from '../../../src/transport/dashboard/dashboard.routes';
import { launchBrowser, openScreen, readClipboard, screenshots, writeClipboard, type TestBrowser } from '../../helpers/browser';
import { payOnPage } from '../../helpers/checkout';
import { request } from '../../helpers/http';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { eventually } from '../../helpers/wait';
import { ownerLogin } from './owner-login';
import { signInWith } from './sign-in';

/**
 * Issue 37 in the merchant dashboard, in headless Chromium: the Payment links page (create one with an open amount,
 * its address and QR code, its payments, deactivate it) and a payment's page naming its checkout session.
 * With SCREENSHOTS=1 it writes docs/dashboard/payment-links-*.png.
 */

const SHOTS = process.env.SCREENSHOTS === '1' ? path.resolve(__dirname, '../../../docs/dashboard') : null;
const shot = (page: Page, name: string) => screenshots(page, SHOTS, name);

describe('merchant dashboard: payment links (sandbox)', () => {
  let app: TestApp;
  let browser: TestBrowser;
  let merchant: MerchantCredentials;
  let token: string;
  let page: Page;

  beforeAll(async () => {
    if (!existsSync(path.join(DASHBOARD_DIST, 'index.html'))) throw new Error('dist/dashboard is missing: run `npm run build`');
    app = await createTestApp();
    merchant = await app.createMerchant('Links Merchant');
    token = (await app.token(merchant)).accessToken;
    browser = await launchBrowser();
    // The copy buttons write to the clipboard; the test reads it back.
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.url });
    page = await browser.newPage();
    await signInWith(page, app, await ownerLogin(app, merchant));
    await page.getByRole('navigation', { name: 'Main' }).waitFor({ state: 'attached' });
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('creates an open-amount link: its address, its QR code, and the link answers on /pay/{slug}', async () => {
    await openScreen(page, 'Payment links');
    await page.getByRole('heading', { name: 'Payment links', level: 2 }).waitFor();
    await page.getByText('No payment links yet').waitFor();
    const form = page.getByRole('form', { name: 'Create a payment link' });
    await form.getByLabel('What it is for').fill('Church offering');
    await form.getByLabel('Currency').fill('NGN');
    await form.getByLabel('Minimum').fill('100');
    await form.getByLabel('Maximum').fill('50000');
    await form.getByLabel('Address (slug, optional)').fill('church-offering');
    await form.getByRole('checkbox', { name: 'Phone' }).check();
    expect(await form.getByRole('checkbox', { name: 'Name of the payer' }).isChecked()).toBe(false);
    await form.getByRole('button', { name: 'Create link' }).click();
    const made = page.getByTestId('new-link');
    await made.waitFor();
    expect(await made.textContent()).toContain('/pay/church-offering');
    // Copy: the link's whole address is on the clipboard, and the page says so.
    await writeClipboard(page, '');
    await made.getByRole('button', { name: 'Copy the link' }).click();
    await made.getByText('Copied.').waitFor();
    expect(await readClipboard(page)).toBe(`${app.url}/pay/church-offering`);
    const row = page.locator('tr[data-link="church-offering"]');
    await row.waitFor();
    expect(await row.textContent()).toContain('Payer chooses (from 100.00 up to 50,000.00 NGN)');
    // The list's own copy button, after something else was copied.
    await writeClipboard(page, 'something else');
    await row.getByRole('button', { name: 'Copy the link Church offering' }).click();
    await row.getByText('Copied.').waitFor();
    expect(await readClipboard(page)).toBe(`${app.url}/pay/church-offering`);
    const qr = row.getByRole('img', { name: /QR code for/ });
    expect(await qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
    // The QR image really is an image the browser drew.
    expect(await qr.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth > 0)).toBe(true);
    const landing = await fetch(`${app.url}/pay/church-offering`);
    expect(landing.status).toBe(200);
    await shot(page, 'payment-links');
  });

  it('a link’s payments are listed; a payment paid on the hosted page names its checkout session', async () => {
    const links = await request(app.url, 'GET', '/v1/payment-links', { token });
    const link = links.body.data.find((l: { slug: string }) => l.slug === 'church-offering');
    // A payer opens a session through the link and pays it on the page (the service call the page makes).
    const opened = await app.service.app.services.paymentLinks.open('church-offering', { amount: '1500', email: 'ada@example.com', phone: '08031234567' });
    await payOnPage(app, opened.sessionId);
    const session = await eventually(
      async () => (await request(app.url, 'GET', `/v1/checkout/sessions/${opened.sessionId}`, { token })).body.data.status === 'complete',
    );
    expect(session).toBe(true);

    await page.reload();
    await openScreen(page, 'Payment links');
    const row = page.locator('tr[data-link="church-offering"]');
    await row.getByRole('button', { name: '1 paid' }).click();
    const payments = row.getByRole('list', { name: 'Payments of this link' });
    await payments.getByText('1,500.00 NGN').waitFor();
    await payments.getByRole('link').first().click();
    await page.getByText('Checkout session').waitFor();
    expect(await page.locator('dl.facts').textContent()).toContain(opened.sessionId);
    expect(link.payments_count ?? 0).toBe(0); // read before the payment
  });

  it('deactivates a link: its page says so and opens no session', async () => {
    await openScreen(page, 'Payment links');
    const row = page.locator('tr[data-link="church-offering"]');
    page.once('dialog', (d) => void d.accept());
    await row.getByRole('button', { name: 'Deactivate' }).click();
    await row.getByText('inactive').waitFor();
    expect((await fetch(`${app.url}/pay/church-offering`)).status).toBe(410);
  });
});

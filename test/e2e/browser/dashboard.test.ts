import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { inflateSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { totpCodeAt } from '../../../src/modules/accounts/totp';
import type { MerchantCredentials } from '../../../src/modules/merchants/merchant.service';
import { EVENT_TYPES } from '../../../src/modules/outbox/event-types';
import { DASHBOARD_DIST } from '../../../src/transport/dashboard/dashboard.routes';
import { expectNothingKept, launchBrowser, openScreen, screenshots, type TestBrowser } from '../../helpers/browser';
import { approvedCustomer } from '../../helpers/factories';
import { request } from '../../helpers/http';
import { startReceiver, type Receiver } from '../../helpers/receiver';
import { startSmtpServer, type TestSmtpServer } from '../../helpers/smtp';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { bankCollectionBody, momoCollectionBody, transferBody } from '../../helpers/transactions';
import { FAST_WEBHOOKS } from '../../helpers/webhooks';
import { ownerLogin } from './owner-login';
import { signInWith } from './sign-in';

/**
 * The merchant dashboard (issue #12) in headless Chromium against a real service: sign-in (as the
 * merchant's owner, by email and password since issue 36; test/e2e/browser/team-accounts.test.ts has the rest),
 * secret rotation, a webhook delivery in the event log, a status changing live, a refused
 * sign-in, production hiding the sandbox tools; plus the page's own promises (headers, no
 * secret kept in the browser, usable at 360 px). Issue 24: the transactions table (headers,
 * customers by name, fixed columns), search, the CSV export, dates in the browser's locale, the
 * sidebar and the phone's menu at 390 px, empty states, the sandbox's collection and transfer,
 * the favicon. With SCREENSHOTS=1 it writes docs/dashboard/ (`npm run screenshots:dashboard`).
 */

const SHOTS = process.env.SCREENSHOTS === '1' ? path.resolve(__dirname, '../../../docs/dashboard') : null;

/** docs/dashboard/<name>-1280.png and -390.png (SCREENSHOTS=1 only). */
const shot = (page: Page, name: string, ready?: (page: Page) => Promise<unknown>, widths?: number[]) => screenshots(page, SHOTS, name, ready, widths);

/**
 * The colour of one pixel of the whole page (a full-page capture), as CSS writes it (`rgb(r, g, b)`). A 1×1 PNG's
 * one row holds the pixel's bytes after its filter byte whatever the filter (each has no neighbour to add).
 */
async function pixelAt(page: Page, x: number, y: number): Promise<string> {
  const png = await page.screenshot({ fullPage: true, clip: { x, y, width: 1, height: 1 } });
  const idat: Buffer[] = [];
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    if (png.toString('latin1', at + 4, at + 8) === 'IDAT') idat.push(png.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  const [, r, g, b] = inflateSync(Buffer.concat(idat));
  return `rgb(${r}, ${g}, ${b})`;
}

/** The service's references in a CSV export (the second column; references hold no comma or quote). */
const csvReferences = (text: string) =>
  text
    .split('\r\n')
    .filter(Boolean)
    .slice(1)
    .map((line) => line.split(',')[1]);

/** What a transaction's page says for one of its facts (`Fee`, `Account`). */
const fact = (page: Page, label: string) =>
  page
    .locator('dl.facts')
    .first()
    .locator('div', { has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }) })
    .locator('dd')
    .textContent();

/** Signs in as the merchant's owner (issue 36: a person's email and password; `password` to try another). */
async function signIn(page: Page, app: TestApp, merchant: MerchantCredentials, password?: string) {
  const login = await ownerLogin(app, merchant);
  await signInWith(page, app, { email: login.email, password: password ?? login.password });
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
    // A desktop's width: the transactions table with its columns (narrower, each row stacks into lines).
    await page.setViewportSize({ width: 1280, height: 800 });
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
    // The favicon: an SVG Vite bundles, linked from the page (no 404 for /favicon.ico in the log).
    const icon = /<link rel="icon" type="image\/svg\+xml" href="(\/dashboard\/assets\/favicon-[^"]+\.svg)"/.exec(res.text)![1]!;
    const favicon = await request(app.url, 'GET', icon);
    expect(favicon.status).toBe(200);
    expect(favicon.headers.get('content-type')).toBe('image/svg+xml');
    expect(favicon.text).toContain('<svg');
  });

  it('a failed sign-in shows an error in plain words, and keeps nothing', async () => {
    await signIn(page, app, merchant, 'not-the-password');
    await expect(page.getByRole('alert').textContent()).resolves.toContain('That email and password do not match');
    await shot(page, 'sign-in-error');
    await expectNothingKept(page, ['not-the-password']);
  });

  it('signs in on the overview; the transactions list is empty at first', async () => {
    await signIn(page, app, merchant);
    await page.getByRole('heading', { name: 'Overview', level: 2 }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Overview' }).getAttribute('aria-current')).toBe('page');
    await expectNothingKept(page, [(await ownerLogin(app, merchant)).password, merchant.clientSecret]);
    // The navigation is a sidebar on a wide screen: no menu button, and links that are not underlined.
    expect(await page.getByRole('button', { name: 'Menu' }).isVisible()).toBe(false);
    const navLink = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Transactions', exact: true });
    expect(await navLink.evaluate((a) => (globalThis as any).getComputedStyle(a).textDecorationLine)).toBe('none');
    await navLink.click();
    await page.getByRole('heading', { name: 'Transactions' }).waitFor();
    // Empty states say what is missing and what to do.
    await page.getByText('No transactions yet').waitFor();
    await page.getByRole('link', { name: 'Open the sandbox tools' }).waitFor();
    await openScreen(page, 'Webhooks');
    await page.getByText('No events yet').waitFor();
  });

  it('rotates the webhook secret: the new one shown once, the overlap shown', async () => {
    // On the Webhooks page since issue 36 (the Credentials page became API keys).
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { name: 'Signing secret' }).waitFor();
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Rotate webhook secret' }).click();
    const secret = (await page.getByTestId('new-secret').textContent())!;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    await page.getByTestId('overlap').waitFor();
    await shot(page, 'webhook-secret');
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

    const row = page.locator('tbody tr', { hasText: 'collection.successful' });
    await row.getByText('delivered').waitFor({ timeout: 20_000 });
    // The type filter offers the service's own list (the webhookEventTypes query), and filters by it.
    const filter = page.getByLabel('Event type');
    await filter.locator('option', { hasText: EVENT_TYPES.at(-1) }).waitFor({ state: 'attached' });
    expect(await filter.locator('option').allTextContents()).toEqual(['All', ...EVENT_TYPES]);
    await filter.selectOption('collection.failed');
    await page.getByText('No collection.failed events yet').waitFor();
    await page.getByRole('button', { name: 'Show every type' }).waitFor();
    await filter.selectOption('collection.successful');
    await row.waitFor();
    await filter.selectOption('');
    // Each event names what it is about: the collection's reference (a link to it), the KYC decision's customer.
    await row.getByRole('link', { name: reference }).waitFor();
    // (a KYC decision names its customer, by name: a link to them)
    await page.locator('tbody tr', { hasText: 'customer.kyc.approved' }).getByRole('link', { name: 'Amina Otieno' }).first().waitFor();
    expect(await page.getByRole('columnheader').allTextContents()).toEqual(['Event', 'About', 'Delivery', 'Attempts', 'Date']);
    await row.getByRole('link', { name: 'collection.successful' }).click();
    await page.getByRole('link', { name: reference }).waitFor();
    await page.getByRole('columnheader', { name: 'Status code' }).waitFor();
    expect(await page.locator('tbody tr').first().textContent()).toContain('200');
    await page.getByRole('button', { name: 'Resend now' }).click();
    await page.locator('tbody tr').nth(1).waitFor();
    await shot(page, 'webhook-event');
  });

  it('a collection made through the API appears, and its status changes live, without a reload', async () => {
    await openScreen(page, 'Transactions');
    await page.locator('tbody tr').first().waitFor();
    const customer = (await approvedCustomer(app, token, { first_name: 'Wanjiru', last_name: 'Kamau', email: 'Wanjiru.Kamau@Example.com' })).customer_uuid;
    const body = momoCollectionBody(customer);
    const created = await request(app.url, 'POST', '/v1/crossborder/global-collection', { token, body });
    const reference: string = created.body.data.reference;
    const navigations: string[] = [];
    page.on('framenavigated', (frame) => navigations.push(frame.url()));
    await request(app.url, 'POST', `/v1/sandbox/transactions/${reference}/simulate`, { token, body: { outcome: 'failed' } });
    const row = page.locator(`tr[data-reference="${reference}"]`);
    await row.getByText('failed').waitFor();
    expect(navigations).toEqual([]);

    // A table a finance team reads: headers, the counterparty (a collection's: its customer, by name and email), amounts right-aligned in tabular figures.
    expect(await page.getByRole('columnheader').allTextContents()).toEqual(['Date', 'Reference', 'Counterparty', 'Type', 'Amount', 'Status']);
    await row.getByText('Wanjiru Kamau').waitFor();
    await row.getByText('Wanjiru.Kamau@Example.com').waitFor();
    expect(await row.textContent()).not.toContain(customer);
    const amount = row.locator('td.t-amount');
    expect(await amount.textContent()).toBe('1,500.00 KES');
    const style = await amount.evaluate((td) => {
      const css = (globalThis as any).getComputedStyle(td);
      return [css.textAlign, css.fontVariantNumeric];
    });
    expect(style).toEqual(['right', 'tabular-nums']);
    // Columns do not move with a row's badge: every row's cells start and end at the same x (a failed and a successful one here).
    const edges = async (cells: string) =>
      new Set(await page.locator(cells).evaluateAll((tds) => tds.map((td) => `${td.getBoundingClientRect().left}-${td.getBoundingClientRect().right}`)));
    expect(await page.locator('tbody tr').count()).toBeGreaterThanOrEqual(2);
    for (const cells of ['td.t-amount', 'td.t-status', 'td.t-counterparty']) expect((await edges(cells)).size).toBe(1);
    // A badge is as wide as its word, never the column.
    const badge = row.locator('.badge');
    expect(await badge.evaluate((b) => b.getBoundingClientRect().width < b.parentElement!.getBoundingClientRect().width / 1.3)).toBe(true);

    await row.getByRole('link').click();
    await page.getByRole('list', { name: 'Status history' }).waitFor();
    expect(await page.getByRole('list', { name: 'Status history' }).locator('li').count()).toBe(2);
    // The customer by name (a link to them) and email, not their uuid.
    const customerFact = page.getByTestId('customer');
    await customerFact.getByRole('link', { name: 'Wanjiru Kamau' }).waitFor();
    await customerFact.getByText('Wanjiru.Kamau@Example.com').waitFor();
    // Failed: it charged no fee (issue 41); the sender's wallet is masked.
    // The network by name once the reference data is read (its id until then).
    await page.locator('dl.facts').getByText('momo · M-Pesa · ••••5678 · KE').waitFor();
    expect([await fact(page, 'Fee'), await fact(page, 'Account')]).toEqual(['0.00 KES', 'momo · M-Pesa · ••••5678 · KE']);
  });

  it('a transfer shows its beneficiary (name, account masked), not its sender, in the list and on its page; failed, its fee is 0 (issue 41)', async () => {
    const customer = (await approvedCustomer(app, token, { first_name: 'Baraka', last_name: 'Mwangi', email: 'baraka@example.org' })).customer_uuid;
    const created = await request(app.url, 'POST', '/v1/crossborder/global-transfer', {
      token,
      body: transferBody(customer, { amount: 50, account_name: 'Halima Njoroge', account_number: '712349876' }),
    });
    expect([created.status, created.body.data.fee]).toEqual([200, 0.5]);
    const reference: string = created.body.data.reference;
    expect((await request(app.url, 'POST', `/v1/sandbox/transactions/${reference}/simulate`, { token, body: { outcome: 'failed' } })).status).toBe(200);
    await openScreen(page, 'Transactions');
    const row = page.locator(`tr[data-reference="${reference}"]`);
    const cell = row.locator('td.t-counterparty');
    await cell.getByText('Halima Njoroge').waitFor();
    expect(await cell.textContent()).toBe('Halima Njoroge••••9876');
    expect(await row.textContent()).not.toContain('Baraka');
    await row.getByRole('link').click();
    const beneficiary = page.getByTestId('counterparty');
    await beneficiary.getByText('••••9876').waitFor();
    // The network by its name (the reference data's), not its id.
    await beneficiary.getByText('M-Pesa').waitFor();
    expect(await beneficiary.locator('dd').allTextContents()).toEqual(['Halima Njoroge', '••••9876', 'M-Pesa']);
    // The whole number is nowhere on the page; the customer is still named, as the sender.
    expect(await page.locator('main').textContent()).not.toContain('712349876');
    await page.getByTestId('customer').getByRole('link', { name: 'Baraka Mwangi' }).waitFor();
    expect(await fact(page, 'Fee')).toBe('0.00 USD');
  });

  it('a bank collection shows when it expires while it waits, and no “Expires” once decided', async () => {
    const customer = (await approvedCustomer(app, token)).customer_uuid;
    const created = await request(app.url, 'POST', '/v1/crossborder/global-collection', { token, body: bankCollectionBody(customer) });
    expect(created.body.data.status).toBe('processing');
    const reference: string = created.body.data.reference;
    // In the app (a reload would sign out: the session is in the tab's memory).
    await page.evaluate(`history.pushState(null, '', '/dashboard/transactions/${reference}'); dispatchEvent(new PopStateEvent('popstate'))`);
    const facts = page.locator('dl.facts').first();
    await facts.getByText('Expires').waitFor();
    // The sender's bank by name, the account masked.
    const kenyanBanks = (await request(app.url, 'GET', '/v1/crossborder/networks?country_code=KE&channel=bank', { token })).body.data as Array<{
      name: string;
      network_id: string;
    }>;
    const bankName = kenyanBanks.find((n) => n.network_id === bankCollectionBody(customer).network_id)!.name;
    await facts.getByText(`bank · ${bankName} · ••••`, { exact: false }).waitFor();
    await shot(page, 'transaction-detail', (p) => p.getByText('Bank details for the sender').waitFor());
    await page.getByRole('button', { name: 'Simulate success' }).click();
    await page.locator('h2 .badge', { hasText: 'successful' }).waitFor();
    await facts.getByText('Completed').waitFor();
    expect(await facts.getByText('Expires').count()).toBe(0);
  });

  it('search finds a transaction by either reference or by the customer’s email in any case; nothing else matches', async () => {
    const customer = (await approvedCustomer(app, token, { first_name: 'Kofi', last_name: 'Mensah', email: 'kofi@example.org' })).customer_uuid;
    const made = [];
    for (let i = 0; i < 2; i++) {
      app.clock.advance(1000);
      made.push((await request(app.url, 'POST', '/v1/crossborder/global-collection', { token, body: momoCollectionBody(customer) })).body.data);
    }
    const [first, second] = made as [{ reference: string; external_reference: string }, { reference: string; external_reference: string }];
    await openScreen(page, 'Transactions');
    const search = page.getByRole('searchbox', { name: 'Search' });
    /** Waits until the table shows exactly these transactions, in this order. */
    const shows = (references: string[]) =>
      page.waitForFunction(
        (want) => JSON.stringify([...(globalThis as any).document.querySelectorAll('tbody tr')].map((tr: any) => tr.getAttribute('data-reference'))) === want,
        JSON.stringify(references),
      );
    await search.fill(second.reference);
    await shows([second.reference]);
    await search.fill(first.external_reference);
    await shows([first.reference]);
    await search.fill('KOFI@Example.ORG');
    await shows([second.reference, first.reference]);
    await page.locator('tbody tr').first().getByText('Kofi Mensah').waitFor();
    await search.fill('nobody@example.org');
    await page.getByText('No transactions match “nobody@example.org”').waitFor();
    await shot(page, 'transactions-no-match');
    await page.getByRole('button', { name: 'Clear search and filters' }).click();
    expect(await search.inputValue()).toBe('');
    await page.waitForFunction(() => (globalThis as any).document.querySelectorAll('tbody tr').length > 2);
  });

  it('exports the filtered list as CSV, every page of it (not only the rows shown)', async () => {
    // 25 more of one customer's collections: two pages of 20 in the list.
    const customer = (await approvedCustomer(app, token, { first_name: 'Ama', last_name: 'Owusu', email: 'ama.owusu@example.org' })).customer_uuid;
    const references: string[] = [];
    for (let i = 0; i < 25; i++) {
      app.clock.advance(1000);
      references.unshift(
        (await request(app.url, 'POST', '/v1/crossborder/global-collection', { token, body: momoCollectionBody(customer) })).body.data.reference,
      );
    }
    await openScreen(page, 'Transactions');
    await page.getByRole('searchbox', { name: 'Search' }).fill('ama.owusu@example.org');
    await page.waitForFunction(() => (globalThis as any).document.querySelectorAll('tbody tr').length === 20);
    await page.getByRole('button', { name: 'Load more' }).waitFor();
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('transactions.csv');
    const text = readFileSync((await file.path())!, 'utf8');
    expect(text.split('\r\n')[0]).toBe(
      'created_at,reference,external_reference,type,status,amount,currency,fee,destination_amount,destination_currency,customer_name,customer_email,customer_uuid,failure_reason,completed_at,counterparty_name,counterparty_account',
    );
    expect(csvReferences(text)).toEqual(references);
    expect(text).toContain(',1500.00,KES,');
    expect(text).toContain(',Ama Owusu,"ama.owusu@example.org",'); // quoted: it holds a formula character (@)
    // With a type filter that matches none of them: the header alone.
    await page.getByRole('search', { name: 'Filter transactions' }).getByLabel('Type').selectOption('TRANSFER');
    await page.getByText('No transactions match').waitFor();
    const none = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    expect(csvReferences(readFileSync((await (await none).path())!, 'utf8'))).toEqual([]);
    await page.getByRole('button', { name: 'Clear search and filters' }).click();
    await page.waitForFunction(() => (globalThis as any).document.querySelectorAll('tbody tr').length === 20);
    await shot(page, 'transactions', (p) => p.locator('tbody tr').first().waitFor());
  });

  it('the sandbox tools enroll a test customer, approve its KYC, make a collection and a transfer, and decide a payment on the 3-D Secure page', async () => {
    await openScreen(page, 'Sandbox tools');
    const enroll = page.getByRole('form', { name: 'Enroll a test customer (Kenya)' });
    await enroll.getByLabel('First name').fill('Zawadi');
    await enroll.getByLabel('Last name').fill('Njeri');
    await enroll.getByLabel('Email').fill('zawadi@example.com');
    await page.getByRole('button', { name: 'Enroll' }).click();
    await page.getByText('Enrolled').waitFor();
    const kyc = page.getByRole('form', { name: 'Submit KYC' });
    await kyc.getByLabel('Customer').selectOption({ label: 'Zawadi Njeri' });
    await kyc.getByRole('button', { name: 'Submit KYC' }).click();
    await kyc.getByText('KYC submitted').waitFor();

    // Once the sandbox approves the KYC (a moment later), the collection and transfer forms offer the customer.
    const collect = page.getByRole('form', { name: 'Test collection' });
    await collect.getByLabel('Customer (KYC approved)').locator('option', { hasText: 'Zawadi Njeri' }).waitFor({ state: 'attached', timeout: 20_000 });
    await collect.getByLabel('Customer (KYC approved)').selectOption({ label: 'Zawadi Njeri' });
    // Every country the service serves, its methods and its networks by name (the reference data).
    const countries = (await request(app.url, 'GET', '/v1/crossborder/countries', { token })).body.data as Array<{ country_code: string }>;
    expect(await collect.getByLabel('Country').locator('option').count()).toBe(countries.length);
    await collect.getByLabel('Country').selectOption({ label: 'Kenya (KES)' });
    await collect.getByLabel('Method').selectOption({ label: 'Mobile money' });
    await collect.locator('select[name="network"]').selectOption({ label: 'M-Pesa' });
    expect(await collect.getByLabel(/^Wallet/).inputValue()).toMatch(/^7\d{8}$/); // a Kenyan mobile number, as the numbering plan has one
    await collect.getByLabel('Amount (KES)').fill('2750.00');
    await collect.getByRole('button', { name: 'Collect' }).click();
    const collected = collect.getByRole('status').filter({ hasText: 'Created' });
    await collected.getByText('2,750.00 KES').waitFor();
    const collectionRef = decodeURIComponent((await collected.getByRole('link').getAttribute('href'))!.split('/').pop()!);
    const collection = (await request(app.url, 'GET', `/v1/crossborder/global-transfer/${collectionRef}`, { token })).body.data;
    expect(collection).toMatchObject({ type: 'collection', amount: 2750, currency: 'KES', customer_uuid: expect.any(String) });

    const transfer = page.getByRole('form', { name: 'Test transfer' });
    await transfer.getByLabel('Customer (KYC approved)').selectOption({ label: 'Zawadi Njeri' });
    await transfer.getByLabel('From your balance in').selectOption('USD');
    await transfer.getByLabel('Amount (in that currency)').fill('40.00');
    await transfer.getByLabel('Country').selectOption({ label: 'Kenya (KES)' });
    await transfer.getByLabel('Method').selectOption({ label: 'Mobile money' });
    await transfer.locator('select[name="network"]').selectOption({ label: 'M-Pesa' });
    await transfer.getByRole('button', { name: 'Send transfer' }).click();
    const sent = transfer.getByRole('status').filter({ hasText: 'Created' });
    await sent.getByText('40.00 USD').waitFor();
    const transferRef = decodeURIComponent((await sent.getByRole('link').getAttribute('href'))!.split('/').pop()!);
    const made = (await request(app.url, 'GET', `/v1/crossborder/global-transfer/${transferRef}`, { token })).body.data;
    expect(made).toMatchObject({ type: 'transfer', source_amount: 40, source_currency: 'USD', destination_currency: 'KES' });

    // Nigeria by bank transfer, both ways: a collection into a virtual account at the chosen bank, and a payout to a bank account.
    const ngBanks = (await request(app.url, 'GET', '/v1/crossborder/networks?country_code=NG&channel=bank', { token })).body.data as Array<{
      name: string;
      network_id: string;
    }>;
    const bank = ngBanks[1]!;
    await collect.getByLabel('Country').selectOption({ label: 'Nigeria (NGN)' });
    await collect.getByLabel('Method').selectOption({ label: 'Bank transfer' });
    await collect.locator('select[name="network"]').locator('option', { hasText: bank.name }).waitFor({ state: 'attached' });
    expect(await collect.locator('select[name="network"]').locator('option').allTextContents()).toEqual(ngBanks.map((b) => b.name));
    await collect.locator('select[name="network"]').selectOption({ label: bank.name });
    await collect.getByLabel('Amount (NGN)').fill('15000');
    await collect.getByRole('button', { name: 'Collect' }).click();
    await collect.getByRole('status').filter({ hasText: '15,000.00 NGN' }).waitFor();
    const ngCollectionRef = decodeURIComponent((await collected.getByRole('link').getAttribute('href'))!.split('/').pop()!);
    const ngCollection = (await request(app.url, 'GET', `/v1/crossborder/global-transfer/${ngCollectionRef}`, { token })).body.data;
    expect(ngCollection).toMatchObject({ type: 'collection', amount: 15000, currency: 'NGN', account_type: 'bank', network_id: bank.network_id });

    await transfer.getByLabel('From your balance in').selectOption('NGN');
    await transfer.getByLabel('Amount (in that currency)').fill('5000');
    await transfer.getByLabel('Country').selectOption({ label: 'Nigeria (NGN)' });
    await transfer.getByLabel('Method').selectOption({ label: 'Bank transfer' });
    await transfer.locator('select[name="network"]').selectOption({ label: bank.name });
    await transfer.getByLabel('Account number').fill('0123456781');
    await transfer.getByRole('button', { name: 'Send transfer' }).click();
    await transfer.getByRole('status').filter({ hasText: '5,000.00 NGN' }).waitFor();
    const ngTransferRef = decodeURIComponent((await sent.getByRole('link').getAttribute('href'))!.split('/').pop()!);
    const ngTransfer = (await request(app.url, 'GET', `/v1/crossborder/global-transfer/${ngTransferRef}`, { token })).body.data;
    expect(ngTransfer).toMatchObject({
      type: 'transfer',
      source_currency: 'NGN',
      destination_currency: 'NGN',
      account_type: 'bank',
      network_id: bank.network_id,
      beneficiary: { account_number: '0123456781', network_id: bank.network_id },
    });

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

  it('on a phone (390 px): a menu button opens the navigation, the header stays short, and no screen scrolls sideways', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    const menu = page.getByRole('button', { name: 'Menu' });
    await menu.waitFor();
    const nav = page.getByRole('navigation', { name: 'Main' });
    expect(await nav.isVisible()).toBe(false);
    expect(await page.locator('.sidebar-head').evaluate((h) => h.getBoundingClientRect().height)).toBeLessThanOrEqual(56);
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    await menu.click();
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    await nav.getByRole('link', { name: 'Webhooks', exact: true }).waitFor();
    await shot(page, 'menu-open', undefined, [390]);
    await page.keyboard.press('Escape');
    expect(await nav.isVisible()).toBe(false);
    for (const screen of ['Overview', 'Transactions', 'Balance', 'Customers', 'Webhooks', 'Team', 'API keys', 'Audit log', 'Profile', 'Sandbox tools']) {
      await openScreen(page, screen);
      await page.getByRole('heading', { level: 2 }).first().waitFor();
      expect(await nav.isVisible()).toBe(false); // choosing a page closes the menu
      const width = await page.evaluate('document.scrollingElement.scrollWidth');
      expect({ screen, width }).toEqual({ screen, width: 390 });
    }
    // The Balance table at 390 px: each row a card, every amount on screen (no scrolling inside the table either).
    await openScreen(page, 'Balance');
    const rows = page.locator('table.ledger tbody tr');
    await rows.first().waitFor();
    const offScreen = await page.evaluate(() =>
      [...(globalThis as any).document.querySelectorAll('table.ledger td.num')]
        .map((td: any) => ({ text: td.textContent, right: td.getBoundingClientRect().right, left: td.getBoundingClientRect().left }))
        .filter((c) => c.left < 0 || c.right > 390),
    );
    expect(offScreen).toEqual([]);
    expect(
      await page
        .locator('table.ledger td.b-net')
        .first()
        .evaluate((td) => (globalThis as any).getComputedStyle(td, '::before').content),
    ).toBe('"Net "');
    // The event log: a type such as collection.successful stays on one line, its badge as wide as its word.
    await openScreen(page, 'Webhooks');
    const type = page.locator('.event-type', { hasText: 'collection.successful' }).first();
    await type.waitFor();
    expect(await type.evaluate((el) => el.getClientRects().length)).toBe(1);
    expect(await type.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
    const delivered = page.locator('tbody tr .badge').first();
    expect(await delivered.evaluate((b) => b.getBoundingClientRect().width < 200)).toBe(true);
    // An event's attempts table fits, or scrolls inside its card: never the page.
    await type.click();
    await page.getByRole('columnheader', { name: 'Status code' }).waitFor();
    expect(await page.evaluate('document.scrollingElement.scrollWidth')).toBe(390);
    const region = page.getByRole('region', { name: 'Attempts' });
    expect(await region.evaluate((r) => r.getBoundingClientRect().right <= 390)).toBe(true);
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('screens for the docs: the event log with data (the overview’s are the books test’s)', async () => {
    await openScreen(page, 'Webhooks');
    await page.locator('tbody tr').first().waitFor();
    await shot(page, 'webhooks', (p) => p.locator('tbody tr').first().waitFor());
    expect(await page.locator('tbody tr').count()).toBeGreaterThan(0);
  });

  it('the sidebar’s white column and its border reach the bottom of a page longer than the screen (a full-page capture)', async () => {
    await page.setViewportSize({ width: 1280, height: 360 });
    await openScreen(page, 'Sandbox tools');
    await page.getByRole('form', { name: 'Test transfer' }).waitFor();
    await page.evaluate('window.scrollTo(0, 0)');
    const height = (await page.evaluate('document.scrollingElement.scrollHeight')) as number;
    expect(height).toBeGreaterThan(720); // twice the screen: the sidebar itself is one screen tall (sticky)
    // The page's grey and the sidebar's white, read from the styles rather than assumed.
    const colours = (await page.evaluate(
      '({ page: getComputedStyle(document.body).backgroundColor, sidebar: getComputedStyle(document.querySelector(".sidebar")).backgroundColor })',
    )) as { page: string; sidebar: string };
    expect(colours.page).not.toBe(colours.sidebar);
    for (const y of [10, Math.round(height / 2), height - 5]) expect({ y, colour: await pixelAt(page, 10, y) }).toEqual({ y, colour: colours.sidebar });
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('is usable at 360 px: no sideways scrolling on the main screens', async () => {
    await page.setViewportSize({ width: 360, height: 740 });
    for (const screen of ['Overview', 'Transactions', 'Balance', 'Customers', 'Webhooks', 'Team', 'API keys', 'Audit log', 'Profile', 'Sandbox tools']) {
      await openScreen(page, screen);
      await page.getByRole('heading', { level: 2 }).first().waitFor();
      const width = await page.evaluate('document.scrollingElement.scrollWidth');
      expect({ screen, width }).toEqual({ screen, width: 360 });
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('works from the keyboard alone: labelled fields, Tab and Enter sign in', async () => {
    // A browser without a session (the tabs share the session's cookie; test/e2e/browser/dashboard-session.test.ts).
    await browser.context.clearCookies();
    const keyboard = await browser.newPage();
    const login = await ownerLogin(app, merchant);
    await keyboard.goto(`${app.url}/dashboard`);
    await keyboard.getByLabel('Email').waitFor();
    await keyboard.keyboard.press('Tab');
    expect(await keyboard.evaluate('document.activeElement.name')).toBe('email');
    await keyboard.keyboard.type(login.email);
    await keyboard.keyboard.press('Tab');
    expect(await keyboard.evaluate('document.activeElement.name')).toBe('password');
    await keyboard.keyboard.type(login.password);
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
    await openScreen(clocked, 'Customers');
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
  let smtp: TestSmtpServer;

  beforeAll(async () => {
    // Production refuses to start without mail (invitations send email).
    smtp = await startSmtpServer();
    app = await createTestApp({ env: { PAYMENTS_ENV: 'production', SMTP_URL: smtp.url(), MAIL_FROM: 'Payments Gateway <no-reply@pay.example.com>' } });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await smtp?.close();
  });

  it('asks an owner to enrol in 2FA before anything else, then hides the sandbox tools', async () => {
    const merchant = await app.createMerchant('Live Dashboard Merchant');
    const page = await browser.newPage();
    await signIn(page, app, merchant);
    // Production: an owner's role moves money, so 2FA comes first (the service refuses the rest meanwhile).
    await page.getByRole('heading', { name: 'Set up two-factor authentication' }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Main' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
    const form = page.getByRole('form', { name: 'Confirm two-factor authentication' });
    const secret = (await form.getByTestId('totp-secret').textContent())!.trim();
    await form.getByLabel('Code from your app').fill(totpCodeAt(secret, app.clock.now()));
    await form.getByRole('button', { name: 'Turn on' }).click();
    await page.getByRole('region', { name: 'Recovery codes' }).getByRole('button', { name: 'I have saved them' }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    await page.getByRole('link', { name: 'Balance' }).waitFor();
    expect(await page.getByRole('link', { name: 'Sandbox tools' }).count()).toBe(0);
    expect(await page.locator('.env').textContent()).toBe('production');
  });
});

describe('merchant dashboard in a German browser', () => {
  let app: TestApp;
  let browser: TestBrowser;

  beforeAll(async () => {
    app = await createTestApp({ env: { SANDBOX_SETTLE_MS: '600000' } });
    browser = await launchBrowser({ locale: 'de-DE' });
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('shows dates in the browser’s locale, not a fixed US format', async () => {
    const merchant = await app.createMerchant('Locale Merchant');
    const token = (await app.token(merchant)).accessToken;
    const customer = (await approvedCustomer(app, token)).customer_uuid;
    const created = await request(app.url, 'POST', '/v1/crossborder/global-collection', { token, body: momoCollectionBody(customer) });
    const page = await browser.newPage();
    await page.setViewportSize({ width: 1280, height: 800 });
    await signIn(page, app, merchant);
    await openScreen(page, 'Transactions');
    const date = (await page.locator(`tr[data-reference="${created.body.data.reference}"] td.t-date`).textContent())!;
    // de-DE: "27.11.2026, 22:05" (day.month.year, a 24-hour clock), in the browser's time zone.
    expect(date).toMatch(/^\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}$/);
    const at = new Date(
      created.body.data.created_at ??
        (await request(app.url, 'GET', `/v1/crossborder/global-transfer/${created.body.data.reference}`, { token })).body.data.created_at,
    );
    expect(date.slice(0, 10)).toBe(`${String(at.getDate()).padStart(2, '0')}.${String(at.getMonth() + 1).padStart(2, '0')}.${at.getFullYear()}`);
  });
});

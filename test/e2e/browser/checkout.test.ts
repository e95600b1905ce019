import { createHash } from 'node:crypto';
import type { Page } from 'playwright-core';
import { launchBrowser, readClipboard, startPageServer, writeClipboard, type PageServer, type TestBrowser } from '../../helpers/browser';
import {
  checkoutScreenshot,
  chooseMethod,
  contrastRatio,
  foreignRequests,
  lowContrastText,
  tabTo,
  unexpectedFailures,
  watchedPage,
  type Watched,
} from '../../helpers/checkout-browser';
import { createLink, getSession, openSession } from '../../helpers/checkout';
import { request } from '../../helpers/http';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { sql } from '../../helpers/transactions';

/**
 * Issue 37: the hosted checkout in headless Chromium, at a phone's width (390 px) and a desktop's (1280 px), in the
 * sandbox: mobile money, a bank transfer, a card with 3-D Secure, an expired session, a deactivated link, an
 * open-amount link, and the French page. On every tab: nothing leaves the service's or the shop's origin, no console
 * error (a CSP violation is one), and each page's first load costs under 100 KB on the wire.
 * (The PIN card against the Flutterwave fake, in production: checkout-pin.test.ts.)
 */
const FIRST_LOAD_LIMIT = 100 * 1024;
/** The failed answers a test may meet: the shop's and the 3-D Secure page's favicon (the browser's probe), and what a test expects. */
const FAVICON = /^404 http:\/\/127\.0\.0\.1:\d+\/favicon\.ico$/;
/** The merchant's logo, uploaded (a 1×1 PNG): the page shows it from the service's own origin. */
const LOGO = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const LOGO_PATH = `/checkout/logos/${createHash('sha256').update(LOGO).digest('hex')}`;

describe('hosted checkout in headless Chromium (sandbox)', () => {
  let app: TestApp;
  let token: string;
  let browser: TestBrowser;
  /** The merchant's site: redirect_url is its /return, cancel_url its /cart. */
  let shop: PageServer;
  const tabs: Array<{ tab: Watched; allowed: RegExp[] }> = [];
  /** The bytes of each page's first load, for the report. */
  const weights: Record<string, number> = {};

  beforeAll(async () => {
    // The sandbox's mobile money settles by itself, after the "check your phone" page has been seen.
    app = await createTestApp({ env: { SANDBOX_SETTLE_MS: '2500' } });
    token = (await app.token(await app.createMerchant('Mama Put <Kitchen>'))).accessToken;
    const logo = await request(app.url, 'PUT', '/v1/checkout/settings', { token, body: { logo: LOGO.toString('base64') } });
    expect(logo.body.data.logo_url).toBe(`${app.url}${LOGO_PATH}`);
    shop = await startPageServer({
      '/return': '<!doctype html><title>Shop</title><h1>Back at the shop</h1>',
      '/cart': '<!doctype html><title>Shop</title><h1>Your cart</h1>',
    });
    browser = await launchBrowser();
    // The copy buttons write to the clipboard; the tests read it back.
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.url });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await shop?.close();
    await app?.close();
    if (Object.keys(weights).length) console.log(`checkout first loads (bytes on the wire): ${JSON.stringify(weights)}`);
  });
  beforeEach(() => browser.context.clearCookies());
  // Whatever a test did, its tabs requested nothing foreign and logged no error.
  afterEach(async () => {
    const origins = [new URL(app.url).origin, shop.origin];
    for (const { tab, allowed } of tabs.splice(0)) {
      expect(foreignRequests(tab, origins)).toEqual([]);
      expect(tab.errors).toEqual([]);
      expect(unexpectedFailures(tab, [FAVICON, ...allowed])).toEqual([]);
    }
    await Promise.all(browser.context.pages().map((p) => p.close()));
  });

  const session = (overrides: Record<string, unknown> = {}) =>
    openSession(app, token, { redirect_url: `${shop.origin}/return?order=1001`, cancel_url: `${shop.origin}/cart`, ...overrides });
  /** A watched tab; `allowed`: the failed answers ("status URL") this test expects. */
  const tab = async (width: number, allowed: RegExp[] = []) => {
    const w = await watchedPage(() => browser.newPage(), width);
    tabs.push({ tab: w, allowed });
    return w;
  };
  /** Opens `url` as a first load; its weight must stay under the limit. */
  const open = async (w: Watched, url: string, name: string) => {
    const { response, bytes } = await w.firstLoad(url);
    expect(bytes).toBeGreaterThan(0);
    expect(bytes).toBeLessThan(FIRST_LOAD_LIMIT);
    weights[`${name}@${w.page.viewportSize()!.width}`] = bytes;
    return response;
  };
  const h1 = (page: Page) => page.locator('h1').textContent();
  /** Waits for the page to show `title` in its heading (the script reloads it when the status changes). */
  const shows = (page: Page, title: string) => page.locator('h1', { hasText: title }).waitFor({ timeout: 20_000 });
  const paymentOf = async (sessionId: string) =>
    (await sql<{ reference: string }>(app, 'select reference from "transaction" where checkout_session_id = ?', [sessionId]))[0]?.reference;
  const completedEvents = async (sessionId: string) =>
    Number(
      (
        await sql(app, `select count(*) as n from outbox_event where type = 'checkout.session.completed' and (subject_id = ? or payload::text like ?)`, [
          sessionId,
          `%${sessionId}%`,
        ])
      )[0].n,
    );
  /** On the success page: "Return to" goes to the shop with the session, the payment and status=successful. */
  async function returnToShop(page: Page, sessionId: string) {
    const link = page.locator('#return');
    expect(await link.textContent()).toBe('Return to Mama Put <Kitchen>');
    await Promise.all([page.waitForURL((u) => u.origin === shop.origin), link.click()]);
    expect(await h1(page)).toBe('Back at the shop');
    const landed = new URL(page.url());
    expect(landed.pathname).toBe('/return');
    const reference = await paymentOf(sessionId);
    expect(Object.fromEntries(landed.searchParams)).toEqual({ order: '1001', checkout_session_id: sessionId, reference, status: 'successful' });
    return reference!;
  }
  async function completeOverRest(sessionId: string, reference: string) {
    const read = (await getSession(app, token, sessionId)).body.data;
    expect(read).toMatchObject({ status: 'complete', payment_reference: reference });
    expect(await completedEvents(sessionId)).toBe(1);
  }

  describe.each([390, 1280])('at %i px', (width) => {
    it('mobile money, the sandbox approves: the network predicted, "check your phone", followed live to success, back at the shop', async () => {
      const s = await session();
      const w = await tab(width);
      const { page } = w;
      expect((await open(w, s.url, 'methods')).status()).toBe(200);
      expect(await h1(page)).toBe('How do you want to pay?');
      expect(await page.locator('#amount').textContent()).toContain('2,500.00');
      // The page, its stylesheet, its script and the merchant's logo, all from the service: nothing else (no favicon probe either).
      const paths = w.urls.map((u) => new URL(u).pathname);
      expect(paths).toHaveLength(4);
      expect(paths).toEqual(
        expect.arrayContaining([
          `/checkout/${s.id}`,
          expect.stringMatching(/^\/checkout\/assets\/checkout\.[0-9a-f]{8}\.css$/),
          expect.stringMatching(/^\/checkout\/assets\/checkout\.[0-9a-f]{8}\.js$/),
          LOGO_PATH,
        ]),
      );
      expect(w.urls.every((u) => new URL(u).origin === app.url)).toBe(true);
      // The logo is drawn: the browser decoded the image the service served.
      const logo = page.locator('header.merchant img.logo');
      expect(await logo.getAttribute('src')).toBe(LOGO_PATH);
      expect(await logo.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBe(1);
      await checkoutScreenshot(page, 'methods');
      await chooseMethod(page, 'momo');
      await page.getByLabel('Mobile money number').fill('0803 123 4567');
      await page.locator('#momo-predicted', { hasText: /^Looks like / }).waitFor();
      expect(await page.locator('#momo-predicted').textContent()).toMatch(/MTN/);
      await checkoutScreenshot(page, 'momo-phone');

      await Promise.all([page.waitForURL(`${app.url}/checkout/${s.id}`), page.getByRole('button', { name: 'Send the payment request' }).click()]);
      expect(await h1(page)).toBe('Check your phone');
      await checkoutScreenshot(page, 'momo-waiting');
      // Nobody touches the page: its script polls /status and reloads when the sandbox approves.
      await shows(page, 'Payment successful');
      await checkoutScreenshot(page, 'success');
      const reference = await returnToShop(page, s.id);
      await completeOverRest(s.id, reference);
    });

    it('bank transfer, simulated paid: the account, bank, amount and countdown (also without JavaScript); the page moves to success by itself', async () => {
      const s = await session();
      const w = await tab(width);
      const { page } = w;
      await open(w, s.url, 'methods');
      await chooseMethod(page, 'bank_transfer');
      await Promise.all([page.waitForURL(`${app.url}/checkout/${s.id}`), page.getByRole('button', { name: 'Pay by bank transfer' }).click()]);
      expect(await h1(page)).toBe('Pay by bank transfer');
      const [row] = await sql<{ reference: string; virtual_account_number: string }>(
        app,
        'select reference, virtual_account_number from "transaction" where checkout_session_id = ?',
        [s.id],
      );
      expect(row!.virtual_account_number).toMatch(/^\d{10}$/);
      expect(await page.locator('#bt-account').textContent()).toBe(row!.virtual_account_number);
      expect(await page.locator('#bt-bank').textContent()).not.toBe('');
      expect(await page.locator('#bt-amount').textContent()).toContain('2,500.00');
      expect(await page.locator('#countdown').textContent()).toMatch(/^Pay before \d\d:\d\d \(about \d+ (minutes|hours)\)$/);
      // The copy button beside the account number puts exactly the number on the clipboard, and says so.
      await writeClipboard(page, 'something else');
      const copy = page.locator('button.copy[aria-describedby="bt-account"]');
      await copy.click();
      expect(await readClipboard(page)).toBe(row!.virtual_account_number);
      expect(await copy.textContent()).toBe('Copied');
      await checkoutScreenshot(page, 'bank-transfer');
      // The same page as a first load of its own.
      const shown = await tab(width);
      await open(shown, s.url, 'bank-transfer');
      expect(await shown.page.locator('#bt-account').textContent()).toBe(row!.virtual_account_number);

      // Without JavaScript: the details are in the HTML itself.
      const bare = await tab(width);
      const cdp = await bare.page.context().newCDPSession(bare.page);
      await cdp.send('Emulation.setScriptExecutionDisabled', { value: true });
      await bare.page.goto(s.url);
      expect(await bare.page.evaluate('document.documentElement.className')).toBe(''); // the script did not run
      expect(await bare.page.locator('#bt-account').textContent()).toBe(row!.virtual_account_number);
      expect(await bare.page.locator('#bt-bank').textContent()).toBe(await page.locator('#bt-bank').textContent());
      expect(await bare.page.locator('#bt-amount').textContent()).toContain('2,500.00');
      expect(await bare.page.locator('#countdown').textContent()).toMatch(/^Pay before /);
      await bare.page.close();

      const sim = await request(app.url, 'POST', `/v1/sandbox/transactions/${row!.reference}/simulate`, { token, body: { outcome: 'successful' } });
      expect(sim.status).toBe(200);
      await shows(page, 'Payment successful');
      expect(await returnToShop(page, s.id)).toBe(row!.reference);
      await completeOverRest(s.id, row!.reference);
    });

    it('a card with 3-D Secure: our card fields, the sandbox 3-D Secure page, Complete, back through the checkout to the shop', async () => {
      const s = await session();
      const w = await tab(width);
      const { page } = w;
      await open(w, s.url, 'methods');
      await chooseMethod(page, 'card');
      await page.getByLabel('Card number').fill('4000 0025 0000 3155');
      await page.locator('#card-exp-month').fill('12');
      await page.locator('#card-exp-year').fill('2030');
      await page.locator('#card-cvc').fill('123');
      await checkoutScreenshot(page, 'card');
      await page.locator('form[data-form="card"] button[type="submit"]').click();
      // Our page's "continue to your bank", or straight on to the bank's page.
      await page.waitForURL((u) => u.pathname.startsWith('/v1/sandbox/3ds/') || (u.pathname === `/checkout/${s.id}` && u.search === ''));
      if (new URL(page.url()).pathname.startsWith('/checkout/')) {
        expect(await h1(page)).toBe('Confirm with your bank');
        expect(await page.locator('.card-used').textContent()).toBe('Visa •••• 3155');
        await checkoutScreenshot(page, 'three-ds');
        await Promise.all([page.waitForURL((u) => u.pathname.startsWith('/v1/sandbox/3ds/')), page.locator('#next-action').click()]);
      }
      expect(await h1(page)).toBe('Confirm your payment');
      const through: string[] = [];
      page.on('request', (r) => through.push(r.url()));
      const clicked = Date.now();
      await Promise.all([
        page
          .waitForURL((u) => u.origin === shop.origin, { timeout: 40_000 })
          .catch(async (err) => {
            throw new Error(
              `${String(err)}\nsession: ${JSON.stringify((await getSession(app, token, s.id)).body.data)}\npage: ${page.url()} ${JSON.stringify(await page.locator('main').innerText())} ${await page.content()}`,
            );
          }),
        page.getByRole('button', { name: 'Complete', exact: true }).click(),
      ]);
      console.log(`3-D Secure at ${width}: from Complete to the shop in ${Date.now() - clicked} ms`);
      // Back through /checkout/{id}?reference=… (the payment's redirect), then on to the shop.
      expect(through.some((u) => u.startsWith(`${app.url}/checkout/${s.id}?reference=`))).toBe(true);
      const landed = new URL(page.url());
      const reference = await paymentOf(s.id);
      expect(Object.fromEntries(landed.searchParams)).toEqual({ order: '1001', checkout_session_id: s.id, reference, status: 'successful' });
      await completeOverRest(s.id, reference!);
    });

    it('an open-amount link: the payer types an amount and email, the checkout shows that amount, paid by mobile money', async () => {
      const made = await createLink(app, token, {
        name: 'Tithe & offering',
        currency: 'NGN',
        min_amount: '100',
        max_amount: '50000',
        collect: ['email'],
        redirect_url: `${shop.origin}/return?order=1001`,
      });
      expect(made.status).toBe(200);
      const w = await tab(width);
      const { page } = w;
      expect((await open(w, made.body.data.url, 'link')).status()).toBe(200);
      expect(await page.locator('#link-name').textContent()).toBe('Tithe & offering');
      await page.locator('#link-amount').fill('1500');
      await page.locator('#link-email').fill('ada@example.com');
      await checkoutScreenshot(page, 'link-open-amount');
      await Promise.all([page.waitForURL(/\/checkout\/cs_/), page.locator('form button[type="submit"]').click()]);
      const id = new URL(page.url()).pathname.split('/').pop()!;
      expect(await page.locator('#amount').textContent()).toContain('1,500.00');
      await chooseMethod(page, 'momo');
      await page.getByLabel('Mobile money number').fill('0803 123 4567');
      await Promise.all([page.waitForURL(`${app.url}/checkout/${id}`), page.getByRole('button', { name: 'Send the payment request' }).click()]);
      await shows(page, 'Payment successful');
      const read = (await getSession(app, token, id)).body.data;
      expect(read).toMatchObject({ status: 'complete', amount: 1500, customer: { email: 'ada@example.com' } });
      const reference = await returnToShop(page, id);
      expect(read.payment_reference).toBe(reference);
    });

    it('a deactivated link: the clear "no longer active" page (410), no form', async () => {
      const made = await createLink(app, token, { name: 'Raffle ticket', currency: 'NGN', amount: '500' });
      expect(made.status).toBe(200);
      expect((await request(app.url, 'POST', `/v1/payment-links/${made.body.data.id}/deactivate`, { token })).status).toBe(200);
      const w = await tab(width, [/^410 .*\/pay\//]);
      const response = await open(w, made.body.data.url, 'link-inactive');
      expect(response.status()).toBe(410);
      expect(await h1(w.page)).toBe('This payment link is no longer active');
      expect(await w.page.locator('form').count()).toBe(0);
      await checkoutScreenshot(w.page, 'link-inactive');
    });

    it('the French page: a browser that prefers French reads it in French; a merchant in Côte d’Ivoire gets French without an en/fr preference', async () => {
      const s = await session();
      const french = await launchBrowser({ locale: 'fr-FR' });
      try {
        const w = await watchedPage(() => french.newPage(), width);
        tabs.push({ tab: w, allowed: [] });
        await open(w, s.url, 'methods-fr');
        expect(await w.page.evaluate('document.documentElement.lang')).toBe('fr');
        expect(await h1(w.page)).toBe('Comment voulez-vous payer ?');
        expect(await w.page.locator('#method-bank_transfer summary').textContent()).toBe('Virement bancaire');
        expect(await w.page.locator('#amount').textContent()).toMatch(/^2\s500,00\sNGN$/);
        await checkoutScreenshot(w.page, 'methods-fr');
      } finally {
        await french.close();
      }

      // Accept-Language names neither English nor French: the merchant's country decides.
      const ci = await app.createMerchant('Maquis Chez Awa');
      await sql(app, `update merchant set country = 'CI' where id = ?`, [ci.merchant.id]);
      const ciToken = (await app.token(ci)).accessToken;
      const abidjan = await openSession(app, ciToken, {
        amount: '5000',
        currency: 'XOF',
        customer: { email: 'awa@example.com' },
        redirect_url: `${shop.origin}/return?order=1001`,
      });
      const w = await tab(width);
      await w.page.setExtraHTTPHeaders({ 'accept-language': 'de-DE,de;q=0.9' });
      await open(w, abidjan.url, 'methods-ci');
      expect(await w.page.evaluate('document.documentElement.lang')).toBe('fr');
      expect(await h1(w.page)).toBe('Comment voulez-vous payer ?');
      // The Nigerian merchant's page, to the same browser: English.
      await w.page.goto(s.url);
      expect(await w.page.evaluate('document.documentElement.lang')).toBe('en');
    });

    it('keyboard only, every text readable: a bank transfer chosen, paid, copied and left with Tab, Space and Enter; text contrasts at least 4.5:1', async () => {
      const s = await session();
      const w = await tab(width);
      const { page } = w;
      await open(w, s.url, 'methods');
      const contrast: Record<string, { measured: number; low: string[] }> = { methods: await lowContrastText(page) };

      // To the bank transfer's heading, opened with Space; Tab to its button; Enter pays.
      await tabTo(page, '#method-bank_transfer > summary');
      await page.keyboard.press('Space');
      expect(await page.locator('#method-bank_transfer').evaluate((d) => (d as unknown as { open: boolean }).open)).toBe(true);
      contrast.bankChosen = await lowContrastText(page);
      await page.keyboard.press('Tab');
      expect(await page.evaluate('document.activeElement.textContent')).toBe('Pay by bank transfer');
      await Promise.all([page.waitForURL(`${app.url}/checkout/${s.id}`), page.keyboard.press('Enter')]);
      await page.locator('#bt-account').waitFor();
      expect(await h1(page)).toBe('Pay by bank transfer');
      contrast.bankTransfer = await lowContrastText(page);

      // The account number's copy button, reached and pressed by keyboard.
      const [row] = await sql<{ reference: string; virtual_account_number: string }>(
        app,
        'select reference, virtual_account_number from "transaction" where checkout_session_id = ?',
        [s.id],
      );
      await writeClipboard(page, 'something else');
      await tabTo(page, 'button.copy[aria-describedby="bt-account"]');
      await page.keyboard.press('Enter');
      await page.locator('button.copy[aria-describedby="bt-account"]', { hasText: 'Copied' }).waitFor();
      expect(await readClipboard(page)).toBe(row!.virtual_account_number);

      // Paid: the page moves to success by itself; "Return to" is reached by Tab and followed with Enter.
      const sim = await request(app.url, 'POST', `/v1/sandbox/transactions/${row!.reference}/simulate`, { token, body: { outcome: 'successful' } });
      expect(sim.status).toBe(200);
      await shows(page, 'Payment successful');
      contrast.success = await lowContrastText(page);
      await tabTo(page, '#return');
      await Promise.all([page.waitForURL((u) => u.origin === shop.origin), page.keyboard.press('Enter')]);
      expect(await h1(page)).toBe('Back at the shop');

      // The measure itself: black on white is 21:1, and #777 on white just under 4.5:1 (the WCAG's own examples).
      expect(contrastRatio([0, 0, 0, 1], [255, 255, 255, 1])).toBe(21);
      expect(contrastRatio([0x77, 0x77, 0x77, 1], [255, 255, 255, 1])).toBeCloseTo(4.48, 2);
      // Every state measured a good number of texts, and none is under the minimum.
      for (const [state, { measured }] of Object.entries(contrast)) expect([state, measured > 5]).toEqual([state, true]);
      expect(Object.fromEntries(Object.entries(contrast).map(([state, { low }]) => [state, low]))).toEqual({
        methods: [],
        bankChosen: [],
        bankTransfer: [],
        success: [],
      });
    });

    // Last at each width: it moves the service's clock.
    it('an expired session: the page says so, nothing was charged, and links back to the merchant', async () => {
      const s = await session({ expires_in: 60 });
      app.clock.advance(61_000);
      const w = await tab(width, [/^410 .*\/checkout\/cs_/]);
      const response = await open(w, s.url, 'expired');
      expect([200, 410]).toContain(response.status());
      expect(await h1(w.page)).toBe('This checkout has expired');
      expect(await w.page.locator('form').count()).toBe(0);
      await checkoutScreenshot(w.page, 'expired');
      expect(await paymentOf(s.id)).toBeUndefined();
      expect((await getSession(app, token, s.id)).body.data).toMatchObject({ status: 'expired', attempts: 0 });
      const link = w.page.locator('#return');
      expect(await link.textContent()).toBe('Back to Mama Put <Kitchen>');
      await Promise.all([w.page.waitForURL(`${shop.origin}/cart`), link.click()]);
      expect(await h1(w.page)).toBe('Your cart');
    });
  });
});

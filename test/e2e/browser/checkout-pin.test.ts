import type { Page } from 'playwright-core';
import { FlutterwaveFake } from '../../fakes/flutterwave.fake';
import { launchBrowser, startPageServer, type PageServer, type TestBrowser } from '../../helpers/browser';
import { checkoutScreenshot, chooseMethod, foreignRequests, unexpectedFailures, watchedPage, type Watched } from '../../helpers/checkout-browser';
import { getSession, openSession } from '../../helpers/checkout';
import { BROWSER_RAILS, flutterwaveApp, railsMerchant, type RailsMerchant } from '../../helpers/rails';
import type { TestApp } from '../../helpers/test-app';
import { sql } from '../../helpers/transactions';

/**
 * Issue 37: a Nigerian PIN card paid on the hosted checkout in headless Chromium (390 px and 1280 px), in production
 * mode against Flutterwave's fake: without its PIN the page asks for it (pin_required, the PIN box open); with it,
 * our one-time-code page, the code, and back at the shop. A Verve number opens the PIN box by itself.
 * (The sandbox's flows: checkout.test.ts.)
 */
const PIN_CARD = '5531886652142950';
const VERVE_CARD = '5061460410120223210';
const PIN = '3310';
const OTP = '12345';
const FAVICON = /^404 http:\/\/127\.0\.0\.1:\d+\/favicon\.ico$/;

describe('hosted checkout: a PIN card in Chromium (production, Flutterwave fake)', () => {
  let flw: FlutterwaveFake;
  let app: TestApp;
  let m: RailsMerchant;
  let browser: TestBrowser;
  let shop: PageServer;
  const tabs: Watched[] = [];

  beforeAll(async () => {
    flw = await FlutterwaveFake.start({ decisionDelayMs: 30 });
    // Chromium, the fake and the service share this machine: on a loaded one a request to the fake can take longer than
    // the fast rails' 600 ms, and the page would then say "Try again shortly". This test is not about timeouts.
    app = await flutterwaveApp(flw, BROWSER_RAILS);
    m = await railsMerchant(app);
    shop = await startPageServer({ '/return': '<!doctype html><title>Shop</title><h1>Back at the shop</h1>' });
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await shop?.close();
    await app?.close();
    await flw?.close();
  });
  beforeEach(() => browser.context.clearCookies());
  afterEach(async () => {
    for (const tab of tabs.splice(0)) {
      // The card goes to the service only: the browser never talks to Flutterwave (nor anything but 127.0.0.1's two sites).
      expect(foreignRequests(tab, [new URL(app.url).origin, shop.origin])).toEqual([]);
      expect(tab.errors).toEqual([]);
      expect(unexpectedFailures(tab, [FAVICON])).toEqual([]);
    }
    await Promise.all(browser.context.pages().map((p) => p.close()));
  });

  const tab = async (width: number) => {
    const w = await watchedPage(() => browser.newPage(), width);
    tabs.push(w);
    return w;
  };
  const session = () => openSession(app, m.token, { redirect_url: `${shop.origin}/return?order=77` });
  async function typeCard(page: Page, number: string) {
    await chooseMethod(page, 'card');
    await page.getByLabel('Card number').fill(number);
    await page.locator('#card-exp-month').fill('09');
    await page.locator('#card-exp-year').fill('2032');
    await page.locator('#card-cvc').fill('564');
  }
  const pinBoxOpen = (page: Page) => page.locator('#card-pin-box').evaluate((d) => (d as unknown as { open: boolean }).open);
  const pay = (page: Page, id: string) =>
    Promise.all([
      page.waitForURL((u) => u.pathname !== `/checkout/${id}` || u.search === ''),
      page.locator('form[data-form="card"] button[type="submit"]').click(),
    ]);

  describe.each([390, 1280])('at %i px', (width) => {
    it('without its PIN the payment fails pin_required and the page asks for it, the PIN box open; a Verve number opens it by itself', async () => {
      const s = await session();
      const w = await tab(width);
      const { page } = w;
      await w.firstLoad(s.url);
      await typeCard(page, PIN_CARD);
      expect(await pinBoxOpen(page)).toBe(false);
      await pay(page, s.id);
      expect(page.url()).toBe(`${app.url}/checkout/${s.id}`);
      await page.getByRole('alert').waitFor();
      expect(await page.locator('#failure-reason').textContent()).toBe('Your card needs its PIN: enter the card again with its PIN.');
      expect(await pinBoxOpen(page)).toBe(true);
      expect(await page.locator('#method-card').evaluate((d) => (d as unknown as { open: boolean }).open)).toBe(true);
      // The card is never given back: the payer types it again, with the PIN.
      expect(await page.getByLabel('Card number').inputValue()).toBe('');
      await checkoutScreenshot(page, 'pin-required');
      expect((await getSession(app, m.token, s.id)).body.data).toMatchObject({ status: 'open', attempts: 1 });

      // A Verve card: the script opens the PIN box as the number is typed.
      const again = await tab(width);
      await again.firstLoad(s.url);
      await chooseMethod(again.page, 'card');
      await again.page.locator('#card-pin-box').evaluate((d) => {
        (d as unknown as { open: boolean }).open = false;
      });
      await again.page.getByLabel('Card number').pressSequentially(VERVE_CARD.slice(0, 8));
      expect(await pinBoxOpen(again.page)).toBe(true);
    });

    it('with its PIN: our code page, the code, back at the shop with status successful', async () => {
      const s = await session();
      const w = await tab(width);
      const { page } = w;
      await w.firstLoad(s.url);
      await typeCard(page, PIN_CARD);
      await page.getByText('My card asks for a PIN').click();
      await page.getByLabel('Card PIN', { exact: true }).fill(PIN);
      await checkoutScreenshot(page, 'pin');
      await pay(page, s.id);
      // Our page's "continue", or straight on to the code page.
      if (!new URL(page.url()).pathname.startsWith('/checkout/otp/')) {
        await Promise.all([page.waitForURL((u) => u.pathname.startsWith('/checkout/otp/')), page.locator('#next-action').click()]);
      }
      const code = page.getByLabel('Enter the code your bank sent');
      await code.fill(OTP);
      await checkoutScreenshot(page, 'otp');
      const clicked = Date.now();
      let completeAfter = -1;
      const watch = (async () => {
        while (completeAfter < 0 && Date.now() - clicked < 40_000) {
          if ((await getSession(app, m.token, s.id)).body.data.status === 'complete') completeAfter = Date.now() - clicked;
          else await new Promise((r) => setTimeout(r, 200));
        }
      })();
      await Promise.all([
        page
          .waitForURL((u) => u.origin === shop.origin, { timeout: 40_000 })
          .catch(async (err) => {
            throw new Error(`${String(err)}\ncomplete after ${completeAfter} ms; page: ${page.url()} ${await page.content()}`);
          }),
        page.getByRole('button', { name: 'Confirm' }).click(),
      ]);
      await watch;
      console.log(`PIN card at ${width}: the session complete after ${completeAfter} ms, at the shop after ${Date.now() - clicked} ms`);
      expect(await page.locator('h1').textContent()).toBe('Back at the shop');
      const [row] = await sql<{ reference: string }>(app, 'select reference from "transaction" where checkout_session_id = ? and status = ?', [
        s.id,
        'successful',
      ]);
      expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({
        order: '77',
        checkout_session_id: s.id,
        reference: row!.reference,
        status: 'successful',
      });
      expect((await getSession(app, m.token, s.id)).body.data).toMatchObject({ status: 'complete', payment_reference: row!.reference });
    });
  });
});

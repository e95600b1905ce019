import { FlutterwaveFake } from '../../fakes/flutterwave.fake';
import { launchBrowser, startPageServer, type PageServer, type TestBrowser } from '../../helpers/browser';
import { checkoutCardPayment } from '../../helpers/payments';
import { BROWSER_RAILS, flutterwaveApp, railsMerchant, type RailsMerchant } from '../../helpers/rails';
import type { TestApp } from '../../helpers/test-app';
import { request } from '../../helpers/http';

/**
 * The one-time code page in a real browser (headless Chromium at a phone's and a desktop's width), in production mode
 * against Flutterwave's fake: a PIN card's payment (its PIN from the hosted checkout's origin), then the code typed
 * by label, a wrong one first, then back to the shop. The browser's own Origin, Sec-Fetch-Site and SameSite cookie
 * carry the CSRF check, as they do for a cardholder.
 */
describe('the one-time code page in Chromium (production, against the Flutterwave fake)', () => {
  let flw: FlutterwaveFake;
  let app: TestApp;
  let m: RailsMerchant;
  let browser: TestBrowser;
  let shop: PageServer;

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

  it.each([
    [390, 844],
    [1280, 800],
  ])('at %i px: a wrong code, then the right one, then back at the shop', async (width, height) => {
    const payment = await checkoutCardPayment(
      app,
      m.merchantId,
      { card: { number: '5061460410120223210' }, redirectUrl: `${shop.origin}/return?order=5` },
      { cardPin: '3310' },
    );
    expect(payment.status).toBe('requires_action');
    const page = await browser.newPage();
    await page.setViewportSize({ width, height });
    await page.goto(payment.nextActionUrl!);
    const code = page.getByLabel('Enter the code your bank sent');
    await code.fill('99999');
    await Promise.all([page.waitForLoadState(), page.getByRole('button', { name: 'Confirm' }).click()]);
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toBe('The code is not right; try again.');
    expect(await code.inputValue()).toBe('');
    await code.fill('12345');
    await Promise.all([page.waitForURL((u) => u.origin === shop.origin), page.getByRole('button', { name: 'Confirm' }).click()]);
    expect(await page.locator('h1').textContent()).toBe('Back at the shop');
    expect(Object.fromEntries(new URL(page.url()).searchParams)).toMatchObject({ order: '5', reference: payment.reference, status: 'successful' });
    await page.close();
    const verified = await request(app.url, 'GET', `/v1/payments/verify/${payment.reference}`, { token: m.token });
    expect(verified.body.data.status).toBe('successful');
  });
});

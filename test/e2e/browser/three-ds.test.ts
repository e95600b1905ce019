import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Page, Response } from 'playwright-core';
import { launchBrowser, startPageServer, type PageServer, type TestBrowser } from '../../helpers/browser';
import { request } from '../../helpers/http';
import { CARDS, cardPaymentBody, initiatePayment, verifyPayment } from '../../helpers/payments';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { outboxRows, sql } from '../../helpers/transactions';

/**
 * The sandbox 3-D Secure page (GET/POST /v1/sandbox/3ds/:handle) as a cardholder
 * meets it: in a real headless Chromium, from next_action.url to the merchant's
 * redirect_url, and as an attacker's page on another loopback origin meets it.
 */

const MERCHANT = 'Adé & Sons <Books>';
const CSRF_COOKIE = 'sbx_3ds_csrf';
const SCREENSHOT = path.resolve(__dirname, '../../../docs/screenshots/3ds-page.png');

interface Pending {
  reference: string;
  external_reference: string;
  /** next_action.url: the page, absolute, on the service. */
  url: string;
}

describe('Sandbox 3-D Secure page in headless Chromium', () => {
  let app: TestApp;
  let token: string;
  let browser: TestBrowser;
  /** The merchant's site: redirect_url points at its /return page. */
  let shop: PageServer;

  beforeAll(async () => {
    app = await createTestApp();
    token = (await app.token(await app.createMerchant(MERCHANT))).accessToken;
    shop = await startPageServer({ '/return': '<!doctype html><title>Shop</title><h1>Back at the shop</h1>' });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await shop?.close();
    await app?.close();
  });
  // Every test starts with no cookie and no open tab.
  beforeEach(() => browser.context.clearCookies());
  afterEach(() => Promise.all(browser.context.pages().map((p) => p.close())));

  /** A card payment awaiting 3-D Secure, returning to the shop's /return?order=1001. */
  async function pendingPayment(): Promise<Pending> {
    const res = await initiatePayment(app, token, cardPaymentBody({ card: { number: CARDS.threeDs }, redirect_url: `${shop.origin}/return?order=1001` }));
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'requires_action', next_action: { type: 'redirect_to_url', url: expect.any(String) } });
    const { reference, external_reference, next_action } = res.body.data;
    return { reference, external_reference, url: next_action.url };
  }

  const verified = async (reference: string) => {
    const res = await verifyPayment(app, token, reference);
    expect(res.status).toBe(200);
    return res.body.data;
  };
  const outboxCount = async (reference: string) => Number((await sql(app, 'select count(*) as n from outbox_event where subject_id = ?', [reference]))[0].n);

  /** Opens the page in a new tab: the open form, answered 200. */
  async function openForm(pending: Pending): Promise<{ page: Page; response: Response; csrf: string }> {
    const page = await browser.newPage();
    const response = (await page.goto(pending.url))!;
    expect(response.status()).toBe(200);
    expect(await page.locator('h1').textContent()).toBe('Confirm your payment');
    const csrf = await page.locator('input[name="csrf"]').inputValue();
    expect(csrf).not.toBe('');
    return { page, response, csrf };
  }

  /** The page's CSRF cookie as the browser holds it now. */
  const csrfCookie = async () => (await browser.context.cookies()).find((c) => c.name === CSRF_COOKIE);

  /** Clicks a decision button and waits for the answer to the form's POST. */
  async function click(page: Page, name: 'Complete' | 'Fail', pending: Pending): Promise<Response> {
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST' && r.url() === pending.url),
      page.getByRole('button', { name, exact: true }).click(),
    ]);
    return response;
  }

  /** Clicks a decision button and waits for the browser to land on the merchant's redirect_url. */
  async function clickToShop(page: Page, name: 'Complete' | 'Fail', pending: Pending): Promise<URL> {
    const [, response] = await Promise.all([page.waitForURL((u) => u.origin === shop.origin), click(page, name, pending)]);
    expect(response.status()).toBe(303);
    expect(await page.locator('h1').textContent()).toBe('Back at the shop');
    return new URL(page.url());
  }

  /** A page that only says something: its title and message. */
  async function said(page: Page) {
    await page.locator('#message').waitFor();
    return { title: await page.locator('h1').textContent(), message: await page.locator('#message').textContent() };
  }

  /** A form submission outside the browser (Node's fetch), redirects not followed. */
  async function post(url: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(fields).toString(),
      redirect: 'manual',
    });
    return { status: res.status, location: res.headers.get('location'), text: await res.text() };
  }

  const appOrigin = () => new URL(app.url).origin;
  /** What the page's own form sends, as Chromium sends it. */
  const fromThePage = (cookie: string) => ({ cookie: `${CSRF_COOKIE}=${cookie}`, origin: appOrigin(), 'sec-fetch-site': 'same-origin' });

  it('Complete: the page shows merchant, amount and card; the browser lands on redirect_url with status=successful', async () => {
    const pending = await pendingPayment();
    const { page } = await openForm(pending);
    expect(await page.locator('#merchant').textContent()).toBe(MERCHANT);
    expect(await page.locator('#amount').textContent()).toBe('2500.00 NGN');
    expect(await page.locator('#card').textContent()).toBe('Visa •••• 3155');
    expect(await page.getByRole('button').allTextContents()).toEqual(['Complete', 'Fail']);
    // Nothing is decided by looking.
    expect((await verified(pending.reference)).status).toBe('requires_action');
    if (process.env.SCREENSHOTS === '1') {
      await mkdir(path.dirname(SCREENSHOT), { recursive: true });
      await page.screenshot({ path: SCREENSHOT, fullPage: true });
    }

    const landed = await clickToShop(page, 'Complete', pending);
    expect(landed.pathname).toBe('/return');
    expect(Object.fromEntries(landed.searchParams)).toEqual({
      order: '1001',
      reference: pending.reference,
      external_reference: pending.external_reference,
      status: 'successful',
    });
    // The handle in the page's address does not reach the merchant as a Referer.
    const arrival = shop.requests.filter((r) => r.path.startsWith('/return'));
    expect(arrival).toHaveLength(1);
    expect(arrival[0]!.headers.referer).toBeUndefined();
    // The decision cleared the form's cookie.
    expect(await csrfCookie()).toBeUndefined();

    expect(await verified(pending.reference)).toMatchObject({
      status: 'successful',
      failure_reason: null,
      next_action: null,
      completed_at: expect.any(String),
    });
    expect((await outboxRows(app, pending.reference)).map((e) => e.type)).toEqual(['payment.successful']);
  });

  it('Fail: the browser lands on redirect_url with status=failed; the payment failed authentication_failed', async () => {
    const pending = await pendingPayment();
    const { page } = await openForm(pending);
    const landed = await clickToShop(page, 'Fail', pending);
    expect(Object.fromEntries(landed.searchParams)).toEqual({
      order: '1001',
      reference: pending.reference,
      external_reference: pending.external_reference,
      status: 'failed',
    });
    expect(await verified(pending.reference)).toMatchObject({ status: 'failed', failure_reason: 'authentication_failed', next_action: null });
    expect((await outboxRows(app, pending.reference)).map((e) => e.type)).toEqual(['payment.failed']);
  });

  it('the page is never cached, framed or referred, and its CSRF cookie is HttpOnly, SameSite=Strict, on its own page’s path', async () => {
    const pending = await pendingPayment();
    const { response } = await openForm(pending);
    const headers = response.headers();
    expect(headers['content-type']).toBe('text/html; charset=utf-8');
    expect(headers['cache-control']).toBe('no-store');
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['referrer-policy']).toBe('no-referrer');
    expect(headers['x-content-type-options']).toBe('nosniff');
    const csp = headers['content-security-policy']!.split(';').map((d) => d.trim());
    expect(csp).toEqual(expect.arrayContaining(["frame-ancestors 'none'", "default-src 'none'", `form-action 'self' ${shop.origin}`]));
    expect(await csrfCookie()).toMatchObject({ path: new URL(pending.url).pathname, httpOnly: true, sameSite: 'Strict', secure: false });

    // Framed by another origin, Chromium shows nothing of it.
    const framer = await startPageServer({ '/frame': `<!doctype html><title>Framer</title><iframe src="${pending.url}"></iframe>` });
    try {
      const page = await browser.newPage();
      const [blocked] = await Promise.all([page.waitForResponse((r) => r.url() === pending.url), page.goto(`${framer.origin}/frame`, { waitUntil: 'load' })]);
      expect(blocked.status()).toBe(200);
      const frame = page.frames().find((f) => f !== page.mainFrame())!;
      expect(frame).toBeDefined();
      expect(frame.url()).toBe('chrome-error://chromewebdata/');
      expect(await frame.locator('#merchant').count()).toBe(0);
    } finally {
      await framer.close();
    }
    expect((await verified(pending.reference)).status).toBe('requires_action');
  });

  it('a decided payment: back, a second visit and the old form all say "Already decided" (409) and change nothing', async () => {
    const pending = await pendingPayment();
    const { page, csrf } = await openForm(pending);
    const cookie = (await csrfCookie())!.value;
    await clickToShop(page, 'Complete', pending);
    const events = await outboxCount(pending.reference);
    expect(events).toBe(1);
    const arrivals = shop.requests.length;

    // Back: the page is no-store, so Chromium asks again and gets the verdict, not the form.
    const back = (await page.goBack())!;
    expect(back.url()).toBe(pending.url);
    expect(back.status()).toBe(409);
    expect(await said(page)).toEqual({ title: 'Already decided', message: 'This payment is already successful. Nothing was changed.' });
    expect(await page.getByRole('button').count()).toBe(0);
    expect(await page.locator('#merchant').textContent()).toBe(MERCHANT);

    // A second visit, in another tab.
    const again = await browser.newPage();
    expect((await again.goto(pending.url))!.status()).toBe(409);
    expect((await said(again)).title).toBe('Already decided');
    expect(await again.locator('form').count()).toBe(0);

    // The old form re-posted with its cookie and token, either answer: refused, no redirect.
    for (const decision of ['fail', 'complete']) {
      const res = await post(pending.url, { decision, csrf }, fromThePage(cookie));
      expect(res.status).toBe(409);
      expect(res.location).toBeNull();
      expect(res.text).toContain('This payment is already successful. Nothing was changed.');
    }

    expect(await verified(pending.reference)).toMatchObject({ status: 'successful', failure_reason: null });
    expect(await outboxCount(pending.reference)).toBe(events);
    expect(shop.requests.length).toBe(arrivals);
  });

  it('a form left open in a second tab cannot decide again once the first tab did', async () => {
    const pending = await pendingPayment();
    const first = await openForm(pending);
    const second = await openForm(pending);
    await clickToShop(second.page, 'Complete', pending);
    const events = await outboxCount(pending.reference);

    const stale = await click(first.page, 'Fail', pending);
    expect(stale.status()).toBe(403);
    expect(await said(first.page)).toEqual({
      title: 'Form expired',
      message: 'This form has expired or did not come from this page. Reload the page and try again. Nothing was changed.',
    });
    expect(first.page.url()).toBe(pending.url);

    expect(await verified(pending.reference)).toMatchObject({ status: 'successful', failure_reason: null });
    expect(await outboxCount(pending.reference)).toBe(events);
  });

  it('a forged handle and malformed ones show the 404 "not valid" page, with no form and no cookie', async () => {
    const pending = await pendingPayment();
    const real = new URL(pending.url).pathname.split('/').pop()!;
    const flipped = `${real.slice(0, 20)}${real[20] === 'A' ? 'B' : 'A'}${real.slice(21)}`;
    const page = await browser.newPage();
    for (const handle of [randomBytes(32).toString('base64url'), flipped, 'not-a-handle', `${real}A`, real.slice(0, 42), `${real.slice(0, 42)}.`]) {
      const response = (await page.goto(`${app.url}/v1/sandbox/3ds/${handle}`))!;
      expect(response.status()).toBe(404);
      expect(response.headers()['cache-control']).toBe('no-store');
      expect(await said(page)).toEqual({ title: 'Link not valid', message: 'This authentication link is not valid. Nothing was changed.' });
      expect(await page.locator('form').count()).toBe(0);
    }
    expect(await csrfCookie()).toBeUndefined();
    expect((await verified(pending.reference)).status).toBe('requires_action');
  });

  it("CSRF: a POST without the cookie, with a wrong token, another form's token, or from another origin is 403 and changes nothing", async () => {
    const pending = await pendingPayment();
    const { page, csrf } = await openForm(pending);
    const cookie = (await csrfCookie())!.value;
    // Another payment's cookie and token: valid, but for another handle.
    const other = await pendingPayment();
    const otherPage = await request(other.url, 'GET', '');
    expect(otherPage.status).toBe(200);
    const otherCookie = /^sbx_3ds_csrf=([^;]+)/.exec(otherPage.headers.getSetCookie()[0] ?? '')![1]!;
    const otherCsrf = /name="csrf" value="([^"]+)"/.exec(otherPage.text)![1]!;
    const wrong = `${csrf.slice(0, -1)}${csrf.endsWith('A') ? 'B' : 'A'}`;

    const attempts: Array<[string, Record<string, string>, Record<string, string>]> = [
      ['no cookie', { decision: 'complete', csrf }, { origin: appOrigin(), 'sec-fetch-site': 'same-origin' }],
      ['no token', { decision: 'complete' }, fromThePage(cookie)],
      ['a wrong token', { decision: 'complete', csrf: wrong }, fromThePage(cookie)],
      ['the cookie of another form', { decision: 'complete', csrf }, fromThePage(otherCookie)],
      ['the cookie and token of another payment', { decision: 'complete', csrf: otherCsrf }, fromThePage(otherCookie)],
      ['a foreign Origin', { decision: 'complete', csrf }, { ...fromThePage(cookie), origin: shop.origin, 'sec-fetch-site': 'same-site' }],
      ['Origin: null from another site', { decision: 'complete', csrf }, { ...fromThePage(cookie), origin: 'null', 'sec-fetch-site': 'same-site' }],
      ['Origin: null without Sec-Fetch-Site', { decision: 'complete', csrf }, { cookie: `${CSRF_COOKIE}=${cookie}`, origin: 'null' }],
      ['Sec-Fetch-Site: cross-site', { decision: 'complete', csrf }, { cookie: `${CSRF_COOKIE}=${cookie}`, 'sec-fetch-site': 'cross-site' }],
    ];
    for (const [what, fields, headers] of attempts) {
      const res = await post(pending.url, fields, headers);
      expect({ what, status: res.status, location: res.location }).toEqual({ what, status: 403, location: null });
      expect(res.text).toContain('Form expired');
    }
    expect(await verified(pending.reference)).toMatchObject({ status: 'requires_action', failure_reason: null });
    expect(await outboxCount(pending.reference)).toBe(0);
    expect((await verified(other.reference)).status).toBe('requires_action');

    // The cardholder's own form still works: the refusals were the checks, not a spent token.
    const landed = await clickToShop(page, 'Complete', pending);
    expect(landed.searchParams.get('status')).toBe('successful');
  });

  it('CSRF: a form auto-submitted by a page on another loopback origin is refused (403) even with the right token', async () => {
    const pending = await pendingPayment();
    const { page, csrf } = await openForm(pending);
    // The attacker's page, on another port: same site (cookies go along), another origin. It even knows the token.
    const attacker = await startPageServer({
      '/win': `<!doctype html><title>You won</title>
<form method="post" action="${pending.url}"><input type="hidden" name="decision" value="complete"><input type="hidden" name="csrf" value="${csrf}"></form>
<script>document.forms[0].submit()</script>`,
    });
    try {
      const tab = await browser.newPage();
      const [refused] = await Promise.all([
        tab.waitForResponse((r) => r.request().method() === 'POST' && r.url() === pending.url),
        tab.goto(`${attacker.origin}/win`),
      ]);
      expect(refused.status()).toBe(403);
      const sent = await refused.request().allHeaders();
      expect(sent.origin).toBe(attacker.origin);
      expect(sent['sec-fetch-site']).toBe('same-site');
      expect(await said(tab)).toMatchObject({ title: 'Form expired' });
      expect(tab.url()).toBe(pending.url);
    } finally {
      await attacker.close();
    }
    expect(await verified(pending.reference)).toMatchObject({ status: 'requires_action', failure_reason: null });
    expect(await outboxCount(pending.reference)).toBe(0);

    // The cardholder's own tab still decides.
    const landed = await clickToShop(page, 'Fail', pending);
    expect(landed.searchParams.get('status')).toBe('failed');
  });

  // Last: it moves the service's clock.
  it('expired: at the deadline the page says "Authentication expired" (410) with no buttons; the open form\'s click fails it authentication_expired', async () => {
    const pending = await pendingPayment();
    const { page, csrf } = await openForm(pending);
    const cookie = (await csrfCookie())!.value;

    app.clock.advance(899_999);
    expect((await request(pending.url, 'GET', '')).status).toBe(200);
    app.clock.advance(1); // 900 s after initiating: the deadline

    const late = await browser.newPage();
    const response = (await late.goto(pending.url))!;
    expect(response.status()).toBe(410);
    expect(response.headers()['cache-control']).toBe('no-store');
    expect(await said(late)).toEqual({
      title: 'Authentication expired',
      message: 'The time to authenticate this payment has passed, so it can no longer be completed: it fails as authentication_expired.',
    });
    expect(await late.getByRole('button').count()).toBe(0);
    expect(await late.locator('form').count()).toBe(0);
    expect(await late.locator('#merchant').textContent()).toBe(MERCHANT);
    expect((await csrfCookie())?.value).toBe(cookie); // no new form, no new cookie
    expect(await outboxCount(pending.reference)).toBe(0); // reading changes nothing

    // The form opened in time, clicked too late: 410, no redirect, the payment fails as the expiry job would.
    const answer = await click(page, 'Complete', pending);
    expect(answer.status()).toBe(410);
    expect((await said(page)).title).toBe('Authentication expired');
    expect(page.url()).toBe(pending.url);
    expect(shop.requests.some((r) => r.path.includes(pending.reference))).toBe(false);
    expect(await verified(pending.reference)).toMatchObject({ status: 'failed', failure_reason: 'authentication_expired', next_action: null });
    const events = await outboxRows(app, pending.reference);
    expect(events.map((e) => e.type)).toEqual(['payment.failed']);
    expect(events[0]!.payload).toMatchObject({ status: 'failed', failure_reason: 'authentication_expired' });

    // Afterwards it is decided: the same form again changes nothing.
    const again = await post(pending.url, { decision: 'complete', csrf }, fromThePage(cookie));
    expect(again.status).toBe(409);
    expect(again.text).toContain('This payment is already failed. Nothing was changed.');
    expect(await outboxCount(pending.reference)).toBe(1);
    expect(await verified(pending.reference)).toMatchObject({ status: 'failed', failure_reason: 'authentication_expired' });
  });
});

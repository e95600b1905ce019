import http from 'node:http';
import { gunzipSync, gzipSync } from 'node:zlib';
import { openSession } from '../../helpers/checkout';
import { request } from '../../helpers/http';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { outboxRows, sql } from '../../helpers/transactions';
import { eventually } from '../../helpers/wait';

/**
 * Issue 37: the hosted checkout's pages over plain HTTP, as a browser without script meets them: headers, the CSRF pair,
 * Post/Redirect/Get, the bank transfer's details in the HTML, the way back to the merchant, payment links, assets.
 * (The browser tests, test/e2e/browser/checkout*.test.ts, drive the same pages in Chromium.)
 */

/** A GET whose body is kept as sent (fetch would decompress it). */
function rawGet(url: string, headers: Record<string, string>): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

interface Page {
  status: number;
  headers: Headers;
  html: string;
  /** The CSRF pair the page set: its cookie (name=value) and the form's field. */
  cookie: string;
  csrf: string;
}

describe('hosted checkout pages (HTTP)', () => {
  let app: TestApp;
  let token: string;

  beforeAll(async () => {
    app = await createTestApp({ env: { SANDBOX_SETTLE_MS: '100' } });
    token = (await app.token(await app.createMerchant('Mama Put <Kitchen>'))).accessToken;
  });
  afterAll(() => app.close());

  const fetchPage = async (path: string, init: RequestInit = {}): Promise<Page> => {
    const res = await fetch(`${app.url}${path}`, { redirect: 'manual', ...init });
    const html = await res.text();
    const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
    return { status: res.status, headers: res.headers, html, cookie, csrf };
  };
  const post = (path: string, page: Page, fields: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(`${app.url}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: page.cookie, origin: app.url, 'sec-fetch-site': 'same-origin', ...headers },
      body: new URLSearchParams({ csrf: page.csrf, ...fields }).toString(),
    });

  it('the page: strict headers, never framed, never cached; the merchant’s name escaped; a CSRF pair', async () => {
    const session = await openSession(app, token);
    expect(session.url).toBe(`${app.url}/checkout/${session.id}`);
    const page = await fetchPage(`/checkout/${session.id}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(page.headers.get('content-security-policy')).toContain("form-action 'self' https://shop.example");
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.html).toContain('Mama Put &lt;Kitchen&gt;');
    expect(page.html).not.toContain('<Kitchen>');
    expect(page.cookie).toMatch(/^co_csrf=/);
    expect(page.csrf).not.toBe('');
    // A payer's browser that prefers French gets the French page (Nigeria's is English otherwise).
    const french = await fetchPage(`/checkout/${session.id}`, { headers: { 'accept-language': 'fr-FR,fr;q=0.9' } });
    expect(french.html).toContain('lang="fr"');
  });

  it('a forged or unknown id is the "not valid" page, and changes nothing', async () => {
    for (const id of ['cs_forged', 'cs_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', '../v1/merchant']) {
      const page = await fetchPage(`/checkout/${encodeURIComponent(id)}`);
      expect(page.status).toBe(404);
      expect(page.html).toContain('not valid');
    }
  });

  it('a submission without the CSRF pair, or from another origin, is refused and pays nothing', async () => {
    const session = await openSession(app, token);
    const page = await fetchPage(`/checkout/${session.id}`);
    const noCookie = await post(`/checkout/${session.id}/pay`, { ...page, cookie: '' }, { method: 'bank_transfer' });
    expect(noCookie.status).toBe(403);
    const otherSite = await post(
      `/checkout/${session.id}/pay`,
      page,
      { method: 'bank_transfer' },
      { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    );
    expect(otherSite.status).toBe(403);
    expect((await request(app.url, 'GET', `/v1/checkout/sessions/${session.id}`, { token })).body.data).toMatchObject({ status: 'open', attempts: 0 });
  });

  it('mobile money: Post/Redirect/Get to "check your phone", then back to the merchant with the session and the payment', async () => {
    const session = await openSession(app, token);
    const page = await fetchPage(`/checkout/${session.id}`);
    const paid = await post(`/checkout/${session.id}/pay`, page, { method: 'momo', phone: '0803 123 4567', network: '' });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(`/checkout/${session.id}`);
    const complete = await eventually(async () => (await request(app.url, 'GET', `/checkout/${session.id}/status`)).body.status === 'complete');
    expect(complete).toBe(true);
    const record = (await request(app.url, 'GET', `/v1/checkout/sessions/${session.id}`, { token })).body.data;
    expect(record).toMatchObject({ status: 'complete', payment_reference: expect.stringMatching(/^pay_/) });
    // The payment's own events, beside the session's: payment.successful for the payment, checkout.session.completed for the session.
    expect(await eventually(async () => (await outboxRows(app, record.payment_reference)).some((r) => r.type === 'payment.successful'))).toBe(true);
    const sessionEvents = await sql(app, 'select type from outbox_event where subject_id = ?', [session.id]);
    expect(sessionEvents).toEqual([{ type: 'checkout.session.completed' }]);
    // Back from the bank's page: the success page, going on at once (a Refresh, not a 303: see the route).
    const back = await fetch(`${app.url}/checkout/${session.id}?reference=${record.payment_reference}`, { redirect: 'manual' });
    expect(back.status).toBe(200);
    expect(await back.text()).toContain('id="return"');
    const to = new URL(/^0; url=(.+)$/.exec(back.headers.get('refresh')!)![1]!);
    expect(`${to.origin}${to.pathname}`).toBe('https://shop.example/orders/1001');
    expect(Object.fromEntries(to.searchParams)).toEqual({ checkout_session_id: session.id, reference: record.payment_reference, status: 'successful' });
  });

  it('bank transfer: the account to pay into is in the HTML itself (no script needed)', async () => {
    const session = await openSession(app, token);
    const page = await fetchPage(`/checkout/${session.id}`);
    expect((await post(`/checkout/${session.id}/pay`, page, { method: 'bank_transfer' })).status).toBe(303);
    const shown = await fetchPage(`/checkout/${session.id}`);
    const payment = (await request(app.url, 'GET', `/v1/checkout/sessions/${session.id}`, { token })).body.data;
    expect(payment.attempts).toBe(1);
    const rows = await app.service.orm.em.fork().execute(`select virtual_account_number from "transaction" where checkout_session_id = ?`, [session.id]);
    expect(shown.html).toContain(rows[0].virtual_account_number);
    expect(shown.html).toContain('2,500.00');
  });

  it('a refused submission shows why on the page, with the method still open, and pays nothing', async () => {
    const session = await openSession(app, token);
    const page = await fetchPage(`/checkout/${session.id}`);
    const res = await post(`/checkout/${session.id}/pay`, page, { method: 'momo', phone: '12' });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain('role="alert"');
    expect(html).toMatch(/phone/i);
  });

  it('cancel goes to cancel_url, by POST only', async () => {
    const session = await openSession(app, token);
    const page = await fetchPage(`/checkout/${session.id}`);
    const res = await post(`/checkout/${session.id}/cancel`, page, {});
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('https://shop.example/cart');
    expect((await fetch(`${app.url}/checkout/${session.id}/cancel`, { redirect: 'manual' })).status).toBe(404);
  });

  it('a merchant that lists its origins may frame its page; nobody else', async () => {
    const other = await app.token(await app.createMerchant('Framed Shop'));
    await request(app.url, 'PUT', '/v1/checkout/settings', { token: other.accessToken, body: { embed_origins: ['https://framed.example'] } });
    const session = await openSession(app, other.accessToken);
    const page = await fetchPage(`/checkout/${session.id}`);
    expect(page.headers.get('content-security-policy')).toContain('frame-ancestors https://framed.example;');
    expect(page.headers.get('x-frame-options')).toBeNull();
  });

  it('assets: content-hashed, immutable, gzip when asked; a stale or forged path is 404', async () => {
    const page = await fetchPage(`/checkout/${(await openSession(app, token)).id}`);
    const css = /href="(\/checkout\/assets\/checkout\.[0-9a-f]{8}\.css)"/.exec(page.html)![1]!;
    const js = /src="(\/checkout\/assets\/checkout\.[0-9a-f]{8}\.js)"/.exec(page.html)![1]!;
    // The first load as a phone on 3G pays for it: the page and both assets, compressed, in bytes on the wire.
    let total = gzipSync(page.html).length;
    for (const path of [css, js]) {
      const res = await rawGet(`${app.url}${path}`, { 'accept-encoding': 'gzip' });
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers['content-encoding']).toBe('gzip');
      total += res.body.length;
      expect(gunzipSync(res.body).length).toBeGreaterThan(res.body.length);
    }
    expect(total).toBeLessThan(100 * 1024);
    console.log(`checkout first load on the wire (gzip): ${total} B`);
    expect((await fetch(`${app.url}/checkout/assets/checkout.00000000.css`)).status).toBe(404);
  });

  it('payment links: the payer chooses within the bounds; each visit opens a session; a deactivated link says so', async () => {
    const made = await request(app.url, 'POST', '/v1/payment-links', {
      token,
      body: { name: 'Tithe & offering', currency: 'NGN', min_amount: '100', max_amount: '50000', collect: ['email', 'name'] },
    });
    expect(made.status).toBe(200);
    const slug = made.body.data.slug;
    const page = await fetchPage(`/pay/${slug}`);
    expect(page.status).toBe(200);
    expect(page.html).toContain('Tithe &amp; offering');
    const tooMuch = await post(`/pay/${slug}`, page, { amount: '60000', email: 'ada@example.com', name: 'Ada' });
    expect(tooMuch.status).toBe(400);
    const opened = await post(`/pay/${slug}`, page, { amount: '1500', email: 'ada@example.com', name: 'Ada' });
    expect(opened.status).toBe(303);
    expect(opened.headers.get('location')).toMatch(/^\/checkout\/cs_/);
    expect((await fetchPage(opened.headers.get('location')!)).html).toContain('1,500.00');
    await request(app.url, 'POST', `/v1/payment-links/${made.body.data.id}/deactivate`, { token });
    const gone = await fetchPage(`/pay/${slug}`);
    expect(gone.status).toBe(410);
    expect((await post(`/pay/${slug}`, page, { amount: '1500', email: 'ada@example.com' })).status).toBe(410);
    expect((await fetchPage('/pay/no-such-link')).status).toBe(404);
  });

  it('a payment link’s page takes its language as the checkout does: the browser’s English or French, else the merchant’s country', async () => {
    const ci = await app.createMerchant('Maquis Chez Awa');
    await sql(app, `update merchant set country = 'CI' where id = ?`, [ci.merchant.id]);
    const ciToken = (await app.token(ci)).accessToken;
    const made = await request(app.url, 'POST', '/v1/payment-links', { token: ciToken, body: { name: 'Attiéké', currency: 'XOF', amount: '5000' } });
    expect(made.status).toBe(200);
    const slug = made.body.data.slug;
    const german = { 'accept-language': 'de-DE,de;q=0.9' };
    // Neither English nor French preferred: Côte d'Ivoire's French.
    const fr = await fetchPage(`/pay/${slug}`, { headers: german });
    expect(fr.status).toBe(200);
    expect(fr.html).toContain('<html lang="fr">');
    // The browser's preference comes first.
    expect((await fetchPage(`/pay/${slug}`, { headers: { 'accept-language': 'en-GB,en;q=0.9' } })).html).toContain('<html lang="en">');
    // A Nigerian merchant's link, to the same browser: English.
    const ng = await request(app.url, 'POST', '/v1/payment-links', { token, body: { name: 'Jollof', currency: 'NGN', amount: '2000' } });
    expect((await fetchPage(`/pay/${ng.body.data.slug}`, { headers: german })).html).toContain('<html lang="en">');
    // Deactivated, the clear page is in French too.
    await request(app.url, 'POST', `/v1/payment-links/${made.body.data.id}/deactivate`, { token: ciToken });
    const gone = await fetchPage(`/pay/${slug}`, { headers: german });
    expect(gone.status).toBe(410);
    expect(gone.html).toContain('<html lang="fr">');
  });
});

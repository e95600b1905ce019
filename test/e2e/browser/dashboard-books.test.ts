import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page, Request } from 'playwright-core';
import type { MerchantCredentials } from '../../../src/modules/merchants/merchant.service';
import { DASHBOARD_DIST } from '../../../src/transport/dashboard/dashboard.routes';
import { launchBrowser, openScreen, screenshots, type TestBrowser } from '../../helpers/browser';
import { graphql, request } from '../../helpers/http';
import { cardPaymentBody, initiatePayment } from '../../helpers/payments';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { ownerLogin } from './owner-login';
import { signInWith } from './sign-in';

/**
 * The books in the merchant dashboard, in headless Chromium against a real service: the
 * overview (opening balances, live updates, the 30-day chart, the success rate), the Balance
 * page (balance transactions, filters, paging, the CSV statement), a refund from a payment's
 * page and a sandbox top-up. With SCREENSHOTS=1 it writes docs/dashboard/.
 */

const SHOTS = process.env.SCREENSHOTS === '1' ? path.resolve(__dirname, '../../../docs/dashboard') : null;
const STATEMENT_HEADER = 'row,id,type,currency,amount,fee,net,balance_after,source_reference,external_reference,created_at';

/** docs/dashboard/<name>-1280.png and -390.png (SCREENSHOTS=1 only). */
const shot = (page: Page, name: string) => screenshots(page, SHOTS, name);

/** An amount as the dashboard shows it, made here independently: "1002462.50" → "1,002,462.50". */
const shown = (value: string | number, decimals = 2) =>
  Number(value).toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals, useGrouping: true });

/** A date input's value (YYYY-MM-DD) for the day `days` away from `d`. */
const dayOf = (d: Date, days = 0) => new Date(d.getTime() + days * 86_400_000).toISOString().slice(0, 10);

/**
 * Frames the page sends on its WebSockets (graphql-ws): `next(test)`, asked before the step
 * that subscribes, resolves once a matching frame is sent, so a change made after it is heard.
 */
function socketFrames(page: Page) {
  const waiters = new Set<{ test: (frame: string) => boolean; resolve: () => void }>();
  page.on('websocket', (ws) =>
    ws.on('framesent', ({ payload }) => {
      for (const w of waiters) {
        if (w.test(String(payload))) {
          waiters.delete(w);
          w.resolve();
        }
      }
    }),
  );
  return {
    next: (test: (frame: string) => boolean) => new Promise<void>((resolve) => waiters.add({ test, resolve })),
  };
}

const subscribesTo = (field: string) => (frame: string) => frame.includes('"subscribe"') && frame.includes(field);

describe('merchant dashboard: the books (sandbox)', () => {
  let app: TestApp;
  let browser: TestBrowser;
  let merchant: MerchantCredentials;
  let token: string;
  let page: Page;
  let frames: ReturnType<typeof socketFrames>;
  const requests: Request[] = [];
  /** The card payment made through the API. */
  let payment: { reference: string; external_reference: string; fee: number };

  const balance = async (currency: string) => {
    const res = await graphql(app.url, '{ balances { currency available pending reserved } }', { token });
    expect(res.body.errors).toBeUndefined();
    return (res.body.data.balances as Array<Record<string, string>>).find((b) => b.currency === currency)!;
  };
  /** A screen from the main navigation (the sidebar, or the phone's menu). */
  const nav = (name: string) => ({ click: () => openScreen(page, name) });
  const balanceCard = (currency: string) => page.locator(`li.balance[data-currency="${currency}"]`);

  beforeAll(async () => {
    if (!existsSync(path.join(DASHBOARD_DIST, 'index.html'))) throw new Error('dist/dashboard is missing: run `npm run build`');
    // Refunds stay processing until a test decides them (simulate).
    app = await createTestApp({ env: { SANDBOX_SETTLE_MS: '600000', SANDBOX_OPENING_BALANCE: '1000000' } });
    merchant = await app.createMerchant('Books Merchant');
    token = (await app.token(merchant)).accessToken;
    browser = await launchBrowser();
    page = await browser.newPage();
    frames = socketFrames(page);
    page.on('request', (req) => requests.push(req));
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('signs in and lands on the overview: the opening balance in every currency, nothing final yet', async () => {
    const live = frames.next(subscribesTo('balanceChanged'));
    await signInWith(page, app, await ownerLogin(app, merchant));
    await page.getByRole('heading', { name: 'Overview', level: 2 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/dashboard');

    const ngn = balanceCard('NGN');
    await ngn.locator('.available dd', { hasText: '1,000,000.00' }).waitFor();
    expect(await ngn.locator('dd').allTextContents()).toEqual(['1,000,000.00', '0.00', '0.00']);
    // Every currency holds its opening balance, so every one is shown (a zero-decimal one as such).
    const rest = await request(app.url, 'GET', '/v1/balances', { token });
    expect(await page.locator('li.balance').count()).toBe(rest.body.data.length);
    expect(await balanceCard('UGX').locator('.available dd').textContent()).toBe('1,000,000');

    await page.getByText('No transaction reached a final status in the last 30 days.').waitFor();
    await page
      .getByTestId('volume-totals')
      .filter({ hasText: /Collected 0(\.0+)? [A-Z]{3}/ })
      .waitFor();
    await live;
  });

  it('a card payment made through the API updates the balance, the chart and the success rate live', async () => {
    const navigations: string[] = [];
    const onNavigate = (frame: { url(): string }) => navigations.push(frame.url());
    page.on('framenavigated', onNavigate);
    const res = await initiatePayment(app, token, cardPaymentBody());
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'successful', amount: 2500, currency: 'NGN' });
    payment = res.body.data;

    const after = await balance('NGN');
    // The sandbox settles at once: amount − fee is available.
    expect(Number(after.available)).toBeCloseTo(1_000_000 + 2500 - payment.fee, 2);
    await balanceCard('NGN')
      .locator('.available dd', { hasText: shown(after.available) })
      .waitFor();
    // The chart picks the currency with the most volume, and the rate counts the payment.
    await page.getByTestId('volume-totals').filter({ hasText: 'Collected 2,500.00 NGN' }).waitFor();
    expect(await page.getByRole('form', { name: 'Chart currency' }).getByLabel('Currency').inputValue()).toBe('NGN');
    expect(await page.locator('.chart svg rect.bar-in').count()).toBe(1);
    expect(await page.locator('.chart svg rect.bar-out').count()).toBe(0);
    await page.getByTestId('success-rate').filter({ hasText: '100.0 % of 1 final transaction succeeded' }).waitFor();
    expect(navigations).toEqual([]);
    page.off('framenavigated', onNavigate);
    await shot(page, 'overview');
  });

  it('the Balance page lists the payment’s balance transaction, filters by currency and kind, and pages', async () => {
    // Twenty more movements (KES top-ups), so the list has more than a page.
    for (let i = 0; i < 20; i++) {
      const topUp = await request(app.url, 'POST', '/v1/sandbox/balance/top-up', { token, body: { currency: 'KES', amount: '1.00' } });
      expect(topUp.status).toBe(200);
    }
    const currencies = (await request(app.url, 'GET', '/v1/balances', { token })).body.data.length as number;

    await nav('Balance').click();
    await page.getByRole('heading', { name: 'Balance transactions' }).waitFor();

    // One page of 20, then the rest: every opening balance, the payment and the twenty top-ups.
    const rows = page.locator('table.ledger tbody tr');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(20);
    await page.getByRole('button', { name: 'Load more' }).click();
    await rows.nth(20).waitFor();
    expect(await rows.count()).toBe(currencies + 1 + 20);
    expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);

    const row = page.locator(`tr[data-source="${payment.reference}"]`);
    const ngn = await balance('NGN');
    const cells = await row.locator('td').allTextContents();
    expect(cells.slice(1)).toEqual(['payment', 'NGN', '2,500.00', shown(payment.fee), shown(2500 - payment.fee), shown(ngn.available), payment.reference]);

    // Filters: NGN payments are the one payment; NGN top-ups, the opening balance.
    const filters = page.getByRole('form', { name: 'Filter balance transactions' });
    await filters.getByLabel('Currency').selectOption('NGN');
    await filters.getByLabel('Kind').selectOption('PAYMENT');
    // Rows of another filter are never shown: the first row after a change is of the new one.
    await rows.first().waitFor();
    expect(await rows.count()).toBe(1);
    expect(await rows.first().getAttribute('data-source')).toBe(payment.reference);
    await filters.getByLabel('Kind').selectOption('TOP_UP');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(1);
    expect(await rows.first().locator('td').nth(1).textContent()).toBe('top up');
    expect(await rows.first().locator('td').nth(3).textContent()).toBe('1,000,000.00');
    await filters.getByLabel('Kind').selectOption('REFUND');
    await page.getByText('No balance transactions match.').waitFor();
    await filters.getByLabel('Currency').selectOption('');
    await filters.getByLabel('Kind').selectOption('PAYMENT');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(1);
    await shot(page, 'balance');
  });

  it('downloads the statement as CSV, the token in a header and never in a URL', async () => {
    const form = page.getByRole('form', { name: 'Statement' });
    // Balance transactions are stamped by the database's clock (the service's own may be set back in tests).
    const today = new Date();
    await form.getByLabel('Currency').selectOption('NGN');
    await form.getByLabel('From').fill(dayOf(today, -1));
    await form.getByLabel('To').fill(dayOf(today, 1));
    const download = page.waitForEvent('download');
    const asked = page.waitForRequest((req) => req.url().includes('/v1/reports/statement'));
    await form.getByRole('button', { name: 'Download CSV' }).click();

    const req = await asked;
    expect(req.headers().authorization).toMatch(/^Bearer \S+$/);
    const url = new URL(req.url());
    expect(url.searchParams.get('currency')).toBe('NGN');
    expect([...url.searchParams.keys()].sort()).toEqual(['currency', 'from', 'to']);
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^statement-NGN-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = await readFile((await file.path())!, 'utf8');
    const lines = csv.trimEnd().split('\r\n');
    expect(lines[0]).toBe(STATEMENT_HEADER);
    expect(lines[1]).toMatch(/^opening_balance,,,NGN,,,,0\.00,,/);
    const entry = lines.find((l) => l.includes(payment.reference))!;
    expect(entry.split(',').slice(2, 9)).toEqual([
      'payment',
      'NGN',
      '2500.00',
      payment.fee.toFixed(2),
      (2500 - payment.fee).toFixed(2),
      (await balance('NGN')).available,
      payment.reference,
    ]);
    // The merchant's own reference beside the service's (issue 41), and the totals in their own section.
    expect(entry.split(',')[9]).toBe(`"${payment.external_reference}"`);
    expect(lines.some((l) => l.startsWith('closing_balance,,,NGN,'))).toBe(true);
    expect(lines.slice(lines.indexOf('') + 1, lines.indexOf('') + 2)).toEqual(['row,type,currency,count,amount,fee,net']);
    await form.getByText(`Downloaded ${file.suggestedFilename()}.`).waitFor();

    // Nothing of the session in any URL the page asked for.
    const auth = req.headers().authorization!.slice('Bearer '.length);
    for (const r of requests) expect(r.url()).not.toContain(auth);
    expect(page.url()).not.toMatch(/token|secret|blob:/i);
  });

  it('a statement asked for backwards is refused with a reason, and nothing is asked of the service', async () => {
    const form = page.getByRole('form', { name: 'Statement' });
    const asked = () => requests.filter((r) => r.url().includes('/v1/reports/statement')).length;
    const before = asked();
    await form.getByLabel('From').fill('2026-11-20');
    await form.getByLabel('To').fill('2026-11-10');
    await form.getByRole('button', { name: 'Download CSV' }).click();
    await form.getByRole('alert').filter({ hasText: 'The “To” day must not be before the “From” day.' }).waitFor();
    expect(asked()).toBe(before);
  });

  it('refunds part of the payment from its page: the refund is created, then decided live', async () => {
    // The Balance page, showing payments: the payment's source reference opens it.
    await page.locator(`tr[data-source="${payment.reference}"]`).getByRole('link', { name: payment.reference }).click();
    await page.getByRole('heading', { name: payment.external_reference }).waitFor();
    const form = page.getByRole('form', { name: 'Refund' });
    expect(await form.getByLabel('Amount (NGN)').inputValue()).toBe('2500.00');
    expect(await form.getByLabel('Your reference').inputValue()).toMatch(/^refund-/);

    // More than the payment: refused, with the API's code, and nothing created.
    await form.getByLabel('Amount (NGN)').fill('5000.00');
    await form.getByLabel('Reason').fill('Damaged item');
    await form.getByRole('button', { name: 'Refund' }).click();
    await form.getByRole('alert').filter({ hasText: 'more than what is left to refund' }).waitFor();
    expect(await form.getByTestId('error-code').textContent()).toBe('INVALID_REQUEST');

    const before = await balance('NGN');
    const reference = await form.getByLabel('Your reference').inputValue();
    await form.getByLabel('Amount (NGN)').fill('1000.00');
    // The page follows the refund it made (its own transactionStatusChanged subscription).
    const following = frames.next(subscribesTo('transactionStatusChanged'));
    await form.getByRole('button', { name: 'Refund' }).click();
    const made = page.getByRole('list', { name: 'Refunds made' }).locator('li');
    await made.filter({ hasText: reference }).filter({ hasText: 'processing' }).waitFor();
    expect(await made.count()).toBe(1);
    expect(await made.first().textContent()).toContain('1,000.00 NGN');
    const refundReference = (await made.first().getAttribute('data-reference'))!;
    // The payment now shows what its refunds hold, and the form offers what is left.
    await page.locator('.facts div', { hasText: 'Refunded' }).getByText('1,000.00 NGN').waitFor();
    await page.getByTestId('refund-left').filter({ hasText: '1,500.00 NGN' }).waitFor();
    expect(await page.getByRole('form', { name: 'Refund' }).getByLabel('Amount (NGN)').inputValue()).toBe('1500.00');
    expect(await page.getByRole('form', { name: 'Refund' }).getByLabel('Your reference').inputValue()).not.toBe(reference);

    const created = await request(app.url, 'GET', `/v1/refunds/${encodeURIComponent(reference)}`, { token });
    expect(created.body.data).toMatchObject({
      reference: refundReference,
      external_reference: reference,
      status: 'processing',
      amount: 1000,
      reason: 'Damaged item',
    });
    expect(Number((await balance('NGN')).reserved)).toBe(Number(before.reserved) + 1000);
    await shot(page, 'refund');

    // Decided by the sandbox: its line changes without a reload.
    await following;
    const live = await request(app.url, 'POST', `/v1/sandbox/transactions/${refundReference}/simulate`, { token, body: { outcome: 'successful' } });
    expect(live.body.data.status).toBe('successful');
    await made.filter({ hasText: reference }).getByText('successful').waitFor();
    const refund = page.getByRole('link', { name: reference });
    await refund.click();
    await page.getByRole('heading', { name: reference }).waitFor();
    await page.locator('.facts div', { hasText: 'Refund of' }).getByRole('link', { name: payment.reference }).waitFor();
  });

  it('tops up in the sandbox tools: the new balance is shown, and the overview has it', async () => {
    await nav('Sandbox tools').click();
    const form = page.getByRole('form', { name: 'Top up the balance' });
    // Every currency is offered once the balances are read; NGN first.
    await form.locator('option', { hasText: 'ZMW' }).waitFor({ state: 'attached' });
    expect(await form.getByLabel('Currency').inputValue()).toBe('NGN');
    await form.getByLabel('Amount').fill('1.234');
    await form.getByRole('button', { name: 'Top up' }).click();
    await form.getByRole('alert').waitFor();
    expect(await form.getByTestId('error-code').textContent()).toBe('INVALID_REQUEST');

    const before = await balance('NGN');
    await form.getByLabel('Amount').fill('5000.00');
    await form.getByRole('button', { name: 'Top up' }).click();
    const expected = shown(Number(before.available) + 5000);
    await form
      .getByTestId('topup-result')
      .filter({ hasText: `New NGN balance: ${expected} NGN available` })
      .waitFor();
    expect(await form.getByRole('alert').count()).toBe(0);
    expect((await balance('NGN')).available).toBe((Number(before.available) + 5000).toFixed(2));

    await nav('Overview').click();
    await balanceCard('NGN').locator('.available dd', { hasText: expected }).waitFor();
  });

  it('a top-up made elsewhere reaches the open overview live', async () => {
    const before = await balance('GHS');
    await nav('Balance').click();
    await page.getByRole('heading', { name: 'Balance transactions' }).waitFor();
    // The overview, opened anew, subscribes again.
    const live = frames.next(subscribesTo('balanceChanged'));
    await nav('Overview').click();
    await balanceCard('GHS').waitFor();
    await live;
    const res = await request(app.url, 'POST', '/v1/sandbox/balance/top-up', { token, body: { currency: 'GHS', amount: '250.50' } });
    expect(res.status).toBe(200);
    await balanceCard('GHS')
      .locator('.available dd', { hasText: shown(Number(before.available) + 250.5) })
      .waitFor();
  });

  it('is usable at 360 px and from the keyboard: no sideways scrolling, each balance transaction a card with its amounts on screen; wider, the table scrolls in its own region', async () => {
    await page.setViewportSize({ width: 360, height: 740 });
    for (const screen of ['Overview', 'Balance']) {
      await nav(screen).click();
      await page.getByRole('heading', { level: 2, name: screen }).waitFor();
      if (screen === 'Balance') await page.locator('table.ledger tbody tr').first().waitFor();
      else await page.locator('li.balance').first().waitFor();
      const width = await page.evaluate('document.scrollingElement.scrollWidth');
      expect({ screen, width }).toEqual({ screen, width: 360 });
    }
    // On a phone each row is a card (issue 41): every amount on screen, nothing to scroll sideways in the table either.
    const region = page.getByRole('region', { name: 'Balance transactions' });
    expect(await region.evaluate((r) => r.scrollWidth <= r.clientWidth)).toBe(true);
    const amounts = await page.locator('table.ledger td.num').evaluateAll((cells) => cells.map((c) => c.getBoundingClientRect()));
    expect(amounts.length).toBeGreaterThan(0);
    expect(amounts.filter((box) => box.left < 0 || box.right > 360)).toEqual([]);
    // Wider (a tablet beside the sidebar), the table is a table wider than its place: a focusable region that arrow keys scroll.
    await page.setViewportSize({ width: 800, height: 640 });
    await region.focus();
    expect(await page.evaluate('document.activeElement.getAttribute("role")')).toBe('region');
    expect(await page.evaluate('document.activeElement.scrollWidth > document.activeElement.clientWidth')).toBe(true);
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => (globalThis as any).document.activeElement.scrollLeft > 0);
    await page.setViewportSize({ width: 360, height: 740 });

    await page.getByRole('form', { name: 'Filter balance transactions' }).getByLabel('Kind').selectOption('PAYMENT');
    await page.locator(`tr[data-source="${payment.reference}"]`).getByRole('link').click();
    await page.getByRole('form', { name: 'Refund' }).waitFor();
    expect(await page.evaluate('document.scrollingElement.scrollWidth')).toBe(360);
    await page.setViewportSize({ width: 800, height: 640 });
  });
});

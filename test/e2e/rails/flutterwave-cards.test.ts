import { createDecipheriv } from 'node:crypto';
import { FlutterwaveFake } from '../../fakes/flutterwave.fake';
import { launchBrowser, startPageServer, type PageServer, type TestBrowser } from '../../helpers/browser';
import { ledgerVerify } from '../../helpers/engine';
import { request } from '../../helpers/http';
import { cardPaymentBody } from '../../helpers/payments';
import { awaitStatus, flutterwaveApp, railsMerchant, txnRow, type RailsMerchant } from '../../helpers/rails';
import type { TestApp } from '../../helpers/test-app';
import { runJobsNow, transactionIdOf } from '../../helpers/jobs';
import { newReference, outboxRows, sql } from '../../helpers/transactions';
import { eventually } from '../../helpers/wait';

/**
 * Card payments and refunds through Flutterwave, in production mode, against the fake of its v3
 * API: the card travels 3DES-encrypted and only there; a redirect (3-D Secure) completed in a
 * headless Chromium comes back through our return route to the merchant's page; a decline; a card
 * that asks for its PIN; refunds that succeed and fail. The books are checked after each flow.
 */

/** Flutterwave's test cards (its testing helpers). */
const FLW_CARDS = {
  redirect: '4187427415564246',
  declined: '5258585922666506',
  pin: '5531886652142950',
};

const PAY = '/v1/payments/initiate';

async function clearing(app: TestApp, currency: string): Promise<number> {
  const [row] = await sql<{ balance: string }>(app, `select coalesce(sum(amount), 0)::text as balance from ledger_line where account_id = ?`, [
    `p:provider_clearing:flutterwave:${currency}`,
  ]);
  return Number(row!.balance);
}

describe('Flutterwave cards and refunds (production, against the fake)', () => {
  let flw: FlutterwaveFake;
  let app: TestApp;
  let m: RailsMerchant;
  let browser: TestBrowser;
  let shop: PageServer;
  /** The app's log lines (pino JSON). */
  const logs: string[] = [];

  beforeAll(async () => {
    flw = await FlutterwaveFake.start({ decisionDelayMs: 30 });
    app = await flutterwaveApp(flw, {}, { write: (line: string) => void logs.push(line) });
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
  beforeEach(() => {
    flw.refundOutcome = 'completed';
  });

  const pay = (number: string, overrides: Record<string, unknown> = {}) =>
    request(app.url, 'POST', PAY, { token: m.token, body: cardPaymentBody({ card: { number }, ...overrides }) });

  /** A payment through the redirect card, authorized in Chromium on Flutterwave's page: where the browser lands. */
  async function authorizedPayment(): Promise<{ reference: string; landed: URL }> {
    const res = await pay(FLW_CARDS.redirect, { redirect_url: `${shop.origin}/return?order=77`, customer_uuid: m.customerUuid });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'requires_action', next_action: { type: 'redirect_to_url' } });
    const page = await browser.newPage();
    await page.goto(res.body.data.next_action.url);
    await Promise.all([page.waitForURL((u) => u.origin === shop.origin), page.getByRole('button', { name: 'Authorize' }).click()]);
    expect(await page.locator('h1').textContent()).toBe('Back at the shop');
    const landed = new URL(page.url());
    await page.close();
    return { reference: res.body.data.reference, landed };
  }

  it('the card goes to Flutterwave 3DES-encrypted and nowhere else; 3-D Secure in Chromium returns through us to the shop', async () => {
    const before = await clearing(app, 'NGN');
    const { reference, landed } = await authorizedPayment();
    // Our return route asked Flutterwave before sending the browser on: the shop already sees the verdict.
    expect(landed.pathname).toBe('/return');
    expect(Object.fromEntries(landed.searchParams)).toMatchObject({ order: '77', reference, status: 'successful' });
    const row = (await txnRow(app, landed.searchParams.get('external_reference')!))!;
    expect(row).toMatchObject({ status: 'successful', connector: 'flutterwave' });
    expect((await outboxRows(app, reference)).map((o) => o.type)).toEqual(['payment.successful']);

    // What Flutterwave received: `{client}` only, which decrypts (3DES-EDE3-ECB, the encryption key) to the card.
    const charge = flw.requests.find((r) => r.path === '/v3/charges?type=card' && r.body.includes('"client"'))!;
    expect(charge.body).not.toContain(FLW_CARDS.redirect);
    expect(Object.keys(JSON.parse(charge.body))).toEqual(['client']);
    const decipher = createDecipheriv('des-ede3', Buffer.from(flw.encryptionKey, 'utf8'), null);
    const payload = JSON.parse(Buffer.concat([decipher.update(JSON.parse(charge.body).client, 'base64'), decipher.final()]).toString('utf8'));
    expect(payload).toMatchObject({ card_number: FLW_CARDS.redirect, tx_ref: row.id, currency: 'NGN', amount: 2500 });
    expect(payload.redirect_url).toMatch(new RegExp(`^${app.url}/v1/providers/flutterwave/return/${row.id}\\.`));
    // The return token opens the return only: as a callback token it is a wrong one (404, nothing kept).
    const returnToken = payload.redirect_url.split('/').pop();
    const asCallback = await request(app.url, 'POST', `/v1/providers/flutterwave/callback/${returnToken}`, { body: { status: 'successful' } });
    expect(asCallback.status).toBe(404);
    // Nothing of the card but brand, last4 and fingerprint in our row.
    const [stored] = await sql<Record<string, unknown>>(app, 'select * from "transaction" where id = ?', [row.id]);
    expect(JSON.stringify(stored)).not.toContain(FLW_CARDS.redirect.slice(0, 12));
    expect(await clearing(app, 'NGN')).toBe(before - 2500);
    expect((await ledgerVerify(app.db.url)).ok).toBe(true);
  });

  it('a 3-D Secure payment completed after its deadline and grace stays failed; the late charge is logged for an operator', async () => {
    const res = await pay(FLW_CARDS.redirect);
    const { reference } = res.body.data;
    const id = await transactionIdOf(app.db.url, reference);
    // Past the deadline (PAYMENT_ACTION_TTL_S) and the five minutes' grace, on the service's manual clock.
    app.clock.set(new Date(Date.parse(res.body.data.next_action.expires_at) + 5 * 60_000 + 1000));
    await runJobsNow(app.db.url, 'expire-payment-action', id);
    const failed = (await txnRow(app, res.body.data.external_reference))!;
    expect(failed).toMatchObject({ status: 'failed', failure_reason: 'authentication_expired' });
    // Flutterwave was asked once more before it failed.
    expect(flw.requests.some((r) => r.path === `/v3/transactions/${failed.provider_reference}/verify`)).toBe(true);
    const charge = [...flw.transactions.values()].find((t) => t.tx_ref === id)!;
    await flw.completeCharge(charge.id, 'successful');
    expect(await eventually(async () => logs.some((l) => l.includes('closed transaction paid') && l.includes(reference)))).toBe(true);
    expect((await txnRow(app, res.body.data.external_reference))?.status).toBe('failed');
    expect((await ledgerVerify(app.db.url)).ok).toBe(true);
  });

  it('a return link with a wrong token is a 404 page and changes nothing', async () => {
    const res = await fetch(`${app.url}/v1/providers/flutterwave/return/00000000-0000-4000-8000-000000000000.${'A'.repeat(32)}`, { redirect: 'manual' });
    expect(res.status).toBe(404);
    expect(await res.text()).toContain('not valid');
  });

  it('a declined card fails with its reason; a card that asks for its PIN, paid without one (the merchant API takes none), fails pin_required; the books are untouched', async () => {
    const before = await clearing(app, 'NGN');
    const declined = await pay(FLW_CARDS.declined);
    expect(declined.status).toBe(200);
    expect(declined.body.data).toMatchObject({ status: 'failed', failure_reason: 'insufficient_funds' });
    const pin = await pay(FLW_CARDS.pin);
    expect(pin.body.data).toMatchObject({ status: 'failed', failure_reason: 'pin_required' });
    expect(await clearing(app, 'NGN')).toBe(before);
    expect((await ledgerVerify(app.db.url)).ok).toBe(true);
  });

  it('a currency Flutterwave does not charge cards in is refused before anything is written', async () => {
    const res = await pay(FLW_CARDS.redirect, { currency: 'BWP', amount: '100.00' });
    expect(res.status).toBe(400);
    expect(res.body.details[0]).toEqual({ field: 'currency', issue: expect.stringContaining('not one our card processor charges in') });
  });

  it('a refund goes back through Flutterwave on the charge’s id and settles by its status; a failed one gives the amount back', async () => {
    const { reference } = await authorizedPayment();
    const payment = (
      await sql<{ id: string; provider_reference: string }>(app, 'select id, provider_reference from "transaction" where reference = ?', [reference])
    )[0]!;
    const part = newReference('flw-rf');
    const refund = await request(app.url, 'POST', '/v1/refunds', {
      token: m.token,
      body: { payment_reference: reference, amount: '1000.00', reason: 'Damaged item', reference: part },
    });
    expect(refund.status).toBe(200);
    expect((await awaitStatus(app, part, 'successful'))?.status).toBe('successful');
    const charge = flw.transactions.get(Number(payment.provider_reference));
    expect(charge.refunds).toEqual([expect.objectContaining({ amount_refunded: 1000, comments: 'Damaged item' })]);

    flw.refundOutcome = 'failed';
    const failing = newReference('flw-rf');
    await request(app.url, 'POST', '/v1/refunds', {
      token: m.token,
      body: { payment_reference: reference, amount: '500.00', reason: 'Late', reference: failing },
    });
    expect(await awaitStatus(app, failing, 'failed')).toMatchObject({ failure_reason: 'refund_declined' });
    // What is left to refund counts the failed one back.
    const verified = await request(app.url, 'GET', `/v1/payments/verify/${reference}`, { token: m.token });
    expect(verified.body.data.amount_refunded).toBe(1000);
    expect((await ledgerVerify(app.db.url)).ok).toBe(true);
  });
});

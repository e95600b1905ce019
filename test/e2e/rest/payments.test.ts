import { request } from '../../helpers/http';
import { CARDS, cardPaymentBody, initiatePayment, verifyPayment } from '../../helpers/payments';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { historyRows, momoCollectionBody, outboxRows, transactionCount } from '../../helpers/transactions';
import { approvedCustomer, enroll, twoMerchants } from '../../helpers/factories';

const PAYMENT_REFERENCE = /^pay_[0-9a-f]{24}$/;

describe('REST /v1/payments', () => {
  let app: TestApp;
  let token: string;
  let otherToken: string;

  beforeAll(async () => {
    app = await createTestApp();
    const { mine, theirs } = await twoMerchants(app, 'Card Merchant');
    [token, otherToken] = [mine.token, theirs.token];
  });
  afterAll(() => app.close());

  /** Posts a body that must be refused, and checks that no transaction row was created. */
  async function refused(body: unknown, field: string) {
    const before = await transactionCount(app);
    const res = await initiatePayment(app, token, body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 'error', code: 'INVALID_REQUEST' });
    expect(res.body.details).toEqual(expect.arrayContaining([{ field, issue: expect.any(String) }]));
    expect(await transactionCount(app)).toBe(before);
    return res;
  }

  describe('the test cards', () => {
    it('4242 4242 4242 4242 succeeds without authentication', async () => {
      const body = cardPaymentBody();
      const res = await initiatePayment(app, token, body);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ status: 'success', message: 'Payment successful' });
      expect(res.body.data).toMatchObject({
        reference: expect.stringMatching(PAYMENT_REFERENCE),
        external_reference: body.reference,
        type: 'payment',
        status: 'successful',
        failure_reason: null,
        amount: 2500,
        currency: 'NGN',
        payment_method: 'card',
        card: { brand: 'visa', last4: '4242', fingerprint: expect.stringMatching(/^fp_[A-Za-z0-9_-]{22}$/) },
        next_action: null,
        description: 'Order 1001',
        completed_at: expect.any(String),
      });
      expect(await historyRows(app, res.body.data.reference)).toEqual([{ from_status: null, to_status: 'successful', reason: 'initiated' }]);
      const events = await outboxRows(app, res.body.data.reference);
      expect(events.map((e) => e.type)).toEqual(['payment.successful']);
      expect(events[0]!.payload).toEqual(res.body.data);
    });

    it('4000 0025 0000 3155 requires 3-D Secure: next_action points at the sandbox page, with a handle, not the reference', async () => {
      const res = await initiatePayment(app, token, cardPaymentBody({ card: { number: CARDS.threeDs }, redirect_url: 'https://shop.example/return' }));
      expect(res.status).toBe(200);
      const payment = res.body.data;
      expect(payment).toMatchObject({ status: 'requires_action', failure_reason: null, completed_at: null, redirect_url: 'https://shop.example/return' });
      expect(payment.next_action).toEqual({ type: 'redirect_to_url', url: expect.any(String), expires_at: expect.any(String) });
      const url = new URL(payment.next_action.url);
      expect(url.origin).toBe(app.url);
      expect(url.pathname).toMatch(/^\/v1\/sandbox\/3ds\/[A-Za-z0-9_-]{43}$/);
      expect(payment.next_action.url).not.toContain(payment.reference);
      expect(payment.next_action.url).not.toContain(payment.external_reference);
      // 15 minutes by default (PAYMENT_ACTION_TTL_S=900), by the service's clock.
      expect(new Date(payment.next_action.expires_at).getTime() - app.clock.now().getTime()).toBe(900_000);
      // The page is reachable without a token.
      const page = await request(app.url, 'GET', url.pathname);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(page.text).toContain('Card Merchant');
      expect(page.text).toContain('2500.00 NGN');
      expect(page.text).toContain('3155');
      // No event until it is decided.
      expect(await outboxRows(app, payment.reference)).toEqual([]);
      // Verify shows the same next action while it waits.
      const verified = await verifyPayment(app, token, payment.reference);
      expect(verified.body.data.next_action).toEqual(payment.next_action);
    });

    it('4000 0000 0000 9995 is declined for insufficient funds', async () => {
      const res = await initiatePayment(app, token, cardPaymentBody({ card: { number: CARDS.insufficientFunds } }));
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ message: 'Payment failed', data: { status: 'failed', failure_reason: 'insufficient_funds', card: { last4: '9995' } } });
      expect((await outboxRows(app, res.body.data.reference)).map((e) => e.type)).toEqual(['payment.failed']);
    });

    it('any other Luhn-valid number is declined card_not_supported_in_sandbox', async () => {
      const res = await initiatePayment(app, token, cardPaymentBody({ card: { number: CARDS.other } }));
      expect(res.body.data).toMatchObject({ status: 'failed', failure_reason: 'card_not_supported_in_sandbox', card: { brand: 'mastercard', last4: '4444' } });
    });

    it('accepts a number typed in groups, a 2-digit year and digit strings for the date', async () => {
      const res = await initiatePayment(app, token, cardPaymentBody({ card: { number: '4242 4242 4242 4242', exp_month: '04', exp_year: '31' } }));
      expect(res.body.data).toMatchObject({ status: 'successful', card: { last4: '4242' } });
    });

    it('the same card has the same fingerprint at one merchant, and another at the next merchant', async () => {
      const a = await initiatePayment(app, token, cardPaymentBody());
      const b = await initiatePayment(app, token, cardPaymentBody({ card: { number: '4242-4242-4242-4242' } }));
      const c = await initiatePayment(app, otherToken, cardPaymentBody());
      expect(a.body.data.card.fingerprint).toBe(b.body.data.card.fingerprint);
      expect(c.body.data.card.fingerprint).not.toBe(a.body.data.card.fingerprint);
    });
  });

  describe('card checks (400, nothing stored)', () => {
    it('a Luhn-invalid number', async () => {
      const res = await refused(cardPaymentBody({ card: { number: CARDS.luhnInvalid } }), 'card.number');
      expect(res.body.details[0].issue).toMatch(/Luhn/);
    });
    it('an expired card', async () => {
      await refused(cardPaymentBody({ card: { exp_month: 10, exp_year: 2026 } }), 'card.exp_year');
      await refused(cardPaymentBody({ card: { exp_month: 1, exp_year: 24 } }), 'card.exp_year');
    });
    it('an expiry this month is still valid', async () => {
      const res = await initiatePayment(app, token, cardPaymentBody({ card: { exp_month: 11, exp_year: 2026 } }));
      expect(res.body.data.status).toBe('successful');
    });
    it('American Express with a 3-digit CVC, and Visa with a 4-digit one', async () => {
      const amex = await refused(cardPaymentBody({ card: { number: CARDS.amex, cvc: '123' } }), 'card.cvc');
      expect(amex.body.details[0].issue).toBe('must be 4 digits for American Express cards');
      await refused(cardPaymentBody({ card: { cvc: '1234' } }), 'card.cvc');
    });
    it('American Express with a 4-digit CVC is checked and declined by the sandbox', async () => {
      const res = await initiatePayment(app, token, cardPaymentBody({ card: { number: CARDS.amex, cvc: '7391' } }));
      expect(res.body.data).toMatchObject({ status: 'failed', failure_reason: 'card_not_supported_in_sandbox', card: { brand: 'amex', last4: '0005' } });
    });
    it.each([
      ['a month of 13', { exp_month: 13 }, 'card.exp_month'],
      ['a number too short', { number: '4242' }, 'card.number'],
      ['letters in the number', { number: '4242abcd42424242' }, 'card.number'],
      ['a number as a JSON number', { number: 4242424242424242 }, 'card.number'],
      ['a CVC as a JSON number', { cvc: 913 }, 'card.cvc'],
      ['a missing CVC', { cvc: undefined }, 'card.cvc'],
    ])('%s', async (_name, card, field) => {
      await refused(cardPaymentBody({ card }), field);
    });
    it.each([
      ['no card', { card: undefined }, 'card'],
      ['an unknown payment_method', { payment_method: 'cash' }, 'payment_method'],
      ['a card with payment_method bank_transfer', { payment_method: 'bank_transfer' }, 'card'],
      ['an amount with more decimals than the currency', { amount: '10.001' }, 'amount'],
      ['a zero amount', { amount: 0 }, 'amount'],
      ['an unsupported currency', { currency: 'XYZ' }, 'currency'],
      ['a whole-unit currency with decimals (UGX)', { currency: 'UGX', amount: '100.5' }, 'amount'],
      ['a javascript: redirect_url', { redirect_url: 'javascript:alert(1)' }, 'redirect_url'],
      ['a redirect_url with credentials', { redirect_url: 'https://user:pw@shop.example/' }, 'redirect_url'],
      ['a bad reference', { reference: '../x' }, 'reference'],
    ])('%s', async (_name, overrides, field) => {
      await refused(cardPaymentBody(overrides as Record<string, unknown>), field);
    });
    it('an unknown customer_uuid, or another merchant’s customer, is 404', async () => {
      const other = await enroll(app, otherToken);
      for (const customer_uuid of [other.customer_uuid, '3f1c2d4e-0000-4000-8000-000000000000']) {
        const res = await initiatePayment(app, token, cardPaymentBody({ customer_uuid }));
        expect(res.status).toBe(404);
        expect(res.body.code).toBe('NOT_FOUND');
      }
    });
    it('a customer of this merchant is linked, without KYC', async () => {
      const customer = await enroll(app, token);
      const res = await initiatePayment(app, token, cardPaymentBody({ customer_uuid: customer.customer_uuid }));
      expect(res.body.data).toMatchObject({ status: 'successful', customer_uuid: customer.customer_uuid });
    });
    it('no error echoes the card', async () => {
      for (const card of [{ number: CARDS.luhnInvalid }, { number: `${CARDS.success}1234` }, { exp_month: 13 }, { cvc: '12' }]) {
        const res = await initiatePayment(app, token, cardPaymentBody({ card }));
        expect(res.status).toBe(400);
        for (const value of Object.values(card)) expect(res.text).not.toContain(String(value));
        expect(res.text).not.toContain(CARDS.success);
      }
    });
  });

  describe('input a client can send, refused cleanly', () => {
    it('control characters in the description are 400, not a database error', async () => {
      await refused(cardPaymentBody({ description: 'a\u0000b' }), 'description');
      await refused(cardPaymentBody({ description: 'line\u001bbreak' }), 'description');
    });

    it('a redirect_url is stored as the URL parser writes it', async () => {
      const res = await initiatePayment(app, token, cardPaymentBody({ redirect_url: 'https://Shop.Example/return path?x=1' }));
      expect(res.status).toBe(200);
      expect(res.body.data.redirect_url).toBe('https://shop.example/return%20path?x=1');
    });

    it.each(['%00', 'a%00b'])('verify of a reference with NUL in it (%s) is 400 at the edge, before any query', async (ref) => {
      const res = await request(app.url, 'GET', `/v1/payments/verify/${ref}`, { token });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ status: 'error', code: 'INVALID_REQUEST', details: [{ field: 'reference', issue: expect.stringMatching(/NUL/) }] });
    });

    it.each(['%E2%80%8B', '%F0%9F%92%B3', 'a%20b'])('verify of a reference that cannot exist (%s) is 404', async (ref) => {
      const res = await request(app.url, 'GET', `/v1/payments/verify/${ref}`, { token });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ status: 'error', code: 'NOT_FOUND', message: 'Payment not found' });
    });

    it('the sandbox simulate route does not decide a payment awaiting 3-D Secure: only its page does', async () => {
      const pending = (await initiatePayment(app, token, cardPaymentBody({ card: { number: CARDS.threeDs } }))).body.data;
      const res = await request(app.url, 'POST', `/v1/sandbox/transactions/${pending.reference}/simulate`, { token, body: { outcome: 'successful' } });
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('INVALID_STATE');
      expect((await verifyPayment(app, token, pending.reference)).body.data.status).toBe('requires_action');
    });
  });

  describe('one reference space with collections and transfers', () => {
    it('a reference used by a collection is 409 DUPLICATE_REQUEST for a payment, and the other way round', async () => {
      const customer = await approvedCustomer(app, token);
      const collection = momoCollectionBody(customer.customer_uuid);
      expect((await request(app.url, 'POST', '/v1/crossborder/global-collection', { token, body: collection })).status).toBe(200);
      const dup = await initiatePayment(app, token, cardPaymentBody({ reference: collection.reference }));
      expect(dup.status).toBe(409);
      expect(dup.body.code).toBe('DUPLICATE_REQUEST');

      const payment = cardPaymentBody();
      expect((await initiatePayment(app, token, payment)).status).toBe(200);
      const again = await initiatePayment(app, token, cardPaymentBody({ reference: payment.reference }));
      expect(again.status).toBe(409);
      const col = await request(app.url, 'POST', '/v1/crossborder/global-collection', {
        token,
        body: momoCollectionBody(customer.customer_uuid, { reference: payment.reference }),
      });
      expect(col.status).toBe(409);
      expect(col.body.code).toBe('DUPLICATE_REQUEST');
    });
  });

  describe('GET /v1/payments/verify/{reference}', () => {
    it('by the service reference or the merchant reference', async () => {
      const body = cardPaymentBody();
      const created = (await initiatePayment(app, token, body)).body.data;
      for (const ref of [created.reference, body.reference]) {
        const res = await verifyPayment(app, token, ref);
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ status: 'success', message: 'Payment successful' });
        expect(res.body.data).toEqual(created);
      }
      // The generic status endpoint shows the same record.
      const status = await request(app.url, 'GET', `/v1/crossborder/global-transfer/${created.reference}`, { token });
      expect(status.body.data).toEqual(created);
    });

    it('an unknown reference and another merchant’s payment answer the same 404', async () => {
      const mine = (await initiatePayment(app, token, cardPaymentBody())).body.data;
      const unknown = await verifyPayment(app, token, 'pay_000000000000000000000000');
      const others = await verifyPayment(app, otherToken, mine.reference);
      const othersByExternal = await verifyPayment(app, otherToken, mine.external_reference);
      for (const res of [unknown, others, othersByExternal]) {
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ status: 'error', code: 'NOT_FOUND', message: 'Payment not found' });
      }
    });

    it('a collection’s reference is not a payment', async () => {
      const customer = await approvedCustomer(app, token);
      const col = await request(app.url, 'POST', '/v1/crossborder/global-collection', { token, body: momoCollectionBody(customer.customer_uuid) });
      const res = await verifyPayment(app, token, col.body.data.reference);
      expect(res.status).toBe(404);
    });

    it('needs a token', async () => {
      const res = await request(app.url, 'GET', '/v1/payments/verify/pay_000000000000000000000000');
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('INVALID_TOKEN');
    });
  });
});

describe('REST /v1/payments in production mode', () => {
  let app: TestApp;
  let token: string;

  beforeAll(async () => {
    app = await createTestApp({ env: { PAYMENTS_ENV: 'production' } });
    token = (await app.token(await app.createMerchant('Live Merchant'))).accessToken;
  });
  afterAll(() => app.close());

  it('charges no card: a clear refusal, and nothing is kept', async () => {
    const before = await transactionCount(app);
    const res = await initiatePayment(app, token, cardPaymentBody());
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ status: 'error', code: 'ROUTE_UNAVAILABLE', message: 'No provider serves card payments here; nothing was created or charged' });
    expect(await transactionCount(app)).toBe(before);
  });

  it('checks the card first, like the sandbox', async () => {
    const res = await initiatePayment(app, token, cardPaymentBody({ card: { number: CARDS.luhnInvalid } }));
    expect(res.status).toBe(400);
  });

  it('has no 3-D Secure page', async () => {
    const res = await request(app.url, 'GET', `/v1/sandbox/3ds/${'a'.repeat(43)}`);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('NOT_FOUND');
  });
});

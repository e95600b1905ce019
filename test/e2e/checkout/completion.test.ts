import { cardAttempt, getSession, openSession, payOnPage } from '../../helpers/checkout';
import { twoMerchants } from '../../helpers/factories';
import { request } from '../../helpers/http';
import { CARDS, verifyPayment } from '../../helpers/payments';
import { startReceiver } from '../../helpers/receiver';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { authenticate } from '../../helpers/three-ds';
import { sql } from '../../helpers/transactions';
import { eventually } from '../../helpers/wait';
import { FAST_WEBHOOKS, setEndpoint, verifyDelivery } from '../../helpers/webhooks';

/** Issue 37: one session, at most one successful payment; its success completes the session, durably, with its webhook. */
describe('checkout session completion', () => {
  let app: TestApp;
  let token: string;
  let ghToken: string;
  let secret: string;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    receiver = await startReceiver();
    app = await createTestApp({ env: { ...FAST_WEBHOOKS, SANDBOX_SETTLE_MS: '100' } });
    const { mine, theirs } = await twoMerchants(app, 'Completing Merchant');
    token = mine.token;
    secret = mine.credentials.webhookSecret;
    await setEndpoint(app.url, token, receiver.url);
    // A shop in Accra: its sessions are in GHS, paid by mobile money first.
    ghToken = theirs.token;
    await sql(app, `update merchant set country = 'GH' where id = ?`, [theirs.credentials.merchant.id]);
  });
  afterAll(async () => {
    await app.close();
    await receiver.close();
  });

  const completed = async (t: string, id: string) => {
    let data: any;
    const done = await eventually(async () => {
      data = (await getSession(app, t, id)).body.data;
      return data.status === 'complete';
    });
    expect(done).toBe(true);
    return data;
  };
  const delivered = (id: string, type: string) => receiver.received.find((r) => JSON.parse(r.body).type === type && JSON.parse(r.body).data?.id === id);

  it('a card payment completes the session; checkout.session.completed is delivered, signed; the payment names its session', async () => {
    const s = await openSession(app, token);
    const attempt = await payOnPage(app, s.id);
    expect(attempt.status).toBe('successful');
    const done = await completed(token, s.id);
    expect(done).toMatchObject({ status: 'complete', payment_reference: attempt.reference, attempts: 1, completed_at: expect.any(String) });
    expect(await eventually(async () => delivered(s.id, 'checkout.session.completed') !== undefined)).toBe(true);
    const body = verifyDelivery(secret, delivered(s.id, 'checkout.session.completed')!);
    expect(body.data).toEqual(done);
    const payment = (await verifyPayment(app, token, attempt.reference)).body.data;
    expect(payment).toMatchObject({ checkout_session_id: s.id, external_reference: `${s.reference}-1` });
    // The page shows the paid attempt; paying again is refused.
    expect(await app.service.app.services.checkout.pageView(s.id)).toMatchObject({
      status: 'complete',
      attempt: { reference: attempt.reference, status: 'successful' },
    });
    await expect(payOnPage(app, s.id)).rejects.toMatchObject({ code: 'INVALID_STATE' });
  });

  it('a declined attempt leaves the session open; the next attempt (-2) pays it', async () => {
    const s = await openSession(app, token);
    const declined = await payOnPage(app, s.id, cardAttempt(CARDS.insufficientFunds));
    expect(declined).toMatchObject({ status: 'failed', failureReason: 'insufficient_funds' });
    expect((await getSession(app, token, s.id)).body.data).toMatchObject({ status: 'open', attempts: 1 });
    const paid = await payOnPage(app, s.id);
    expect(paid.status).toBe('successful');
    const done = await completed(token, s.id);
    expect(done).toMatchObject({ attempts: 2, payment_reference: paid.reference });
    expect((await verifyPayment(app, token, paid.reference)).body.data.external_reference).toBe(`${s.reference}-2`);
  });

  it('mobile money first: the sandbox approves, the session completes', async () => {
    const s = await openSession(app, ghToken, { currency: 'GHS', amount: '25.00' });
    const attempt = await payOnPage(app, s.id, { method: 'momo', phone: '024 123 4567', network: 'MTN' });
    expect(attempt).toMatchObject({ method: 'momo', status: 'processing', phone: expect.any(String) });
    const done = await completed(ghToken, s.id);
    expect(done.payment_reference).toBe(attempt.reference);
  });

  it('a bank transfer attempt shows the account to pay into; paid (simulated), the session completes', async () => {
    const s = await openSession(app, token, { amount: '15000.00' });
    const attempt = await payOnPage(app, s.id, { method: 'bank_transfer' });
    expect(attempt).toMatchObject({
      method: 'bank_transfer',
      status: 'processing',
      bankDetails: { accountNumber: expect.any(String) },
      expiresAt: expect.any(Date),
    });
    expect(await app.service.app.services.checkout.attemptView(s.id)).toEqual(attempt);
    await request(app.url, 'POST', `/v1/sandbox/transactions/${attempt.reference}/simulate`, { token, body: { outcome: 'successful' } });
    await completed(token, s.id);
  });

  it('a method the session does not offer is refused (400 naming method)', async () => {
    const s = await openSession(app, token, { payment_methods: ['card'] });
    await expect(payOnPage(app, s.id, { method: 'bank_transfer' })).rejects.toMatchObject({ code: 'INVALID_REQUEST', details: [{ field: 'method' }] });
  });

  it('concurrency: two pays of one session at once give one successful payment; the other is a 409', async () => {
    for (let round = 0; round < 3; round++) {
      const s = await openSession(app, token);
      const results = await Promise.allSettled([payOnPage(app, s.id), payOnPage(app, s.id)]);
      const ok = results.filter((r) => r.status === 'fulfilled');
      const refused = results.filter((r) => r.status === 'rejected') as PromiseRejectedResult[];
      expect(ok).toHaveLength(1);
      expect(refused).toHaveLength(1);
      expect(refused[0]!.reason).toMatchObject({ code: 'INVALID_STATE' });
      const rows = await sql(app, `select status from "transaction" where checkout_session_id = ? and status = 'successful'`, [s.id]);
      expect(rows).toHaveLength(1);
      await completed(token, s.id);
    }
  });

  it('a session past its deadline with a 3-D Secure attempt in flight waits for it; the payment succeeds and completes it', async () => {
    const s = await openSession(app, token, { expires_in: 60 });
    const attempt = await payOnPage(app, s.id, cardAttempt(CARDS.threeDs));
    expect(attempt).toMatchObject({ status: 'requires_action', nextActionUrl: expect.any(String) });
    app.clock.advance(61_000);
    expect(await app.service.app.services.checkout.expireDue()).toBe(0);
    expect((await getSession(app, token, s.id)).body.data.status).toBe('open');
    // No new attempt past the deadline.
    await expect(payOnPage(app, s.id)).rejects.toMatchObject({ code: 'INVALID_STATE' });
    const decided = await authenticate(attempt.nextActionUrl!, 'complete');
    expect(decided.status).toBe(303);
    expect((await verifyPayment(app, token, attempt.reference)).body.data.status).toBe('successful');
    await completed(token, s.id);
  });

  it('a session already expired when its payment succeeds still completes: the money was taken, the payment wins', async () => {
    const s = await openSession(app, token);
    const attempt = await payOnPage(app, s.id, cardAttempt(CARDS.threeDs));
    // As if it had expired before this attempt's payment was known.
    await sql(app, `update checkout_session set status = 'expired', expired_at = now() where id = ?`, [s.id]);
    await authenticate(attempt.nextActionUrl!, 'complete');
    const done = await completed(token, s.id);
    expect(done).toMatchObject({ payment_reference: attempt.reference, expired_at: expect.any(String) });
  });
});

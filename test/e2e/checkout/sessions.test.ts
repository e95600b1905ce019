import pg from 'pg';
import { createSession, getSession, openSession, payOnPage, sessionBody } from '../../helpers/checkout';
import { request } from '../../helpers/http';
import { twoMerchants } from '../../helpers/factories';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { sql } from '../../helpers/transactions';

const SESSION_ID = /^cs_[A-Za-z0-9_-]{24}$/;

describe('REST /v1/checkout/sessions', () => {
  let app: TestApp;
  let token: string;
  let otherToken: string;

  beforeAll(async () => {
    app = await createTestApp();
    const { mine, theirs } = await twoMerchants(app, 'Checkout Merchant');
    [token, otherToken] = [mine.token, theirs.token];
    // Signed up in Nigeria: its sessions are in NGN.
    await sql(app, `update merchant set country = 'NG' where id = ?`, [mine.credentials.merchant.id]);
  });
  afterAll(() => app.close());

  it('creates an open session with an unguessable id and the page’s url, in one insert', async () => {
    const body = sessionBody({ expires_in: 600 });
    const res = await createSession(app, token, body);
    expect(res.status).toBe(200);
    const s = res.body.data;
    expect(s).toMatchObject({
      id: expect.stringMatching(SESSION_ID),
      object: 'checkout.session',
      status: 'open',
      amount: 2500,
      currency: 'NGN',
      reference: body.reference,
      customer: { email: 'ada@example.com', phone: '08012345678', name: 'Ada Obi' },
      payment_methods: null,
      redirect_url: 'https://shop.example/orders/1001',
      cancel_url: 'https://shop.example/cart',
      // The merchant's own keys, as sent (not renamed).
      metadata: { order_id: '1001', cartId: 'c-9' },
      payment_link_id: null,
      payment_reference: null,
      attempts: 0,
      completed_at: null,
    });
    expect(s.url).toBe(`${app.url}/checkout/${s.id}`);
    expect(new Date(s.expires_at).getTime() - app.clock.now().getTime()).toBe(600_000);
    // No job row for a session: the sweep expires it.
    const jobs = await sql(app, `select count(*)::int as n from graphile_worker._private_jobs where payload::text like ?`, [`%${s.id}%`]);
    expect(jobs[0].n).toBe(0);
    expect((await getSession(app, token, s.id)).body.data).toEqual(s);
  });

  it('creating a session costs one statement: its INSERT (the merchant’s country is remembered)', async () => {
    await openSession(app, token);
    const seen: string[] = [];
    const original = pg.Client.prototype.query;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const text = typeof args[0] === 'string' ? args[0] : ((args[0] as { text?: string } | undefined)?.text ?? '');
      // Background pollers are not the request's: the job runner's polling and heartbeats, the webhook and
      // settlement pumps' polls (issue 40), and the token-revocation catch-up poll, which may fire while the request
      // is in flight.
      if (!/graphile_worker|job_worker_instance|from token_revocation|webhook_delivery|settlement_due/.test(text))
        seen.push(text.trim().split(/\s+/).slice(0, 3).join(' '));
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    } as never;
    try {
      await openSession(app, token);
    } finally {
      pg.Client.prototype.query = original;
    }
    expect(seen).toEqual(['insert into checkout_session']);
  });

  it('Idempotency-Key: a retry answers the same session, and creates nothing more', async () => {
    const body = sessionBody();
    const headers = { 'idempotency-key': `cs-${body.reference}` };
    const first = await request(app.url, 'POST', '/v1/checkout/sessions', { token, body, headers });
    const again = await request(app.url, 'POST', '/v1/checkout/sessions', { token, body, headers });
    expect(again.status).toBe(200);
    expect(again.body.data.id).toBe(first.body.data.id);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  it('defaults to an hour', async () => {
    const s = await openSession(app, token);
    expect(new Date(s.expires_at).getTime() - app.clock.now().getTime()).toBe(3_600_000);
  });

  it('refuses a reference used by another session (409 naming reference)', async () => {
    const body = sessionBody();
    expect((await createSession(app, token, body)).status).toBe(200);
    const again = await createSession(app, token, body);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'DUPLICATE_REQUEST', details: [{ field: 'reference' }] });
    // Another merchant may use it.
    expect((await createSession(app, otherToken, body)).status).toBe(200);
  });

  it.each([
    ['amount', { amount: '25.001' }],
    ['amount', { amount: -5 }],
    ['amount', { amount: 'ten' }],
    ['currency', { currency: 'KES' }],
    ['currency', { currency: 'ngn' }],
    ['reference', { reference: 'x'.repeat(61) }],
    ['reference', { reference: 'has space' }],
    ['reference', { reference: undefined }],
    ['customer', { customer: undefined }],
    ['customer.email', { customer: { email: 'not-an-email' } }],
    ['customer.phone', { customer: { email: 'a@b.co', phone: 'call me' } }],
    ['customer.name', { customer: { email: 'a@b.co', name: '' } }],
    ['payment_methods', { payment_methods: ['cash'] }],
    ['payment_methods', { payment_methods: [] }],
    ['payment_methods', { payment_methods: 'card' }],
    ['redirect_url', { redirect_url: 'javascript:alert(1)' }],
    ['redirect_url', { redirect_url: 'https://user:pw@shop.example/' }],
    ['redirect_url', { redirect_url: undefined }],
    ['cancel_url', { cancel_url: '/relative' }],
    ['metadata', { metadata: { k: 5 } }],
    ['metadata', { metadata: 'text' }],
    ['metadata', { metadata: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, 'v'])) }],
    ['metadata', { metadata: { k: 'v'.repeat(501) } }],
    ['expires_in', { expires_in: 59 }],
    ['expires_in', { expires_in: 86_401 }],
    ['expires_in', { expires_in: 1.5 }],
  ])('refuses junk in %s (400 naming it)', async (field, overrides) => {
    const res = await createSession(app, token, sessionBody(overrides));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INVALID_REQUEST');
    expect(res.body.details.map((d: { field: string }) => d.field.split('.').slice(0, field.split('.').length).join('.'))).toContain(field);
  });

  it('the page offers the methods the session allows and the country serves, mobile money first', async () => {
    const all = await openSession(app, token);
    const page = await app.service.app.services.checkout.pageView(all.id);
    expect(page).toMatchObject({ status: 'open', merchantName: 'Checkout Merchant', amount: '2500.00', currency: 'NGN', countryCode: 'NG', attempt: null });
    expect(page!.methods).toEqual(['momo', 'card', 'bank_transfer']);
    expect(page!.networks.length).toBeGreaterThan(0);
    const some = await openSession(app, token, { payment_methods: ['bank_transfer', 'card'] });
    expect((await app.service.app.services.checkout.pageView(some.id))!.methods).toEqual(['card', 'bank_transfer']);
    expect(await app.service.app.services.checkout.pageView(`cs_${'Z'.repeat(24)}`)).toBeNull();
  });

  it('answers another merchant’s session and a forged id alike: 404', async () => {
    const s = await openSession(app, token);
    const theirs = await getSession(app, otherToken, s.id);
    expect(theirs.status).toBe(404);
    const forged = await getSession(app, token, `cs_${'A'.repeat(24)}`);
    expect(forged.status).toBe(404);
    expect(forged.body).toEqual(theirs.body);
    expect((await getSession(app, token, 'junk')).body).toEqual(theirs.body);
  });

  it('a paid session completes: status, payment reference, and the payment names its session', async () => {
    const s = await openSession(app, token);
    const attempt = await payOnPage(app, s.id);
    expect(attempt).toMatchObject({ reference: expect.stringMatching(/^pay_/), method: 'card', status: 'successful', cardLast4: '4242' });
    const [txn] = await sql(app, 'select external_reference, checkout_session_id from "transaction" where reference = ?', [attempt.reference]);
    expect(txn).toEqual({ external_reference: `${s.reference}-1`, checkout_session_id: s.id });
  });
});

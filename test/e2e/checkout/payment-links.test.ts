import { RequestContext } from '@mikro-orm/core';
import { createLink, getSession, payOnPage, paymentLinkBody } from '../../helpers/checkout';
import { twoMerchants } from '../../helpers/factories';
import { graphql, request } from '../../helpers/http';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { sql } from '../../helpers/transactions';
import { eventually } from '../../helpers/wait';

const LINK_ID = /^plink_[A-Za-z0-9_-]{24}$/;

describe('REST /v1/payment-links', () => {
  let app: TestApp;
  let token: string;
  let otherToken: string;

  beforeAll(async () => {
    app = await createTestApp();
    const { mine, theirs } = await twoMerchants(app, 'Link Merchant');
    [token, otherToken] = [mine.token, theirs.token];
  });
  afterAll(() => app.close());

  const links = () => app.service.app.services.paymentLinks;
  const open = (slug: string, input: Parameters<ReturnType<typeof links>['open']>[1]) =>
    RequestContext.create(app.service.orm.em, () => links().open(slug, input));
  const made = async (overrides: Record<string, unknown> = {}) => {
    const res = await createLink(app, token, paymentLinkBody(overrides));
    if (res.status !== 200) throw new Error(`create failed: ${res.status} ${res.text}`);
    return res.body.data;
  };

  it('creates a link with a generated slug, its url and QR code; email is always collected; the creation is audited', async () => {
    const res = await createLink(app, token, paymentLinkBody({ amount: '2500.00', description: 'Ticket', collect: ['phone'] }));
    expect(res.status).toBe(200);
    const link = res.body.data;
    expect(link).toMatchObject({
      id: expect.stringMatching(LINK_ID),
      object: 'payment_link',
      slug: expect.stringMatching(/^[a-z2-7]{8}$/),
      name: 'Donation',
      active: true,
      amount: 2500,
      currency: 'NGN',
      collect: ['email', 'phone'],
      min_amount: null,
      max_amount: null,
      payments_count: 0,
    });
    expect(link.url).toBe(`${app.url}/pay/${link.slug}`);
    expect(link.qr_svg).toMatch(/^<svg/);
    expect((await request(app.url, 'GET', `/v1/payment-links/${link.id}`, { token })).body.data).toEqual(link);
    const audit = await sql(app, `select action, target_id from audit_log where target_id = ?`, [link.id]);
    expect(audit).toEqual([{ action: 'payment_link.created', target_id: link.id }]);
  });

  it('a taken slug is a 409 naming slug', async () => {
    await made({ slug: 'spring-sale' });
    const again = await createLink(app, otherToken, paymentLinkBody({ slug: 'spring-sale' }));
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'DUPLICATE_REQUEST', details: [{ field: 'slug' }] });
  });

  it.each([
    ['name', { name: '' }],
    ['name', { name: undefined }],
    ['amount', { amount: '1.001' }],
    ['currency', { currency: 'XYZ' }],
    ['slug', { slug: 'Has Caps' }],
    ['slug', { slug: 'ab' }],
    ['slug', { slug: '-lead' }],
    ['payment_methods', { payment_methods: ['cheque'] }],
    ['collect', { collect: ['address'] }],
    ['min_amount', { amount: '10', min_amount: '5' }],
    ['max_amount', { min_amount: '100', max_amount: '50' }],
    ['max_payments', { max_payments: 0 }],
    ['expires_at', { expires_at: 'tomorrow' }],
    ['expires_at', { expires_at: '2001-01-01T00:00:00Z' }],
    ['redirect_url', { redirect_url: 'javascript:x' }],
    ['description', { description: '' }],
  ])('refuses junk in %s (400 naming it)', async (field, overrides) => {
    const res = await createLink(app, token, paymentLinkBody(overrides));
    expect(res.status).toBe(400);
    // An element of a list is named by its index (payment_methods.0).
    expect(res.body.details.map((d: { field: string }) => d.field.replace(/\.\d+$/, ''))).toContain(field);
  });

  it('opens a session per visit, with the fixed amount; the link’s sessions and payments are counted', async () => {
    const link = await made({ amount: '2500.00', redirect_url: 'https://shop.example/thanks' });
    const first = await open(link.slug, { email: 'payer@example.com' });
    const second = await open(link.slug, { email: 'other@example.com', amount: '2500' });
    expect(first.sessionId).not.toBe(second.sessionId);
    const session = (await getSession(app, token, first.sessionId)).body.data;
    expect(session).toMatchObject({
      status: 'open',
      amount: 2500,
      reference: `plink-${link.slug}-1`,
      payment_link_id: link.id,
      redirect_url: 'https://shop.example/thanks',
      customer: { email: 'payer@example.com' },
    });
    expect(first.url).toBe(session.url);
    await expect(open(link.slug, { email: 'p@example.com', amount: '100' })).rejects.toMatchObject({ code: 'INVALID_REQUEST', details: [{ field: 'amount' }] });
    const paid = await payOnPage(app, first.sessionId);
    // The link's payments: the transactions list filtered by the link (REST and GraphQL); another merchant's filter finds none.
    const listed = await request(app.url, 'GET', `/v1/transactions?payment_link_id=${link.id}`, { token });
    expect(listed.body.data.map((t: { reference: string }) => t.reference)).toEqual([paid.reference]);
    const viaGraphql = await graphql(app.url, 'query($l: String) { transactions(filter: { paymentLinkId: $l }) { edges { node { reference } } } }', {
      token,
      variables: { l: link.id },
    });
    expect(viaGraphql.body.data.transactions.edges).toEqual([{ node: { reference: paid.reference } }]);
    expect((await request(app.url, 'GET', `/v1/transactions?payment_link_id=${link.id}`, { token: otherToken })).body.data).toEqual([]);
    expect((await request(app.url, 'GET', '/v1/transactions?payment_link_id=junk', { token })).body.details).toEqual([
      { field: 'payment_link_id', issue: expect.any(String) },
    ]);
    expect(await eventually(async () => (await request(app.url, 'GET', `/v1/payment-links/${link.id}`, { token })).body.data.payments_count === 1)).toBe(true);
  });

  it('an open amount: within the bounds, or refused naming amount; without a redirect the payer returns to the checkout page', async () => {
    const link = await made({ min_amount: '500', max_amount: '10000' });
    const view = await links().pageView(link.slug);
    expect(view).toMatchObject({
      state: 'active',
      amount: null,
      minAmount: '500.00',
      maxAmount: '10000.00',
      collect: ['email'],
      merchantName: 'Link Merchant',
    });
    const ok = await open(link.slug, { email: 'p@example.com', amount: '750.50' });
    const session = (await getSession(app, token, ok.sessionId)).body.data;
    expect(session).toMatchObject({ amount: 750.5, redirect_url: ok.url });
    for (const amount of ['499.99', '10000.01', undefined]) {
      await expect(open(link.slug, { email: 'p@example.com', amount })).rejects.toMatchObject({ details: [{ field: 'amount' }] });
    }
    await expect(open(link.slug, { email: 'nope', amount: '600' })).rejects.toMatchObject({ details: [{ field: 'email' }] });
  });

  it('deactivated: the page says so and no session opens; audited; deactivating twice changes nothing', async () => {
    const link = await made();
    const res = await request(app.url, 'POST', `/v1/payment-links/${link.id}/deactivate`, { token });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ active: false, deactivated_at: expect.any(String) });
    expect((await links().pageView(link.slug))!.state).toBe('inactive');
    await expect(open(link.slug, { email: 'p@example.com', amount: '600' })).rejects.toMatchObject({ code: 'INVALID_STATE' });
    expect((await request(app.url, 'POST', `/v1/payment-links/${link.id}/deactivate`, { token })).body.data).toEqual(res.body.data);
    const audit = await sql(app, `select action from audit_log where target_id = ? order by created_at`, [link.id]);
    expect(audit.map((a: { action: string }) => a.action)).toEqual(['payment_link.created', 'payment_link.deactivated']);
  });

  it('max_payments reached: used up, refused', async () => {
    const link = await made({ amount: '100', max_payments: 1 });
    const { sessionId } = await open(link.slug, { email: 'p@example.com' });
    await payOnPage(app, sessionId);
    expect(await eventually(async () => (await links().pageView(link.slug))!.state === 'used_up')).toBe(true);
    await expect(open(link.slug, { email: 'p@example.com' })).rejects.toMatchObject({ code: 'INVALID_STATE' });
  });

  it('expired: the page says so', async () => {
    const link = await made({ expires_at: new Date(app.clock.now().getTime() + 60_000).toISOString() });
    app.clock.advance(60_000);
    expect((await links().pageView(link.slug))!.state).toBe('expired');
    await expect(open(link.slug, { email: 'p@example.com', amount: '600' })).rejects.toMatchObject({ code: 'INVALID_STATE' });
  });

  it('a forged slug or id: null page, 404; another merchant’s link is 404 and absent from its list', async () => {
    const link = await made();
    expect(await links().pageView('no-such-link')).toBeNull();
    expect(await links().pageView('../etc')).toBeNull();
    await expect(open('no-such-link', { email: 'p@example.com' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const theirs = await request(app.url, 'GET', `/v1/payment-links/${link.id}`, { token: otherToken });
    expect(theirs.status).toBe(404);
    expect((await request(app.url, 'POST', `/v1/payment-links/${link.id}/deactivate`, { token: otherToken })).status).toBe(404);
    expect((await request(app.url, 'GET', `/v1/payment-links/plink_${'A'.repeat(24)}`, { token })).body).toEqual(theirs.body);
    const list = await request(app.url, 'GET', '/v1/payment-links?limit=100', { token: otherToken });
    expect(list.body.data.map((l: { id: string }) => l.id)).not.toContain(link.id);
  });

  it('lists newest first with a cursor', async () => {
    // The service's clock stands still in tests: each link one second after everything before it (the earlier
    // tests' links included), so that newest-first has one answer.
    app.clock.advance(1_000);
    const a = await made();
    app.clock.advance(1_000);
    const b = await made();
    const page = await request(app.url, 'GET', '/v1/payment-links?limit=1', { token });
    expect(page.body.data.map((l: { id: string }) => l.id)).toEqual([b.id]);
    expect(page.body.meta).toMatchObject({ count: 1, has_more: true });
    const next = await request(app.url, 'GET', `/v1/payment-links?limit=1&after=${page.body.meta.next_cursor}`, { token });
    expect(next.body.data.map((l: { id: string }) => l.id)).toEqual([a.id]);
    expect((await request(app.url, 'GET', '/v1/payment-links?after=junk', { token })).status).toBe(400);
  });
});

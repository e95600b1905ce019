import { createLink, openSession, paymentLinkBody, sessionInput } from '../../helpers/checkout';
import { twoMerchants } from '../../helpers/factories';
import { graphql } from '../../helpers/http';
import { createTestApp, type TestApp } from '../../helpers/test-app';

const SESSION_FIELDS = `id url status amount currency reference customer { email phone name } paymentMethods redirectUrl cancelUrl metadata
  paymentLinkId paymentReference attempts expiresAt createdAt completedAt expiredAt`;
const CREATE = `mutation($input: CreateCheckoutSessionInput!) { createCheckoutSession(input: $input) { ${SESSION_FIELDS} } }`;
const SESSION = `query($id: ID!) { checkoutSession(id: $id) { ${SESSION_FIELDS} } }`;
const LINK_FIELDS = 'id url qrSvg slug name active amount currency collect minAmount maxAmount maxPayments paymentsCount';
const CREATE_LINK = `mutation($input: CreatePaymentLinkInput!) { createPaymentLink(input: $input) { ${LINK_FIELDS} } }`;
const LINK = `query($id: ID!) { paymentLink(id: $id) { ${LINK_FIELDS} } }`;
const LINKS = `query($first: Int, $after: String) { paymentLinks(first: $first, after: $after) { edges { cursor node { id slug } } pageInfo { hasNextPage endCursor } } }`;
const DEACTIVATE = `mutation($id: ID!) { deactivatePaymentLink(id: $id) { id active } }`;

describe('GraphQL checkout sessions and payment links', () => {
  let app: TestApp;
  let token: string;
  let otherToken: string;

  beforeAll(async () => {
    app = await createTestApp();
    const { mine, theirs } = await twoMerchants(app, 'GraphQL Checkout');
    [token, otherToken] = [mine.token, theirs.token];
  });
  afterAll(() => app.close());

  it('createCheckoutSession and checkoutSession', async () => {
    const input = sessionInput({ paymentMethods: ['CARD'], expiresIn: 120 });
    const res = await graphql(app.url, CREATE, { token, variables: { input } });
    expect(res.body.errors).toBeUndefined();
    const s = res.body.data.createCheckoutSession;
    expect(s).toMatchObject({
      id: expect.stringMatching(/^cs_/),
      status: 'OPEN',
      amount: '2500.00',
      currency: 'NGN',
      reference: input.reference,
      customer: { email: 'ada@example.com', phone: null, name: 'Ada Obi' },
      paymentMethods: ['CARD'],
      metadata: { order_id: '1001' },
      paymentReference: null,
      attempts: 0,
    });
    expect(s.url).toBe(`${app.url}/checkout/${s.id}`);
    const read = await graphql(app.url, SESSION, { token, variables: { id: s.id } });
    expect(read.body.data.checkoutSession).toEqual(s);
    // The same session through REST.
    const rest = await openSession(app, token);
    const viaGraphql = await graphql(app.url, SESSION, { token, variables: { id: rest.id } });
    expect(viaGraphql.body.data.checkoutSession.amount).toBe('2500.00');
  });

  it.each([
    ['amount', { amount: '1.001' }],
    ['currency', { currency: 'ngn' }],
    ['reference', { reference: 'r'.repeat(61) }],
    ['customer.email', { customer: { email: 'nope' } }],
    ['redirectUrl', { redirectUrl: 'ftp://x.example/' }],
    ['cancelUrl', { cancelUrl: 'nope' }],
    ['metadata', { metadata: { nested: { a: 'b' } } }],
    ['expiresIn', { expiresIn: 10 }],
  ])('refuses junk in %s, naming it', async (field, overrides) => {
    const res = await graphql(app.url, CREATE, { token, variables: { input: sessionInput(overrides) } });
    expect(res.body.errors?.[0]?.extensions).toMatchObject({ code: 'INVALID_REQUEST' });
    expect(res.body.errors![0]!.extensions!.details.map((d: { field: string }) => d.field)).toContainEqual(expect.stringMatching(new RegExp(`^${field}`)));
  });

  it('another merchant’s session, or a forged id: NOT_FOUND alike', async () => {
    const s = await openSession(app, token);
    const theirs = await graphql(app.url, SESSION, { token: otherToken, variables: { id: s.id } });
    const forged = await graphql(app.url, SESSION, { token, variables: { id: `cs_${'x'.repeat(24)}` } });
    expect(theirs.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect(forged.body.errors?.[0]?.message).toBe(theirs.body.errors?.[0]?.message);
  });

  it('payment links: create, read, list, deactivate; another merchant’s is NOT_FOUND', async () => {
    const created = await graphql(app.url, CREATE_LINK, {
      token,
      variables: { input: { name: 'Tip jar', currency: 'NGN', minAmount: '100', maxAmount: '5000', collect: ['NAME'] } },
    });
    expect(created.body.errors).toBeUndefined();
    const link = created.body.data.createPaymentLink;
    expect(link).toMatchObject({ active: true, amount: null, minAmount: '100.00', maxAmount: '5000.00', collect: ['EMAIL', 'NAME'], paymentsCount: 0 });
    expect(link.qrSvg).toMatch(/^<svg/);
    expect(link.url).toBe(`${app.url}/pay/${link.slug}`);
    expect((await graphql(app.url, LINK, { token, variables: { id: link.id } })).body.data.paymentLink).toEqual(link);
    expect((await graphql(app.url, LINK, { token: otherToken, variables: { id: link.id } })).body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect((await graphql(app.url, DEACTIVATE, { token: otherToken, variables: { id: link.id } })).body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    app.clock.advance(1_000); // newest first has one answer
    await createLink(app, token, paymentLinkBody({ amount: '50.00' }));
    const first = await graphql(app.url, LINKS, { token, variables: { first: 1 } });
    expect(first.body.data.paymentLinks.edges).toHaveLength(1);
    expect(first.body.data.paymentLinks.pageInfo.hasNextPage).toBe(true);
    const next = await graphql(app.url, LINKS, { token, variables: { first: 5, after: first.body.data.paymentLinks.pageInfo.endCursor } });
    expect(next.body.data.paymentLinks.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual([link.id]);
    expect((await graphql(app.url, LINKS, { token: otherToken })).body.data.paymentLinks.edges).toEqual([]);
    const off = await graphql(app.url, DEACTIVATE, { token, variables: { id: link.id } });
    expect(off.body.data.deactivatePaymentLink).toEqual({ id: link.id, active: false });
  });
});

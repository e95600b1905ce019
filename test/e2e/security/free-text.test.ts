import { encodeCursor } from '../../../src/shared/pagination';
import { approvedCustomer, awaitKycDecision, enroll, enrollBody, enrollInput, kycBody } from '../../helpers/factories';
import { graphql, request } from '../../helpers/http';
import { CARDS, cardPaymentBody, cardPaymentInput, initiatePayment } from '../../helpers/payments';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { momoCollectionBody, newReference, sql, transferBody } from '../../helpers/transactions';

/**
 * Issue 18, points 4 and 5: free text that holds a card number is refused on every stored
 * field (it would sit in the row, the outbox and the signed webhook), without echoing it;
 * and lenient validation is gone: empty strings, blank text, crafted cursors and `1e2`
 * are each a 400 that names the field, and change nothing.
 */

let app: TestApp;
let token: string;
let customerUuid: string;

const tableCounts = async () =>
  (
    await sql(
      app,
      `select (select count(*) from transaction)::int as t, (select count(*) from outbox_event)::int as o, (select count(*) from customer)::int as c`,
    )
  )[0];

beforeAll(async () => {
  app = await createTestApp();
  const merchant = await app.createMerchant('Free Text');
  token = (await app.token(merchant)).accessToken;
  customerUuid = (await approvedCustomer(app, token)).customer_uuid;
});

afterAll(async () => {
  await app?.close();
});

/** A 400 INVALID_REQUEST naming exactly `field` with `issue`, that does not quote `secret`, and changed nothing. */
async function expectRefused(send: () => Promise<{ status: number; body: any; text: string }>, field: string, issue: string | RegExp, secret?: string) {
  const before = await tableCounts();
  const res = await send();
  expect({ status: res.status, code: res.body?.code }).toEqual({ status: 400, code: 'INVALID_REQUEST' });
  expect(res.body.details).toEqual([{ field, issue: expect.stringMatching(issue) }]);
  expect(res.body.message).toContain(field);
  if (secret) expect(res.text).not.toContain(secret);
  expect(await tableCounts()).toEqual(before);
}

const NO_CARD = /^must not contain a card number$/;
const card = CARDS.success;

describe('point 4: a card number in stored free text is refused, naming the field, never echoed', () => {
  it.each([
    ['description', { description: `card ${card}` }],
    ['description', { description: '4242 4242 4242 4242 exp 12/30' }],
    ['reference', { reference: card }],
    ['reference', { reference: `order-${CARDS.other}` }],
    ['redirect_url', { redirect_url: `https://shop.example/return?pan=${card}` }],
  ])('payment %s', async (field, overrides) => {
    await expectRefused(() => initiatePayment(app, token, cardPaymentBody(overrides)), field, NO_CARD, card);
  });

  it('collection reason, transfer account name and reference', async () => {
    await expectRefused(
      () => request(app.url, 'POST', '/v1/crossborder/global-collection', { token, body: momoCollectionBody(customerUuid, { reason: `paid with ${card}` }) }),
      'reason',
      NO_CARD,
      card,
    );
    await expectRefused(
      () => request(app.url, 'POST', '/v1/crossborder/global-transfer', { token, body: transferBody(customerUuid, { account_name: `J Doe ${card}` }) }),
      'account_name',
      NO_CARD,
      card,
    );
    await expectRefused(
      () => request(app.url, 'POST', '/v1/crossborder/global-transfer', { token, body: transferBody(customerUuid, { reference: card }) }),
      'reference',
      NO_CARD,
      card,
    );
  });

  it('customer and KYC text', async () => {
    await expectRefused(() => request(app.url, 'POST', '/v1/customer/enroll', { token, body: enrollBody({ customerid: card }) }), 'customerid', NO_CARD, card);
    await expectRefused(
      () => request(app.url, 'POST', '/v1/customer/enroll', { token, body: enrollBody({ last_name: `X ${card}` }) }),
      'last_name',
      NO_CARD,
      card,
    );
    const customer = await enroll(app, token);
    await expectRefused(
      () =>
        request(app.url, 'POST', `/v1/customer/${customer.customer_uuid}/kyc`, {
          token,
          body: kycBody({ address: { line1: `${card} Moi Avenue`, city: 'Nairobi', country_code: 'KE' } }),
        }),
      'address.line1',
      NO_CARD,
      card,
    );
  });

  it('GraphQL: the same refusal, with the same code', async () => {
    const before = await tableCounts();
    const res = await graphql(
      app.url,
      `
        mutation ($input: InitiatePaymentInput!) {
          initiatePayment(input: $input) {
            reference
          }
        }
      `,
      {
        token,
        variables: { input: cardPaymentInput({ description: `card ${card}` }) },
      },
    );
    expect(res.body.errors?.[0]?.extensions).toMatchObject({
      code: 'INVALID_REQUEST',
      details: [{ field: 'description', issue: 'must not contain a card number' }],
    });
    expect(res.text).not.toContain(card);
    const enrolled = await graphql(
      app.url,
      `
        mutation ($input: EnrollCustomerInput!) {
          enrollCustomer(input: $input) {
            customerUuid
          }
        }
      `,
      {
        token,
        variables: { input: enrollInput({ first_name: card }) },
      },
    );
    expect(enrolled.body.errors?.[0]?.extensions).toMatchObject({
      code: 'INVALID_REQUEST',
      details: [{ field: 'firstName', issue: 'must not contain a card number' }],
    });
    expect(enrolled.text).not.toContain(card);
    expect(await tableCounts()).toEqual(before);
  });

  it('identifiers that are digits by nature are not free text: a 13-digit identity number with a Luhn check digit is accepted', async () => {
    // A South African identity number: 13 digits, the last a Luhn check digit.
    const customer = await enroll(app, token);
    const res = await request(app.url, 'POST', `/v1/customer/${customer.customer_uuid}/kyc`, { token, body: kycBody({ id_number: '8001015009087' }) });
    expect(res.status).toBe(200);
    // Its decision writes an event: waited for here, so no later test sees it arrive mid-check.
    expect((await awaitKycDecision(app, token, customer.customer_uuid)).kyc_status).toBe('approved');
  });

  it('a timestamped reference is not a card number', async () => {
    const res = await initiatePayment(app, token, cardPaymentBody({ reference: `ORD-${Date.now()}-000123` }));
    expect(res.status).toBe(200);
  });
});

describe('point 5: lenient validation is a 400 naming the field', () => {
  it.each([
    ['customer_uuid', { customer_uuid: '' }, /^must not be empty/],
    ['customer_uuid', { customer_uuid: '   ' }, /^must not be empty/],
    ['description', { description: '' }, /^must not be empty/],
    ['description', { description: ' \t ' }, /^must not be empty/],
    ['card.postal_code', { card: { postal_code: '' } }, /^must not be empty/],
    ['card.postal_code', { card: { postal_code: '   ' } }, /^must not be empty/],
  ])('payment %s = %j', async (field, overrides, issue) => {
    await expectRefused(() => initiatePayment(app, token, cardPaymentBody({ reference: newReference('lenient'), ...overrides })), field, issue);
  });

  it('KYC address.postal_code empty', async () => {
    const customer = await enroll(app, token);
    await expectRefused(
      () =>
        request(app.url, 'POST', `/v1/customer/${customer.customer_uuid}/kyc`, {
          token,
          body: kycBody({ address: { line1: '12 Moi Avenue', city: 'Nairobi', country_code: 'KE', postal_code: '' } }),
        }),
      'address.postal_code',
      /^must not be empty/,
    );
  });

  it('the webhook-events cursor takes only an event id', async () => {
    const crafted = encodeCursor(new Date('2026-11-22T12:00:00Z'), 'not-a-uuid');
    await expectRefused(() => request(app.url, 'GET', `/v1/webhooks/events?after=${crafted}`, { token }), 'after', /is not a valid cursor/);
    const anyString = await request(app.url, 'GET', '/v1/webhooks/events?after=not-a-uuid', { token });
    expect({ status: anyString.status, field: anyString.body.details?.[0]?.field }).toEqual({ status: 400, field: 'after' });
    // A real page's cursor still works (two payments make two events, so there is a next page).
    for (let i = 0; i < 2; i++) expect((await initiatePayment(app, token, cardPaymentBody())).status).toBe(200);
    const page = await request(app.url, 'GET', '/v1/webhooks/events?limit=1', { token });
    expect(page.body.meta.next_cursor).toEqual(expect.any(String));
    const next = await request(app.url, 'GET', `/v1/webhooks/events?limit=1&after=${page.body.meta.next_cursor}`, { token });
    expect(next.status).toBe(200);
    expect(next.body.data[0].id).not.toBe(page.body.data[0].id);
  });

  it.each(['/v1/webhooks/events', '/v1/transactions', '/v1/customers'])('limit=1e2 on %s is not read as 100', async (path) => {
    for (const limit of ['1e2', '0x10', '10.0', ' ', '1_0']) {
      const res = await request(app.url, 'GET', `${path}?limit=${encodeURIComponent(limit)}`, { token });
      expect({ limit, status: res.status, field: res.body.details?.[0]?.field }).toEqual({ limit, status: 400, field: 'limit' });
    }
    expect((await request(app.url, 'GET', `${path}?limit=100`, { token })).status).toBe(200);
  });
});

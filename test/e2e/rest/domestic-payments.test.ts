import { graphql, request } from '../../helpers/http';
import { enroll, twoMerchants } from '../../helpers/factories';
import { initiatePayment, verifyPayment } from '../../helpers/payments';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { momoCollectionBody, newReference, outboxRows, transactionCount } from '../../helpers/transactions';
import { eventually } from '../../helpers/wait';

/**
 * Issue 37, part 1: a payer in the merchant's own country pays by mobile money or bank transfer through
 * POST /v1/payments/initiate, with no customer and no KYC; the cross-border rules stay as they were.
 */

const momo = (overrides: Record<string, unknown> = {}) => ({
  reference: newReference('dm'),
  amount: '25.00',
  currency: 'GHS',
  payment_method: 'momo',
  phone: '+233 24 123 4567',
  ...overrides,
});
const bank = (overrides: Record<string, unknown> = {}) => ({
  reference: newReference('db'),
  amount: '15000.00',
  currency: 'NGN',
  payment_method: 'bank_transfer',
  ...overrides,
});

describe('domestic payments by mobile money and bank transfer', () => {
  let app: TestApp;
  let token: string;
  let otherToken: string;

  beforeAll(async () => {
    app = await createTestApp({ env: { SANDBOX_SETTLE_MS: '100' } });
    const { mine, theirs } = await twoMerchants(app, 'Domestic Merchant');
    [token, otherToken] = [mine.token, theirs.token];
  });
  afterAll(() => app.close());

  const settled = async (reference: string, status: string) => {
    let data: any;
    const done = await eventually(async () => {
      data = (await verifyPayment(app, token, reference)).body.data;
      return data?.status === status;
    });
    expect(done).toBe(true);
    return data;
  };

  it('momo: a prompt to the payer’s phone, no customer or KYC; the network is told from the prefix; the sandbox approves', async () => {
    const body = momo({ network: undefined });
    const res = await initiatePayment(app, token, body);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'success', message: expect.stringContaining('approves it on their phone') });
    expect(res.body.data).toMatchObject({
      reference: expect.stringMatching(/^pay_/),
      external_reference: body.reference,
      type: 'payment',
      status: 'processing',
      payment_method: 'momo',
      card: null,
      country_code: 'GH',
      network_id: 'gh_mtn_momo',
      account_number: '241234567',
      customer_uuid: null,
      checkout_session_id: null,
      amount: 25,
      currency: 'GHS',
    });
    const done = await settled(body.reference, 'successful');
    expect(done).toMatchObject({ status: 'successful', payment_method: 'momo', available_at: expect.any(String) });
    // The merchant's own record, in the statement's books: payment.successful was recorded once.
    expect((await outboxRows(app, res.body.data.reference)).map((r: { type: string }) => r.type)).toContain('payment.successful');
  });

  it('momo: the network may be named by code or id; a wallet ending in 000 is declined by the sandbox', async () => {
    const byCode = await initiatePayment(app, token, momo({ phone: '0201234000', network: 'telecel' }));
    expect(byCode.status).toBe(200);
    expect(byCode.body.data).toMatchObject({ network_id: 'gh_telecel_cash', status: 'processing' });
    expect((await settled(byCode.body.data.external_reference, 'failed')).failure_reason).toBe('payment_declined_by_sender');
    const byId = await initiatePayment(app, token, momo({ network: 'gh_mtn_momo' }));
    expect(byId.body.data.network_id).toBe('gh_mtn_momo');
  });

  it('bank_transfer: an account unique to the payment, held in the merchant’s name, open until expires_at; paid by simulation', async () => {
    const body = bank();
    const res = await initiatePayment(app, token, body);
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(data).toMatchObject({
      status: 'processing',
      payment_method: 'bank_transfer',
      country_code: 'NG',
      bankInfo: { accountName: 'Domestic Merchant', accountNumber: expect.any(String), bankName: expect.any(String) },
      expires_at: expect.any(String),
    });
    expect(new Date(data.expires_at).getTime()).toBeGreaterThan(app.clock.now().getTime());
    const sim = await request(app.url, 'POST', `/v1/sandbox/transactions/${data.reference}/simulate`, { token, body: { outcome: 'successful' } });
    expect(sim.status).toBe(200);
    expect((await verifyPayment(app, token, data.reference)).body.data.status).toBe('successful');
    // Another merchant cannot see it.
    expect((await verifyPayment(app, otherToken, data.reference)).status).toBe(404);
  });

  it('GraphQL: the same payment by MOMO, with no customer', async () => {
    const res = await graphql(
      app.url,
      `
        mutation ($input: InitiatePaymentInput!) {
          initiatePayment(input: $input) {
            reference
            status
            paymentMethod
            countryCode
            networkId
            accountNumber
            card {
              brand
            }
          }
        }
      `,
      {
        token,
        variables: { input: { reference: newReference('gdm'), amount: '10', currency: 'KES', paymentMethod: 'MOMO', phone: '0712345678' } },
      },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.initiatePayment).toMatchObject({
      status: 'PROCESSING',
      paymentMethod: 'MOMO',
      countryCode: 'KE',
      networkId: 'ke_mpesa',
      accountNumber: '712345678',
      card: null,
    });
  });

  it('GraphQL: a BANK_TRANSFER payment with no customer: the account to pay into, paid by simulation', async () => {
    const reference = newReference('gdb');
    const res = await graphql(
      app.url,
      `
        mutation ($input: InitiatePaymentInput!) {
          initiatePayment(input: $input) {
            reference
            externalReference
            status
            paymentMethod
            countryCode
            customerUuid
            checkoutSessionId
            expiresAt
            card {
              brand
            }
            bankInfo {
              accountName
              accountNumber
              bankName
            }
          }
        }
      `,
      { token, variables: { input: { reference, amount: '15000.00', currency: 'NGN', paymentMethod: 'BANK_TRANSFER' } } },
    );
    expect(res.body.errors).toBeUndefined();
    const data = res.body.data.initiatePayment;
    expect(data).toMatchObject({
      externalReference: reference,
      status: 'PROCESSING',
      paymentMethod: 'BANK_TRANSFER',
      countryCode: 'NG',
      customerUuid: null,
      checkoutSessionId: null,
      card: null,
      bankInfo: { accountName: 'Domestic Merchant', accountNumber: expect.any(String), bankName: expect.any(String) },
    });
    expect(new Date(data.expiresAt).getTime()).toBeGreaterThan(app.clock.now().getTime());
    // The same payment over REST; paid by simulation.
    expect((await verifyPayment(app, token, reference)).body.data.bankInfo.accountNumber).toBe(data.bankInfo.accountNumber);
    const sim = await request(app.url, 'POST', `/v1/sandbox/transactions/${data.reference}/simulate`, { token, body: { outcome: 'successful' } });
    expect(sim.status).toBe(200);
    expect((await settled(reference, 'successful')).payment_method).toBe('bank_transfer');
  });

  it('momo: a number whose prefix says nothing, in a country of several networks, must name its network', async () => {
    const res = await initiatePayment(app, token, momo({ phone: '0302123456' }));
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([{ field: 'network', issue: expect.stringContaining('could not be told from its prefix') }]);
  });

  it.each([
    ['momo without a phone', momo({ phone: undefined }), 'phone'],
    ['momo with a card', momo({ card: { number: '4242424242424242', exp_month: 12, exp_year: 2031, cvc: '123' } }), 'card'],
    ['bank_transfer with a phone', bank({ phone: '0801234567' }), 'phone'],
    ['card with a network', { ...momo(), payment_method: 'card', phone: undefined, network: 'MTN' }, 'network'],
    ['a phone that is not a number of the country', momo({ phone: '+254712345678' }), 'phone'],
    ['a network of another country', momo({ network: 'ke_mpesa' }), 'network'],
    ['a currency shared by several countries, with no country_code', momo({ currency: 'XOF', amount: '500' }), 'country_code'],
    ['a country_code whose currency is not the payment’s', momo({ country_code: 'KE' }), 'currency'],
    ['a phone as a number', momo({ phone: 233241234567 }), 'phone'],
    ['a network as junk', momo({ network: { $ne: 1 } }), 'network'],
    ['an amount below the channel’s minimum', bank({ amount: '1.00' }), 'amount'],
  ])('%s is 400 naming the field; nothing is written', async (_name, body, field) => {
    const before = await transactionCount(app);
    const res = await initiatePayment(app, token, body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 'error', code: 'INVALID_REQUEST' });
    expect(res.body.details).toEqual(expect.arrayContaining([{ field, issue: expect.any(String) }]));
    expect(await transactionCount(app)).toBe(before);
  });

  it('a cross-border collection still requires an approved customer', async () => {
    const customer = await enroll(app, token);
    const res = await request(app.url, 'POST', '/v1/crossborder/global-collection', { token, body: momoCollectionBody(customer.customer_uuid) });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('KYC_REQUIRED');
  });
});

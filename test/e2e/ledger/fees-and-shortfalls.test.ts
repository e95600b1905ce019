import type { MerchantCredentials } from '../../../src/modules/merchants/merchant.service';
import { approvedCustomer } from '../../helpers/factories';
import { graphql, request } from '../../helpers/http';
import { CARDS, cardPaymentBody, initiatePayment } from '../../helpers/payments';
import { personOf } from '../../helpers/people';
import { startReceiver, type Receiver } from '../../helpers/receiver';
import { TEST_ADMIN_KEY, createTestApp, type TestApp } from '../../helpers/test-app';
import { getTransaction, momoCollectionBody, momoTransferInput, transferBody } from '../../helpers/transactions';
import { eventually } from '../../helpers/wait';
import { FAST_WEBHOOKS, setEndpoint, verifyDelivery } from '../../helpers/webhooks';

/**
 * Issue 41, point 6: a failed (or expired) transaction shows no fee, since none was charged: on its record (REST and
 * GraphQL), in its webhook, as the books say; and a 402 says the shortfall (available, needed, missing) on both doors.
 */

let app: TestApp;
const receivers: Receiver[] = [];

beforeAll(async () => {
  // Settlement decided by simulate; no payout runs but the tests' own.
  app = await createTestApp({
    env: { ...FAST_WEBHOOKS, SANDBOX_SETTLE_MS: '600000', SANDBOX_OPENING_BALANCE: '1000000', PAYOUT_RUN_INTERVAL_S: '0' },
  });
}, 60_000);
afterAll(async () => {
  for (const r of receivers) await r.close();
  await app?.close();
});

const admin = (method: string, path: string, body?: unknown) => request(app.url, method, path, { token: TEST_ADMIN_KEY, body });
const simulate = (token: string, reference: string, outcome: 'successful' | 'failed') =>
  request(app.url, 'POST', `/v1/sandbox/transactions/${reference}/simulate`, { token, body: { outcome } });

/** A merchant whose webhooks reach a receiver of the test's. */
async function merchantWithReceiver(name: string): Promise<{ merchant: MerchantCredentials; token: string; receiver: Receiver }> {
  const receiver = await startReceiver(() => 200);
  receivers.push(receiver);
  const merchant = await app.createMerchant(name);
  const { accessToken: token } = await app.token(merchant);
  await setEndpoint(app.url, token, receiver.url);
  return { merchant, token, receiver };
}

/** The body of the webhook of `type` about `reference`, once it has arrived, verified with the merchant's secret. */
async function webhookOf(receiver: Receiver, merchant: MerchantCredentials, type: string, reference: string): Promise<any> {
  let found: any;
  const arrived = await eventually(async () => {
    found = receiver.received
      .map((r) => verifyDelivery(merchant.webhookSecret, r))
      .find((body) => body.type === type && (body.data.reference === reference || body.data.transaction_reference === reference));
    return found !== undefined;
  });
  if (!arrived) throw new Error(`no ${type} webhook about ${reference}`);
  return found;
}

const GQL_TRANSACTION = '($r: String!) { transaction(reference: $r) { status fee counterparty { name account } } }';

describe('a failed or expired transaction charged no fee, and every record of it says so', () => {
  it('a failed transfer: fee 0 on its REST record, its GraphQL record and its transfer.failed webhook; the books gave the fee back', async () => {
    const { merchant, token, receiver } = await merchantWithReceiver('Failed transfer');
    const customerUuid = (await approvedCustomer(app, token)).customer_uuid;
    const made = await request(app.url, 'POST', '/v1/crossborder/global-transfer', { token, body: transferBody(customerUuid, { amount: 100 }) });
    expect(made.status).toBe(200);
    const { reference, external_reference: externalReference } = made.body.data;
    // Open, it shows the fee it will charge (1 % of 100 USD).
    expect(made.body.data.fee).toBe(1);
    expect((await getTransaction(app, token, reference)).body.data).toMatchObject({ status: 'processing', fee: 1 });

    expect((await simulate(token, reference, 'failed')).status).toBe(200);
    const record = (await getTransaction(app, token, reference)).body.data;
    expect(record).toMatchObject({ type: 'transfer', status: 'failed', source_amount: 100, fee: 0 });
    const gql = await graphql(app.url, `query${GQL_TRANSACTION}`, { token, variables: { r: reference } });
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.transaction).toEqual({ status: 'FAILED', fee: '0.00', counterparty: { name: 'Jane Wanjiru', account: '••••5678' } });
    // The webhook carries the status endpoint's record: the same fee 0.
    const hook = await webhookOf(receiver, merchant, 'transfer.failed', reference);
    expect(hook.data.fee).toBe(0);
    expect(hook.data).toEqual(record);
    // The books: held with its fee, given back with it (what fee revenue kept: nothing). Each entry names the merchant's reference.
    const entries = (await request(app.url, 'GET', '/v1/balance-transactions?currency=USD', { token })).body.data.filter(
      (e: any) => e.source_reference === reference,
    );
    expect(entries.map((e: any) => [e.type, e.fee, e.external_reference])).toEqual([
      ['transfer_reversal', -1, externalReference],
      ['transfer', 1, externalReference],
    ]);
  });

  it('a failed collection and a declined card payment show fee 0 on both doors and in their webhooks; a successful payment keeps its fee', async () => {
    const { merchant, token, receiver } = await merchantWithReceiver('Failed money in');
    const customerUuid = (await approvedCustomer(app, token)).customer_uuid;
    const collection = await request(app.url, 'POST', '/v1/crossborder/global-collection', { token, body: momoCollectionBody(customerUuid) });
    expect(collection.body.data).toMatchObject({ status: 'processing', fee: 15 });
    expect((await simulate(token, collection.body.data.reference, 'failed')).status).toBe(200);
    const failedCollection = (await getTransaction(app, token, collection.body.data.reference)).body.data;
    expect(failedCollection).toMatchObject({ status: 'failed', amount: 1500, fee: 0 });
    expect((await webhookOf(receiver, merchant, 'collection.failed', collection.body.data.reference)).data).toEqual(failedCollection);
    const gqlCollection = await graphql(app.url, `query${GQL_TRANSACTION}`, { token, variables: { r: collection.body.data.reference } });
    // A collection's counterparty is its sender: the customer, from its wallet (masked).
    expect(gqlCollection.body.data.transaction).toEqual({ status: 'FAILED', fee: '0.00', counterparty: { name: 'Amina Otieno', account: '••••5678' } });

    const declined = await initiatePayment(app, token, cardPaymentBody({ amount: '2500.00', card: { number: CARDS.insufficientFunds } }));
    expect(declined.body.data).toMatchObject({ status: 'failed', failure_reason: 'insufficient_funds', fee: 0 });
    expect((await webhookOf(receiver, merchant, 'payment.failed', declined.body.data.reference)).data.fee).toBe(0);
    const paid = await initiatePayment(app, token, cardPaymentBody({ amount: '2500.00' }));
    expect(paid.body.data).toMatchObject({ status: 'successful', fee: 37.5 });
    const both = await graphql(
      app.url,
      '{ a: transaction(reference: "' + declined.body.data.reference + '") { fee } b: transaction(reference: "' + paid.body.data.reference + '") { fee } }',
      {
        token,
      },
    );
    expect(both.body.data).toEqual({ a: { fee: '0.00' }, b: { fee: '37.50' } });
  });

  it('a failed payout: its fee 0 on the payout (REST, GraphQL) and in payout.failed; the money and the fee back', async () => {
    const { merchant, token, receiver } = await merchantWithReceiver('Adaeze Okafor');
    const priced = await admin('PUT', `/v1/admin/merchants/${merchant.merchant.id}/fees`, { kind: 'payout', currency: 'NGN', percent: '0', fixed: '10' });
    expect(priced.status).toBe(200);
    const owner = await personOf(app, merchant.merchant.id, 'owner');
    // An account number ending in 000 fails a sandbox payout; its last digit (0) names the holder, Adaeze Okafor.
    const added = await request(app.url, 'POST', '/v1/payout-destinations', {
      token: owner.token,
      body: { country: 'NG', bank_code: '058', account_number: '0123451000' },
    });
    expect(added.status).toBe(201);
    const made = await request(app.url, 'POST', '/v1/payouts', { token: owner.token, body: { currency: 'NGN', amount: '500' } });
    expect(made.status).toBe(201);
    expect(made.body.data).toMatchObject({ amount: 500, fee: 10, status: 'in_transit' });
    expect((await simulate(token, made.body.data.transaction_reference, 'failed')).status).toBe(200);
    const payout = (await request(app.url, 'GET', `/v1/payouts/${made.body.data.id}`, { token })).body.data;
    expect(payout).toMatchObject({ status: 'failed', amount: 500, fee: 0 });
    const gql = await graphql(app.url, 'query($id: ID!) { payout(id: $id) { status fee } }', { token, variables: { id: made.body.data.id } });
    expect(gql.body.data.payout).toEqual({ status: 'FAILED', fee: '0.00' });
    expect((await webhookOf(receiver, merchant, 'payout.failed', made.body.data.transaction_reference)).data).toEqual(payout);
    const ngn = (await request(app.url, 'GET', '/v1/balances', { token })).body.data.find((b: any) => b.currency === 'NGN');
    expect(ngn).toMatchObject({ available: 1_000_000, reserved: 0 });
  });
});

describe('a 402 says the shortfall: available, needed (amount plus fee), missing', () => {
  it('a transfer: in the REST envelope’s details and GraphQL’s extensions, decimals as USD has them; nothing written', async () => {
    const merchant = await app.createMerchant('Short of USD');
    const { accessToken: token } = await app.token(merchant);
    const customerUuid = (await approvedCustomer(app, token)).customer_uuid;
    expect(
      (
        await admin('POST', `/v1/admin/merchants/${merchant.merchant.id}/adjustments`, {
          currency: 'USD',
          amount: '-999500',
          reason: 'Leave 500',
          reference: 'LEAVE-500',
        })
      ).status,
    ).toBe(201);
    const shortfall = { field: 'amount', currency: 'USD', available: '500.00', needed: '505.00', missing: '5.00' };

    const rest = await request(app.url, 'POST', '/v1/crossborder/global-transfer', { token, body: transferBody(customerUuid, { amount: 500 }) });
    expect([rest.status, rest.body.status, rest.body.code]).toEqual([402, 'error', 'INSUFFICIENT_FUNDS']);
    expect(rest.body.details).toEqual([{ ...shortfall, issue: 'needs 505.00 USD from your available balance, which holds 500.00: 5.00 USD missing' }]);
    expect(rest.body.message).toBe('Your available USD balance does not cover this amount and its fee: 505.00 needed, 500.00 available, 5.00 missing');

    const gql = await graphql(app.url, 'mutation($input: InitiateTransferInput!) { initiateTransfer(input: $input) { reference } }', {
      token,
      variables: { input: momoTransferInput(customerUuid, { amount: '500' }) },
    });
    const error = gql.body.errors![0]!;
    expect(error.extensions).toMatchObject({ code: 'INSUFFICIENT_FUNDS', http: { status: 402 } });
    expect(error.extensions?.details).toEqual([{ ...shortfall, issue: expect.stringContaining('5.00 USD missing') }]);
    expect(error.message).toBe(rest.body.message);
    expect((await request(app.url, 'GET', '/v1/transactions', { token })).body.data).toEqual([]);
  });

  it('a payout (REST and GraphQL), a refund and an operator’s debit say theirs too; a currency without decimals has none', async () => {
    const merchant = await app.createMerchant('Adaeze Okafor');
    const { accessToken: token } = await app.token(merchant);
    const owner = await personOf(app, merchant.merchant.id, 'owner');
    expect(
      (
        await request(app.url, 'POST', '/v1/payout-destinations', {
          token: owner.token,
          body: { country: 'NG', bank_code: '058', account_number: '0123456780' },
        })
      ).status,
    ).toBe(201);
    const payout = await request(app.url, 'POST', '/v1/payouts', { token: owner.token, body: { currency: 'NGN', amount: '1000000.01' } });
    expect([payout.status, payout.body.code]).toEqual([402, 'INSUFFICIENT_FUNDS']);
    expect(payout.body.details).toEqual([
      { field: 'amount', issue: expect.any(String), currency: 'NGN', available: '1000000.00', needed: '1000000.01', missing: '0.01' },
    ]);
    const gql = await graphql(app.url, 'mutation { createPayout(input: { currency: "NGN", amount: "1000250" }) { id } }', { token: owner.token });
    expect(gql.body.errors?.[0]?.extensions).toMatchObject({
      code: 'INSUFFICIENT_FUNDS',
      details: [{ field: 'amount', currency: 'NGN', available: '1000000.00', needed: '1000250.00', missing: '250.00' }],
    });

    // A refund beyond what is available: it needs its amount (a refund has no fee).
    const paid = await initiatePayment(app, token, cardPaymentBody({ amount: '2000.00' }));
    expect(paid.body.data.status).toBe('successful');
    // The payment credited 1970 (2000 less its fee): leave 100.
    expect(
      (
        await admin('POST', `/v1/admin/merchants/${merchant.merchant.id}/adjustments`, {
          currency: 'NGN',
          amount: '-1001870',
          reason: 'Leave 100',
          reference: 'LEAVE-100',
        })
      ).status,
    ).toBe(201);
    const refund = await request(app.url, 'POST', '/v1/refunds', {
      token,
      body: { payment_reference: paid.body.data.reference, reason: 'Returned', reference: 'refund-402' },
    });
    expect([refund.status, refund.body.code]).toEqual([402, 'INSUFFICIENT_FUNDS']);
    expect(refund.body.details).toEqual([
      { field: 'amount', issue: expect.any(String), currency: 'NGN', available: '100.00', needed: '2000.00', missing: '1900.00' },
    ]);

    // UGX has no minor unit: whole numbers.
    const debit = await admin('POST', `/v1/admin/merchants/${merchant.merchant.id}/adjustments`, {
      currency: 'UGX',
      amount: '-1000500',
      reason: 'Too much',
      reference: 'UGX-1',
    });
    expect([debit.status, debit.body.code]).toEqual([402, 'INSUFFICIENT_FUNDS']);
    expect(debit.body.details).toEqual([
      { field: 'amount', issue: expect.any(String), currency: 'UGX', available: '1000000', needed: '1000500', missing: '500' },
    ]);
  });
});

import { approvedCustomer } from '../../helpers/factories';
import { graphql, request } from '../../helpers/http';
import { cardPaymentBody, cardPaymentInput, initiatePayment } from '../../helpers/payments';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import {
  bankCollectionBody,
  momoCollectionBody,
  momoCollectionInput,
  momoTransferInput,
  newReference,
  transactionCount,
  transferBody,
} from '../../helpers/transactions';

const COLLECT = '/v1/crossborder/global-collection';
const SEND = '/v1/crossborder/global-transfer';
const COLLECTION = 'mutation ($input: InitiateCollectionInput!) { initiateCollection(input: $input) { reference } }';
const TRANSFER = 'mutation ($input: InitiateTransferInput!) { initiateTransfer(input: $input) { reference } }';
const PAYMENT = 'mutation ($input: InitiatePaymentInput!) { initiatePayment(input: $input) { reference } }';

/**
 * Issue 24: a production instance with no provider refuses every new transaction, and each refusal
 * names what was asked and says truthfully what was not done: a card is charged only by a card payment.
 */
describe('production without a provider: each refusal names what was asked', () => {
  let app: TestApp;
  let token: string;
  let customerUuid: string;

  beforeAll(async () => {
    app = await createTestApp({ env: { PAYMENTS_ENV: 'production' } });
    token = (await app.token(await app.createMerchant('Unrouted Merchant'))).accessToken;
    customerUuid = (await approvedCustomer(app, token)).customer_uuid;
  });
  afterAll(() => app?.close());

  /** Both doors' answers to one request: the REST envelope and the GraphQL error, which must say the same. */
  async function refusals(rest: { path: string; body: unknown }, gql: { query: string; input: unknown }): Promise<string> {
    const before = await transactionCount(app);
    const res =
      rest.path === '/v1/payments/initiate'
        ? await initiatePayment(app, token, rest.body)
        : await request(app.url, 'POST', rest.path, { token, body: rest.body });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ status: 'error', code: 'ROUTE_UNAVAILABLE', message: expect.any(String) });
    const answer = await graphql(app.url, gql.query, { token, variables: { input: gql.input } });
    expect(answer.body.data ?? null).toBeNull();
    expect(answer.body.errors?.[0]?.extensions).toMatchObject({ code: 'ROUTE_UNAVAILABLE' });
    expect(answer.body.errors?.[0]?.message).toBe(res.body.message);
    expect(await transactionCount(app)).toBe(before);
    return res.body.message;
  }

  it('a bank collection: names the bank collection, says nothing was written, and does not mention a card', async () => {
    const message = await refusals(
      { path: COLLECT, body: bankCollectionBody(customerUuid) },
      {
        query: COLLECTION,
        input: momoCollectionInput(customerUuid, {
          amount: '5000',
          channelId: 'ke_bank_deposit',
          networkId: 'ke_kcb',
          accountNumber: '0123456789',
          accountType: 'BANK',
        }),
      },
    );
    expect(message).toBe('No provider serves bank collection in KE on KCBLKENX here; nothing was written or sent');
    expect(message).not.toMatch(/card|charged/i);
  });

  it('a mobile money collection: the same, for its route', async () => {
    const message = await refusals({ path: COLLECT, body: momoCollectionBody(customerUuid) }, { query: COLLECTION, input: momoCollectionInput(customerUuid) });
    expect(message).toBe('No provider serves momo collection in KE on MPESA here; nothing was written or sent');
    expect(message).not.toMatch(/card|charged/i);
  });

  it('a transfer: names the transfer, and does not mention a card', async () => {
    const message = await refusals({ path: SEND, body: transferBody(customerUuid) }, { query: TRANSFER, input: momoTransferInput(customerUuid) });
    expect(message).toBe('No provider serves momo transfer in KE on MPESA here; nothing was written or sent');
    expect(message).not.toMatch(/card|charged/i);
  });

  it('a card payment: names card payments, and says no card was charged', async () => {
    const message = await refusals(
      { path: '/v1/payments/initiate', body: cardPaymentBody() },
      { query: PAYMENT, input: cardPaymentInput({ reference: newReference('gql-live') }) },
    );
    expect(message).toBe('No provider serves card payments here; nothing was created or charged');
  });
});

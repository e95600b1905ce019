import { approvedCustomer } from '../../helpers/factories';
import { graphql, request } from '../../helpers/http';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { momoTransferInput, newReference, sql, transactionCount, transferBody } from '../../helpers/transactions';

/**
 * Issue 34, L8: a locked FX quote serves one transfer. The first transfer that uses it consumes it
 * in its own insert statement; another transfer with it is 409 INVALID_STATE on quote_id, however
 * many race. A transfer refused before it is created leaves the quote unused, and a retry of the
 * same transfer (its Idempotency-Key, or its reference) answers as it did before quotes were single-use.
 */

const TRANSFER = '/v1/crossborder/global-transfer';

let app: TestApp;
let token: string;
let customer: string;

const transfer = (body: unknown, headers: Record<string, string> = {}) => request(app.url, 'POST', TRANSFER, { token, body, headers });
async function quote(amount: string): Promise<string> {
  const res = await request(app.url, 'GET', `/v1/crossborder/rates?source_currency=USD&destination_currency=KES&amount=${amount}`, { token });
  expect(res.status).toBe(200);
  return res.body.data.quote_id;
}
const usdAvailable = async (): Promise<number> =>
  ((await request(app.url, 'GET', '/v1/balances', { token })).body.data as Array<{ currency: string; available: number }>).find((b) => b.currency === 'USD')
    ?.available ?? 0;
const topUp = (amount: string) => request(app.url, 'POST', '/v1/sandbox/balance/top-up', { token, body: { currency: 'USD', amount } });

beforeAll(async () => {
  // No opening balance: the test decides what the merchant can send (a 402 is a refusal before creation).
  app = await createTestApp({ env: { SANDBOX_SETTLE_MS: '600000', SANDBOX_OPENING_BALANCE: '0' } });
  const merchant = await app.createMerchant('Quotes Merchant');
  token = (await app.token(merchant)).accessToken;
  customer = (await approvedCustomer(app, token)).customer_uuid;
  expect((await topUp('100000')).status).toBe(200);
});
afterAll(async () => {
  await app?.close();
});

describe('a locked quote serves one transfer', () => {
  it('a second transfer with a used quote is 409 INVALID_STATE on quote_id, naming the first, and writes nothing', async () => {
    const quoteId = await quote('100');
    const first = await transfer(transferBody(customer, { quote_id: quoteId }));
    expect(first.status).toBe(200);
    const before = { count: await transactionCount(app), available: await usdAvailable() };
    const second = await transfer(transferBody(customer, { quote_id: quoteId }));
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({ status: 'error', code: 'INVALID_STATE' });
    expect(second.body.message).toContain(`already used by transfer ${first.body.data.reference}`);
    expect(second.body.details).toEqual([{ field: 'quote_id', issue: expect.stringContaining('a quote locks its rate for one transfer') }]);
    expect({ count: await transactionCount(app), available: await usdAvailable() }).toEqual(before);
  });

  it('20 concurrent transfers with one quote: exactly one is created, 19 are 409', async () => {
    const quoteId = await quote('100');
    const before = await transactionCount(app);
    const answers = await Promise.all(Array.from({ length: 20 }, () => transfer(transferBody(customer, { quote_id: quoteId }))));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, ...Array<number>(19).fill(409)]);
    for (const a of answers.filter((r) => r.status === 409)) expect(a.body.code).toBe('INVALID_STATE');
    expect(await transactionCount(app)).toBe(before + 1);
    const users = await sql(app, 'select count(*)::int as n from "transaction" where quote_id = ?', [quoteId]);
    expect(users[0].n).toBe(1);
  });

  it('on GraphQL too: INVALID_STATE in extensions.code', async () => {
    const quoteId = await quote('100');
    const mutation = `mutation($input: InitiateTransferInput!) { initiateTransfer(input: $input) { reference } }`;
    const first = await graphql(app.url, mutation, { token, variables: { input: momoTransferInput(customer, { quoteId }) } });
    expect(first.body.errors).toBeUndefined();
    const second = await graphql(app.url, mutation, { token, variables: { input: momoTransferInput(customer, { quoteId }) } });
    expect(second.body.errors?.[0]?.extensions).toMatchObject({ code: 'INVALID_STATE', details: [{ field: 'quoteId' }] });
  });
});

describe('what does not consume a quote', () => {
  it('a transfer refused before creation (400 on a field, 402 on the balance) leaves it for the next', async () => {
    // A merchant with nothing to send yet.
    const poorMerchant = await app.createMerchant('Poor Merchant');
    const poorToken = (await app.token(poorMerchant)).accessToken;
    const poorCustomer = (await approvedCustomer(app, poorToken)).customer_uuid;
    const send = (body: unknown) => request(app.url, 'POST', TRANSFER, { token: poorToken, body });
    const rate = await request(app.url, 'GET', '/v1/crossborder/rates?source_currency=USD&destination_currency=KES&amount=100', { token: poorToken });
    const quoteId: string = rate.body.data.quote_id;
    const unused = async () => (await sql(app, 'select used_by from fx_quote where id = ?', [quoteId]))[0].used_by;

    const invalid = await send(transferBody(poorCustomer, { quote_id: quoteId, account_number: '12' }));
    expect(invalid.status).toBe(400);
    expect(await unused()).toBeNull();
    const poor = await send(transferBody(poorCustomer, { quote_id: quoteId }));
    expect(poor.status).toBe(402);
    expect(poor.body.code).toBe('INSUFFICIENT_FUNDS');
    expect(await unused()).toBeNull();

    const funded = await request(app.url, 'POST', '/v1/sandbox/balance/top-up', { token: poorToken, body: { currency: 'USD', amount: '1000' } });
    expect(funded.status).toBe(200);
    const sent = await send(transferBody(poorCustomer, { quote_id: quoteId }));
    expect(sent.status).toBe(200);
    const [row] = await sql(app, 'select id from "transaction" where reference = ?', [sent.body.data.reference]);
    expect(await unused()).toBe(row.id);
  });
});

describe('a retry of the same transfer answers as before', () => {
  it('the same Idempotency-Key replays the first answer (200), not a 409 on the quote', async () => {
    const quoteId = await quote('100');
    const body = transferBody(customer, { quote_id: quoteId });
    const key = `quote-retry-${newReference('k')}`;
    const first = await transfer(body, { 'idempotency-key': key });
    expect(first.status).toBe(200);
    const again = await transfer(body, { 'idempotency-key': key });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
  });

  it('the same reference is 409 DUPLICATE_REQUEST naming the transaction, as it always was (also when both race)', async () => {
    const quoteId = await quote('100');
    const body = transferBody(customer, { quote_id: quoteId });
    const first = await transfer(body);
    expect(first.status).toBe(200);
    const again = await transfer(body);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      code: 'DUPLICATE_REQUEST',
      details: [{ field: 'reference', issue: `already used by transaction ${first.body.data.reference}` }],
    });

    const raced = transferBody(customer, { quote_id: await quote('100') });
    const answers = await Promise.all(Array.from({ length: 6 }, () => transfer(raced)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    for (const a of answers.filter((r) => r.status === 409)) expect(a.body.code).toBe('DUPLICATE_REQUEST');
  });
});

import { FlutterwaveFake } from '../../fakes/flutterwave.fake';
import { MpesaFake } from '../../fakes/mpesa.fake';
import { graphql, request } from '../../helpers/http';
import { ngBankCollection, railsApp, railsMerchant, txnRow, type RailsMerchant } from '../../helpers/rails';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { momoCollectionBody, momoCollectionInput, momoTransferInput, transactionCount, transferBody } from '../../helpers/transactions';

const COLLECT = '/v1/crossborder/global-collection';
const SEND = '/v1/crossborder/global-transfer';
const COLLECTION = 'mutation ($input: InitiateCollectionInput!) { initiateCollection(input: $input) { reference } }';
const TRANSFER = 'mutation ($input: InitiateTransferInput!) { initiateTransfer(input: $input) { reference } }';

const ngBankCollectionInput = (customerUuid: string, amount: string) =>
  momoCollectionInput(customerUuid, {
    amount,
    currency: 'NGN',
    countryCode: 'NG',
    channelId: 'ng_bank_deposit',
    networkId: 'ng_gtbank',
    accountNumber: '0123456789',
    dialCode: '+234',
    accountType: 'BANK',
  });

/**
 * Issue 41 part 5, sandbox parity: the sandbox refuses what the connector that would serve the route in production
 * refuses, with the same code, field and message, over both doors, and writes nothing. The production side is the
 * real service against the providers' fakes (M-Pesa Daraja, Flutterwave).
 */
describe('sandbox parity: the sandbox applies the production connector’s rules (docs/providers.md, "Rules")', () => {
  let mpesa: MpesaFake;
  let flw: FlutterwaveFake;
  let production: TestApp;
  let sandbox: TestApp;
  const merchants = new Map<TestApp, RailsMerchant>();

  beforeAll(async () => {
    mpesa = await MpesaFake.start({ decisionDelayMs: 30 });
    flw = await FlutterwaveFake.start({ decisionDelayMs: 30 });
    production = await railsApp({ ...mpesa.env(), ...flw.env() });
    sandbox = await createTestApp();
    for (const app of [production, sandbox]) merchants.set(app, await railsMerchant(app, { currency: 'KES', amount: '100000' }));
  }, 90_000);
  afterAll(async () => {
    await production?.close();
    await sandbox?.close();
    await mpesa?.close();
    await flw?.close();
  });
  afterEach(() => {
    expect(mpesa.internalErrors).toEqual([]);
    expect(flw.internalErrors).toEqual([]);
  });

  /**
   * One request over REST and GraphQL in each environment: the refusals must be the same everywhere (REST's envelope;
   * GraphQL's message, code and details), and nothing may be written. Returns the REST envelope.
   */
  async function refusedAlike(
    rest: { path: string; body: (customerUuid: string) => unknown },
    gql: { query: string; input: (customerUuid: string) => unknown },
  ): Promise<Record<string, unknown>> {
    const answers: Array<{ rest: unknown; gql: unknown }> = [];
    for (const app of [production, sandbox]) {
      const m = merchants.get(app)!;
      const before = await transactionCount(app);
      const res = await request(app.url, 'POST', rest.path, { token: m.token, body: rest.body(m.customerUuid) });
      expect(res.status).toBe(400);
      const answer = await graphql(app.url, gql.query, { token: m.token, variables: { input: gql.input(m.customerUuid) } });
      expect(answer.body.data ?? null).toBeNull();
      const error = answer.body.errors?.[0];
      answers.push({ rest: res.body, gql: { message: error?.message, code: error?.extensions?.code, details: error?.extensions?.details } });
      expect(await transactionCount(app)).toBe(before);
    }
    expect(answers[1]).toEqual(answers[0]);
    return answers[0]!.rest as Record<string, unknown>;
  }

  const WHOLE_KES = {
    status: 'error',
    code: 'INVALID_REQUEST',
    message: 'amount must be a whole number of KES for M-Pesa',
    details: [{ field: 'amount', issue: 'must be a whole number of KES for M-Pesa' }],
  };

  it('the M-Pesa whole-KES rule in the sandbox: a collection of 100.50 KES is refused as M-Pesa refuses it', async () => {
    const rest = await refusedAlike(
      { path: COLLECT, body: (c) => momoCollectionBody(c, { amount: '100.50' }) },
      { query: COLLECTION, input: (c) => momoCollectionInput(c, { amount: '100.50' }) },
    );
    expect(rest).toEqual(WHOLE_KES);
    expect(mpesa.stk.size).toBe(0);
  });

  it('the M-Pesa whole-KES rule in the sandbox: a payout of 100.50 KES too, and nothing is reserved', async () => {
    const kes = async (app: TestApp) => {
      const res = await request(app.url, 'GET', '/v1/balances', { token: merchants.get(app)!.token });
      expect(res.status).toBe(200);
      return (res.body.data as Array<{ currency: string; available: number }>).find((b) => b.currency === 'KES')?.available;
    };
    const before = [await kes(production), await kes(sandbox)];
    const rest = await refusedAlike(
      { path: SEND, body: (c) => transferBody(c, { amount: '100.50', source_currency: 'KES' }) },
      { query: TRANSFER, input: (c) => momoTransferInput(c, { amount: '100.50', sourceCurrency: 'KES' }) },
    );
    expect(rest).toEqual(WHOLE_KES);
    expect([await kes(production), await kes(sandbox)]).toEqual(before);
  });

  it('a whole number of KES passes the same rule in both (the sandbox takes it on its own rails)', async () => {
    for (const app of [production, sandbox]) {
      const m = merchants.get(app)!;
      const body = momoCollectionBody(m.customerUuid, { amount: '100', account_number: '712300101' });
      const res = await request(app.url, 'POST', COLLECT, { token: m.token, body });
      expect(res.status).toBe(200);
      expect((await txnRow(app, body.reference))?.connector).toBe(app === sandbox ? 'sandbox' : 'mpesa');
    }
  });

  it('a converted payout to M-Pesa is rounded down to whole shillings in both, as M-Pesa pays', async () => {
    for (const app of [production, sandbox]) {
      const m = await railsMerchant(app, { currency: 'USD', amount: '1000' });
      const res = await request(app.url, 'POST', SEND, {
        token: m.token,
        body: transferBody(m.customerUuid, { amount: '100.33', account_number: '712300202' }),
      });
      expect(res.status).toBe(200);
      expect(res.body.data.destination_amount).toBeGreaterThan(0);
      expect(Number.isInteger(res.body.data.destination_amount)).toBe(true);
    }
  });

  it('Flutterwave’s most per bank collection (10,000,000 NGN) is refused alike, though the channel allows 50,000,000', async () => {
    const rest = await refusedAlike(
      { path: COLLECT, body: (c) => ngBankCollection(c, { amount: '20000000' }) },
      { query: COLLECTION, input: (c) => ngBankCollectionInput(c, '20000000') },
    );
    expect(rest).toEqual({
      status: 'error',
      code: 'INVALID_REQUEST',
      message: 'amount must be between 100 and 10000000 NGN for bank collections through our provider on this route',
      details: [{ field: 'amount', issue: 'must be between 100 and 10000000 NGN for bank collections through our provider on this route' }],
    });
  });

  it('a wallet number that is not a phone number is refused alike', async () => {
    const rest = await refusedAlike(
      { path: COLLECT, body: (c) => momoCollectionBody(c, { account_number: '71234S678' }) },
      { query: COLLECTION, input: (c) => momoCollectionInput(c, { accountNumber: '71234S678' }) },
    );
    expect(rest).toMatchObject({ code: 'INVALID_REQUEST', details: [{ field: 'account_number', issue: expect.stringMatching(/phone number/) }] });
  });
});

import { approvedCustomer, enroll, twoMerchants } from '../../helpers/factories';
import { expectedQuote } from '../../helpers/fx';
import { graphql, request } from '../../helpers/http';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { eventually } from '../../helpers/wait';
import { momoCollectionInput, momoTransferInput } from '../../helpers/transactions';

const TXN_FIELDS = `reference externalReference type status failureReason customerUuid accountType countryCode channelId networkId
  dialCode reason providerReference amount currency accountNumber bankInfo { accountName accountNumber bankName bankCode localCode }
  sourceAmount sourceCurrency destinationAmount destinationCurrency rate fee quoteId beneficiary { accountName accountNumber networkId }
  createdAt updatedAt completedAt expiresAt availableAt history { fromStatus toStatus reason occurredAt }`;

const COLLECT = `mutation($input: InitiateCollectionInput!) { initiateCollection(input: $input) { ${TXN_FIELDS} } }`;
const TRANSFER = `mutation($input: InitiateTransferInput!) { initiateTransfer(input: $input) { ${TXN_FIELDS} } }`;
const SIMULATE = `mutation($reference: String!, $outcome: SimulationOutcome!) { simulateTransaction(reference: $reference, outcome: $outcome) { ${TXN_FIELDS} } }`;
const TRANSACTION = `query($reference: String!) { transaction(reference: $reference) { ${TXN_FIELDS} } }`;
const LIST = `query($filter: TransactionFilter, $first: Int, $after: String) {
  transactions(filter: $filter, first: $first, after: $after) {
    edges { cursor node { reference type status customerUuid } }
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
  }
}`;
const RATE = `query($amount: Decimal!) { rate(sourceCurrency: "USD", destinationCurrency: "KES", amount: $amount) { quoteId rate sourceAmount destinationAmount fee } }`;

type GqlResult = Awaited<ReturnType<typeof graphql<any>>>;
const errorOf = (res: GqlResult) => {
  expect(res.body.errors).toHaveLength(1);
  return res.body.errors![0]!;
};
const codeOf = (res: GqlResult) => errorOf(res).extensions?.code;
const fieldsOf = (res: GqlResult) => (errorOf(res).extensions?.details ?? []).map((d: { field: string }) => d.field);

let seq = 0;
const nextReference = (prefix: string) => `${prefix}-${Date.now()}-${++seq}`;

/** A KES mobile money collection from a Kenyan M-Pesa wallet; override any field. */
const momoCollection = (customerUuid: string, overrides: Record<string, unknown> = {}) =>
  momoCollectionInput(customerUuid, { reference: nextReference('gql-col'), ...overrides });

const bankCollection = (customerUuid: string, overrides: Record<string, unknown> = {}) =>
  momoCollection(customerUuid, {
    channelId: 'ke_bank_deposit',
    networkId: 'ke_kcb',
    accountType: 'BANK',
    accountNumber: '0123456789',
    amount: '25000.50',
    ...overrides,
  });

describe('GraphQL cross-border collections and transfers', () => {
  let app: TestApp;
  let token: string;
  let otherToken: string;
  let customerUuid: string;

  beforeAll(async () => {
    app = await createTestApp({ env: { SANDBOX_SETTLE_MS: '100' } });
    const { mine, theirs } = await twoMerchants(app, 'GraphQL Transactions');
    [token, otherToken] = [mine.token, theirs.token];
    customerUuid = (await approvedCustomer(app, token)).customer_uuid;
  });
  afterAll(() => app.close());

  const collect = (input: Record<string, unknown>, auth = token) => graphql(app.url, COLLECT, { token: auth, variables: { input } });
  const transfer = (input: Record<string, unknown>, auth = token) => graphql(app.url, TRANSFER, { token: auth, variables: { input } });
  const simulate = (reference: string, outcome: string, auth = token) => graphql(app.url, SIMULATE, { token: auth, variables: { reference, outcome } });
  const read = (reference: string, auth = token) => graphql(app.url, TRANSACTION, { token: auth, variables: { reference } });
  const ok = <T = any>(res: GqlResult, field: string): T => {
    expect(res.body.errors).toBeUndefined();
    return res.body.data[field] as T;
  };

  /** Polls the transaction query until the sandbox decides the transaction (bounded). */
  async function awaitFinal(reference: string, auth = token) {
    let txn: any;
    const decided = await eventually(async () => {
      txn = ok(await read(reference, auth), 'transaction');
      return txn.status !== 'PROCESSING';
    });
    expect(decided).toBe(true);
    return txn;
  }

  describe('initiateCollection', () => {
    it('mobile money: PROCESSING with no bankInfo, then SUCCESSFUL with its history', async () => {
      const now = app.clock.now().toISOString();
      const input = momoCollection(customerUuid);
      const created = ok(await collect(input), 'initiateCollection');
      expect(created).toEqual({
        reference: expect.stringMatching(/^col_[0-9a-f]{24}$/),
        externalReference: input.reference,
        type: 'COLLECTION',
        status: 'PROCESSING',
        failureReason: null,
        customerUuid,
        accountType: 'MOMO',
        countryCode: 'KE',
        channelId: 'ke_momo_deposit',
        networkId: 'ke_mpesa',
        dialCode: '+254',
        reason: 'Invoice 42',
        providerReference: expect.stringMatching(/^sbx_prompt_[0-9a-f]{20}$/),
        amount: '1500.00',
        currency: 'KES',
        accountNumber: '712345678',
        bankInfo: null,
        sourceAmount: null,
        sourceCurrency: null,
        destinationAmount: null,
        destinationCurrency: null,
        rate: null,
        fee: '15.00',
        quoteId: null,
        beneficiary: null,
        createdAt: now,
        updatedAt: now,
        completedAt: null,
        expiresAt: null,
        availableAt: null,
        history: [{ fromStatus: null, toStatus: 'PROCESSING', reason: 'initiated', occurredAt: now }],
      });

      const settled = await awaitFinal(created.reference);
      expect(settled).toMatchObject({ status: 'SUCCESSFUL', failureReason: null, completedAt: expect.any(String) });
      // No settlement delay in the sandbox by default: its net is available when it succeeds.
      expect(settled.availableAt).toBe(settled.completedAt);
      expect(settled.history).toEqual([
        { fromStatus: null, toStatus: 'PROCESSING', reason: 'initiated', occurredAt: now },
        { fromStatus: 'PROCESSING', toStatus: 'SUCCESSFUL', reason: 'provider', occurredAt: settled.completedAt },
      ]);
    });

    it('mobile money from an account number ending in 000 is FAILED, with the reason in its history', async () => {
      const created = ok(await collect(momoCollection(customerUuid, { accountNumber: '254712345000' })), 'initiateCollection');
      expect(created.status).toBe('PROCESSING');
      const settled = await awaitFinal(created.reference);
      expect(settled).toMatchObject({ status: 'FAILED', failureReason: 'payment_declined_by_sender', completedAt: expect.any(String) });
      expect(settled.history.map((h: any) => [h.fromStatus, h.toStatus, h.reason])).toEqual([
        [null, 'PROCESSING', 'initiated'],
        ['PROCESSING', 'FAILED', 'payment_declined_by_sender'],
      ]);
    });

    it('bank: bankInfo is a virtual account of exactly four strings, and the collection waits for payment', async () => {
      const now = app.clock.now();
      const input = bankCollection(customerUuid);
      const created = ok(await collect(input), 'initiateCollection');
      expect(created).toMatchObject({
        type: 'COLLECTION',
        status: 'PROCESSING',
        accountType: 'BANK',
        channelId: 'ke_bank_deposit',
        networkId: 'ke_kcb',
        amount: '25000.50',
        currency: 'KES',
        providerReference: expect.stringMatching(/^sbx_va_[0-9a-f]{20}$/),
        beneficiary: null,
        expiresAt: new Date(now.getTime() + 86_400_000).toISOString(),
        availableAt: null,
      });
      expect(created.bankInfo).toEqual({
        accountName: 'Amina Otieno',
        accountNumber: expect.stringMatching(/^\d{10}$/),
        bankName: expect.any(String),
        bankCode: expect.any(String),
        localCode: '01', // KCB's CBK bank code (issue 38)
      });
      // The sandbox's virtual bank is one of the country's banks, with its real SWIFT code.
      const banks = ok<Array<{ name: string; code: string }>>(
        await graphql(
          app.url,
          `
            {
              networks(countryCode: "KE", channel: BANK) {
                name
                code
              }
            }
          `,
          { token },
        ),
        'networks',
      );
      expect(banks).toContainEqual({ name: created.bankInfo.bankName, code: created.bankInfo.bankCode });

      const other = ok(await collect(bankCollection(customerUuid)), 'initiateCollection');
      expect(other.bankInfo.accountNumber).not.toBe(created.bankInfo.accountNumber);

      // The schema says the same: BankInfo has exactly the spec's four non-null String fields, and issue 38's nullable localCode.
      const shape = await graphql(
        app.url,
        `
          {
            __type(name: "BankInfo") {
              fields {
                name
                type {
                  kind
                  ofType {
                    name
                  }
                }
              }
            }
          }
        `,
        { token },
      );
      expect(shape.body.data.__type.fields).toEqual([
        ...['accountName', 'accountNumber', 'bankName', 'bankCode'].map((name) => ({ name, type: { kind: 'NON_NULL', ofType: { name: 'String' } } })),
        { name: 'localCode', type: { kind: 'SCALAR', ofType: null } },
      ]);

      // Bank collections are decided by the sender paying, not by the provider. A mobile money collection made
      // after it is settled by the provider; once it is, a settlement of the bank one would have run first.
      const sentinel = ok(await collect(momoCollection(customerUuid)), 'initiateCollection');
      expect(await eventually(async () => ok(await read(sentinel.reference), 'transaction').status !== 'PROCESSING')).toBe(true);
      expect(ok(await read(created.reference), 'transaction').status).toBe('PROCESSING');
    });

    it('the transaction query gives the same record as the REST status endpoint', async () => {
      const created = ok(await collect(bankCollection(customerUuid)), 'initiateCollection');
      const gql = ok(await read(created.reference), 'transaction');
      const rest = await request(app.url, 'GET', `/v1/crossborder/global-transfer/${created.reference}`, { token });
      expect(rest.status).toBe(200);
      const r = rest.body.data;
      expect({
        reference: gql.reference,
        external_reference: gql.externalReference,
        type: gql.type.toLowerCase(),
        status: gql.status.toLowerCase(),
        failure_reason: gql.failureReason,
        customer_uuid: gql.customerUuid,
        account_type: gql.accountType.toLowerCase(),
        country_code: gql.countryCode,
        channel_id: gql.channelId,
        network_id: gql.networkId,
        dial_code: gql.dialCode,
        reason: gql.reason,
        provider_reference: gql.providerReference,
        amount: Number(gql.amount),
        currency: gql.currency,
        fee: Number(gql.fee),
        account_number: gql.accountNumber,
        bankInfo: gql.bankInfo,
        expires_at: gql.expiresAt,
        created_at: gql.createdAt,
        updated_at: gql.updatedAt,
        completed_at: gql.completedAt,
        available_at: gql.availableAt,
      }).toEqual(r);
    });

    it('takes an Int amount and refuses a Float', async () => {
      const whole = ok(await collect(momoCollection(customerUuid, { amount: 250 })), 'initiateCollection');
      expect(whole.amount).toBe('250.00');
      const float = await collect(momoCollection(customerUuid, { amount: 250.5 }));
      expect(codeOf(float)).toBe('INVALID_REQUEST');
      expect(errorOf(float).message).toMatch(/send it as a string/);
    });
  });

  describe('initiateTransfer', () => {
    it('without a quote: priced at the current rate, with the beneficiary; then SUCCESSFUL', async () => {
      const now = app.clock.now();
      const input = momoTransferInput(customerUuid);
      const created = ok(await transfer(input), 'initiateTransfer');
      const expected = expectedQuote('USD', 'KES', '100', now);
      expect(created).toEqual({
        reference: expect.stringMatching(/^trf_[0-9a-f]{24}$/),
        externalReference: input.reference,
        type: 'TRANSFER',
        status: 'PROCESSING',
        failureReason: null,
        customerUuid,
        accountType: 'MOMO',
        countryCode: 'KE',
        channelId: 'ke_momo_withdrawal',
        networkId: 'ke_mpesa',
        dialCode: '+254',
        reason: 'Family support',
        providerReference: expect.stringMatching(/^sbx_payout_[0-9a-f]{20}$/),
        amount: null,
        currency: null,
        accountNumber: '711111111',
        bankInfo: null,
        sourceAmount: '100.00',
        sourceCurrency: 'USD',
        // M-Pesa pays whole shillings: a converted payout is rounded down, in the sandbox as in production.
        destinationAmount: `${Math.floor(Number(expected.destination_amount))}.00`,
        destinationCurrency: 'KES',
        rate: expected.rate,
        fee: expected.fee,
        quoteId: null,
        beneficiary: { accountName: 'Wanjiru Kamau', accountNumber: '711111111', networkId: 'ke_mpesa' },
        createdAt: now.toISOString(),
        updatedAt: now.toISOString(),
        completedAt: null,
        expiresAt: null,
        availableAt: null,
        history: [{ fromStatus: null, toStatus: 'PROCESSING', reason: 'initiated', occurredAt: now.toISOString() }],
      });
      const settled = await awaitFinal(created.reference);
      expect(settled.status).toBe('SUCCESSFUL');
      expect(settled.history.map((h: any) => h.toStatus)).toEqual(['PROCESSING', 'SUCCESSFUL']);
    });

    it('to a bank account ending in 000: FAILED', async () => {
      const created = ok(
        await transfer(
          momoTransferInput(customerUuid, { channelId: 'ke_bank_withdrawal', networkId: 'ke_equity_bank', accountType: 'BANK', accountNumber: '1234567000' }),
        ),
        'initiateTransfer',
      );
      expect(created).toMatchObject({ accountType: 'BANK', beneficiary: { accountNumber: '1234567000', networkId: 'ke_equity_bank' } });
      const settled = await awaitFinal(created.reference);
      expect(settled).toMatchObject({ status: 'FAILED', failureReason: 'beneficiary_account_unavailable' });
      expect(settled.history.map((h: any) => [h.fromStatus, h.toStatus])).toEqual([
        [null, 'PROCESSING'],
        ['PROCESSING', 'FAILED'],
      ]);
    });

    it('with a live quote: locks the quote’s rate, fee and destination amount', async () => {
      const quote = ok(await graphql(app.url, RATE, { token, variables: { amount: '250' } }), 'rate');
      app.clock.advance(30_000);
      // To Airtel Money: an M-Pesa payout would be rounded to whole shillings (docs/providers.md, "Rules").
      const created = ok(
        await transfer(momoTransferInput(customerUuid, { amount: '250', quoteId: quote.quoteId, networkId: 'ke_airtel_money' })),
        'initiateTransfer',
      );
      expect(created).toMatchObject({
        quoteId: quote.quoteId,
        rate: quote.rate,
        fee: quote.fee,
        sourceAmount: quote.sourceAmount,
        destinationAmount: quote.destinationAmount,
      });
    });

    it('with an expired quote: INVALID_REQUEST naming quoteId', async () => {
      const quote = ok(await graphql(app.url, RATE, { token, variables: { amount: '100' } }), 'rate');
      app.clock.advance(61_000);
      const res = await transfer(momoTransferInput(customerUuid, { quoteId: quote.quoteId }));
      expect(codeOf(res)).toBe('INVALID_REQUEST');
      expect(errorOf(res).extensions!.http.status).toBe(400);
      expect(errorOf(res).extensions!.details).toEqual([{ field: 'quoteId', issue: expect.stringMatching(/^expired at /) }]);
    });

    it('with a quote for another amount or another merchant’s quote: INVALID_REQUEST naming quoteId', async () => {
      const quote = ok(await graphql(app.url, RATE, { token, variables: { amount: '100' } }), 'rate');
      expect(fieldsOf(await transfer(momoTransferInput(customerUuid, { amount: '101', quoteId: quote.quoteId })))).toEqual(['quoteId']);
      const theirs = ok(await graphql(app.url, RATE, { token: otherToken, variables: { amount: '100' } }), 'rate');
      expect(fieldsOf(await transfer(momoTransferInput(customerUuid, { quoteId: theirs.quoteId })))).toEqual(['quoteId']);
    });
  });

  describe('transaction(reference)', () => {
    it('finds a transaction by the service’s reference and by the merchant’s', async () => {
      const input = momoTransferInput(customerUuid);
      const created = ok(await transfer(input), 'initiateTransfer');
      // This app's sandbox settles it after 100 ms: both reads are made once it has, so that they see the same record.
      expect(await eventually(async () => ok(await read(created.reference), 'transaction').status !== 'PROCESSING')).toBe(true);
      const byService = ok(await read(created.reference), 'transaction');
      const byExternal = ok(await read(input.reference), 'transaction');
      expect(byExternal).toEqual(byService);
      expect(byService).toMatchObject({ reference: created.reference, externalReference: input.reference, type: 'TRANSFER' });
    });

    it('another merchant’s transaction is NOT_FOUND, exactly like an unknown reference', async () => {
      const input = momoCollection(customerUuid);
      const created = ok(await collect(input), 'initiateCollection');
      const byService = await read(created.reference, otherToken);
      const byExternal = await read(input.reference, otherToken);
      const unknown = await read('col_000000000000000000000000', otherToken);
      expect([codeOf(byService), codeOf(byExternal), codeOf(unknown)]).toEqual(['NOT_FOUND', 'NOT_FOUND', 'NOT_FOUND']);
      expect(errorOf(byService).message).toBe(errorOf(unknown).message);
      expect(errorOf(byService).extensions!.http.status).toBe(404);
    });
  });

  describe('simulateTransaction', () => {
    it('decides a processing bank collection; a second simulation is INVALID_STATE', async () => {
      const created = ok(await collect(bankCollection(customerUuid)), 'initiateCollection');
      app.clock.advance(5_000);
      const paid = ok(await simulate(created.reference, 'SUCCESSFUL'), 'simulateTransaction');
      const at = app.clock.now().toISOString();
      expect(paid).toMatchObject({ reference: created.reference, status: 'SUCCESSFUL', failureReason: null, completedAt: at, updatedAt: at });
      expect(paid.history).toEqual([
        { fromStatus: null, toStatus: 'PROCESSING', reason: 'initiated', occurredAt: created.createdAt },
        { fromStatus: 'PROCESSING', toStatus: 'SUCCESSFUL', reason: 'simulation', occurredAt: at },
      ]);
      const again = await simulate(created.reference, 'FAILED');
      expect(codeOf(again)).toBe('INVALID_STATE');
      expect(errorOf(again).extensions!.http.status).toBe(409);
      expect(ok(await read(created.reference), 'transaction').status).toBe('SUCCESSFUL');
    });

    it('FAILED by the merchant’s reference; another merchant cannot simulate it', async () => {
      const input = bankCollection(customerUuid);
      ok(await collect(input), 'initiateCollection');
      expect(codeOf(await simulate(input.reference, 'SUCCESSFUL', otherToken))).toBe('NOT_FOUND');
      const failed = ok(await simulate(input.reference, 'FAILED'), 'simulateTransaction');
      expect(failed).toMatchObject({ externalReference: input.reference, status: 'FAILED', failureReason: 'simulated_failure' });
      expect(failed.history.map((h: any) => h.reason)).toEqual(['initiated', 'simulated_failure']);
    });

    it('an unknown outcome is INVALID_REQUEST', async () => {
      const created = ok(await collect(bankCollection(customerUuid)), 'initiateCollection');
      expect(codeOf(await simulate(created.reference, 'EXPIRED'))).toBe('INVALID_REQUEST');
    });
  });

  describe('transactions connection', () => {
    it('newest first, paged with first/after, filtered by status, type and customer', async () => {
      const lister = await app.createMerchant('GraphQL Transactions Lister');
      const listerToken = (await app.token(lister)).accessToken;
      const [a, b] = await Promise.all([approvedCustomer(app, listerToken), approvedCustomer(app, listerToken)]);
      const refs: string[] = [];
      const add = async (res: Promise<GqlResult>, field: string) => {
        refs.push(ok<{ reference: string }>(await res, field).reference);
        app.clock.advance(1000);
      };
      await add(collect(bankCollection(a!.customer_uuid), listerToken), 'initiateCollection'); // stays PROCESSING
      await add(collect(momoCollection(a!.customer_uuid, { accountNumber: '254700000000' }), listerToken), 'initiateCollection'); // FAILED
      await add(transfer(momoTransferInput(a!.customer_uuid), listerToken), 'initiateTransfer'); // SUCCESSFUL
      await add(collect(momoCollection(b!.customer_uuid), listerToken), 'initiateCollection'); // SUCCESSFUL
      const [t1, t2, t3, t4] = refs as [string, string, string, string];
      for (const ref of [t2, t3, t4]) await awaitFinal(ref, listerToken);

      const list = async (variables: Record<string, unknown>) => ok<any>(await graphql(app.url, LIST, { token: listerToken, variables }), 'transactions');
      const refsOf = (conn: any) => conn.edges.map((e: any) => e.node.reference);

      const first = await list({ first: 3 });
      expect(refsOf(first)).toEqual([t4, t3, t2]);
      expect(first.pageInfo).toEqual({ hasNextPage: true, hasPreviousPage: false, startCursor: first.edges[0].cursor, endCursor: first.edges[2].cursor });
      const second = await list({ first: 3, after: first.pageInfo.endCursor });
      expect(refsOf(second)).toEqual([t1]);
      expect(second.pageInfo.hasNextPage).toBe(false);
      expect(second.edges[0].node).toEqual({ reference: t1, type: 'COLLECTION', status: 'PROCESSING', customerUuid: a!.customer_uuid });

      expect(refsOf(await list({}))).toEqual([t4, t3, t2, t1]);
      expect(refsOf(await list({ filter: { status: 'PROCESSING' } }))).toEqual([t1]);
      expect(refsOf(await list({ filter: { status: 'FAILED' } }))).toEqual([t2]);
      expect(refsOf(await list({ filter: { status: 'SUCCESSFUL' } }))).toEqual([t4, t3]);
      expect(refsOf(await list({ filter: { status: 'EXPIRED' } }))).toEqual([]);
      expect(refsOf(await list({ filter: { type: 'TRANSFER' } }))).toEqual([t3]);
      expect(refsOf(await list({ filter: { type: 'COLLECTION' } }))).toEqual([t4, t2, t1]);
      expect(refsOf(await list({ filter: { customerUuid: b!.customer_uuid } }))).toEqual([t4]);
      expect(refsOf(await list({ filter: { customerUuid: a!.customer_uuid, type: 'COLLECTION' } }))).toEqual([t2, t1]);
      const paged = await list({ filter: { type: 'COLLECTION' }, first: 2 });
      expect(refsOf(paged)).toEqual([t4, t2]);
      expect(refsOf(await list({ filter: { type: 'COLLECTION' }, first: 2, after: paged.pageInfo.endCursor }))).toEqual([t1]);

      // Another merchant sees none of them, even filtering by this merchant's customer.
      const theirs = ok<any>(await graphql(app.url, LIST, { token: otherToken, variables: { filter: { customerUuid: a!.customer_uuid } } }), 'transactions');
      expect(theirs.edges).toEqual([]);

      const badCursor = await graphql(app.url, LIST, { token: listerToken, variables: { after: 'bogus' } });
      expect(codeOf(badCursor)).toBe('INVALID_REQUEST');
      expect(fieldsOf(badCursor)).toEqual(['after']);
      const badCustomer = await graphql(app.url, LIST, { token: listerToken, variables: { filter: { customerUuid: 'not-a-uuid' } } });
      expect(codeOf(badCustomer)).toBe('INVALID_REQUEST');
      expect(fieldsOf(badCustomer)).toEqual(['customerUuid']);
      expect(codeOf(await graphql(app.url, LIST, { token: listerToken, variables: { filter: { status: 'DONE' } } }))).toBe('INVALID_REQUEST');
    });
  });

  describe('transactions(search)', () => {
    const SEARCH = `query($search: String, $filter: TransactionFilter) {
      transactions(search: $search, filter: $filter, first: 50) {
        edges { node { reference externalReference customerUuid customer { customerUuid firstName lastName email } } }
      }
    }`;
    it('finds by either reference or a customer’s email in any case, only among the merchant’s own', async () => {
      const searcher = await app.createMerchant('GraphQL Searcher');
      const searcherToken = (await app.token(searcher)).accessToken;
      const other = await app.createMerchant('GraphQL Searcher Other');
      const otherMerchantToken = (await app.token(other)).accessToken;
      const mine = await approvedCustomer(app, searcherToken, { email: 'Kofi.Mensah@Example.org' });
      const theirs = await approvedCustomer(app, otherMerchantToken, { email: 'kofi.mensah@example.org' });
      const col = ok<{ reference: string; externalReference: string }>(await collect(momoCollection(mine.customer_uuid), searcherToken), 'initiateCollection');
      const trf = ok<{ reference: string }>(await transfer(momoTransferInput(mine.customer_uuid), searcherToken), 'initiateTransfer');
      const theirsCol = ok<{ reference: string }>(await collect(momoCollection(theirs.customer_uuid), otherMerchantToken), 'initiateCollection');

      const search = async (variables: Record<string, unknown>, auth = searcherToken) =>
        ok<any>(await graphql(app.url, SEARCH, { token: auth, variables }), 'transactions').edges.map((e: any) => e.node.reference);
      expect(await search({ search: col.reference })).toEqual([col.reference]);
      expect(await search({ search: col.externalReference })).toEqual([col.reference]);
      expect(new Set(await search({ search: 'KOFI.MENSAH@example.ORG' }))).toEqual(new Set([col.reference, trf.reference]));
      expect(await search({ search: 'kofi.mensah@example.org', filter: { type: 'TRANSFER' } })).toEqual([trf.reference]);
      expect(await search({ search: 'kofi' })).toEqual([]);
      // Each row names its customer (resolved per page in one read).
      const rows = ok<any>(await graphql(app.url, SEARCH, { token: searcherToken, variables: { search: 'kofi.mensah@example.org' } }), 'transactions');
      for (const { node } of rows.edges) {
        expect(node.customer).toEqual({ customerUuid: mine.customer_uuid, firstName: 'Amina', lastName: 'Otieno', email: 'Kofi.Mensah@Example.org' });
      }
      // The other merchant's customer has the same email: neither sees the other's transactions.
      expect(await search({ search: 'kofi.mensah@example.org' }, otherMerchantToken)).toEqual([theirsCol.reference]);
      expect(await search({ search: col.reference }, otherMerchantToken)).toEqual([]);
      expect(await search({ search: col.externalReference }, otherMerchantToken)).toEqual([]);
      expect(await search({ search: theirsCol.reference })).toEqual([]);

      // An event about a customer names them too (WebhookEvent.customer, batched the same way).
      const events = ok<any>(
        await graphql(app.url, '{ webhookEvents(first: 20, type: "customer.kyc.approved") { edges { node { customerUuid customer { email } } } } }', {
          token: searcherToken,
        }),
        'webhookEvents',
      );
      expect(events.edges.map((e: any) => e.node)).toEqual([{ customerUuid: mine.customer_uuid, customer: { email: 'Kofi.Mensah@Example.org' } }]);

      const blank = await graphql(app.url, SEARCH, { token: searcherToken, variables: { search: '   ' } });
      expect(codeOf(blank)).toBe('INVALID_REQUEST');
      expect(fieldsOf(blank)).toEqual(['search']);
    });
  });

  describe('errors, with the same codes as REST', () => {
    it('a customer without approved KYC is KYC_REQUIRED (403), before any route check', async () => {
      const pending = (await enroll(app, token)).customer_uuid;
      const res = await collect(momoCollection(pending));
      expect(codeOf(res)).toBe('KYC_REQUIRED');
      expect(errorOf(res).extensions!.http.status).toBe(403);
      expect(codeOf(await collect(momoCollection(pending, { channelId: 'gh_momo_deposit' })))).toBe('KYC_REQUIRED');
      expect(codeOf(await transfer(momoTransferInput(pending)))).toBe('KYC_REQUIRED');
    });

    it('another merchant’s customer is NOT_FOUND', async () => {
      expect(codeOf(await collect(momoCollection(customerUuid), otherToken))).toBe('NOT_FOUND');
      expect(codeOf(await transfer(momoTransferInput(customerUuid), otherToken))).toBe('NOT_FOUND');
    });

    it('a reused reference is DUPLICATE_REQUEST naming the existing transaction, across kinds', async () => {
      const input = momoCollection(customerUuid);
      const first = ok(await collect(input), 'initiateCollection');
      const again = await collect({ ...input, amount: '99' });
      expect(codeOf(again)).toBe('DUPLICATE_REQUEST');
      expect(errorOf(again).extensions!.http.status).toBe(409);
      expect(errorOf(again).extensions!.details).toEqual([{ field: 'reference', issue: `already used by transaction ${first.reference}` }]);
      const asTransfer = await transfer(momoTransferInput(customerUuid, { reference: input.reference }));
      expect(codeOf(asTransfer)).toBe('DUPLICATE_REQUEST');
      expect(errorOf(asTransfer).extensions!.details).toEqual([{ field: 'reference', issue: `already used by transaction ${first.reference}` }]);
      // The same reference is free for another merchant.
      const otherCustomer = (await approvedCustomer(app, otherToken)).customer_uuid;
      expect(ok(await collect({ ...input, customerUuid: otherCustomer }, otherToken), 'initiateCollection').externalReference).toBe(input.reference);
    });

    it.each([
      ['a withdrawal channel for a collection', { channelId: 'ke_momo_withdrawal' }, 'channelId'],
      ['another country’s channel', { channelId: 'gh_momo_deposit' }, 'channelId'],
      ['a bank accountType on a momo channel', { accountType: 'BANK' }, 'channelId'],
      ['another country’s network', { networkId: 'gh_mtn_momo' }, 'networkId'],
      ['a bank network on a momo channel', { networkId: 'ke_kcb' }, 'networkId'],
      ['an unknown network', { networkId: 'ke_nope' }, 'networkId'],
      ['another currency', { currency: 'UGX' }, 'currency'],
      ['another dial code', { dialCode: '+256' }, 'dialCode'],
      ['an amount below the channel minimum', { amount: '5' }, 'amount'],
      ['an amount above the channel maximum', { amount: '250000.01' }, 'amount'],
      ['more decimals than KES has', { amount: '100.001' }, 'amount'],
      ['a negative amount', { amount: '-10' }, 'amount'],
      ['a zero amount', { amount: 0 }, 'amount'],
      ['an unsupported country', { countryCode: 'FR' }, 'countryCode'],
      ['a malformed country code', { countryCode: 'Kenya' }, 'countryCode'],
      ['a malformed account number', { accountNumber: '12' }, 'accountNumber'],
      ['an empty reason', { reason: ' ' }, 'reason'],
      ['a malformed reference', { reference: 'has spaces' }, 'reference'],
    ])('collection with %s is INVALID_REQUEST naming %s', async (_what, overrides, field) => {
      const res = await collect(momoCollection(customerUuid, overrides));
      expect(codeOf(res)).toBe('INVALID_REQUEST');
      expect(errorOf(res).extensions!.http.status).toBe(400);
      expect(fieldsOf(res)).toEqual([field]);
    });

    it.each([
      ['a deposit channel for a transfer', { channelId: 'ke_momo_deposit' }, 'channelId'],
      ['another destination currency', { destinationCurrency: 'UGX' }, 'destinationCurrency'],
      ['an unsupported source currency', { sourceCurrency: 'XXX' }, 'sourceCurrency'],
      ['a malformed source currency', { sourceCurrency: 'usd' }, 'sourceCurrency'],
      ['another dial code', { dialCode: '+233' }, 'dialCode'],
      ['more decimals than USD has', { amount: '10.001' }, 'amount'],
      ['an amount too small for the channel', { amount: '0.01' }, 'amount'],
      ['an empty account name', { accountName: '' }, 'accountName'],
    ])('transfer with %s is INVALID_REQUEST naming %s', async (_what, overrides, field) => {
      const res = await transfer(momoTransferInput(customerUuid, overrides));
      expect(codeOf(res)).toBe('INVALID_REQUEST');
      expect(fieldsOf(res)).toEqual([field]);
    });

    it('several bad fields are all named, in camelCase', async () => {
      const res = await collect(momoCollection(customerUuid, { countryCode: 'ke', dialCode: '254', reason: '' }));
      expect(codeOf(res)).toBe('INVALID_REQUEST');
      expect(fieldsOf(res).sort()).toEqual(['countryCode', 'dialCode', 'reason']);
    });

    it('a missing field or an unknown enum value is rejected by GraphQL itself as INVALID_REQUEST', async () => {
      const { reference: _r, ...withoutReference } = momoCollection(customerUuid);
      expect(codeOf(await collect(withoutReference))).toBe('INVALID_REQUEST');
      expect(codeOf(await collect(momoCollection(customerUuid, { accountType: 'CARD' })))).toBe('INVALID_REQUEST');
    });

    it('every operation needs a token', async () => {
      const res = await graphql(app.url, TRANSACTION, { variables: { reference: 'x' } });
      expect(codeOf(res)).toBe('INVALID_TOKEN');
    });
  });
});

describe('GraphQL simulateTransaction in production', () => {
  let app: TestApp;
  let token: string;

  beforeAll(async () => {
    app = await createTestApp({ env: { PAYMENTS_ENV: 'production' } });
    token = (await app.token(await app.createMerchant('Production Merchant'))).accessToken;
  });
  afterAll(() => app.close());

  it('is NOT_FOUND, like the REST route that does not exist there', async () => {
    const res = await graphql(app.url, SIMULATE, { token, variables: { reference: 'col_000000000000000000000000', outcome: 'SUCCESSFUL' } });
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors![0]).toMatchObject({
      message: 'Sandbox simulation is not available in production',
      extensions: { code: 'NOT_FOUND', http: { status: 404 } },
    });
    const rest = await request(app.url, 'POST', '/v1/sandbox/transactions/col_000000000000000000000000/simulate', { token, body: { outcome: 'successful' } });
    expect(rest.status).toBe(404);
  });
});

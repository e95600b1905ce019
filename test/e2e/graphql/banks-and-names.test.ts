import { twoMerchants } from '../../helpers/factories';
import { graphql } from '../../helpers/http';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { newReference, transactionCount } from '../../helpers/transactions';

/** Issue 38, point 1 through GraphQL (sandbox): banks, networks' localCode, resolveAccount, the name check and its setting. */
describe('GraphQL banks, resolveAccount and the name check', () => {
  let app: TestApp;
  let token: string;
  let customer: string;

  beforeAll(async () => {
    app = await createTestApp({ env: { SANDBOX_SETTLE_MS: '100' } });
    const { mine } = await twoMerchants(app, 'GraphQL Names Merchant', { approvedCustomer: true });
    [token, customer] = [mine.token, mine.customerUuid];
  });
  afterAll(() => app.close());

  const run = (query: string, variables?: Record<string, unknown>) => graphql(app.url, query, { variables, token });
  const RESOLVE = `query($input: ResolveAccountInput!) { resolveAccount(input: $input) { accountName } }`;
  const TRANSFER = `mutation($input: InitiateTransferInput!) { initiateTransfer(input: $input) { reference status } }`;
  const transferInput = (overrides: Record<string, unknown> = {}) => ({
    customerUuid: customer,
    amount: '100',
    sourceCurrency: 'USD',
    destinationCurrency: 'KES',
    countryCode: 'KE',
    channelId: 'ke_momo_withdrawal',
    networkId: 'ke_mpesa',
    accountNumber: '712345673',
    accountName: 'Kwame Mensah',
    dialCode: '+254',
    accountType: 'MOMO',
    reason: 'Payout',
    reference: newReference('gql-names'),
    ...overrides,
  });

  it('banks(country) lists the local codes with type, methods and source; networks carry localCode', async () => {
    const res = await run(`{ banks(country: "NG") { code name countryCode type networkId methods source } }`);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.banks).toContainEqual({
      code: '058',
      name: 'Guaranty Trust Bank',
      countryCode: 'NG',
      type: 'BANK',
      networkId: 'ng_gtbank',
      methods: ['TRANSFER', 'COLLECTION', 'ACCOUNT_RESOLUTION'],
      source: expect.any(String),
    });
    const networks = await run(`{ networks(countryCode: "NG", channel: MOMO) { networkId localCode } }`);
    expect(networks.body.data.networks).toContainEqual({ networkId: 'ng_opay', localCode: '999992' });
    const unknown = await run(`{ banks(country: "FR") { code } }`);
    expect(unknown.body.errors![0]!.extensions!.code).toBe('NOT_FOUND');
  });

  it('resolveAccount answers the sandbox’s table; NOT_FOUND, PROVIDER_UNAVAILABLE and a field named in camelCase', async () => {
    const res = await run(RESOLVE, { input: { country: 'NG', bankCode: '044', accountNumber: '0690000032' } });
    expect(res.body).toEqual({ data: { resolveAccount: { accountName: 'Amina Bello' } } });
    const missing = await run(RESOLVE, { input: { country: 'NG', bankCode: '044', accountNumber: '0690000000' } });
    expect(missing.body.errors![0]!.extensions!.code).toBe('NOT_FOUND');
    const down = await run(RESOLVE, { input: { country: 'NG', bankCode: '044', accountNumber: '0690009999' } });
    expect(down.body.errors![0]!.extensions!.code).toBe('PROVIDER_UNAVAILABLE');
    const bad = await run(RESOLVE, { input: { country: 'NG', bankCode: '999', accountNumber: '0690000032' } });
    expect(bad.body.errors![0]!.extensions).toMatchObject({ code: 'INVALID_REQUEST', details: [{ field: 'bankCode', issue: expect.any(String) }] });
  });

  it('initiateTransfer with beneficiaryName: a mismatch is BENEFICIARY_NAME_MISMATCH with nothing written; a match goes; off skips it', async () => {
    const before = await transactionCount(app);
    const wrong = await run(TRANSFER, { input: transferInput({ beneficiaryName: 'Ama Mensah' }) });
    expect(wrong.body.errors![0]!.extensions!.code).toBe('BENEFICIARY_NAME_MISMATCH');
    expect(await transactionCount(app)).toBe(before);
    const right = await run(TRANSFER, { input: transferInput({ beneficiaryName: 'mensah KWAME' }) });
    expect(right.body.errors).toBeUndefined();

    expect((await run(`{ nameCheck { enabled } }`)).body.data).toEqual({ nameCheck: { enabled: true } });
    expect((await run(`mutation { updateNameCheck(enabled: false) { enabled } }`)).body.data).toEqual({ updateNameCheck: { enabled: false } });
    const unchecked = await run(TRANSFER, { input: transferInput({ beneficiaryName: 'Ama Mensah' }) });
    expect(unchecked.body.errors).toBeUndefined();
    await run(`mutation { updateNameCheck(enabled: true) { enabled } }`);
  });

  it('junk in resolveAccount’s input (a query, so outside the mutations’ junk sweep): a clean refusal, never a server error', async () => {
    const base = { country: 'NG', bankCode: '058', accountNumber: '0123456781' };
    const junk: unknown[] = ['a\u0000b', 'x\ud800y', 'a'.repeat(100 * 1024), "' OR 1=1 --", 123, { a: 1 }, ['a'], true, null];
    for (const field of ['country', 'bankCode', 'network', 'accountNumber']) {
      for (const value of junk) {
        const res = await run(RESOLVE, { input: { ...base, [field]: value } });
        expect(res.status).toBeLessThan(500);
        const code = res.body.errors?.[0]?.extensions?.code;
        // null in an optional field leaves it out: the base request is answered.
        if (value === null && (field === 'bankCode' || field === 'network')) expect(code).toBe(field === 'network' ? undefined : 'INVALID_REQUEST');
        else expect(['INVALID_REQUEST', 'NOT_FOUND']).toContain(code);
      }
    }
  });
});

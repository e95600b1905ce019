import { FlutterwaveFake } from '../../fakes/flutterwave.fake';
import { MtnMomoFake } from '../../fakes/mtn-momo.fake';
import { graphql, request } from '../../helpers/http';
import { flutterwaveApp, railsMerchant, txnRow, type RailsMerchant } from '../../helpers/rails';
import type { TestApp } from '../../helpers/test-app';
import { newReference, transactionCount } from '../../helpers/transactions';

/**
 * Account resolution and the transfer name check in production (CONTRACT §6b), against the fakes: Flutterwave names
 * Nigerian bank accounts (POST /v3/accounts/resolve), MTN MoMo its wallets (basicuserinfo); a route whose connectors
 * name nobody skips the check.
 */

const SEND = '/v1/crossborder/global-transfer';

const ngBankPayout = (customerUuid: string, overrides: Record<string, unknown> = {}) => ({
  customer_uuid: customerUuid,
  amount: '5000',
  source_currency: 'NGN',
  destination_currency: 'NGN',
  country_code: 'NG',
  channel_id: 'ng_bank_withdrawal',
  network_id: 'ng_access_bank',
  account_number: '0690000032',
  account_name: 'Bright Pastor',
  dial_code: '+234',
  account_type: 'bank',
  reason: 'Supplier payout',
  reference: newReference('names-ng'),
  ...overrides,
});

const ugPayout = (customerUuid: string, networkId: string, overrides: Record<string, unknown> = {}) => ({
  customer_uuid: customerUuid,
  amount: '20000',
  source_currency: 'UGX',
  destination_currency: 'UGX',
  country_code: 'UG',
  channel_id: 'ug_momo_withdrawal',
  network_id: networkId,
  account_number: '0772123456',
  account_name: 'Okello James',
  dial_code: '+256',
  account_type: 'momo',
  reason: 'Payout',
  reference: newReference('names-ug'),
  ...overrides,
});

describe('account resolution and the name check (production, against the Flutterwave and MTN fakes)', () => {
  let flw: FlutterwaveFake;
  let mtn: MtnMomoFake;
  let app: TestApp;
  let m: RailsMerchant;

  beforeAll(async () => {
    flw = await FlutterwaveFake.start({ decisionDelayMs: 30 });
    mtn = await MtnMomoFake.start({ decisionDelayMs: 30, targetEnvironment: 'mtnuganda', currency: 'UGX' });
    app = await flutterwaveApp(flw, mtn.env());
    m = await railsMerchant(app, { currency: 'NGN', amount: '1000000' });
    await request(app.url, 'POST', `/v1/admin/merchants/${m.merchantId}/adjustments`, {
      headers: { authorization: 'Bearer test-admin-key-0123456789' },
      body: { currency: 'UGX', amount: '10000000', reason: 'test funding', reference: `fund-ugx-${Date.now()}` },
    });
    flw.accounts.add('50211', '2001234567', 'ADEBAYO OLUWASEUN TUNDE');
    mtn.accountHolders.add('256772123456', 'James', 'Okello');
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await flw?.close();
    await mtn?.close();
  });
  beforeEach(() => {
    flw.down = false;
    mtn.down = false;
  });

  const resolve = (body: unknown) => request(app.url, 'POST', '/v1/accounts/resolve', { token: m.token, body });
  const resolveCalls = () => flw.requests.filter((r) => r.path.startsWith('/v3/accounts/resolve'));
  const holderCalls = () => mtn.requests.filter((r) => r.path.includes('/basicuserinfo'));

  it('lists what each bank can do here: routed banks transfer and collect, every Nigerian code resolves through Flutterwave', async () => {
    const res = await request(app.url, 'GET', '/v1/banks?country=NG', { token: m.token });
    const byCode = new Map(res.body.data.map((b: any) => [b.code, b.methods]));
    expect(byCode.get('044')).toEqual(['transfer', 'collection', 'account_resolution']);
    expect(byCode.get('50211')).toEqual(['account_resolution']);
    const ke = await request(app.url, 'GET', '/v1/banks?country=KE', { token: m.token });
    expect(ke.body.data.every((b: any) => !b.methods.includes('account_resolution'))).toBe(true);
  });

  it('Flutterwave names a Nigerian bank account by its NIP code, also one listed by code only (Kuda)', async () => {
    const res = await resolve({ country: 'NG', bank_code: '044', account_number: '0690000032' });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ account_name: 'Pastor Bright' });
    expect(JSON.parse(resolveCalls().at(-1)!.body)).toEqual({ account_number: '0690000032', account_bank: '044' });
    expect(resolveCalls().at(-1)!.headers.authorization).toBe(`Bearer ${flw.env().FLUTTERWAVE_SECRET_KEY}`);

    const kuda = await resolve({ country: 'NG', bank_code: '50211', account_number: '2001234567' });
    expect(kuda.body.data).toEqual({ account_name: 'ADEBAYO OLUWASEUN TUNDE' });
  });

  it('404 when Flutterwave finds no such account; 503 when it does not answer', async () => {
    const missing = await resolve({ country: 'NG', bank_code: '058', account_number: '0123456789' });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('NOT_FOUND');
    flw.down = true;
    const down = await resolve({ country: 'NG', bank_code: '044', account_number: '0690000032' });
    expect(down.status).toBe(503);
    expect(down.body.code).toBe('PROVIDER_UNAVAILABLE');
  });

  it('MTN MoMo names its wallet by the MSISDN (disbursement’s account-holder check); 404 and 503 likewise', async () => {
    const res = await resolve({ country: 'UG', network: 'ug_mtn_momo', account_number: '0772 123 456' });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ account_name: 'James Okello' });
    expect(holderCalls().at(-1)!.path).toBe('/disbursement/v1_0/accountholder/msisdn/256772123456/basicuserinfo');
    expect(holderCalls().at(-1)!.headers['x-target-environment']).toBe('mtnuganda');
    expect((await resolve({ country: 'UG', network: 'ug_mtn_momo', account_number: '772120004' })).status).toBe(404);
    mtn.down = true;
    expect((await resolve({ country: 'UG', network: 'ug_mtn_momo', account_number: '772123456' })).status).toBe(503);
  });

  it('a route whose connectors name nobody: resolve is 422 ROUTE_UNAVAILABLE', async () => {
    const res = await resolve({ country: 'UG', network: 'ug_airtel_money', account_number: '752123456' });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('ROUTE_UNAVAILABLE');
  });

  it('a Nigerian bank transfer: a mismatch is refused before anything reaches Flutterwave’s transfers; a match is sent', async () => {
    const before = await transactionCount(app);
    const transfersBefore = flw.transfers.size;
    const wrong = await request(app.url, 'POST', SEND, { token: m.token, body: ngBankPayout(m.customerUuid, { beneficiary_name: 'Chidi Okafor' }) });
    expect(wrong.status).toBe(422);
    expect(wrong.body.code).toBe('BENEFICIARY_NAME_MISMATCH');
    expect(await transactionCount(app)).toBe(before);
    expect(flw.transfers.size).toBe(transfersBefore);

    const body = ngBankPayout(m.customerUuid, { beneficiary_name: 'bright PASTOR' });
    const right = await request(app.url, 'POST', SEND, { token: m.token, body });
    expect(right.status).toBe(200);
    expect((await txnRow(app, body.reference))!.connector).toBe('flutterwave');
    expect(flw.transfers.size).toBe(transfersBefore + 1);
  });

  it('an MTN wallet transfer is checked by MTN (GraphQL initiateTransfer too); an Airtel one, which nobody here names, is sent unchecked', async () => {
    const before = await transactionCount(app);
    const wrong = await request(app.url, 'POST', SEND, { token: m.token, body: ugPayout(m.customerUuid, 'ug_mtn_momo', { beneficiary_name: 'Sand Box' }) });
    expect(wrong.status).toBe(422);
    const gql = await graphql(
      app.url,
      `
        mutation ($input: InitiateTransferInput!) {
          initiateTransfer(input: $input) {
            reference
          }
        }
      `,
      {
        token: m.token,
        variables: {
          input: {
            customerUuid: m.customerUuid,
            amount: '20000',
            sourceCurrency: 'UGX',
            destinationCurrency: 'UGX',
            countryCode: 'UG',
            channelId: 'ug_momo_withdrawal',
            networkId: 'ug_mtn_momo',
            accountNumber: '772123456',
            accountName: 'Okello James',
            beneficiaryName: 'Jane Doe',
            dialCode: '+256',
            accountType: 'MOMO',
            reason: 'Payout',
            reference: newReference('names-gql'),
          },
        },
      },
    );
    expect(gql.body.errors?.[0]).toMatchObject({ extensions: { code: 'BENEFICIARY_NAME_MISMATCH' } });
    expect(await transactionCount(app)).toBe(before);
    expect(mtn.requests.some((r) => r.method === 'POST' && r.path === '/disbursement/v1_0/transfer')).toBe(false);

    const calls = holderCalls().length;
    const airtel = await request(app.url, 'POST', SEND, {
      token: m.token,
      body: ugPayout(m.customerUuid, 'ug_airtel_money', { account_number: '752123456', beneficiary_name: 'Anyone At All' }),
    });
    expect(airtel.status).toBe(200);
    expect(holderCalls().length).toBe(calls);
  });
});

import { FlutterwaveFake } from '../../fakes/flutterwave.fake';
import { MtnMomoFake } from '../../fakes/mtn-momo.fake';
import { request } from '../../helpers/http';
import { personOf, type TestPerson } from '../../helpers/people';
import { flutterwaveApp } from '../../helpers/rails';
import type { TestApp } from '../../helpers/test-app';
import { dbQuery } from '../../helpers/webhooks';

/**
 * Payout destinations in production (docs/payouts.md), named by the providers' fakes: Flutterwave names Nigerian
 * bank accounts (POST /v3/accounts/resolve), MTN MoMo its wallets (basicuserinfo). The business's name must be the
 * holder's by the name rule (a missing word, case and order do not matter).
 */
describe('payout destinations against the Flutterwave and MTN fakes (production)', () => {
  let flw: FlutterwaveFake;
  let mtn: MtnMomoFake;
  let app: TestApp;
  let merchantId: string;
  let owner: TestPerson;

  beforeAll(async () => {
    flw = await FlutterwaveFake.start({ decisionDelayMs: 30 });
    mtn = await MtnMomoFake.start({ decisionDelayMs: 30, targetEnvironment: 'mtnuganda', currency: 'UGX' });
    app = await flutterwaveApp(flw, mtn.env());
    merchantId = (await app.createMerchant('Okello James Trading')).merchant.id;
    owner = await personOf(app, merchantId, 'owner');
    flw.accounts.add('058', '0123450011', 'OKELLO JAMES TRADING');
    flw.accounts.add('058', '0123450022', 'ADAEZE OKAFOR');
    mtn.accountHolders.add('256772123456', 'James', 'Okello');
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await flw?.close();
    await mtn?.close();
  });
  beforeEach(() => {
    flw.down = false;
  });

  const add = (body: unknown) => request(app.url, 'POST', '/v1/payout-destinations', { token: owner.token, body });
  const rows = async () => Number((await dbQuery(app.db.url, 'select count(*) from payout_destination where merchant_id = $1', [merchantId]))[0].count);
  const resolveCalls = () => flw.requests.filter((r) => r.path.startsWith('/v3/accounts/resolve'));

  it('a mismatch is 422 and stores nothing; Flutterwave not answering is 503 and stores nothing', async () => {
    const mismatch = await add({ country: 'NG', bank_code: '058', account_number: '0123450022' });
    expect(mismatch.status).toBe(422);
    expect(mismatch.body).toMatchObject({ code: 'BENEFICIARY_NAME_MISMATCH', message: expect.stringContaining('ADAEZE OKAFOR') });
    expect(JSON.parse(resolveCalls().at(-1)!.body)).toEqual({ account_number: '0123450022', account_bank: '058' });
    flw.down = true;
    expect((await add({ country: 'NG', bank_code: '058', account_number: '0123450011' })).status).toBe(503);
    expect(await rows()).toBe(0);
  });

  it('Flutterwave names the business’s account: the first NGN destination is active', async () => {
    const res = await add({ country: 'NG', bank_code: '058', account_number: '0123450011', currency: 'NGN' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ status: 'active', account_name: 'OKELLO JAMES TRADING', masked: 'Guaranty Trust Bank ••••0011' });
    expect(await app.service.app.services.payoutDestinations.activeDestination(merchantId, 'NGN')).toMatchObject({
      channelId: 'ng_bank_withdrawal',
      networkId: 'ng_gtbank',
      accountNumber: '0123450011',
    });
  });

  it('MTN MoMo names the wallet: the first UGX destination keeps its national number, as a transfer does', async () => {
    const res = await add({ country: 'UG', network: 'ug_mtn_momo', account_number: '+256 772 123 456' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ status: 'active', currency: 'UGX', account_type: 'momo', account_name: 'James Okello' });
    expect(mtn.requests.filter((r) => r.path.includes('/basicuserinfo')).at(-1)!.path).toBe(
      '/disbursement/v1_0/accountholder/msisdn/256772123456/basicuserinfo',
    );
    expect(await app.service.app.services.payoutDestinations.activeDestination(merchantId, 'UGX')).toMatchObject({
      channelId: 'ug_momo_withdrawal',
      networkId: 'ug_mtn_momo',
      accountNumber: '772123456',
      dialCode: '+256',
    });
  });
});

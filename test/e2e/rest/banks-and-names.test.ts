import { twoMerchants } from '../../helpers/factories';
import { request } from '../../helpers/http';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { sql, transactionCount, transferBody } from '../../helpers/transactions';

const TRANSFER = '/v1/crossborder/global-transfer';

/** Issue 38, point 1 (CONTRACT §6b) in the sandbox: banks by local code, account resolution by table, the transfer name check. */
describe('REST banks, account resolution and the transfer name check (sandbox)', () => {
  let app: TestApp;
  let token: string;
  let otherToken: string;
  let customer: string;

  beforeAll(async () => {
    app = await createTestApp({ env: { SANDBOX_SETTLE_MS: '100' } });
    const { mine, theirs } = await twoMerchants(app, 'Names Merchant', { approvedCustomer: true });
    [token, otherToken, customer] = [mine.token, theirs.token, mine.customerUuid];
  });
  afterAll(() => app.close());

  const resolve = (body: unknown, auth = token) => request(app.url, 'POST', '/v1/accounts/resolve', { token: auth, body });
  const transfer = (body: unknown) => request(app.url, 'POST', TRANSFER, { token, body });
  const setNameCheck = (enabled: unknown, auth = token) => request(app.url, 'PUT', '/v1/transfers/name-check', { token: auth, body: { enabled } });

  describe('GET /v1/banks', () => {
    it('lists Nigeria’s banks by their CBN/NIP codes, with type, network, methods and source', async () => {
      const res = await request(app.url, 'GET', '/v1/banks?country=NG', { token });
      expect(res.status).toBe(200);
      expect(res.body.meta).toEqual({ count: res.body.data.length });
      const gtbank = res.body.data.find((b: any) => b.code === '058');
      expect(gtbank).toEqual({
        code: '058',
        name: 'Guaranty Trust Bank',
        country_code: 'NG',
        type: 'bank',
        network_id: 'ng_gtbank',
        methods: ['transfer', 'collection', 'account_resolution'],
        source: expect.stringContaining('Paystack'),
      });
      const kuda = res.body.data.find((b: any) => b.code === '50211');
      expect(kuda).toMatchObject({ name: 'Kuda Bank', network_id: null, methods: ['account_resolution'] });
      expect(res.body.data.find((b: any) => b.code === '999992')).toMatchObject({ name: 'OPay', type: 'mobile_money', network_id: 'ng_opay' });
    });

    it('reads the country in any case; a supported country without codes is an empty list; an unknown one 404; a bad one 400', async () => {
      expect((await request(app.url, 'GET', '/v1/banks?country=ke', { token })).body.data.map((b: any) => b.code)).toContain('68');
      expect((await request(app.url, 'GET', '/v1/banks?country=GH', { token })).body).toMatchObject({ data: [], meta: { count: 0 } });
      expect((await request(app.url, 'GET', '/v1/banks?country=FR', { token })).status).toBe(404);
      const bad = await request(app.url, 'GET', '/v1/banks?country=NGA', { token });
      expect(bad.status).toBe(400);
      expect(bad.body.details).toEqual([{ field: 'country', issue: expect.any(String) }]);
      expect((await request(app.url, 'GET', '/v1/banks?country=NG')).status).toBe(401);
    });

    it('shows a network’s local code, null where none is listed', async () => {
      const res = await request(app.url, 'GET', '/v1/crossborder/networks?country_code=NG&channel=bank', { token });
      expect(res.body.data).toContainEqual(expect.objectContaining({ network_id: 'ng_gtbank', code: 'GTBINGLA', local_code: '058' }));
      const gh = await request(app.url, 'GET', '/v1/crossborder/networks?country_code=GH&channel=momo', { token });
      expect(gh.body.data.every((n: any) => n.local_code === null)).toBe(true);
    });
  });

  describe('POST /v1/accounts/resolve (the sandbox’s table)', () => {
    it('names the holder by the account number’s last digit, for a bank by code or a wallet by network', async () => {
      expect(await resolve({ country: 'NG', bank_code: '058', account_number: '0123456781' })).toMatchObject({
        status: 200,
        body: { status: 'success', data: { account_name: 'Chinedu Emeka Nwosu' } },
      });
      const wallet = await resolve({ country: 'KE', network: 'ke_mpesa', account_number: '+254 712 345 674' });
      expect(wallet.body.data).toEqual({ account_name: 'Wanjiru Kamau' });
      const bankNetwork = await resolve({ country: 'ke', network: 'ke_equity_bank', account_number: '0011223349' });
      expect(bankNetwork.body.data).toEqual({ account_name: 'Zoë Adébáyọ̀' });
    });

    it('404 when no such account, 503 when the provider cannot answer', async () => {
      const missing = await resolve({ country: 'NG', bank_code: '044', account_number: '0690000000' });
      expect(missing.status).toBe(404);
      expect(missing.body).toMatchObject({ status: 'error', code: 'NOT_FOUND' });
      expect((await resolve({ country: 'KE', bank_code: '01', account_number: '1234ABCD' })).status).toBe(404);
      const down = await resolve({ country: 'NG', bank_code: '044', account_number: '0690009999' });
      expect(down.status).toBe(503);
      expect(down.body.code).toBe('PROVIDER_UNAVAILABLE');
    });

    it.each([
      [{ country: 'NG', account_number: '0123456781' }, 'bank_code'],
      [{ country: 'NG', bank_code: '058', network: 'ng_gtbank', account_number: '0123456781' }, 'bank_code'],
      [{ country: 'NG', bank_code: '123', account_number: '0123456781' }, 'bank_code'],
      [{ country: 'NG', bank_code: '58', account_number: '0123456781' }, 'bank_code'],
      [{ country: 'NG', network: 'ke_mpesa', account_number: '712345678' }, 'network'],
      [{ country: 'XX', bank_code: '058', account_number: '0123456781' }, 'country'],
      [{ country: 'NG', bank_code: '058', account_number: '01-2345' }, 'account_number'],
      [{ country: 'KE', network: 'ke_mpesa', account_number: 'abcd12' }, 'account_number'],
      [{ country: 'NG', bank_code: '058' }, 'account_number'],
      [{ country: 'NG', bank_code: 58, account_number: '0123456781' }, 'bank_code'],
    ])('400 naming the field: %j', async (body, field) => {
      const res = await resolve(body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'INVALID_REQUEST' });
      expect(res.body.details).toEqual([{ field, issue: expect.any(String) }]);
    });
  });

  describe('the transfer name check', () => {
    // The sandbox names wallet 712345678 (last digit 8) "Grace Achieng Otieno".
    it('sends a transfer whose beneficiary_name matches by the rule (order, case, a missing middle name)', async () => {
      for (const name of ['Grace Achieng Otieno', 'OTIENO grace', 'Grace Otieno']) {
        const res = await transfer(transferBody(customer, { beneficiary_name: name }));
        expect(res.status).toBe(200);
      }
    });

    it('refuses a mismatch with 422 BENEFICIARY_NAME_MISMATCH, writing and sending nothing', async () => {
      const before = await transactionCount(app);
      const body = transferBody(customer, { beneficiary_name: 'Jane Wanjiru' });
      const res = await transfer(body);
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ status: 'error', code: 'BENEFICIARY_NAME_MISMATCH', message: expect.stringContaining('Grace Achieng Otieno') });
      expect(await transactionCount(app)).toBe(before);
      expect(await sql(app, 'select 1 from "transaction" where external_reference = ?', [body.reference])).toEqual([]);
    });

    it('refuses with 404 an account that does not exist and with 503 one the provider cannot check, writing nothing', async () => {
      const before = await transactionCount(app);
      expect((await transfer(transferBody(customer, { account_number: '712340000', beneficiary_name: 'Jane Wanjiru' }))).status).toBe(404);
      expect((await transfer(transferBody(customer, { account_number: '712349999', beneficiary_name: 'Jane Wanjiru' }))).body.code).toBe(
        'PROVIDER_UNAVAILABLE',
      );
      expect(await transactionCount(app)).toBe(before);
    });

    it('asks nothing without beneficiary_name (account_name alone is not checked)', async () => {
      expect((await transfer(transferBody(customer, { account_number: '712340000' }))).status).toBe(200);
    });

    it('is skipped once the merchant turns it off (audited), and applies again when turned on; other merchants unaffected', async () => {
      expect((await request(app.url, 'GET', '/v1/transfers/name-check', { token })).body.data).toEqual({ enabled: true });
      expect((await setNameCheck(false)).body.data).toEqual({ enabled: false });
      expect((await request(app.url, 'GET', '/v1/transfers/name-check', { token: otherToken })).body.data).toEqual({ enabled: true });
      expect((await transfer(transferBody(customer, { beneficiary_name: 'Jane Wanjiru' }))).status).toBe(200);
      const audit = await sql(app, `select action, before, after from audit_log where action = 'transfers.name_check_changed'`);
      expect(audit).toEqual([{ action: 'transfers.name_check_changed', before: { enabled: true }, after: { enabled: false } }]);
      await setNameCheck(false); // no change: no second entry
      expect(await sql(app, `select 1 from audit_log where action = 'transfers.name_check_changed'`)).toHaveLength(1);
      expect((await setNameCheck(true)).body.data).toEqual({ enabled: true });
      expect((await transfer(transferBody(customer, { beneficiary_name: 'Jane Wanjiru' }))).status).toBe(422);
    });

    it('refuses a malformed setting or beneficiary_name with 400 naming the field', async () => {
      const bad = await setNameCheck('no');
      expect(bad.status).toBe(400);
      expect(bad.body.details).toEqual([{ field: 'enabled', issue: expect.any(String) }]);
      const blank = await transfer(transferBody(customer, { beneficiary_name: '   ' }));
      expect(blank.status).toBe(400);
      expect(blank.body.details).toEqual([{ field: 'beneficiary_name', issue: expect.any(String) }]);
    });
  });
});

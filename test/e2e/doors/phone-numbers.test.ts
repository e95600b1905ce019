import { approvedCustomer, enrollBody, enrollInput } from '../../helpers/factories';
import { graphql, request } from '../../helpers/http';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import {
  bankCollectionBody,
  getTransaction,
  momoCollectionBody,
  momoCollectionInput,
  momoTransferInput,
  sql,
  transactionCount,
  transferBody,
} from '../../helpers/transactions';

/**
 * CONTRACT §6a (issue 24): one phone-number form, the national number without the dial code, for
 * a customer's phone_number and a wallet's account_number. Every unambiguous form is stored as it,
 * through either door; anything else is INVALID_REQUEST naming the field in the door's language.
 * A bank collection's network_id names the bank of its virtual account (the sandbox).
 */

const ENROLL = 'mutation($input: EnrollCustomerInput!) { enrollCustomer(input: $input) { customerUuid phoneNumber dialCode } }';
const TXN = 'reference accountNumber beneficiary { accountNumber } bankInfo { accountName accountNumber bankName bankCode }';
const COLLECT = `mutation($input: InitiateCollectionInput!) { initiateCollection(input: $input) { ${TXN} } }`;
const TRANSFER = `mutation($input: InitiateTransferInput!) { initiateTransfer(input: $input) { ${TXN} } }`;

/** The forms the issue names, and the separators people type: all one Kenyan number. */
const KENYAN_FORMS = ['712345678', '0712345678', '254712345678', '+254712345678', '+254 712 345 678', '+254-712-345-678', '+254 (0) 712 345 678'];
const KE_FORM = 'must be the national number: 7 to 9 digits without the dial code (+254) or a leading 0, e.g. 712345678';

type GqlResult = Awaited<ReturnType<typeof graphql<any>>>;
const gqlDetails = (res: GqlResult) => {
  expect(res.body.errors).toHaveLength(1);
  expect(res.body.errors![0]!.extensions?.code).toBe('INVALID_REQUEST');
  return res.body.errors![0]!.extensions!.details;
};

describe('one phone-number rule through both doors (CONTRACT §6a)', () => {
  let app: TestApp;
  let token: string;
  let ke: string;

  beforeAll(async () => {
    app = await createTestApp({ env: { SANDBOX_SETTLE_MS: '60000' } });
    const merchant = await app.createMerchant('Phone Numbers');
    token = (await app.token(merchant)).accessToken;
    ke = (await approvedCustomer(app, token)).customer_uuid;
  });
  afterAll(() => app.close());

  const storedPhone = async (uuid: string) =>
    (await sql<{ phone_number: string }>(app, 'select phone_number from customer where id = ?', [uuid]))[0]!.phone_number;
  const storedAccount = async (reference: string) =>
    (await sql<{ account_number: string }>(app, 'select account_number from "transaction" where reference = ?', [reference]))[0]!.account_number;

  describe('a customer’s phone_number', () => {
    it.each(KENYAN_FORMS)('REST: %j is enrolled and stored as 712345678', async (phone_number) => {
      const res = await request(app.url, 'POST', '/v1/customer/enroll', { token, body: enrollBody({ phone_number }) });
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({ phone_number: '712345678', dial_code: '+254' });
      expect(await storedPhone(res.body.data.customer_uuid)).toBe('712345678');
      const read = await request(app.url, 'GET', `/v1/customer/${res.body.data.customer_uuid}`, { token });
      expect(read.body.data.phone_number).toBe('712345678');
    });

    it.each(KENYAN_FORMS)('GraphQL: %j is enrolled and stored as 712345678', async (phoneNumber) => {
      const res = await graphql(app.url, ENROLL, { token, variables: { input: enrollInput({ phone_number: phoneNumber }) } });
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.enrollCustomer).toMatchObject({ phoneNumber: '712345678', dialCode: '+254' });
      expect(await storedPhone(res.body.data.enrollCustomer.customerUuid)).toBe('712345678');
    });

    it('a number whose 0 is its own keeps it (Côte d’Ivoire), in either door', async () => {
      const ci = { country_code: 'CI', dial_code: '+225', phone_number: '+225 07 01 23 45 67' };
      const rest = await request(app.url, 'POST', '/v1/customer/enroll', { token, body: enrollBody(ci) });
      expect(rest.body.data).toMatchObject({ phone_number: '0701234567', dial_code: '+225' });
      const gql = await graphql(app.url, ENROLL, { token, variables: { input: enrollInput({ ...ci, phone_number: '2250701234567' }) } });
      expect(gql.body.data.enrollCustomer).toMatchObject({ phoneNumber: '0701234567' });
    });

    it.each([
      ['another country’s number', '+256712345678', `is not a +254 number; it ${KE_FORM}`],
      ['too many digits', '07123456789', KE_FORM],
      ['too few digits', '0712345', KE_FORM],
    ])('%s is INVALID_REQUEST naming phone_number / phoneNumber, and nothing is enrolled', async (_what, phone, issue) => {
      const before = (await sql<{ n: number }>(app, 'select count(*)::int as n from customer'))[0]!.n;
      const rest = await request(app.url, 'POST', '/v1/customer/enroll', { token, body: enrollBody({ phone_number: phone }) });
      expect(rest.status).toBe(400);
      expect(rest.body).toMatchObject({ code: 'INVALID_REQUEST', details: [{ field: 'phone_number', issue }] });
      expect(rest.body.message).toBe(`phone_number ${issue}`);
      const gql = await graphql(app.url, ENROLL, { token, variables: { input: enrollInput({ phone_number: phone }) } });
      expect(gqlDetails(gql)).toEqual([{ field: 'phoneNumber', issue }]);
      expect((await sql<{ n: number }>(app, 'select count(*)::int as n from customer'))[0]!.n).toBe(before);
    });

    it('letters are refused with the body, in either door', async () => {
      const rest = await request(app.url, 'POST', '/v1/customer/enroll', { token, body: enrollBody({ phone_number: '07I2345678' }) });
      expect(rest.status).toBe(400);
      expect(rest.body.details).toEqual([{ field: 'phone_number', issue: expect.stringMatching(/^must be a phone number/) }]);
      const gql = await graphql(app.url, ENROLL, { token, variables: { input: enrollInput({ phone_number: 'call me' }) } });
      expect(gqlDetails(gql)).toEqual([{ field: 'phoneNumber', issue: expect.stringMatching(/^must be a phone number/) }]);
    });
  });

  describe('a wallet’s account_number', () => {
    it.each(KENYAN_FORMS)('REST collection and transfer: %j is stored and answered as 712345678', async (account_number) => {
      const col = await request(app.url, 'POST', '/v1/crossborder/global-collection', { token, body: momoCollectionBody(ke, { account_number }) });
      expect(col.status).toBe(200);
      expect(await storedAccount(col.body.data.reference)).toBe('712345678');
      expect((await getTransaction(app, token, col.body.data.reference)).body.data.account_number).toBe('712345678');
      const trf = await request(app.url, 'POST', '/v1/crossborder/global-transfer', { token, body: transferBody(ke, { account_number }) });
      expect(trf.status).toBe(200);
      expect(trf.body.data.beneficiary).toMatchObject({ account_number: '712345678', network_id: 'ke_mpesa' });
      expect(await storedAccount(trf.body.data.reference)).toBe('712345678');
    });

    it.each(KENYAN_FORMS)('GraphQL collection and transfer: %j is stored and answered as 712345678', async (accountNumber) => {
      const col = await graphql(app.url, COLLECT, { token, variables: { input: momoCollectionInput(ke, { accountNumber }) } });
      expect(col.body.errors).toBeUndefined();
      expect(col.body.data.initiateCollection).toMatchObject({ accountNumber: '712345678', bankInfo: null });
      expect(await storedAccount(col.body.data.initiateCollection.reference)).toBe('712345678');
      const trf = await graphql(app.url, TRANSFER, { token, variables: { input: momoTransferInput(ke, { accountNumber }) } });
      expect(trf.body.errors).toBeUndefined();
      expect(trf.body.data.initiateTransfer).toMatchObject({ accountNumber: '712345678', beneficiary: { accountNumber: '712345678' } });
    });

    it.each([
      ['another country’s number', '+256712345678', `is not a +254 number; it ${KE_FORM}`],
      ['too many digits', '07123456789', KE_FORM],
      ['letters', '0712X45678', 'must be the wallet’s phone number, digits only'],
    ])('%s is INVALID_REQUEST naming account_number / accountNumber, and nothing is written', async (_what, number, issue) => {
      const before = await transactionCount(app);
      for (const [path, body] of [
        ['/v1/crossborder/global-collection', momoCollectionBody(ke, { account_number: number })],
        ['/v1/crossborder/global-transfer', transferBody(ke, { account_number: number })],
      ] as const) {
        const res = await request(app.url, 'POST', path, { token, body });
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ code: 'INVALID_REQUEST', details: [{ field: 'account_number', issue }] });
      }
      expect(gqlDetails(await graphql(app.url, COLLECT, { token, variables: { input: momoCollectionInput(ke, { accountNumber: number }) } }))).toEqual([
        { field: 'accountNumber', issue },
      ]);
      expect(gqlDetails(await graphql(app.url, TRANSFER, { token, variables: { input: momoTransferInput(ke, { accountNumber: number }) } }))).toEqual([
        { field: 'accountNumber', issue },
      ]);
      expect(await transactionCount(app)).toBe(before);
    });

    it('the dial code is checked before the number it names the plan of', async () => {
      const res = await request(app.url, 'POST', '/v1/crossborder/global-collection', {
        token,
        body: momoCollectionBody(ke, { dial_code: '+256', account_number: '+256772123456' }),
      });
      expect(res.body.details).toEqual([{ field: 'dial_code', issue: 'must be +254 for KE' }]);
    });
  });

  describe('a bank account_number is not a phone number', () => {
    it('is kept exactly as given, leading 0 and all', async () => {
      const trf = await request(app.url, 'POST', '/v1/crossborder/global-transfer', {
        token,
        body: transferBody(ke, { channel_id: 'ke_bank_withdrawal', network_id: 'ke_equity_bank', account_type: 'bank', account_number: '0254712345' }),
      });
      expect(trf.status).toBe(200);
      expect(trf.body.data.beneficiary).toMatchObject({ account_number: '0254712345', network_id: 'ke_equity_bank' });
    });

    it('with separators or a plus sign is refused with the body (INVALID_REQUEST naming account_number)', async () => {
      const before = await transactionCount(app);
      const res = await request(app.url, 'POST', '/v1/crossborder/global-collection', {
        token,
        body: bankCollectionBody(ke, { account_number: '+0123 456-789' }),
      });
      expect(res.status).toBe(400);
      expect(res.body.details).toEqual([{ field: 'account_number', issue: 'must be 4 to 34 letters or digits (a bank account number)' }]);
      const gql = await graphql(app.url, COLLECT, {
        token,
        variables: {
          input: momoCollectionInput(ke, {
            channelId: 'ke_bank_deposit',
            networkId: 'ke_kcb',
            accountType: 'BANK',
            accountNumber: '0123 4567',
            amount: '5000',
          }),
        },
      });
      expect(gqlDetails(gql)).toEqual([{ field: 'accountNumber', issue: 'must be 4 to 34 letters or digits (a bank account number)' }]);
      expect(await transactionCount(app)).toBe(before);
    });
  });

  describe('a bank collection’s network_id names the bank of its virtual account (sandbox)', () => {
    it.each([
      ['ke_equity_bank', 'Equity Bank Kenya', 'EQBLKENA'],
      ['ke_kcb', 'KCB Bank Kenya', 'KCBLKENX'],
      ['ke_absa', 'Absa Bank Kenya', 'BARCKENX'],
    ])('REST: %s → %s', async (network_id, bankName, bankCode) => {
      const res = await request(app.url, 'POST', '/v1/crossborder/global-collection', { token, body: bankCollectionBody(ke, { network_id }) });
      expect(res.status).toBe(200);
      expect(res.body.data.bankInfo).toMatchObject({ bankName, bankCode, accountName: 'Amina Otieno' });
      expect((await getTransaction(app, token, res.body.data.reference)).body.data).toMatchObject({ network_id, bankInfo: { bankName, bankCode } });
    });

    it('GraphQL: ke_equity_bank → Equity Bank Kenya', async () => {
      const res = await graphql(app.url, COLLECT, {
        token,
        variables: {
          input: momoCollectionInput(ke, {
            channelId: 'ke_bank_deposit',
            networkId: 'ke_equity_bank',
            accountType: 'BANK',
            accountNumber: '0123456789',
            amount: '5000',
          }),
        },
      });
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.initiateCollection.bankInfo).toMatchObject({ bankName: 'Equity Bank Kenya', bankCode: 'EQBLKENA' });
    });
  });
});

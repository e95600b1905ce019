import { approvedCustomer, awaitKycDecision, enroll, kycBody, twoMerchants } from '../../helpers/factories';
import { request } from '../../helpers/http';
import { runJobsNow, transactionIdOf } from '../../helpers/jobs';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import {
  awaitFinalStatus,
  bankCollectionBody,
  getTransaction,
  historyRows,
  momoCollectionBody,
  newReference,
  outboxRows,
  sql,
  transactionCount,
  transferBody,
} from '../../helpers/transactions';

const COLLECT = '/v1/crossborder/global-collection';
const SERVICE_REFERENCE = /^col_[0-9a-f]{24}$/;
const RANDOM_UUID = '3f1c2d4e-0000-4000-8000-000000000000';
/** Generous bounds for background work: the settle queue is worked one job per poll per instance. */
const SETTLE_WAIT = { attempts: 400, everyMs: 100 };

const simulatePath = (reference: string) => `/v1/sandbox/transactions/${encodeURIComponent(reference)}/simulate`;

describe('REST POST /v1/crossborder/global-collection', () => {
  let app: TestApp;
  let token: string;
  let otherToken: string;
  /** Approved customers of the main merchant: Kenya (KES), Uganda (UGX, no decimals), Senegal (XOF, no decimals). */
  let ke: string;
  let ug: string;
  let sn: string;
  /** Enrolled, never submitted KYC. */
  let notSubmitted: string;
  /** KYC rejected. */
  let rejected: string;
  /** Another merchant's approved customer. */
  let othersCustomer: string;

  beforeAll(async () => {
    app = await createTestApp({ env: { SANDBOX_SETTLE_MS: '100' } });
    const { mine, theirs } = await twoMerchants(app, 'Collections Merchant');
    [token, otherToken] = [mine.token, theirs.token];
    const rejectedCustomer = await enroll(app, token);
    await request(app.url, 'POST', `/v1/customer/${rejectedCustomer.customer_uuid}/kyc`, { token, body: kycBody({ id_number: 'REJECT-42' }) });
    const [k, u, s, n, o] = await Promise.all([
      approvedCustomer(app, token),
      approvedCustomer(app, token, { country_code: 'UG', dial_code: '+256', phone_number: '772123456' }),
      approvedCustomer(app, token, { country_code: 'SN', dial_code: '+221', phone_number: '771234567' }),
      enroll(app, token),
      approvedCustomer(app, otherToken),
      awaitKycDecision(app, token, rejectedCustomer.customer_uuid),
    ]);
    [ke, ug, sn, notSubmitted, othersCustomer] = [k!.customer_uuid, u!.customer_uuid, s!.customer_uuid, n!.customer_uuid, o!.customer_uuid];
    rejected = rejectedCustomer.customer_uuid;
  });
  afterAll(() => app.close());

  /** `auth` null: no Authorization header at all. */
  const collect = (body: unknown, auth: string | null = token) => request(app.url, 'POST', COLLECT, { token: auth ?? undefined, body });

  /** Posts a body that must be refused, and checks that no transaction row was created. */
  async function refused(body: unknown, auth: string | null = token) {
    const before = await transactionCount(app);
    const res = await collect(body, auth);
    expect(await transactionCount(app)).toBe(before);
    return res;
  }

  function expectInvalid(res: Awaited<ReturnType<typeof collect>>, field: string) {
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 'error', code: 'INVALID_REQUEST', message: expect.any(String) });
    expect(res.body.details).toEqual(expect.arrayContaining([{ field, issue: expect.any(String) }]));
  }

  describe('1. authentication', () => {
    it.each([
      ['no token', null],
      ['a malformed token', 'not-a-jwt'],
    ])('answers %s with 401 INVALID_TOKEN and creates nothing', async (_label, auth) => {
      const res = await refused(momoCollectionBody(ke), auth);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ status: 'error', code: 'INVALID_TOKEN', message: expect.any(String) });
    });
  });

  describe('2. body validation (400 with the field in details)', () => {
    const FIELDS = [
      'customer_uuid',
      'amount',
      'currency',
      'channel_id',
      'account_number',
      'network_id',
      'reason',
      'reference',
      'dial_code',
      'account_type',
      'country_code',
    ];

    it.each(FIELDS)('requires %s', async (field) => {
      const res = await refused(momoCollectionBody(ke, { [field]: undefined }));
      expectInvalid(res, field);
    });

    it('lists every missing field of an empty body', async () => {
      const res = await refused({});
      expect(res.status).toBe(400);
      expect(res.body.details.map((d: { field: string }) => d.field).sort()).toEqual([...FIELDS].sort());
    });

    it.each([
      ['customer_uuid', { customer_uuid: '' }],
      ['customer_uuid', { customer_uuid: 42 }],
      ['amount', { amount: 'abc' }],
      ['amount', { amount: '1e3' }],
      ['amount', { amount: true }],
      ['amount', { amount: '' }],
      ['currency', { currency: 'kes' }],
      ['currency', { currency: 'KSHS' }],
      ['channel_id', { channel_id: '' }],
      ['network_id', { network_id: '  ' }],
      ['account_number', { account_number: '12' }],
      ['account_number', { account_number: '+256712345678' }],
      ['reason', { reason: '   ' }],
      ['reason', { reason: 'x'.repeat(141) }],
      ['reference', { reference: 'has spaces' }],
      ['reference', { reference: 'r'.repeat(101) }],
      ['dial_code', { dial_code: '254' }],
      ['account_type', { account_type: 'card' }],
      ['country_code', { country_code: 'ke' }],
      ['country_code', { country_code: 'Kenya' }],
    ])('rejects a bad %s (%j)', async (field, change) => {
      expectInvalid(await refused(momoCollectionBody(ke, change)), field);
    });

    it.each([
      ['zero', 0],
      ['zero as a string', '0.00'],
      ['negative', -100],
      ['negative as a string', '-100'],
    ])('rejects a %s amount', async (_label, amount) => {
      const res = await refused(momoCollectionBody(ke, { amount }));
      expectInvalid(res, 'amount');
      expect(res.body.details).toEqual([{ field: 'amount', issue: 'must be greater than 0' }]);
    });
  });

  describe('3. the customer exists for this merchant (404)', () => {
    it('answers an unknown customer with 404 NOT_FOUND', async () => {
      const res = await refused(momoCollectionBody(RANDOM_UUID));
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ status: 'error', code: 'NOT_FOUND', message: 'Customer not found' });
    });

    it('answers another merchant’s customer exactly like an unknown one', async () => {
      const theirs = await refused(momoCollectionBody(othersCustomer));
      const unknown = await refused(momoCollectionBody(RANDOM_UUID));
      expect(theirs.status).toBe(404);
      expect(theirs.body).toEqual(unknown.body);
    });
  });

  describe('4. the customer is KYC-approved (403)', () => {
    it.each([
      ['never submitted KYC (pending_kyc)', () => notSubmitted],
      ['was rejected', () => rejected],
    ])('refuses a customer who %s with 403 KYC_REQUIRED', async (_label, customer) => {
      const res = await refused(momoCollectionBody(customer()));
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ status: 'error', code: 'KYC_REQUIRED', message: expect.any(String) });
    });
  });

  describe('5. route: country, channel, network, currency, dial code (400)', () => {
    it('refuses a well-formed country the service does not cover', async () => {
      expectInvalid(await refused(momoCollectionBody(ke, { country_code: 'FR' })), 'country_code');
    });

    it.each([
      ['a withdrawal channel', { channel_id: 'ke_momo_withdrawal' }],
      ['a channel of another country', { channel_id: 'gh_momo_deposit' }],
      ['a channel of the other account type (bank channel, momo account)', { channel_id: 'ke_bank_deposit' }],
      ['a momo channel for a bank account', { account_type: 'bank', network_id: 'ke_kcb' }],
      ['an unknown channel', { channel_id: 'ke_card_deposit' }],
    ])('refuses %s: channel_id', async (_label, change) => {
      const res = await refused(momoCollectionBody(ke, change));
      expectInvalid(res, 'channel_id');
      expect(res.body.details).toHaveLength(1);
    });

    it.each([
      ['a network of another country', { network_id: 'gh_mtn_momo' }],
      ['a network of the other channel type (a bank for momo)', { network_id: 'ke_kcb' }],
      ['a momo operator for a bank collection', { account_type: 'bank', channel_id: 'ke_bank_deposit', network_id: 'ke_mpesa' }],
      ['an unknown network', { network_id: 'ke_not_a_bank' }],
    ])('refuses %s: network_id', async (_label, change) => {
      const res = await refused(momoCollectionBody(ke, change));
      expectInvalid(res, 'network_id');
      expect(res.body.details).toHaveLength(1);
    });

    it.each(['UGX', 'USD'])('refuses currency %s for a Kenyan collection', async (currency) => {
      const res = await refused(momoCollectionBody(ke, { currency }));
      expectInvalid(res, 'currency');
      expect(res.body.details).toEqual([{ field: 'currency', issue: 'must be KES for KE' }]);
    });

    it.each(['+256', '+2540', '+1'])('refuses dial_code %s for Kenya', async (dial_code) => {
      const res = await refused(momoCollectionBody(ke, { dial_code }));
      expectInvalid(res, 'dial_code');
      expect(res.body.details).toEqual([{ field: 'dial_code', issue: 'must be +254 for KE' }]);
    });
  });

  describe('6. amount: the channel’s bounds and the currency’s precision (400)', () => {
    const ugBody = (overrides: Record<string, unknown>) =>
      momoCollectionBody(ug, {
        currency: 'UGX',
        channel_id: 'ug_momo_deposit',
        network_id: 'ug_mtn_momo',
        dial_code: '+256',
        country_code: 'UG',
        account_number: '256772123456',
        ...overrides,
      });
    const snBody = (overrides: Record<string, unknown>) =>
      momoCollectionBody(sn, {
        currency: 'XOF',
        channel_id: 'sn_momo_deposit',
        network_id: 'sn_orange_money',
        dial_code: '+221',
        country_code: 'SN',
        account_number: '221771234567',
        ...overrides,
      });

    it.each([
      ['below the M-Pesa minimum (10 KES)', () => momoCollectionBody(ke, { amount: 9.99 }), 'must be between 10.00 and 250000.00 KES'],
      ['above the M-Pesa maximum (250,000 KES)', () => momoCollectionBody(ke, { amount: '250000.01' }), 'must be between 10.00 and 250000.00 KES'],
      ['above the bank maximum', () => bankCollectionBody(ke, { amount: 10_000_000.01 }), 'must be between 100.00 and 10000000.00 KES'],
      ['with 3 decimals in KES', () => momoCollectionBody(ke, { amount: 10.555 }), 'must have at most 2 decimal places'],
      ['with 3 decimals in KES, as a string', () => momoCollectionBody(ke, { amount: '10.555' }), 'must have at most 2 decimal places'],
      ['with decimals in UGX (no minor unit), within bounds', () => ugBody({ amount: 1000.5 }), 'must be a whole number in this currency'],
      ['of 100.5 UGX', () => ugBody({ amount: 100.5 }), expect.any(String)],
      ['with decimals in XOF (CFA franc, no minor unit)', () => snBody({ amount: '1500.5' }), 'must be a whole number in this currency'],
    ])('refuses an amount %s', async (_label, body, issue) => {
      const res = await refused(body());
      expectInvalid(res, 'amount');
      expect(res.body.details).toEqual([{ field: 'amount', issue }]);
    });

    it.each([
      ['the minimum, 10 KES', () => momoCollectionBody(ke, { amount: 10 }), 10, 'KES'],
      ['the maximum, 250000 KES', () => momoCollectionBody(ke, { amount: '250000' }), 250000, 'KES'],
      // On Airtel Money: M-Pesa takes whole shillings only (docs/providers.md, "Rules").
      ['"100.500" KES (precision is judged on the value)', () => momoCollectionBody(ke, { amount: '100.500', network_id: 'ke_airtel_money' }), 100.5, 'KES'],
      ['1000 UGX', () => ugBody({ amount: 1000 }), 1000, 'UGX'],
      ['"1500" XOF', () => snBody({ amount: '1500' }), 1500, 'XOF'],
    ])('accepts %s', async (_label, body, amount, currency) => {
      const res = await collect(body());
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ amount, currency, status: 'processing' });
    });
  });

  describe('7. the reference is unused by this merchant (409)', () => {
    it('answers a reused reference with 409 DUPLICATE_REQUEST naming the existing transaction', async () => {
      const body = momoCollectionBody(ke);
      const first = await collect(body);
      expect(first.status).toBe(200);
      const again = await refused({ ...body, amount: 2000 });
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({ status: 'error', code: 'DUPLICATE_REQUEST' });
      expect(again.body.details).toEqual([{ field: 'reference', issue: expect.stringContaining(first.body.data.reference) }]);
    });

    it('shares references with transfers: a transfer’s reference cannot be reused for a collection', async () => {
      const reference = newReference('shared');
      const transfer = await request(app.url, 'POST', '/v1/crossborder/global-transfer', { token, body: transferBody(ke, { reference }) });
      expect(transfer.status).toBe(200);
      const res = await refused(bankCollectionBody(ke, { reference }));
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('DUPLICATE_REQUEST');
      expect(res.body.details[0].issue).toContain(transfer.body.data.reference);
    });

    it('does not spend a reference on a refused request', async () => {
      const reference = newReference('retry');
      expectInvalid(await refused(momoCollectionBody(ke, { reference, amount: 1 })), 'amount');
      expect((await collect(momoCollectionBody(ke, { reference }))).status).toBe(200);
    });
  });

  describe('CONTRACT §6 check order', () => {
    it('checks the token before the body', async () => {
      expect((await refused({ amount: -1 }, null)).status).toBe(401);
    });

    it('validates the body before looking up the customer (missing reason + unknown customer → 400 reason)', async () => {
      expectInvalid(await refused(momoCollectionBody(RANDOM_UUID, { reason: undefined })), 'reason');
    });

    it('finds the customer before judging the route (unknown customer + bad currency → 404)', async () => {
      expect((await refused(momoCollectionBody(RANDOM_UUID, { currency: 'UGX' }))).status).toBe(404);
    });

    it('checks KYC before the channel (unapproved customer + bad channel → 403)', async () => {
      const res = await refused(momoCollectionBody(notSubmitted, { channel_id: 'gh_momo_deposit' }));
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('KYC_REQUIRED');
    });

    it.each([
      ['channel before network', { channel_id: 'ke_momo_withdrawal', network_id: 'gh_mtn_momo' }, 'channel_id'],
      ['channel before amount', { channel_id: 'ke_momo_withdrawal', amount: 999_999_999 }, 'channel_id'],
      ['network before currency', { network_id: 'gh_mtn_momo', currency: 'GHS' }, 'network_id'],
      ['currency before dial code', { currency: 'GHS', dial_code: '+233' }, 'currency'],
      ['dial code before amount', { dial_code: '+233', amount: 5 }, 'dial_code'],
    ])('%s', async (_label, change, field) => {
      const res = await refused(momoCollectionBody(ke, change));
      expect(res.status).toBe(400);
      expect(res.body.details).toEqual([{ field, issue: expect.any(String) }]);
    });

    it('amount before reference (bad amount + reused reference → 400 amount, not 409)', async () => {
      const used = momoCollectionBody(ke);
      expect((await collect(used)).status).toBe(200);
      expectInvalid(await refused({ ...used, amount: 5 }), 'amount');
    });
  });

  describe('response shapes', () => {
    it('momo: exactly reference, external_reference, status processing, amount as a JSON number, currency, account_type', async () => {
      // On Airtel Money: M-Pesa takes whole shillings only (docs/providers.md, "Rules").
      const body = momoCollectionBody(ke, { amount: '1500.50', network_id: 'ke_airtel_money' });
      const res = await collect(body);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        status: 'success',
        message: expect.any(String),
        data: {
          reference: expect.stringMatching(SERVICE_REFERENCE),
          external_reference: body.reference,
          status: 'processing',
          amount: 1500.5,
          currency: 'KES',
          // Issue 19: the fee (1 % by default) shows at initiation, as in the quote and the balance transaction.
          fee: 15.01,
          account_type: 'momo',
        },
      });
      expect(typeof res.body.data.amount).toBe('number');
      expect(res.text).toContain('"amount":1500.5');
      expect(res.body.data).not.toHaveProperty('bankInfo');
    });

    it('bank: the same plus bankInfo with exactly accountName, accountNumber, bankName, bankCode (all strings) and localCode (issue 38)', async () => {
      const body = bankCollectionBody(ke, { amount: 5000 });
      const res = await collect(body);
      expect(res.status).toBe(200);
      const { data } = res.body;
      expect(Object.keys(data).sort()).toEqual(['account_type', 'amount', 'bankInfo', 'currency', 'external_reference', 'fee', 'reference', 'status']);
      expect(data).toMatchObject({ external_reference: body.reference, status: 'processing', amount: 5000, currency: 'KES', account_type: 'bank' });
      expect(data.reference).toMatch(SERVICE_REFERENCE);
      expect(Object.keys(data.bankInfo).sort()).toEqual(['accountName', 'accountNumber', 'bankCode', 'bankName', 'localCode']);
      const { localCode, ...spec } = data.bankInfo;
      for (const value of Object.values(spec)) {
        expect(typeof value).toBe('string');
        expect((value as string).length).toBeGreaterThan(0);
      }
      expect(data.bankInfo.accountName).toBe('Amina Otieno');
      // The sandbox's virtual bank is one of the country's real banks, named with its code.
      const banks = await request(app.url, 'GET', '/v1/crossborder/networks?country_code=KE&channel=bank', { token });
      expect(banks.body.data).toContainEqual(expect.objectContaining({ name: data.bankInfo.bankName, code: data.bankInfo.bankCode, local_code: localCode }));
      expect(localCode).toMatch(/^\d{2}$/); // Kenya's CBK bank code of that bank
    });

    it('gives every bank collection its own account number', async () => {
      const [a, b] = await Promise.all([collect(bankCollectionBody(ke)), collect(bankCollectionBody(ke))]);
      expect(a.status).toBe(200);
      expect(b.status).toBe(200);
      expect(a.body.data.bankInfo.accountNumber).not.toBe(b.body.data.bankInfo.accountNumber);
      const rows = await sql(app, 'select reference, virtual_account_number from "transaction" where reference in (?, ?)', [
        a.body.data.reference,
        b.body.data.reference,
      ]);
      const byReference = Object.fromEntries(rows.map((r: any) => [r.reference, r.virtual_account_number]));
      expect(byReference[a.body.data.reference]).toBe(a.body.data.bankInfo.accountNumber);
      expect(byReference[b.body.data.reference]).toBe(b.body.data.bankInfo.accountNumber);
    });
  });

  describe('mobile money settlement (sandbox rule, SANDBOX_SETTLE_MS=100)', () => {
    it.each([
      ['254712345678', 'successful', null],
      ['254712345000', 'failed', 'payment_declined_by_sender'],
    ])('account %s → %s, with one outbox event equal to the status record, and its history', async (account_number, status, failureReason) => {
      const created = await collect(momoCollectionBody(ke, { account_number }));
      expect(created.status).toBe(200);
      expect(created.body.data.status).toBe('processing');
      const { reference } = created.body.data;

      const record = await awaitFinalStatus(app, token, reference, SETTLE_WAIT);
      expect(record).toMatchObject({ reference, type: 'collection', status, failure_reason: failureReason });
      expect(record.completed_at).toEqual(expect.any(String));

      const events = await outboxRows(app, reference);
      expect(events).toHaveLength(1);
      expect(events[0]!.type).toBe(`collection.${status}`);
      expect(events[0]!.payload).toEqual(record);

      const history = await historyRows(app, reference);
      expect(history.map((h) => [h.from_status, h.to_status])).toEqual([
        [null, 'processing'],
        ['processing', status],
      ]);
    });
  });

  describe('bank collections', () => {
    it('stay processing (the settle job does not decide them) until paid: simulate → successful, then 409', async () => {
      const bank = await collect(bankCollectionBody(ke));
      expect(bank.status).toBe(200);
      const { reference } = bank.body.data;
      // A mobile money collection made after it is settled; the bank one is still waiting for the sender.
      const witness = await collect(momoCollectionBody(ke));
      await awaitFinalStatus(app, token, witness.body.data.reference, SETTLE_WAIT);
      expect((await getTransaction(app, token, reference)).body.data.status).toBe('processing');
      expect(await historyRows(app, reference)).toHaveLength(1);
      expect(await outboxRows(app, reference)).toHaveLength(0);

      const paid = await request(app.url, 'POST', simulatePath(reference), { token, body: { outcome: 'successful' } });
      expect(paid.status).toBe(200);
      expect(paid.body.data).toMatchObject({ reference, type: 'collection', status: 'successful', failure_reason: null });
      const status = (await getTransaction(app, token, reference)).body.data;
      expect(paid.body.data).toEqual(status);

      const events = await outboxRows(app, reference);
      expect(events.map((e) => e.type)).toEqual(['collection.successful']);
      expect(events[0]!.payload).toEqual(status);
      expect((await historyRows(app, reference)).map((h) => h.to_status)).toEqual(['processing', 'successful']);

      for (const outcome of ['successful', 'failed']) {
        const again = await request(app.url, 'POST', simulatePath(reference), { token, body: { outcome } });
        expect(again.status).toBe(409);
        expect(again.body).toMatchObject({ status: 'error', code: 'INVALID_STATE' });
      }
      expect(await outboxRows(app, reference)).toHaveLength(1);
      expect((await getTransaction(app, token, reference)).body.data.status).toBe('successful');
    });

    it('can be simulated failed, by the merchant’s own reference', async () => {
      const body = bankCollectionBody(ke);
      const bank = await collect(body);
      const failed = await request(app.url, 'POST', simulatePath(body.reference), { token, body: { outcome: 'failed' } });
      expect(failed.status).toBe(200);
      expect(failed.body.data).toMatchObject({ reference: bank.body.data.reference, status: 'failed', failure_reason: 'simulated_failure' });
      const events = await outboxRows(app, bank.body.data.reference);
      expect(events.map((e) => e.type)).toEqual(['collection.failed']);
      expect(events[0]!.payload).toEqual((await getTransaction(app, token, bank.body.data.reference)).body.data);
    });

    it('a settled mobile money collection cannot be simulated again', async () => {
      const momo = await collect(momoCollectionBody(ke));
      await awaitFinalStatus(app, token, momo.body.data.reference, SETTLE_WAIT);
      const res = await request(app.url, 'POST', simulatePath(momo.body.data.reference), { token, body: { outcome: 'failed' } });
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('INVALID_STATE');
    });
  });

  describe('the sandbox simulate route', () => {
    let reference: string;
    beforeAll(async () => {
      reference = (await collect(bankCollectionBody(ke))).body.data.reference;
    });

    it.each([
      ['an unknown outcome', { outcome: 'maybe' }],
      ['expired (not a simulated outcome)', { outcome: 'expired' }],
      ['processing', { outcome: 'processing' }],
      ['no outcome', {}],
    ])('answers %s with 400 outcome and changes nothing', async (_label, body) => {
      const res = await request(app.url, 'POST', simulatePath(reference), { token, body });
      expectInvalid(res, 'outcome');
      expect((await getTransaction(app, token, reference)).body.data.status).toBe('processing');
      expect(await outboxRows(app, reference)).toHaveLength(0);
    });

    it('answers an unknown reference with 404 NOT_FOUND, and another merchant’s exactly the same', async () => {
      const unknown = await request(app.url, 'POST', simulatePath('col_000000000000000000000000'), { token, body: { outcome: 'successful' } });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ status: 'error', code: 'NOT_FOUND', message: expect.any(String) });
      const theirs = await request(app.url, 'POST', simulatePath(reference), { token: otherToken, body: { outcome: 'successful' } });
      expect(theirs.status).toBe(404);
      expect(theirs.body).toEqual(unknown.body);
      expect((await getTransaction(app, token, reference)).body.data.status).toBe('processing');
    });

    it('needs a token', async () => {
      const res = await request(app.url, 'POST', simulatePath(reference), { body: { outcome: 'successful' } });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('INVALID_TOKEN');
    });
  });
});

describe('bank collection expiry, driven by the service clock (COLLECTION_TTL_S default, 24 h)', () => {
  const TTL_MS = 86_400_000;
  let app: TestApp;
  let token: string;
  let customer: string;
  let merchant: Awaited<ReturnType<TestApp['createMerchant']>>;

  beforeAll(async () => {
    app = await createTestApp({ env: { SANDBOX_SETTLE_MS: '100' } });
    merchant = await app.createMerchant('Expiry Merchant');
    token = (await app.token(merchant)).accessToken;
    customer = (await approvedCustomer(app, token)).customer_uuid;
  });
  afterAll(() => app.close());

  /** Moves the service's clock on; access tokens live an hour by that clock, so a fresh one. */
  const advance = async (ms: number) => {
    app.clock.advance(ms);
    token = (await app.token(merchant)).accessToken;
  };

  const createBankCollection = async () => {
    const created = await request(app.url, 'POST', COLLECT, { token, body: bankCollectionBody(customer) });
    expect(created.status).toBe(200);
    const reference: string = created.body.data.reference;
    return { reference, id: await transactionIdOf(app.db.url, reference) };
  };

  it('a job that runs before the deadline (by the service clock) changes nothing and comes back at the deadline', async () => {
    const { reference, id } = await createBankCollection();
    await advance(TTL_MS - 1000);
    const waiting = await runJobsNow(app.db.url, 'expire-collection', id);
    expect((await getTransaction(app, token, reference)).body.data.status).toBe('processing');
    expect(await outboxRows(app, reference)).toEqual([]);
    // One job in its place, due when the service's clock reaches the deadline (1 s on, by the database's clock).
    expect(waiting).toHaveLength(1);
    const inMs = new Date(waiting[0]!.run_at).getTime() - Date.now();
    expect(inMs).toBeGreaterThan(0);
    expect(inMs).toBeLessThanOrEqual(1000 + 5000);
  });

  it('expires an unpaid bank collection at its deadline, with a collection.expired event; simulate is then 409', async () => {
    const { reference, id } = await createBankCollection();
    const status = await getTransaction(app, token, reference);
    expect(status.body.data.expires_at).toBe(new Date(app.clock.now().getTime() + TTL_MS).toISOString());

    await advance(TTL_MS);
    expect(await runJobsNow(app.db.url, 'expire-collection', id)).toEqual([]);
    const record = (await getTransaction(app, token, reference)).body.data;
    expect(record).toMatchObject({
      status: 'expired',
      failure_reason: 'not_paid_before_expiry',
      type: 'collection',
      completed_at: app.clock.now().toISOString(),
    });

    const events = await outboxRows(app, reference);
    expect(events.map((e) => e.type)).toEqual(['collection.expired']);
    expect(events[0]!.payload).toEqual(record);
    expect((await historyRows(app, reference)).map((h) => [h.from_status, h.to_status])).toEqual([
      [null, 'processing'],
      ['processing', 'expired'],
    ]);

    const simulated = await request(app.url, 'POST', simulatePath(reference), { token, body: { outcome: 'successful' } });
    expect(simulated.status).toBe(409);
    expect(simulated.body.code).toBe('INVALID_STATE');
    expect((await getTransaction(app, token, reference)).body.data.status).toBe('expired');
  });

  it('does not expire a bank collection that was paid first', async () => {
    const { reference, id } = await createBankCollection();
    const paid = await request(app.url, 'POST', simulatePath(reference), { token, body: { outcome: 'successful' } });
    expect(paid.status).toBe(200);
    await advance(TTL_MS);
    expect(await runJobsNow(app.db.url, 'expire-collection', id)).toEqual([]);
    expect((await getTransaction(app, token, reference)).body.data.status).toBe('successful');
    expect((await outboxRows(app, reference)).map((e) => e.type)).toEqual(['collection.successful']);
  });
});

describe('production mode', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ env: { PAYMENTS_ENV: 'production' } });
  });
  afterAll(() => app.close());

  it('has no sandbox simulate route: 404 NOT_FOUND', async () => {
    const token = (await app.token(await app.createMerchant('Production Merchant'))).accessToken;
    const res = await request(app.url, 'POST', '/v1/sandbox/transactions/x/simulate', { token, body: { outcome: 'successful' } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ status: 'error', code: 'NOT_FOUND', message: expect.any(String) });
    expect(res.body.message).toBe('Route POST /v1/sandbox/transactions/x/simulate not found');
    // The same answer as a route that never existed.
    const unknownRoute = await request(app.url, 'POST', '/v1/sandbox/no-such-route', { token, body: {} });
    expect(unknownRoute.status).toBe(404);
    expect(unknownRoute.body.code).toBe('NOT_FOUND');
    // An unmatched path is echoed (docs/api.md, *Card data*): without its query, a segment over 32 characters as …, a card number cut out.
    const echoed = await request(app.url, 'GET', `/v1/no-such/${'h'.repeat(33)}/4242424242424242/x?secret=1`, { token });
    expect(echoed.status).toBe(404);
    expect(echoed.body.message).not.toMatch(/hhhh|4242424242424242|secret/);
    expect(echoed.body.message).toMatch(/^Route GET \/v1\/no-such\/…\/.*\/x not found$/);
  });
});

import { enroll, twoMerchants } from '../../helpers/factories';
import { expectedQuote } from '../../helpers/fx';
import { request } from '../../helpers/http';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import {
  awaitFinalStatus,
  getTransaction,
  historyRows,
  momoCollectionBody,
  newReference,
  outboxRows,
  transactionCount,
  transferBody,
} from '../../helpers/transactions';

const TRANSFER = '/v1/crossborder/global-transfer';
const SERVICE_REFERENCE = /^trf_[0-9a-f]{24}$/;
const RANDOM_UUID = '3f1c2d4e-0000-4000-8000-000000000000';
const SETTLE_WAIT = { attempts: 400, everyMs: 100 };

describe('REST POST /v1/crossborder/global-transfer', () => {
  let app: TestApp;
  let token: string;
  let otherToken: string;
  let ke: string;
  let notApproved: string;
  let othersCustomer: string;

  beforeAll(async () => {
    app = await createTestApp({ env: { SANDBOX_SETTLE_MS: '100' } });
    const { mine, theirs } = await twoMerchants(app, 'Transfers Merchant', { approvedCustomer: true });
    [token, otherToken, ke, othersCustomer] = [mine.token, theirs.token, mine.customerUuid, theirs.customerUuid];
    notApproved = (await enroll(app, token)).customer_uuid;
  });
  afterAll(() => app.close());

  const transfer = (body: unknown, auth: string | null = token) => request(app.url, 'POST', TRANSFER, { token: auth ?? undefined, body });
  const quote = async (source: string, destination: string, amount: string, auth = token) => {
    const res = await request(app.url, 'GET', `/v1/crossborder/rates?source_currency=${source}&destination_currency=${destination}&amount=${amount}`, {
      token: auth,
    });
    expect(res.status).toBe(200);
    return res.body.data as { quote_id: string; rate: number; destination_amount: number; fee: number; source_amount: number };
  };

  async function refused(body: unknown, auth: string | null = token) {
    const before = await transactionCount(app);
    const res = await transfer(body, auth);
    expect(await transactionCount(app)).toBe(before);
    return res;
  }

  function expectInvalid(res: Awaited<ReturnType<typeof transfer>>, field: string) {
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 'error', code: 'INVALID_REQUEST' });
    expect(res.body.details).toEqual([{ field, issue: expect.any(String) }]);
  }

  describe('happy path', () => {
    it('answers 200 with the transfer record, priced at the rate quoted in the same clock minute', async () => {
      app.clock.set(new Date('2026-11-22T12:00:10Z'));
      const quoted = await quote('USD', 'KES', '100');
      app.clock.advance(20_000); // same minute
      const body = transferBody(ke, { amount: 100 });
      const res = await transfer(body);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        status: 'success',
        message: expect.any(String),
        data: {
          reference: expect.stringMatching(SERVICE_REFERENCE),
          external_reference: body.reference,
          status: 'processing',
          source_amount: 100,
          source_currency: 'USD',
          // M-Pesa pays whole shillings: a converted payout is rounded down, in the sandbox as in production.
          destination_amount: Math.floor(quoted.destination_amount),
          destination_currency: 'KES',
          rate: quoted.rate,
          fee: quoted.fee,
          account_type: 'momo',
          beneficiary: { account_name: 'Jane Wanjiru', account_number: '712345678', network_id: 'ke_mpesa' },
          created_at: app.clock.now().toISOString(),
        },
      });
      // And both agree with the documented pricing rule, worked out independently.
      const expected = expectedQuote('USD', 'KES', '100', app.clock.now());
      expect(res.body.data.destination_amount).toBe(Math.floor(Number(expected.destination_amount)));
      expect(res.body.data.rate).toBe(Number(expected.rate));
      expect(res.body.data.fee).toBe(1);
      for (const field of ['source_amount', 'destination_amount', 'rate', 'fee']) expect(typeof res.body.data[field]).toBe('number');

      const record = (await getTransaction(app, token, res.body.data.reference)).body.data;
      expect(record).toMatchObject({ type: 'transfer', quote_id: null, destination_amount: Math.floor(quoted.destination_amount), rate: quoted.rate });
    });

    it('pays out to a bank account too', async () => {
      const res = await transfer(
        transferBody(ke, {
          channel_id: 'ke_bank_withdrawal',
          network_id: 'ke_equity_bank',
          account_type: 'bank',
          account_number: '0011223344',
          amount: '250.75',
        }),
      );
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        account_type: 'bank',
        source_amount: 250.75,
        beneficiary: { network_id: 'ke_equity_bank', account_number: '0011223344' },
      });
      expect(res.body.data).not.toHaveProperty('bankInfo');
    });
  });

  describe('quote_id locks a quote', () => {
    it('uses a live quote’s rate, fee and destination_amount exactly, even after the market moved', async () => {
      const quotedAt = new Date('2026-11-22T12:10:30Z');
      const transferAt = new Date('2026-11-22T12:11:20Z'); // next rate minute, quote still live (expires 12:11:30)
      // Precondition: the rate really moved between the two minutes, so the test can tell the prices apart.
      expect(expectedQuote('USD', 'KES', '250', transferAt).rate).not.toBe(expectedQuote('USD', 'KES', '250', quotedAt).rate);

      app.clock.set(quotedAt);
      const quoted = await quote('USD', 'KES', '250');
      app.clock.set(transferAt);
      // To Airtel Money: an M-Pesa payout would be rounded to whole shillings (docs/providers.md, "Rules").
      const locked = await transfer(transferBody(ke, { amount: 250, quote_id: quoted.quote_id, network_id: 'ke_airtel_money' }));
      expect(locked.status).toBe(200);
      expect(locked.body.data).toMatchObject({
        source_amount: 250,
        rate: quoted.rate,
        fee: quoted.fee,
        destination_amount: quoted.destination_amount,
      });
      const record = (await getTransaction(app, token, locked.body.data.reference)).body.data;
      expect(record.quote_id).toBe(quoted.quote_id);

      // Without the quote, the same transfer at the same instant is priced at the current minute's rate.
      const fresh = await transfer(transferBody(ke, { amount: 250 }));
      expect(fresh.status).toBe(200);
      expect(fresh.body.data.rate).toBe(Number(expectedQuote('USD', 'KES', '250', transferAt).rate));
      expect(fresh.body.data.rate).not.toBe(quoted.rate);
    });

    it('accepts the quote’s amount written differently ("100.00" for 100)', async () => {
      const quoted = await quote('USD', 'KES', '100');
      const res = await transfer(transferBody(ke, { amount: '100.00', quote_id: quoted.quote_id, network_id: 'ke_airtel_money' }));
      expect(res.status).toBe(200);
      expect(res.body.data.destination_amount).toBe(quoted.destination_amount);
    });

    it.each([
      ['61 s', 61_000],
      ['exactly 60 s (expires_at itself)', 60_000],
    ])('refuses a quote %s old: 400 quote_id', async (_label, age) => {
      const quoted = await quote('USD', 'KES', '100');
      app.clock.advance(age);
      const res = await refused(transferBody(ke, { amount: 100, quote_id: quoted.quote_id }));
      expectInvalid(res, 'quote_id');
      expect(res.body.details[0].issue).toContain('expired');
    });

    it('still accepts a quote 59.999 s old', async () => {
      const quoted = await quote('USD', 'KES', '100');
      app.clock.advance(59_999);
      expect((await transfer(transferBody(ke, { amount: 100, quote_id: quoted.quote_id }))).status).toBe(200);
    });

    it.each([
      ['another destination currency (USD→UGX)', ['USD', 'UGX', '100'], {}],
      ['another source currency (GBP→KES)', ['GBP', 'KES', '100'], {}],
      ['another amount (101 vs 100)', ['USD', 'KES', '100'], { amount: 101 }],
    ] as const)('refuses a quote for %s: 400 quote_id', async (_label, [source, destination, amount], change) => {
      const quoted = await quote(source, destination, amount);
      expectInvalid(await refused(transferBody(ke, { amount: 100, quote_id: quoted.quote_id, ...change })), 'quote_id');
    });

    it('refuses another merchant’s quote exactly like an unknown quote id', async () => {
      const theirs = await quote('USD', 'KES', '100', otherToken);
      const res = await refused(transferBody(ke, { amount: 100, quote_id: theirs.quote_id }));
      expectInvalid(res, 'quote_id');
      const unknown = await refused(transferBody(ke, { amount: 100, quote_id: 'qt_000000000000000000000000' }));
      expect(res.body).toEqual(unknown.body);
      expectInvalid(await refused(transferBody(ke, { amount: 100, quote_id: 'not-a-quote' })), 'quote_id');
    });
  });

  describe('validation specific to transfers', () => {
    it.each([
      ['destination_currency not the country’s (UGX to KE)', { destination_currency: 'UGX' }, 'destination_currency'],
      ['destination_currency missing', { destination_currency: undefined }, 'destination_currency'],
      ['unsupported source_currency (EUR)', { source_currency: 'EUR' }, 'source_currency'],
      ['unsupported source_currency (XYZ)', { source_currency: 'XYZ' }, 'source_currency'],
      ['malformed source_currency', { source_currency: 'usd' }, 'source_currency'],
      ['source_currency missing', { source_currency: undefined }, 'source_currency'],
      ['account_name missing', { account_name: undefined }, 'account_name'],
      ['account_name blank', { account_name: '   ' }, 'account_name'],
      ['a deposit channel (a withdrawal channel is required)', { channel_id: 'ke_momo_deposit' }, 'channel_id'],
      ['a bank network for momo', { network_id: 'ke_kcb' }, 'network_id'],
      ['dial_code not the country’s', { dial_code: '+256' }, 'dial_code'],
      ['too many decimals for the source currency (USD 10.555)', { amount: 10.555 }, 'amount'],
      ['decimals in a zero-decimal source currency (UGX 50000.5)', { source_currency: 'UGX', amount: '50000.5' }, 'amount'],
      ['a payout above the channel maximum (USD 5000 ≈ 645k KES > 250k)', { amount: 5000 }, 'amount'],
      ['a payout below the channel minimum (USD 0.05 < 10 KES)', { amount: 0.05 }, 'amount'],
      ['a zero amount', { amount: 0 }, 'amount'],
      ['a negative amount', { amount: -5 }, 'amount'],
      ['a malformed quote_id type', { quote_id: 42 }, 'quote_id'],
    ])('refuses %s', async (_label, change, field) => {
      expectInvalid(await refused(transferBody(ke, change)), field);
    });

    it('refuses an amount that converts to 0 in the destination currency (1 UGX → USD)', async () => {
      const res = await refused(
        transferBody(ke, {
          source_currency: 'UGX',
          amount: 1,
          destination_currency: 'USD',
          country_code: 'US',
          channel_id: 'us_bank_withdrawal',
          network_id: 'us_chase',
          account_type: 'bank',
          account_number: '000123456789',
          dial_code: '+1',
        }),
      );
      expectInvalid(res, 'amount');
      expect(res.body.details[0].issue).toBe('converts to 0 USD');
    });

    it('answers an unknown customer 404, another merchant’s customer the same, an unapproved one 403', async () => {
      const unknown = await refused(transferBody(RANDOM_UUID));
      expect(unknown.status).toBe(404);
      expect(unknown.body.code).toBe('NOT_FOUND');
      expect((await refused(transferBody(othersCustomer))).body).toEqual(unknown.body);
      const kyc = await refused(transferBody(notApproved));
      expect(kyc.status).toBe(403);
      expect(kyc.body.code).toBe('KYC_REQUIRED');
    });

    it('needs a token', async () => {
      const res = await refused(transferBody(ke), null);
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('INVALID_TOKEN');
    });

    it('refuses a reference already used by a collection: 409 naming it', async () => {
      const reference = newReference('shared');
      const collection = await request(app.url, 'POST', '/v1/crossborder/global-collection', { token, body: momoCollectionBody(ke, { reference }) });
      expect(collection.status).toBe(200);
      const res = await refused(transferBody(ke, { reference }));
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('DUPLICATE_REQUEST');
      expect(res.body.details).toEqual([{ field: 'reference', issue: expect.stringContaining(collection.body.data.reference) }]);
    });

    it.each([
      ['KYC before channel', () => transferBody(notApproved, { channel_id: 'ke_momo_deposit' }), 403, undefined],
      ['channel before destination_currency', () => transferBody(ke, { channel_id: 'ke_momo_deposit', destination_currency: 'UGX' }), 400, 'channel_id'],
      [
        'destination_currency before source_currency',
        () => transferBody(ke, { destination_currency: 'UGX', source_currency: 'EUR' }),
        400,
        'destination_currency',
      ],
      ['dial_code before amount', () => transferBody(ke, { dial_code: '+256', amount: 5000 }), 400, 'dial_code'],
      ['quote before reference', () => transferBody(ke, { quote_id: 'qt_000000000000000000000000' }), 400, 'quote_id'],
    ])('check order: %s', async (_label, body, status, field) => {
      const res = await refused(body());
      expect(res.status).toBe(status);
      if (field) expect(res.body.details).toEqual([{ field, issue: expect.any(String) }]);
    });
  });

  describe('settlement (sandbox rule, SANDBOX_SETTLE_MS=100)', () => {
    it.each([
      ['momo', '254712345678', 'successful', null],
      ['momo', '254712345000', 'failed', 'beneficiary_account_unavailable'],
      ['bank', '0011223344', 'successful', null],
      ['bank', '0011223000', 'failed', 'beneficiary_account_unavailable'],
    ] as const)('%s account %s → %s, with one transfer.* outbox event equal to the status record', async (accountType, account_number, status, reason) => {
      const bank = accountType === 'bank' ? { channel_id: 'ke_bank_withdrawal', network_id: 'ke_kcb', account_type: 'bank' } : {};
      const created = await transfer(transferBody(ke, { account_number, ...bank }));
      expect(created.status).toBe(200);
      const { reference } = created.body.data;

      const record = await awaitFinalStatus(app, token, reference, SETTLE_WAIT);
      expect(record).toMatchObject({ reference, type: 'transfer', status, failure_reason: reason });
      const events = await outboxRows(app, reference);
      expect(events).toHaveLength(1);
      expect(events[0]!.type).toBe(`transfer.${status}`);
      expect(events[0]!.payload).toEqual(record);
      expect((await historyRows(app, reference)).map((h) => [h.from_status, h.to_status])).toEqual([
        [null, 'processing'],
        ['processing', status],
      ]);
    });
  });
});

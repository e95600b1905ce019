import { FlutterwaveFake } from '../../fakes/flutterwave.fake';
import { ledgerVerify } from '../../helpers/engine';
import { twoMerchants } from '../../helpers/factories';
import { graphql, request } from '../../helpers/http';
import { runJobsNow, transactionIdOf } from '../../helpers/jobs';
import { initiatePayment } from '../../helpers/payments';
import { awaitStatus, flutterwaveApp, railsMerchant } from '../../helpers/rails';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { getTransaction, newReference, outboxRows, sql, transactionCount } from '../../helpers/transactions';

/**
 * Issue 41, point 3: a merchant funds its own balance. POST /v1/balance/funding (GraphQL fundBalance) answers an
 * account to pay into, as a bank collection does; the money that arrives is credited to `available` through the
 * books (a `funding` balance transaction, no fee, no settlement delay), and ledger:verify stays clean.
 */

const FUND = '/v1/balance/funding';

const fundingBody = (overrides: Record<string, unknown> = {}) => ({ currency: 'NGN', amount: '250000.00', reference: newReference('fund'), ...overrides });

async function balanceOf(app: TestApp, token: string, currency: string) {
  const res = await request(app.url, 'GET', '/v1/balances', { token });
  return (res.body.data as Array<{ currency: string; available: number; pending: number }>).find((b) => b.currency === currency);
}

async function ledgerEntries(app: TestApp, transactionReference: string) {
  return sql<{ leg: string; type: string; lines: string }>(
    app,
    `select e.leg, e.type, string_agg(l.account_id || ' ' || l.amount::text, '; ' order by l.amount) as lines
       from ledger_entry e join ledger_line l on l.entry_id = e.id join "transaction" t on t.id = e.transaction_id
      where t.reference = ? group by e.id, e.leg, e.type`,
    [transactionReference],
  );
}

describe('funding a balance (sandbox)', () => {
  let app: TestApp;
  let token: string;
  let otherToken: string;
  let merchantId: string;

  beforeAll(async () => {
    // A settlement delay for collections: a funding is credited to available at once all the same.
    app = await createTestApp({ env: { SETTLEMENT_DELAY_S: '3600' } });
    const { mine, theirs } = await twoMerchants(app, 'Funding Merchant');
    [token, otherToken] = [mine.token, theirs.token];
    merchantId = mine.credentials.merchant.id;
  });
  afterAll(() => app.close());

  it('answers an account to pay into; the payment credits available in full, once, through the books; ledger:verify is clean', async () => {
    const before = (await balanceOf(app, token, 'NGN'))!;
    const body = fundingBody({ amount: '250000.50' });
    const res = await request(app.url, 'POST', FUND, { token, body });
    expect(res.status).toBe(200);
    expect(res.body.message).toMatch(/pay the amount into bank_info/);
    const funding = res.body.data;
    expect(funding).toMatchObject({
      reference: expect.stringMatching(/^fnd_/),
      external_reference: body.reference,
      type: 'funding',
      status: 'processing',
      amount: 250000.5,
      currency: 'NGN',
      fee: 0,
      account_type: 'bank',
      country_code: 'NG',
      bankInfo: { accountName: 'Funding Merchant', accountNumber: expect.stringMatching(/^\d{10}$/), bankName: expect.any(String) },
      expires_at: expect.any(String),
    });
    expect(new Date(funding.expires_at).getTime()).toBeGreaterThan(app.clock.now().getTime());
    // Nothing is credited before the money arrives.
    expect((await balanceOf(app, token, 'NGN'))!.available).toBe(before.available);
    expect(await ledgerEntries(app, funding.reference)).toEqual([]);

    // The sandbox's transfer into the account arrives.
    const paid = await request(app.url, 'POST', `/v1/sandbox/transactions/${funding.reference}/simulate`, { token, body: { outcome: 'successful' } });
    expect(paid.status).toBe(200);
    const after = (await balanceOf(app, token, 'NGN'))!;
    expect(after.available).toBe(before.available + 250000.5);
    expect(after.pending).toBe(before.pending);

    // One entry: the provider's clearing to the merchant's available, the whole amount; no fee, no release.
    expect(await ledgerEntries(app, funding.reference)).toEqual([
      { leg: 'settle', type: 'funding', lines: `p:provider_clearing:sandbox:NGN -250000.5; m:${merchantId}:available:NGN 250000.5` },
    ]);
    const list = await request(app.url, 'GET', '/v1/balance-transactions?currency=NGN&type=funding', { token });
    expect(list.body.data.map((t: any) => [t.type, t.source_reference ?? t.reference, t.amount, t.fee, t.net])).toEqual([
      ['funding', expect.any(String), 250000.5, 0, 250000.5],
    ]);

    // Its record everywhere, and its event: what the status endpoint shows.
    const record = (await request(app.url, 'GET', `${FUND}/${body.reference}`, { token })).body.data;
    expect(record).toMatchObject({ reference: funding.reference, status: 'successful', fee: 0, completed_at: expect.any(String) });
    expect((await getTransaction(app, token, funding.reference)).body.data).toEqual(record);
    const events = await outboxRows(app, funding.reference);
    expect(events.map((e) => e.type)).toEqual(['funding.successful']);
    expect(events[0]!.payload).toEqual(record);

    // Paid once: a second arrival changes nothing.
    const again = await request(app.url, 'POST', `/v1/sandbox/transactions/${funding.reference}/simulate`, { token, body: { outcome: 'successful' } });
    expect(again.status).toBe(409);
    expect((await balanceOf(app, token, 'NGN'))!.available).toBe(before.available + 250000.5);

    const books = await ledgerVerify(app.db.url);
    expect({ exitCode: books.exitCode, problems: books.problems }).toEqual({ exitCode: 0, problems: [] });
  });

  it('another merchant sees none of it; another kind’s reference is not a funding', async () => {
    const res = await request(app.url, 'POST', FUND, { token, body: fundingBody() });
    const reference = res.body.data.reference;
    for (const ref of [reference, res.body.data.external_reference]) {
      const theirs = await request(app.url, 'GET', `${FUND}/${ref}`, { token: otherToken });
      expect([theirs.status, theirs.body.code]).toEqual([404, 'NOT_FOUND']);
    }
    expect(
      (await request(app.url, 'POST', `/v1/sandbox/transactions/${reference}/simulate`, { token: otherToken, body: { outcome: 'successful' } })).status,
    ).toBe(404);
    const payment = await initiatePayment(app, token, { reference: newReference('p'), amount: '15000.00', currency: 'NGN', payment_method: 'bank_transfer' });
    const notFunding = await request(app.url, 'GET', `${FUND}/${payment.body.data.reference}`, { token });
    expect([notFunding.status, notFunding.body.code]).toEqual([404, 'NOT_FOUND']);
  });

  it('bad input is a 400 naming the field, a reused reference a 409; nothing is written', async () => {
    const count = await transactionCount(app);
    const used = fundingBody();
    expect((await request(app.url, 'POST', FUND, { token, body: used })).status).toBe(200);
    const cases: Array<[Record<string, unknown>, number, string, string]> = [
      [fundingBody({ currency: 'XYZ' }), 400, 'INVALID_REQUEST', 'currency'],
      [fundingBody({ currency: 'EUR' }), 400, 'INVALID_REQUEST', 'currency'],
      [fundingBody({ amount: '1.001' }), 400, 'INVALID_REQUEST', 'amount'],
      [fundingBody({ amount: '-5' }), 400, 'INVALID_REQUEST', 'amount'],
      [fundingBody({ amount: 'lots' }), 400, 'INVALID_REQUEST', 'amount'],
      [fundingBody({ amount: undefined }), 400, 'INVALID_REQUEST', 'amount'],
      [fundingBody({ reference: undefined }), 400, 'INVALID_REQUEST', 'reference'],
      [{ ...used }, 409, 'DUPLICATE_REQUEST', 'reference'],
    ];
    for (const [body, status, code, field] of cases) {
      const res = await request(app.url, 'POST', FUND, { token, body });
      expect([JSON.stringify(body), res.status, res.body.code]).toEqual([JSON.stringify(body), status, code]);
      if (status === 400)
        expect(res.body.errors?.map((e: { field: string }) => e.field) ?? res.body.details?.map((e: { field: string }) => e.field)).toContain(field);
    }
    expect(await transactionCount(app)).toBe(count + 1);
  });

  it('Idempotency-Key: a retried funding request opens one account and replays its answer', async () => {
    const key = `fund-retry-${Date.now()}`;
    const body = fundingBody();
    const first = await request(app.url, 'POST', FUND, { token, body, headers: { 'Idempotency-Key': key } });
    const again = await request(app.url, 'POST', FUND, { token, body, headers: { 'Idempotency-Key': key } });
    expect([first.status, again.status, again.headers.get('idempotent-replayed')]).toEqual([200, 200, 'true']);
    expect(again.body.data).toEqual(first.body.data);
    const rows = await sql(app, 'select count(*)::int as n from "transaction" where external_reference = ?', [body.reference]);
    expect(rows[0].n).toBe(1);
  });

  it('GraphQL fundBalance: the same funding, as a FUNDING transaction with its bankInfo', async () => {
    const reference = newReference('gfund');
    const res = await graphql(
      app.url,
      `
        mutation ($input: FundBalanceInput!) {
          fundBalance(input: $input) {
            reference
            externalReference
            type
            status
            amount
            currency
            fee
            bankInfo {
              accountName
              accountNumber
            }
            expiresAt
          }
        }
      `,
      { token, variables: { input: { currency: 'GHS', amount: '1500.25', reference } } },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.fundBalance).toMatchObject({
      reference: expect.stringMatching(/^fnd_/),
      externalReference: reference,
      type: 'FUNDING',
      status: 'PROCESSING',
      amount: '1500.25',
      currency: 'GHS',
      fee: '0.00',
      bankInfo: { accountName: 'Funding Merchant', accountNumber: expect.any(String) },
    });
    const bad = await graphql(app.url, `mutation { fundBalance(input: {currency: "GHS", amount: "1.001", reference: "${newReference('g')}"}) { reference } }`, {
      token,
    });
    expect(bad.body.errors?.[0]?.extensions).toMatchObject({ code: 'INVALID_REQUEST', details: [{ field: 'amount', issue: expect.any(String) }] });
    // A value the Decimal type itself refuses names its field too (as REST does), not only in the message.
    const notDecimal = await graphql(app.url, 'mutation ($input: FundBalanceInput!) { fundBalance(input: $input) { reference } }', {
      token,
      variables: { input: { currency: 'GHS', amount: 'lots', reference: newReference('g') } },
    });
    expect(notDecimal.body.errors?.[0]?.extensions).toMatchObject({ code: 'INVALID_REQUEST', details: [{ field: 'amount', issue: expect.any(String) }] });
  });
});

describe('accounts nobody paid into expire: a funding, and a bank transfer payment', () => {
  const TTL_MS = 86_400_000;
  let app: TestApp;
  let token: string;
  let merchant: Awaited<ReturnType<TestApp['createMerchant']>>;

  beforeAll(async () => {
    app = await createTestApp();
    merchant = await app.createMerchant('Expiring Funding');
    token = (await app.token(merchant)).accessToken;
  });
  afterAll(() => app.close());

  /** Moves the service's clock past the account's deadline; access tokens live an hour by that clock, so a fresh one. */
  const pastDeadline = async () => {
    app.clock.advance(TTL_MS);
    token = (await app.token(merchant)).accessToken;
  };

  it('an unpaid funding expires at its deadline with funding.expired, and posts nothing', async () => {
    const res = await request(app.url, 'POST', FUND, { token, body: fundingBody({ currency: 'KES', amount: '5000' }) });
    expect(res.status).toBe(200);
    const reference = res.body.data.reference;
    const available = (await balanceOf(app, token, 'KES'))!.available;
    await pastDeadline();
    expect(await runJobsNow(app.db.url, 'expire-collection', await transactionIdOf(app.db.url, reference))).toEqual([]);
    const record = (await request(app.url, 'GET', `${FUND}/${reference}`, { token })).body.data;
    expect(record).toMatchObject({ status: 'expired', failure_reason: 'not_paid_before_expiry', fee: 0 });
    expect((await outboxRows(app, reference)).map((e) => e.type)).toEqual(['funding.expired']);
    expect(await ledgerEntries(app, reference)).toEqual([]);
    expect((await balanceOf(app, token, 'KES'))!.available).toBe(available);
  });

  it('an unpaid bank transfer payment expires too (it could not: a payment went from processing to successful or failed only)', async () => {
    const res = await initiatePayment(app, token, { reference: newReference('bt'), amount: '15000.00', currency: 'NGN', payment_method: 'bank_transfer' });
    expect([res.status, res.body.data.status]).toEqual([200, 'processing']);
    const reference = res.body.data.reference;
    await pastDeadline();
    expect(await runJobsNow(app.db.url, 'expire-collection', await transactionIdOf(app.db.url, reference))).toEqual([]);
    expect((await getTransaction(app, token, reference)).body.data).toMatchObject({ status: 'expired', failure_reason: 'not_paid_before_expiry', fee: 0 });
    expect((await outboxRows(app, reference)).map((e) => e.type)).toEqual(['payment.expired']);
  });
});

describe('funding a balance in production, through Flutterwave (against its fake)', () => {
  let flw: FlutterwaveFake;
  let app: TestApp;

  beforeAll(async () => {
    flw = await FlutterwaveFake.start({ decisionDelayMs: 30 });
    app = await flutterwaveApp(flw, { COLLECTION_TTL_S: '7200' });
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await flw?.close();
  });

  it('a new merchant with nothing pays into a Flutterwave account; its webhook credits available, and the books verify', async () => {
    const m = await railsMerchant(app);
    expect((await balanceOf(app, m.token, 'NGN'))?.available ?? 0).toBe(0);
    const body = fundingBody({ amount: '75000' });
    const res = await request(app.url, 'POST', FUND, { token: m.token, body });
    expect(res.status).toBe(200);
    const id = await transactionIdOf(app.db.url, res.body.data.reference);
    const account = [...flw.virtualAccounts.values()].find((a) => a.tx_ref === id);
    expect(account).toMatchObject({ amount: 75000, currency: 'NGN', is_permanent: false });
    expect(res.body.data.bankInfo).toMatchObject({ accountNumber: account!.account_number, bankName: 'WEMA BANK' });

    await flw.payVirtualAccount(account!.account_number);
    expect((await awaitStatus(app, body.reference, 'successful'))?.status).toBe('successful');
    expect((await balanceOf(app, m.token, 'NGN'))!.available).toBe(75000);
    expect(await ledgerEntries(app, res.body.data.reference)).toEqual([
      { leg: 'settle', type: 'funding', lines: `p:provider_clearing:flutterwave:NGN -75000; m:${m.merchantId}:available:NGN 75000` },
    ]);
    const books = await ledgerVerify(app.db.url);
    expect({ exitCode: books.exitCode, problems: books.problems }).toEqual({ exitCode: 0, problems: [] });
  });
});

import type { MerchantCredentials } from '../../../src/modules/merchants/merchant.service';
import { ledgerVerify, runCli } from '../../helpers/engine';
import { runSettlementNow, transactionIdOf } from '../../helpers/jobs';
import { approvedCustomer } from '../../helpers/factories';
import { graphql, request } from '../../helpers/http';
import { CARDS, cardPaymentBody, initiatePayment } from '../../helpers/payments';
import { TEST_ADMIN_KEY, createTestApp, type TestApp } from '../../helpers/test-app';
import { momoCollectionBody, momoTransferInput, newReference, sql, transferBody } from '../../helpers/transactions';
import { eventually } from '../../helpers/wait';
import { connect, subscribeLive } from '../../helpers/ws';

/**
 * Issue 19: the books. Every flow over the real service (REST and GraphQL) and the real
 * PostgreSQL: opening balance, reservations with 402, settlement postings with fees, refunds
 * under concurrency, statements, adjustments; and the database's own refusals.
 */

let app: TestApp;

const admin = (method: string, path: string, body?: unknown) => request(app.url, method, path, { token: TEST_ADMIN_KEY, body });
const balances = async (token: string) => (await request(app.url, 'GET', '/v1/balances', { token })).body.data as Array<Record<string, any>>;
const balanceOf = async (token: string, currency: string) => (await balances(token)).find((b) => b.currency === currency);
const verify = () => app.service.app.services.ledger.verify(app.service.app.services.transactions.expectedLegs());

async function newMerchant(name: string): Promise<{ merchant: MerchantCredentials; token: string }> {
  const merchant = await app.createMerchant(name);
  return { merchant, token: (await app.token(merchant)).accessToken };
}

beforeAll(async () => {
  // A settlement slower than the tests' reads, so a reservation can be seen before it is posted; tests decide by simulate.
  app = await createTestApp({ env: { SANDBOX_SETTLE_MS: '600000', SANDBOX_OPENING_BALANCE: '1000000' } });
});

afterAll(async () => {
  await app?.close();
});

describe('funding', () => {
  it('a new sandbox merchant starts with 1,000,000 in every currency, on REST and GraphQL alike', async () => {
    const { token } = await newMerchant('Opening');
    const rest = await balances(token);
    expect(rest.length).toBeGreaterThanOrEqual(14);
    for (const b of rest) expect(b).toEqual({ currency: b.currency, available: 1_000_000, pending: 0, reserved: 0, disputed: 0, owed: 0 });
    const gql = await graphql(app.url, '{ balances { currency available pending reserved } }', { token });
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.balances.find((b: any) => b.currency === 'NGN')).toEqual({
      currency: 'NGN',
      available: '1000000.00',
      pending: '0.00',
      reserved: '0.00',
    });
    expect(gql.body.data.balances.find((b: any) => b.currency === 'UGX')).toEqual({ currency: 'UGX', available: '1000000', pending: '0', reserved: '0' });
  });

  it('a sandbox top-up adds to available and is a balance transaction; a bad one changes nothing', async () => {
    const { token } = await newMerchant('Top-up');
    const res = await request(app.url, 'POST', '/v1/sandbox/balance/top-up', { token, body: { currency: 'GHS', amount: '250.50' } });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ currency: 'GHS', available: 1_000_250.5, pending: 0, reserved: 0, disputed: 0, owed: 0 });
    for (const body of [{ currency: 'GHS', amount: '1.234' }, { currency: 'GHS', amount: '-5' }, { currency: 'XYZ', amount: '5' }, { currency: 'GHS' }]) {
      const bad = await request(app.url, 'POST', '/v1/sandbox/balance/top-up', { token, body });
      expect(bad.status).toBe(400);
      expect(bad.body.code).toBe('INVALID_REQUEST');
    }
    expect((await balanceOf(token, 'GHS'))!.available).toBe(1_000_250.5);
    const list = await request(app.url, 'GET', '/v1/balance-transactions?currency=GHS&type=top_up', { token });
    expect(list.body.data.map((t: any) => [t.amount, t.fee, t.net, t.balance_after])).toEqual([
      [250.5, 0, 250.5, 1_000_250.5],
      [1_000_000, 0, 1_000_000, 1_000_000],
    ]);
  });

  it('an operator adjustment posts once per reference, with its reason; a debit beyond available is 402 and changes nothing', async () => {
    const { merchant, token } = await newMerchant('Adjusted');
    const id = merchant.merchant.id;
    const credit = await admin('POST', `/v1/admin/merchants/${id}/adjustments`, {
      currency: 'KES',
      amount: '500.00',
      reason: 'Goodwill credit',
      reference: 'ADJ-1',
    });
    expect(credit.status).toBe(201);
    expect(credit.body.data.available).toBe(1_000_500);
    const again = await admin('POST', `/v1/admin/merchants/${id}/adjustments`, {
      currency: 'KES',
      amount: '500.00',
      reason: 'Goodwill credit',
      reference: 'ADJ-1',
    });
    expect(again.status).toBe(200);
    expect(again.body.data.available).toBe(1_000_500);
    const debit = await admin('POST', `/v1/admin/merchants/${id}/adjustments`, { currency: 'KES', amount: '-2000000', reason: 'Too much', reference: 'ADJ-2' });
    expect(debit.status).toBe(402);
    expect(debit.body.code).toBe('INSUFFICIENT_FUNDS');
    const small = await admin('POST', `/v1/admin/merchants/${id}/adjustments`, {
      currency: 'KES',
      amount: '-0.50',
      reason: 'Chargeback fee',
      reference: 'ADJ-3',
    });
    expect(small.status).toBe(201);
    expect((await balanceOf(token, 'KES'))!.available).toBe(1_000_499.5);
    const adjustments = await request(app.url, 'GET', '/v1/balance-transactions?type=adjustment', { token });
    expect(adjustments.body.data.map((t: any) => [t.net, t.source_reference])).toEqual([
      [-0.5, 'ADJ-3'],
      [500, 'ADJ-1'],
    ]);
    // The CLI twin (npm run ledger:adjust), on the same database.
    const cli = await runCli(app.db.url, 'ledger-adjust', [id, '--currency', 'KES', '--amount', '12.50', '--reason', 'CLI credit', '--reference', 'ADJ-CLI']);
    expect(cli.exitCode).toBe(0);
    expect(cli.output).toEqual({ posted: true, balance: { currency: 'KES', available: '1000512', pending: '0', reserved: '0' } });
    const bad = await runCli(app.db.url, 'ledger-adjust', [id, '--currency', 'KES', '--amount=-5000000', '--reason', 'x', '--reference', 'ADJ-CLI-2']);
    expect(bad.exitCode).toBe(1);
    expect(bad.stderr).toMatch(/INSUFFICIENT_FUNDS/);
    expect(
      (
        await admin('POST', `/v1/admin/merchants/00000000-0000-4000-8000-000000000000/adjustments`, {
          currency: 'KES',
          amount: '1',
          reason: 'x',
          reference: 'ADJ-9',
        })
      ).status,
    ).toBe(404);
  });
});

describe('balanceChanged over graphql-ws', () => {
  it('a subscriber hears its own balance after each change commits, and nothing of another merchant’s', async () => {
    const { token } = await newMerchant('Subscriber');
    const other = await newMerchant('Someone else');
    const client = connect(app, token);
    try {
      const sub = await subscribeLive(app.url, client, 'subscription { balanceChanged(currency: "NGN") { currency available pending reserved } }');
      await request(app.url, 'POST', '/v1/sandbox/balance/top-up', { token: other.token, body: { currency: 'NGN', amount: '7.00' } });
      await request(app.url, 'POST', '/v1/sandbox/balance/top-up', { token, body: { currency: 'GHS', amount: '3.00' } });
      await request(app.url, 'POST', '/v1/sandbox/balance/top-up', { token, body: { currency: 'NGN', amount: '5.00' } });
      expect(await eventually(async () => sub.received.length >= 1)).toBe(true);
      // The GHS top-up and the other merchant's came first; only this merchant's NGN change arrives.
      expect(sub.received).toEqual([{ data: { balanceChanged: { currency: 'NGN', available: '1000005.00', pending: '0.00', reserved: '0.00' } } }]);
      sub.stop();
    } finally {
      await client.dispose();
    }
  });
});

describe('money out: transfers', () => {
  let token: string;
  let customerUuid: string;
  beforeAll(async () => {
    ({ token } = await newMerchant('Transfers'));
    customerUuid = (await approvedCustomer(app, token)).customer_uuid;
  });

  it('initiation reserves amount + fee from available; success posts it; the balance transaction shows the quote’s fee', async () => {
    const quote = await request(app.url, 'GET', '/v1/crossborder/rates?source_currency=USD&destination_currency=KES&amount=100', { token });
    const body = transferBody(customerUuid, { quote_id: quote.body.data.quote_id });
    const res = await request(app.url, 'POST', '/v1/crossborder/global-transfer', { token, body });
    expect(res.status).toBe(200);
    expect(res.body.data.fee).toBe(quote.body.data.fee);
    expect(res.body.data.fee).toBe(1);
    expect(await balanceOf(token, 'USD')).toEqual({ currency: 'USD', available: 999_899, pending: 0, reserved: 101, disputed: 0, owed: 0 });
    const [bt] = (await request(app.url, 'GET', '/v1/balance-transactions?type=transfer', { token })).body.data;
    expect(bt).toMatchObject({
      type: 'transfer',
      currency: 'USD',
      amount: -100,
      fee: 1,
      net: -101,
      balance_after: 999_899,
      source_reference: res.body.data.reference,
    });

    const done = await request(app.url, 'POST', `/v1/sandbox/transactions/${res.body.data.reference}/simulate`, { token, body: { outcome: 'successful' } });
    expect(done.body.data.status).toBe('successful');
    expect(await balanceOf(token, 'USD')).toEqual({ currency: 'USD', available: 999_899, pending: 0, reserved: 0, disputed: 0, owed: 0 });
    // The payout left through the provider's KES clearing account, the USD through the FX positions; each currency balances.
    const entry = await sql(
      app,
      `select l.account_id, l.amount::text from ledger_line l join ledger_entry e on e.id = l.entry_id join "transaction" t on t.id = e.transaction_id
       where t.reference = ? and e.leg = 'post' order by l.id`,
      [res.body.data.reference],
    );
    const kes = String(res.body.data.destination_amount);
    expect(entry.map((l: any) => [l.account_id.replace(/:[0-9a-f-]{36}:/, ':M:'), Number(l.amount)])).toEqual([
      ['m:M:reserved:USD', -1],
      ['p:fee_revenue:USD', 1],
      ['m:M:reserved:USD', -100],
      ['p:fx_position:USD', 100],
      ['p:fx_position:KES', -Number(kes)],
      ['p:provider_clearing:sandbox:KES', Number(kes)],
    ]);
  });

  it('a failed transfer gives the reservation back (a transfer_reversal with the fee returned)', async () => {
    const res = await request(app.url, 'POST', '/v1/crossborder/global-transfer', { token, body: transferBody(customerUuid, { amount: 50 }) });
    const before = await balanceOf(token, 'USD');
    await request(app.url, 'POST', `/v1/sandbox/transactions/${res.body.data.reference}/simulate`, { token, body: { outcome: 'failed' } });
    const after = await balanceOf(token, 'USD');
    expect(after!.available).toBe(before!.available + 50.5);
    expect(after!.reserved).toBe(before!.reserved - 50.5);
    const [reversal] = (await request(app.url, 'GET', '/v1/balance-transactions?type=transfer_reversal', { token })).body.data;
    expect(reversal).toMatchObject({ amount: 50, fee: -0.5, net: 50.5, source_reference: res.body.data.reference });
  });

  it('a transfer the available balance cannot cover is 402 INSUFFICIENT_FUNDS, on both doors, and nothing is written or sent', async () => {
    const { merchant, token } = await newMerchant('Short of USD');
    const customerUuid = (await approvedCustomer(app, token)).customer_uuid;
    await admin('POST', `/v1/admin/merchants/${merchant.merchant.id}/adjustments`, {
      currency: 'USD',
      amount: '-999500',
      reason: 'Leave 500',
      reference: 'ADJ-USD',
    });
    const before = await sql(app, 'select count(*)::int as n from "transaction"');
    const rest = await request(app.url, 'POST', '/v1/crossborder/global-transfer', { token, body: transferBody(customerUuid, { amount: 500 }) });
    expect(rest.status).toBe(402);
    expect(rest.body).toMatchObject({ status: 'error', code: 'INSUFFICIENT_FUNDS' });
    const gql = await graphql(app.url, 'mutation($input: InitiateTransferInput!) { initiateTransfer(input: $input) { reference } }', {
      token,
      variables: { input: momoTransferInput(customerUuid, { amount: '500' }) },
    });
    expect(gql.body.errors?.[0]?.extensions?.code).toBe('INSUFFICIENT_FUNDS');
    expect(await sql(app, 'select count(*)::int as n from "transaction"')).toEqual(before);
    expect(await balanceOf(token, 'USD')).toEqual({ currency: 'USD', available: 500, pending: 0, reserved: 0, disputed: 0, owed: 0 });
    // 495 and its 1 % fee fit exactly.
    const exact = await request(app.url, 'POST', '/v1/crossborder/global-transfer', { token, body: transferBody(customerUuid, { amount: '495.05' }) });
    expect(exact.status).toBe(200);
    expect(await balanceOf(token, 'USD')).toEqual({ currency: 'USD', available: 0, pending: 0, reserved: 500, disputed: 0, owed: 0 });
  });
});

describe('money in: collections and payments', () => {
  it('a successful collection credits amount − fee (delay 0: straight to available) and fee revenue the fee', async () => {
    const { token } = await newMerchant('Collector');
    const customerUuid = (await approvedCustomer(app, token)).customer_uuid;
    const res = await request(app.url, 'POST', '/v1/crossborder/global-collection', { token, body: momoCollectionBody(customerUuid) });
    expect(res.body.data.fee).toBe(15);
    expect(await balanceOf(token, 'KES')).toEqual({ currency: 'KES', available: 1_000_000, pending: 0, reserved: 0, disputed: 0, owed: 0 });
    await request(app.url, 'POST', `/v1/sandbox/transactions/${res.body.data.reference}/simulate`, { token, body: { outcome: 'successful' } });
    expect(await balanceOf(token, 'KES')).toEqual({ currency: 'KES', available: 1_001_485, pending: 0, reserved: 0, disputed: 0, owed: 0 });
    const [bt] = (await request(app.url, 'GET', '/v1/balance-transactions?type=collection', { token })).body.data;
    expect(bt).toMatchObject({ amount: 1500, fee: 15, net: 1485, balance_after: 1_001_485 });
    const failed = await request(app.url, 'POST', '/v1/crossborder/global-collection', { token, body: momoCollectionBody(customerUuid) });
    await request(app.url, 'POST', `/v1/sandbox/transactions/${failed.body.data.reference}/simulate`, { token, body: { outcome: 'failed' } });
    expect((await balanceOf(token, 'KES'))!.available).toBe(1_001_485);
  });

  it('a merchant’s own fee schedule prices quotes, transfers and payments alike', async () => {
    const { merchant, token } = await newMerchant('Priced');
    const id = merchant.merchant.id;
    expect((await admin('PUT', `/v1/admin/merchants/${id}/fees`, { kind: 'payment', currency: 'NGN', percent: '1.4', fixed: '100.00' })).status).toBe(200);
    expect((await admin('PUT', `/v1/admin/merchants/${id}/fees`, { kind: 'transfer', percent: '2' })).status).toBe(200);
    expect((await admin('PUT', `/v1/admin/merchants/${id}/fees`, { kind: 'transfer', percent: '2', fixed: '1' })).body.code).toBe('INVALID_REQUEST');
    const fees = await admin('GET', `/v1/admin/merchants/${id}/fees`);
    expect(fees.body.data).toEqual(
      expect.arrayContaining([
        { kind: 'payment', currency: 'NGN', percent: '1.4', fixed: '100' },
        { kind: 'transfer', currency: null, percent: '2', fixed: '0' },
      ]),
    );
    const payment = await initiatePayment(app, token, cardPaymentBody({ amount: '10000.00' }));
    expect(payment.body.data).toMatchObject({ status: 'successful', fee: 240 });
    expect((await balanceOf(token, 'NGN'))!.available).toBe(1_009_760);
    const quote = await request(app.url, 'GET', '/v1/crossborder/rates?source_currency=USD&destination_currency=KES&amount=100', { token });
    expect(quote.body.data.fee).toBe(2);
    const customerUuid = (await approvedCustomer(app, token)).customer_uuid;
    const transfer = await request(app.url, 'POST', '/v1/crossborder/global-transfer', {
      token,
      body: transferBody(customerUuid, { quote_id: quote.body.data.quote_id }),
    });
    expect(transfer.body.data.fee).toBe(2);
    expect((await balanceOf(token, 'USD'))!.reserved).toBe(102);
  });
});

describe('refunds', () => {
  let token: string;
  beforeAll(async () => {
    ({ token } = await newMerchant('Refunder'));
  });

  it('a partial then a full refund: reserved, posted on success, shown in status, list, GraphQL and webhooks’ record', async () => {
    const payment = await initiatePayment(app, token, cardPaymentBody({ amount: '1000.00' }));
    const ref = payment.body.data.reference;
    const part = await request(app.url, 'POST', '/v1/refunds', {
      token,
      body: { payment_reference: ref, amount: '300.00', reason: 'Damaged item', reference: newReference('rf') },
    });
    expect(part.status).toBe(200);
    expect(part.body.data).toMatchObject({
      type: 'refund',
      status: 'processing',
      payment_reference: ref,
      amount: 300,
      currency: 'NGN',
      reason: 'Damaged item',
    });
    expect((await balanceOf(token, 'NGN'))!.reserved).toBe(300);
    const rest = await request(app.url, 'POST', '/v1/refunds', {
      token,
      body: { payment_reference: payment.body.data.external_reference, reason: 'Rest of it', reference: newReference('rf') },
    });
    expect(rest.body.data.amount).toBe(700);
    expect((await request(app.url, 'GET', `/v1/payments/verify/${ref}`, { token })).body.data.amount_refunded).toBe(1000);
    const over = await request(app.url, 'POST', '/v1/refunds', {
      token,
      body: { payment_reference: ref, amount: '1', reason: 'x', reference: newReference('rf') },
    });
    expect(over.status).toBe(409);
    expect(over.body.code).toBe('INVALID_STATE');

    await request(app.url, 'POST', `/v1/sandbox/transactions/${part.body.data.reference}/simulate`, { token, body: { outcome: 'successful' } });
    await request(app.url, 'POST', `/v1/sandbox/transactions/${rest.body.data.reference}/simulate`, { token, body: { outcome: 'failed' } });
    expect((await request(app.url, 'GET', `/v1/refunds/${part.body.data.reference}`, { token })).body.data.status).toBe('successful');
    // The failed refund gave its 700 back to available and to the payment.
    expect((await request(app.url, 'GET', `/v1/payments/verify/${ref}`, { token })).body.data.amount_refunded).toBe(300);
    expect(await balanceOf(token, 'NGN')).toEqual({ currency: 'NGN', available: 1_000_000 + 1000 - 15 - 300, pending: 0, reserved: 0, disputed: 0, owed: 0 });
    const list = await request(app.url, 'GET', '/v1/transactions?type=refund', { token });
    expect(list.body.data.map((t: any) => t.status).sort()).toEqual(['failed', 'successful']);
    const events = await sql(app, `select type from outbox_event where subject_id in (?, ?) order by type`, [
      part.body.data.reference,
      rest.body.data.reference,
    ]);
    expect(events.map((e: any) => e.type)).toEqual(['refund.failed', 'refund.successful']);
    const gql = await graphql(
      app.url,
      `
        query ($r: String!) {
          transaction(reference: $r) {
            type
            status
            amount
            paymentReference
          }
        }
      `,
      {
        token,
        variables: { r: part.body.data.reference },
      },
    );
    expect(gql.body.data.transaction).toEqual({ type: 'REFUND', status: 'SUCCESSFUL', amount: '300.00', paymentReference: ref });
  });

  it('sandbox parity: a refund can fail, as a processor’s can. The test card 4000000000005126’s refunds fail (refund_declined)', async () => {
    const payment = await initiatePayment(app, token, cardPaymentBody({ amount: '400.00', card: { number: '4000000000005126' } }));
    expect(payment.body.data.status).toBe('successful');
    const refund = await request(app.url, 'POST', '/v1/refunds', {
      token,
      body: { payment_reference: payment.body.data.reference, reason: 'Changed mind', reference: newReference('rf') },
    });
    expect(refund.body.data.status).toBe('processing');
    // This app's sandbox settles after ten minutes: its settlement is made due now.
    await runSettlementNow(app.db.url, await transactionIdOf(app.db.url, refund.body.data.reference));
    const failed = (await request(app.url, 'GET', `/v1/refunds/${refund.body.data.reference}`, { token })).body.data;
    expect(failed).toMatchObject({ status: 'failed', failure_reason: 'refund_declined' });
    expect((await request(app.url, 'GET', `/v1/payments/verify/${payment.body.data.reference}`, { token })).body.data.amount_refunded).toBe(0);
    expect((await ledgerVerify(app.db.url)).ok).toBe(true);
  });

  it('20 concurrent partial refunds adding up to more than was captured: accepted only up to the captured amount', async () => {
    const payment = await initiatePayment(app, token, cardPaymentBody({ amount: '1000.00' }));
    const ref = payment.body.data.reference;
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2 === 0
          ? request(app.url, 'POST', '/v1/refunds', {
              token,
              body: { payment_reference: ref, amount: '150.00', reason: 'Split', reference: newReference('rfc') },
            })
          : graphql(app.url, 'mutation($input: RefundPaymentInput!) { refundPayment(input: $input) { reference amount } }', {
              token,
              variables: { input: { paymentReference: ref, amount: '150.00', reason: 'Split', reference: newReference('rfc') } },
            }),
      ),
    );
    const accepted = answers.filter((a) => a.status === 200 && !a.body.errors);
    expect(accepted).toHaveLength(6); // 6 × 150 = 900 ≤ 1000 < 7 × 150
    for (const a of answers.filter((x) => !accepted.includes(x))) {
      expect(a.body.code ?? a.body.errors?.[0]?.extensions?.code).toBe('INVALID_REQUEST');
    }
    const [row] = await sql(app, 'select refunded_amount::text as r from "transaction" where reference = ?', [ref]);
    expect(Number(row.r)).toBe(900);
    const refunds = await sql(app, `select count(*)::int as n, sum(amount)::text as s from "transaction" where kind = 'refund' and parent_reference = ?`, [
      ref,
    ]);
    expect(refunds.map((r: any) => [r.n, Number(r.s)])).toEqual([[6, 900]]);
  });

  it('refunds are checked: another kind, an unsuccessful payment, too much, no reason', async () => {
    const declined = await initiatePayment(app, token, cardPaymentBody({ card: { number: CARDS.insufficientFunds } }));
    const r1 = await request(app.url, 'POST', '/v1/refunds', {
      token,
      body: { payment_reference: declined.body.data.reference, reason: 'x', reference: newReference('rf') },
    });
    expect([r1.status, r1.body.code]).toEqual([409, 'INVALID_STATE']);
    // 100 NGN: the least our card processor charges (docs/providers.md, "Rules"), in the sandbox too.
    const good = await initiatePayment(app, token, cardPaymentBody({ amount: '100.00' }));
    expect(good.status).toBe(200);
    const r2 = await request(app.url, 'POST', '/v1/refunds', {
      token,
      body: { payment_reference: good.body.data.reference, amount: '100.01', reason: 'x', reference: newReference('rf') },
    });
    expect([r2.status, r2.body.code]).toEqual([400, 'INVALID_REQUEST']);
    const r3 = await request(app.url, 'POST', '/v1/refunds', { token, body: { payment_reference: good.body.data.reference, reference: newReference('rf') } });
    expect(r3.body.details).toEqual(expect.arrayContaining([{ field: 'reason', issue: expect.any(String) }]));
    const r4 = await request(app.url, 'POST', '/v1/refunds', { token, body: { payment_reference: 'pay_nope', reason: 'x', reference: newReference('rf') } });
    expect([r4.status, r4.body.code]).toEqual([404, 'NOT_FOUND']);
  });
});

describe('statements', () => {
  it('opening + entries = closing, the totals by type add up, and the closing balance is the balance (CSV and JSON)', async () => {
    const { token } = await newMerchant('Statement');
    const customerUuid = (await approvedCustomer(app, token)).customer_uuid;
    // After the opening balance: it is the statement's opening, not one of its entries.
    const from = new Date().toISOString();
    const payment = (await initiatePayment(app, token, cardPaymentBody({ amount: '2000.00' }))).body.data;
    const transfer = await request(app.url, 'POST', '/v1/crossborder/global-transfer', {
      token,
      body: transferBody(customerUuid, { amount: 10000, source_currency: 'NGN', destination_currency: 'KES' }),
    });
    expect(transfer.status).toBe(200);
    await request(app.url, 'POST', '/v1/sandbox/balance/top-up', { token, body: { currency: 'NGN', amount: '5' } });
    const to = new Date(Date.now() + 60_000).toISOString();
    const json = await request(app.url, 'GET', `/v1/reports/statement?currency=NGN&from=${from}&to=${to}`, { token, headers: { accept: 'application/json' } });
    expect(json.status).toBe(200);
    const s = json.body.data;
    const balance = await balanceOf(token, 'NGN');
    expect(s.closing_balance).toBe(balance!.available + balance!.pending);
    const sum = s.entries.reduce((acc: number, e: any) => acc + e.net * 100, s.opening_balance * 100) / 100;
    expect(sum).toBe(s.closing_balance);
    expect(s.totals.map((t: any) => [t.type, t.count]).sort()).toEqual([
      ['payment', 1],
      ['top_up', 1],
      ['transfer', 1],
    ]);
    expect(s.totals.find((t: any) => t.type === 'payment')).toMatchObject({ amount: 2000, fee: 30, net: 1970 });
    // Each entry names the merchant's reference beside the service's (none for a top-up).
    expect(s.entries.map((e: any) => [e.type, e.source_reference, e.external_reference])).toEqual([
      ['payment', payment.reference, payment.external_reference],
      ['transfer', transfer.body.data.reference, transfer.body.data.external_reference],
      ['top_up', null, null],
    ]);
    const csv = await request(app.url, 'GET', `/v1/reports/statement?currency=NGN&from=${from}&to=${to}`, { token });
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    // Issue 41: two sections, each with its own header, an empty line between them.
    const [balances, totals, ...rest] = csv.text.split('\r\n\r\n');
    expect(rest).toEqual([]);
    const rows = balances!.split('\r\n');
    expect(rows[0]).toBe('row,id,type,currency,amount,fee,net,balance_after,source_reference,external_reference,created_at');
    expect(rows.map((r) => r.split(',')[0])).toEqual(['row', 'opening_balance', 'entry', 'entry', 'entry', 'closing_balance']);
    expect(rows[2]!.split(',').slice(8, 10)).toEqual([payment.reference, `"${payment.external_reference}"`]);
    expect(rows.at(-1)!.split(',')[7]).toBe(Number(s.closing_balance).toFixed(2));
    // The totals in their own columns: the count in `count`, not in the first section's `id`.
    expect(totals!.split('\r\n')).toEqual([
      'row,type,currency,count,amount,fee,net',
      ...s.totals.map((t: any) => `total,${t.type},NGN,${t.count},${t.amount.toFixed(2)},${t.fee.toFixed(2)},${t.net.toFixed(2)}`),
      '',
    ]);
    expect(totals).toContain('total,payment,NGN,1,2000.00,30.00,1970.00\r\n');
    const bad = await request(app.url, 'GET', `/v1/reports/statement?currency=NGN&from=${to}&to=${from}`, { token });
    expect([bad.status, bad.body.code]).toEqual([400, 'INVALID_REQUEST']);
  });

  it('a currency the service does not support (XXX, or a real one it does not serve) is 400 naming currency, in JSON and CSV alike, not an empty statement (issue 34, L8)', async () => {
    const { token } = await newMerchant('Statement currency');
    const period = `from=2026-01-01T00:00:00Z&to=2027-01-01T00:00:00Z`;
    for (const currency of ['XXX', 'CHF', 'xxx']) {
      for (const headers of [{ accept: 'application/json' }, {}] as Array<Record<string, string>>) {
        const res = await request(app.url, 'GET', `/v1/reports/statement?currency=${currency}&${period}`, { token, headers });
        expect([res.status, res.body?.status, res.body?.code]).toEqual([400, 'error', 'INVALID_REQUEST']);
        expect(res.body.details).toEqual([{ field: 'currency', issue: 'is not a supported currency' }]);
        expect(res.body.message).toMatch(/currency/);
      }
    }
    // A supported currency the merchant never moved is a statement: its opening balance and no entries.
    const ok = await request(app.url, 'GET', `/v1/reports/statement?currency=KES&${period}`, { token, headers: { accept: 'application/json' } });
    expect(ok.status).toBe(200);
  });
});

describe('the database enforces the books', () => {
  it('refuses an entry that does not balance, an update or delete of an entry, and an account below zero', async () => {
    const [entry] = await sql(app, `insert into ledger_entry (key, leg, type, created_at) values ('test:unbalanced', 'x', 'adjustment', now()) returning id`);
    await expect(
      sql(
        app,
        `insert into ledger_line (entry_id, account_id, currency, amount) values (?, 'p:external_funds:NGN', 'NGN', -5), (?, 'p:fee_revenue:NGN', 'NGN', 4)`,
        [entry.id, entry.id],
      ),
    ).rejects.toThrow(/does not balance/);
    await expect(sql(app, `update ledger_entry set fee = 1 where id = ?`, [entry.id])).rejects.toThrow(/append-only/);
    await expect(sql(app, `delete from ledger_line`)).rejects.toThrow(/append-only/);
    await expect(sql(app, `delete from balance_transaction`)).rejects.toThrow(/append-only/);
    const { merchant } = await newMerchant('Overdraft');
    const [e2] = await sql(app, `insert into ledger_entry (key, leg, type, created_at) values ('test:overdraft', 'x', 'adjustment', now()) returning id`);
    await expect(
      sql(app, `insert into ledger_line (entry_id, account_id, currency, amount) values (?, ?, 'NGN', -2000000), (?, 'p:external_funds:NGN', 'NGN', 2000000)`, [
        e2.id,
        `m:${merchant.merchant.id}:available:NGN`,
        e2.id,
      ]),
    ).rejects.toThrow(/ledger_account_no_overdraft/);
  });

  it('ledger:verify is clean after everything above', async () => {
    // Every transaction decided above has its postings; wait out any settlement still in flight.
    expect(await eventually(async () => (await sql(app, `select count(*)::int as n from "transaction" where status = 'initiating'`))[0].n === 0)).toBe(true);
    const report = await verify();
    expect(report.problems).toEqual([]);
    expect(report.entries).toBeGreaterThan(50);
    // The periodic check's metric says the same (-1 until a first verification).
    expect(await (await fetch(`${app.url}/metrics`)).text()).toMatch(/^payments_ledger_verify_problems 0$/m);
  });
});

describe('concurrency: 100 transfers against a balance that covers exactly 50', () => {
  let poor: TestApp;
  afterAll(async () => {
    await poor?.close();
  });

  it.each(['REST', 'GraphQL'] as const)('%s: exactly 50 accepted, 50 × 402, the balance ends at exactly 0', async (door) => {
    poor ??= await createTestApp({ env: { SANDBOX_SETTLE_MS: '600000', SANDBOX_OPENING_BALANCE: '0' } });
    const merchant = await poor.createMerchant(`Exact ${door}`);
    const token = (await poor.token(merchant)).accessToken;
    const customerUuid = (await approvedCustomer(poor, token)).customer_uuid;
    // 100 USD and its 1 % fee, 50 times.
    await request(poor.url, 'POST', '/v1/sandbox/balance/top-up', { token, body: { currency: 'USD', amount: '5050.00' } });
    const answers = await Promise.all(
      Array.from({ length: 100 }, async () => {
        if (door === 'REST') {
          const res = await request(poor.url, 'POST', '/v1/crossborder/global-transfer', { token, body: transferBody(customerUuid) });
          return res.status === 200 ? 'accepted' : `${res.status} ${res.body.code}`;
        }
        const res = await graphql(poor.url, 'mutation($input: InitiateTransferInput!) { initiateTransfer(input: $input) { reference } }', {
          token,
          variables: { input: momoTransferInput(customerUuid) },
        });
        return res.body.errors ? `${res.body.errors[0]!.extensions?.code}` : 'accepted';
      }),
    );
    const counts = answers.reduce<Record<string, number>>((acc, a) => ({ ...acc, [a]: (acc[a] ?? 0) + 1 }), {});
    expect(counts).toEqual(door === 'REST' ? { accepted: 50, '402 INSUFFICIENT_FUNDS': 50 } : { accepted: 50, INSUFFICIENT_FUNDS: 50 });
    const res = await request(poor.url, 'GET', '/v1/balances', { token });
    expect(res.body.data.find((b: any) => b.currency === 'USD')).toEqual({ currency: 'USD', available: 0, pending: 0, reserved: 5050, disputed: 0, owed: 0 });
    const [{ n }] = await sql(poor, `select count(*)::int as n from "transaction" where merchant_id = ? and kind = 'transfer'`, [merchant.merchant.id]);
    expect(n).toBe(50);
    const report = await poor.service.app.services.ledger.verify(poor.service.app.services.transactions.expectedLegs());
    expect(report.problems).toEqual([]);
  });
});

describe('settlement delay', () => {
  it('with SETTLEMENT_DELAY_S, a settled payment’s net waits in pending, then the release job moves it to available once', async () => {
    const delayed = await createTestApp({ env: { SETTLEMENT_DELAY_S: '1' } });
    try {
      const merchant = await delayed.createMerchant('Delayed');
      const token = (await delayed.token(merchant)).accessToken;
      const payment = await initiatePayment(delayed, token, cardPaymentBody({ amount: '1000.00' }));
      expect(payment.body.data.status).toBe('successful');
      // It says when: completed_at plus the delay, in each door (the field added by the recipe, docs/architecture.md).
      const completedAt = Date.parse(payment.body.data.completed_at);
      expect(Date.parse(payment.body.data.available_at)).toBe(completedAt + 1000);
      const viaGraphql = await graphql(delayed.url, 'query($r: String!) { transaction(reference: $r) { availableAt } }', {
        token,
        variables: { r: payment.body.data.reference },
      });
      expect(Date.parse(viaGraphql.body.data.transaction.availableAt)).toBe(completedAt + 1000);
      const ngn = async () => (await request(delayed.url, 'GET', '/v1/balances', { token })).body.data.find((b: any) => b.currency === 'NGN');
      expect(await ngn()).toEqual({ currency: 'NGN', available: 1_000_000, pending: 985, reserved: 0, disputed: 0, owed: 0 });
      expect(await eventually(async () => (await ngn()).available === 1_000_985, { attempts: 200, everyMs: 50 })).toBe(true);
      expect(await ngn()).toEqual({ currency: 'NGN', available: 1_000_985, pending: 0, reserved: 0, disputed: 0, owed: 0 });
      const report = await delayed.service.app.services.ledger.verify(delayed.service.app.services.transactions.expectedLegs());
      expect(report.problems).toEqual([]);
    } finally {
      await delayed.close();
    }
  });
});

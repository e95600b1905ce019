import { request } from '../../helpers/http';
import { cardPaymentBody, initiatePayment } from '../../helpers/payments';
import { TEST_ADMIN_KEY, createTestApp, type TestApp } from '../../helpers/test-app';
import { sql } from '../../helpers/transactions';

/**
 * Issue 39 (docs/disputes.md): a card payment disputed, its hold, the merchant's answer, and the outcome, through the
 * books: the hold from available (the rest owed), won gives it back, lost pays it out, debts repaid first by later
 * credits, refunds refused while a chargeback is open and never more than was captured with it; ledger:verify after each.
 */
let app: TestApp;
beforeAll(async () => {
  app = await createTestApp({ env: { SANDBOX_OPENING_BALANCE: '0', DISPUTE_SWEEP_INTERVAL_S: '0' } });
}, 60_000);
afterAll(() => app?.close());

interface Shop {
  id: string;
  token: string;
}

async function shop(): Promise<Shop> {
  const m = await app.createMerchant('Dispute Shop');
  // A dispute fee of NGN 50 (fixed): the operator's price for this merchant.
  const priced = await request(app.url, 'PUT', `/v1/admin/merchants/${m.merchant.id}/fees`, {
    token: TEST_ADMIN_KEY,
    body: { kind: 'dispute', currency: 'NGN', percent: '0', fixed: '50' },
  });
  expect(priced.status).toBe(200);
  return { id: m.merchant.id, token: (await app.token(m)).accessToken };
}

const balance = async (s: Shop) =>
  ((await request(app.url, 'GET', '/v1/balances', { token: s.token })).body.data as Array<Record<string, number | string>>).find((b) => b.currency === 'NGN')!;

async function pay(s: Shop, amount = '1000.00', card?: string): Promise<string> {
  const res = await initiatePayment(app, s.token, cardPaymentBody({ amount, ...(card ? { card: { number: card } } : {}) }));
  expect(res.status).toBe(200);
  expect(res.body.data.status).toBe('successful');
  return res.body.data.reference as string;
}

const dispute = (s: Shop, body: Record<string, unknown>) => request(app.url, 'POST', '/v1/sandbox/disputes', { token: s.token, body });
const verify = async () => {
  const report = await app.service.app.services.ledger.verify(app.service.app.services.transactions.expectedLegs());
  expect(report.problems).toEqual([]);
};
const balanceTransactions = async (s: Shop) =>
  (await request(app.url, 'GET', '/v1/balance-transactions?limit=100', { token: s.token })).body.data as Array<Record<string, unknown>>;

test('won: the hold (amount and fee) leaves available, comes back on the win; the balance transactions say so', async () => {
  const s = await shop();
  const reference = await pay(s); // 1000.00, fee 15.00 (1.5%): 985.00 available
  expect(await balance(s)).toMatchObject({ available: 985, disputed: 0, owed: 0 });

  const opened = await dispute(s, { payment_reference: reference, reason: 'product_not_received', amount: '400.00' });
  expect(opened.status).toBe(201);
  const d = opened.body.data;
  expect(d).toMatchObject({
    object: 'dispute',
    payment_reference: reference,
    amount: 400,
    fee: 50,
    status: 'needs_response',
    funds: 'held',
    submission_count: 0,
  });
  expect(new Date(d.evidence_due_by).getTime()).toBeGreaterThan(app.clock.now().getTime());
  expect(await balance(s)).toMatchObject({ available: 535, disputed: 450, owed: 0 });
  await verify();

  // Evidence, then the submission (once).
  const evidence = await request(app.url, 'POST', `/v1/disputes/${d.id}/evidence`, {
    token: s.token,
    body: { product_description: 'Shoes, size 42', service_date: '2026-11-20', service_details: 'Delivered by GIG\ntracking 123' },
  });
  expect(evidence.status).toBe(200);
  expect(evidence.body.data.evidence).toMatchObject({ product_description: 'Shoes, size 42', service_details: 'Delivered by GIG\ntracking 123' });
  const submitted = await request(app.url, 'POST', `/v1/disputes/${d.id}/submit`, { token: s.token });
  expect(submitted.status).toBe(200);
  expect(submitted.body.data).toMatchObject({ status: 'under_review', submission_count: 1 });
  expect((await request(app.url, 'POST', `/v1/disputes/${d.id}/submit`, { token: s.token })).body.code).toBe('INVALID_STATE');
  expect((await request(app.url, 'POST', `/v1/disputes/${d.id}/evidence`, { token: s.token, body: { refund_policy: 'x' } })).status).toBe(409);

  const won = await request(app.url, 'POST', `/v1/sandbox/disputes/${d.id}/simulate`, { token: s.token, body: { outcome: 'won' } });
  expect(won.status).toBe(200);
  expect(won.body.data).toMatchObject({ status: 'won', funds: 'reinstated' });
  expect(won.body.data.closed_at).not.toBeNull();
  expect(await balance(s)).toMatchObject({ available: 985, disputed: 0, owed: 0 });

  const types = (await balanceTransactions(s)).map((b) => [b.type, b.amount, b.fee, b.net]);
  expect(types.slice(0, 2)).toEqual([
    ['dispute_reinstatement', 400, -50, 450],
    ['dispute_withdrawal', -400, 50, -450],
  ]);
  await verify();
});

test('lost: the hold is paid out to the provider and the fee to revenue; accepted by the merchant', async () => {
  const s = await shop();
  const reference = await pay(s);
  const d = (await dispute(s, { payment_reference: reference, reason: 'fraudulent' })).body.data;
  expect(d).toMatchObject({ amount: 1000, fee: 50, funds: 'held' });
  // Available (985) covers 985 of 1050: 65 is owed.
  expect(await balance(s)).toMatchObject({ available: 0, disputed: 1050, owed: 65 });
  const accepted = await request(app.url, 'POST', `/v1/disputes/${d.id}/accept`, { token: s.token });
  expect(accepted.body.data).toMatchObject({ status: 'lost', funds: 'withdrawn' });
  expect(await balance(s)).toMatchObject({ available: 0, disputed: 0, owed: 65 });
  const [clearing] = await sql<{ balance: string }>(
    app,
    `select sum(l.amount)::text as balance from ledger_line l join ledger_entry e on e.id = l.entry_id where e.key = ? and l.account_id like 'p:provider_clearing:%'`,
    [`${d.id}:withdraw`],
  );
  expect(clearing!.balance).toBe('1000');
  await verify();

  // The debt is repaid first by the next credit: a payment of 100.00 (net 98.50) leaves 33.50 available.
  await pay(s, '100.00');
  expect(await balance(s)).toMatchObject({ available: 33.5, owed: 0 });
  await verify();
});

test('a dispute larger than available: the debt is recorded, repaid by the next collection, and no account goes below zero', async () => {
  const s = await shop();
  const reference = await pay(s, '2000.00'); // 1970 available
  await request(app.url, 'POST', '/v1/sandbox/balance/top-up', { token: s.token, body: { currency: 'NGN', amount: '0.01' } });
  // Spend most of it: a refund of another payment is not available here, so a top-up of 0 and a transfer are not needed;
  // the dispute of the whole 2000 plus 50 exceeds the 1970.01 available by 79.99.
  const d = (await dispute(s, { payment_reference: reference, reason: 'duplicate' })).body.data;
  expect(await balance(s)).toMatchObject({ available: 0, disputed: 2050, owed: 79.99 });
  const [negative] = await sql<{ n: string }>(
    app,
    `select count(*)::text as n from ledger_account where merchant_id = ? and no_overdraft and
    case when code = 'receivable' then credits_posted > debits_posted else debits_posted > credits_posted end`,
    [s.id],
  );
  expect(negative!.n).toBe('0');
  // The next payment repays it: 50.00 pays 49.25 net, all of it to the debt.
  await pay(s, '50.00');
  expect(await balance(s)).toMatchObject({ available: 0, owed: 30.74 });
  await pay(s, '100.00');
  expect(await balance(s)).toMatchObject({ available: 67.76, owed: 0 });
  // Won: the hold comes back to available (nothing owed any more).
  await request(app.url, 'POST', `/v1/disputes/${d.id}/evidence`, { token: s.token, body: { uncategorized_text: 'Two different orders' } });
  await request(app.url, 'POST', `/v1/disputes/${d.id}/submit`, { token: s.token });
  await request(app.url, 'POST', `/v1/sandbox/disputes/${d.id}/simulate`, { token: s.token, body: { outcome: 'won' } });
  expect(await balance(s)).toMatchObject({ available: 2117.76, disputed: 0, owed: 0 });
  await verify();
});

test('refunds: refused while a chargeback is open; refunds and a lost dispute never exceed the captured amount, under concurrency', async () => {
  const s = await shop();
  await request(app.url, 'POST', '/v1/sandbox/balance/top-up', { token: s.token, body: { currency: 'NGN', amount: '10000' } });
  const reference = await pay(s);
  const refund = (amount: string) =>
    request(app.url, 'POST', '/v1/refunds', {
      token: s.token,
      body: { payment_reference: reference, amount, reason: 'asked', reference: `rf-${Math.random()}` },
    });
  expect((await refund('300.00')).status).toBe(200);
  // The dispute cannot take more than what is left (700).
  expect((await dispute(s, { payment_reference: reference, reason: 'general', amount: '800.00' })).status).toBe(400);
  // Race a dispute of the rest against refunds of it: together they never exceed the 1000 captured.
  const results = await Promise.all([dispute(s, { payment_reference: reference, reason: 'general', amount: '700.00' }), refund('700.00'), refund('700.00')]);
  const [row] = await sql<{ refunded: string; disputed: string }>(
    app,
    `select refunded_amount::text as refunded, disputed_amount::text as disputed from "transaction" where reference = ?`,
    [reference],
  );
  expect(Number(row!.refunded) + Number(row!.disputed)).toBeLessThanOrEqual(1000);
  expect(results.filter((r) => r.status === 200 || r.status === 201).length).toBe(1);
  if (Number(row!.disputed) > 0) {
    const again = await refund('1.00');
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('INVALID_STATE');
  }
  await verify();
});

test('the always-disputed test card is disputed by the sweep; an inquiry moves no money', async () => {
  const s = await shop();
  const reference = await pay(s, '1000.00', '4000000000000259');
  const swept = await app.service.app.services.disputes.runDeadlines();
  expect(swept.opened).toBeGreaterThanOrEqual(1);
  const list = (await request(app.url, 'GET', `/v1/disputes?payment_reference=${reference}`, { token: s.token })).body.data;
  expect(list).toHaveLength(1);
  expect(list[0]).toMatchObject({ status: 'needs_response', reason: 'fraudulent', funds: 'held' });

  const other = await pay(s, '500.00');
  const before = await balance(s);
  const inquiry = (await dispute(s, { payment_reference: other, reason: 'unrecognized', inquiry: true })).body.data;
  expect(inquiry).toMatchObject({ status: 'warning_needs_response', funds: 'none' });
  expect(await balance(s)).toEqual(before);
  await verify();
});

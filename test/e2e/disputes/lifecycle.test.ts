import pg from 'pg';
import { graphql, request } from '../../helpers/http';
import { cardPaymentBody, initiatePayment } from '../../helpers/payments';
import { personOf } from '../../helpers/people';
import { TEST_ADMIN_KEY, createTestApp, type TestApp } from '../../helpers/test-app';
import { newReference, sql } from '../../helpers/transactions';

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

async function shop(disputeFee = '50'): Promise<Shop> {
  const m = await app.createMerchant('Dispute Shop');
  // A dispute fee of NGN 50 (fixed) unless asked otherwise: the operator's price for this merchant.
  const priced = await request(app.url, 'PUT', `/v1/admin/merchants/${m.merchant.id}/fees`, {
    token: TEST_ADMIN_KEY,
    body: { kind: 'dispute', currency: 'NGN', percent: '0', fixed: disputeFee },
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
/** What ledger:verify reports (the whole-ledger check `npm run ledger:verify` runs). */
const problems = async () => (await app.service.app.services.ledger.verify(app.service.app.services.transactions.expectedLegs())).problems;
const verify = async () => expect(await problems()).toEqual([]);
// (Not `rf-${Math.random()}`: its 16 or 17 decimals are a Luhn-valid card number one time in twenty, refused as such.)
const refund = (s: Shop, paymentReference: string, amount: string) =>
  request(app.url, 'POST', '/v1/refunds', {
    token: s.token,
    body: { payment_reference: paymentReference, amount, reason: 'asked', reference: newReference('rf') },
  });
const topUp = (s: Shop, amount: string) => request(app.url, 'POST', '/v1/sandbox/balance/top-up', { token: s.token, body: { currency: 'NGN', amount } });
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
  // A dispute fee of 200, so that the debt outlasts one payment of 100 NGN, the least our card processor takes (docs/providers.md, "Rules").
  const s = await shop('200');
  const reference = await pay(s, '2000.00'); // 1970 available
  await request(app.url, 'POST', '/v1/sandbox/balance/top-up', { token: s.token, body: { currency: 'NGN', amount: '0.01' } });
  // Spend most of it: a refund of another payment is not available here, so a top-up of 0 and a transfer are not needed;
  // the dispute of the whole 2000 plus 200 exceeds the 1970.01 available by 229.99.
  const d = (await dispute(s, { payment_reference: reference, reason: 'duplicate' })).body.data;
  expect(await balance(s)).toMatchObject({ available: 0, disputed: 2200, owed: 229.99 });
  const [negative] = await sql<{ n: string }>(
    app,
    `select count(*)::text as n from ledger_account where merchant_id = ? and no_overdraft and
    case when code = 'receivable' then credits_posted > debits_posted else debits_posted > credits_posted end`,
    [s.id],
  );
  expect(negative!.n).toBe('0');
  // The next payment repays it: 100.00 pays 98.50 net, all of it to the debt.
  await pay(s, '100.00');
  expect(await balance(s)).toMatchObject({ available: 0, owed: 131.49 });
  await pay(s, '200.00');
  expect(await balance(s)).toMatchObject({ available: 65.51, owed: 0 });
  // Won: the hold comes back to available (nothing owed any more).
  await request(app.url, 'POST', `/v1/disputes/${d.id}/evidence`, { token: s.token, body: { uncategorized_text: 'Two different orders' } });
  await request(app.url, 'POST', `/v1/disputes/${d.id}/submit`, { token: s.token });
  await request(app.url, 'POST', `/v1/sandbox/disputes/${d.id}/simulate`, { token: s.token, body: { outcome: 'won' } });
  expect(await balance(s)).toMatchObject({ available: 2265.51, disputed: 0, owed: 0 });
  await verify();
});

test('refunds: refused while a chargeback is open; refunds and a lost dispute never exceed the captured amount, under concurrency', async () => {
  const s = await shop();
  await request(app.url, 'POST', '/v1/sandbox/balance/top-up', { token: s.token, body: { currency: 'NGN', amount: '10000' } });
  const reference = await pay(s);
  const refundOf = (amount: string) => refund(s, reference, amount);
  expect((await refundOf('300.00')).status).toBe(200);
  // The dispute cannot take more than what is left (700).
  expect((await dispute(s, { payment_reference: reference, reason: 'general', amount: '800.00' })).status).toBe(400);
  // Race a dispute of the rest against refunds of it: together they never exceed the 1000 captured.
  const results = await Promise.all([
    dispute(s, { payment_reference: reference, reason: 'general', amount: '700.00' }),
    refundOf('700.00'),
    refundOf('700.00'),
  ]);
  const [row] = await sql<{ refunded: string; disputed: string }>(
    app,
    `select refunded_amount::text as refunded, disputed_amount::text as disputed from "transaction" where reference = ?`,
    [reference],
  );
  expect(Number(row!.refunded) + Number(row!.disputed)).toBeLessThanOrEqual(1000);
  expect(results.filter((r) => r.status === 200 || r.status === 201).length).toBe(1);
  if (Number(row!.disputed) > 0) {
    const again = await refundOf('1.00');
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('INVALID_STATE');
  }
  await verify();
});

/** A payment of 1000.00 whose chargeback of 700.00 the merchant accepted (lost): 300.00 of it is left to refund. */
async function lostSevenHundred(s: Shop): Promise<string> {
  expect((await topUp(s, '10000')).status).toBe(200);
  const reference = await pay(s);
  const d = (await dispute(s, { payment_reference: reference, reason: 'fraudulent', amount: '700.00' })).body.data;
  const accepted = await request(app.url, 'POST', `/v1/disputes/${d.id}/accept`, { token: s.token });
  expect(accepted.body.data).toMatchObject({ status: 'lost', funds: 'withdrawn' });
  return reference;
}
const claimsOn = async (reference: string) =>
  (
    await sql<{ refunded: string; disputed: string }>(
      app,
      `select refunded_amount::text as refunded, disputed_amount::text as disputed from "transaction" where reference = ?`,
      [reference],
    )
  )[0]!;

test('refunds racing after a lost chargeback (1000 paid, 700 lost): at most the 300 left is refunded; each loser a clean 4xx in the envelope', async () => {
  const s = await shop();
  const reference = await lostSevenHundred(s);
  const asked = ['300.00', '300.00', '1.00'];
  const results = await Promise.all(asked.map((amount) => refund(s, reference, amount)));

  const claims = await claimsOn(reference);
  expect(claims.disputed).toBe('700');
  expect(Number(claims.refunded) + Number(claims.disputed)).toBeLessThanOrEqual(1000);
  expect(Number(claims.refunded)).toBeLessThanOrEqual(300);
  // One wins (a 300, or the 1 first, after which no 300 fits), and the payment holds exactly what it refunds.
  const won = asked.filter((_, i) => results[i]!.status === 200);
  expect(won).toHaveLength(1);
  expect(Number(claims.refunded)).toBe(Number(won[0]));
  const refunds = await sql<{ amount: string }>(app, `select amount::text as amount from "transaction" where kind = 'refund' and parent_reference = ?`, [
    reference,
  ]);
  expect(refunds.map((r) => Number(r.amount))).toEqual([Number(won[0])]);
  // The losers: more than is left (400 on amount), or nothing left at all (409); never a 5xx.
  for (const lost of results.filter((r) => r.status !== 200)) {
    expect([400, 409]).toContain(lost.status);
    if (lost.status === 400) {
      expect(lost.body).toEqual({
        status: 'error',
        code: 'INVALID_REQUEST',
        message: expect.any(String),
        details: [{ field: 'amount', issue: expect.any(String) }],
      });
    } else {
      expect(lost.body).toEqual({ status: 'error', code: 'INVALID_STATE', message: expect.any(String) });
    }
  }
  await verify();
});

test('after a lost chargeback, a refund without an amount gives back what it left (300), and asking for more names it', async () => {
  const s = await shop();
  const reference = await lostSevenHundred(s);
  const more = await refund(s, reference, '300.01');
  expect(more.status).toBe(400);
  expect(more.body).toMatchObject({
    code: 'INVALID_REQUEST',
    details: [{ field: 'amount', issue: 'is more than what is left to refund of the payment, 300.00 NGN' }],
  });
  const rest = await request(app.url, 'POST', '/v1/refunds', {
    token: s.token,
    body: { payment_reference: reference, reason: 'the rest', reference: newReference('rf') },
  });
  expect(rest.status).toBe(200);
  expect(rest.body.data.amount).toBe(300);
  expect(await claimsOn(reference)).toEqual({ refunded: '300', disputed: '700' });
  const none = await refund(s, reference, '0.01');
  expect(none.status).toBe(409);
  expect(none.body).toEqual({ status: 'error', code: 'INVALID_STATE', message: expect.stringContaining('Nothing is left of the payment to refund') });
  await verify();
});

test('GET /v1/disputes?status= lists only the disputes in that status; an unknown status is a 400 naming it', async () => {
  const s = await shop();
  expect((await topUp(s, '10000')).status).toBe(200);
  const lost = (await dispute(s, { payment_reference: await pay(s), reason: 'fraudulent', amount: '100.00' })).body.data;
  expect((await request(app.url, 'POST', `/v1/disputes/${lost.id}/accept`, { token: s.token })).body.data.status).toBe('lost');
  const open = (await dispute(s, { payment_reference: await pay(s), reason: 'general', amount: '100.00' })).body.data;
  const inquiry = (await dispute(s, { payment_reference: await pay(s), reason: 'unrecognized', inquiry: true })).body.data;
  const list = async (query: string) => {
    const res = await request(app.url, 'GET', `/v1/disputes?${query}`, { token: s.token });
    expect(res.status).toBe(200);
    return (res.body.data as Array<{ id: string; status: string }>).map((d) => [d.id, d.status]);
  };
  expect(await list('status=lost')).toEqual([[lost.id, 'lost']]);
  expect(await list('status=needs_response')).toEqual([[open.id, 'needs_response']]);
  expect(await list('status=warning_needs_response')).toEqual([[inquiry.id, 'warning_needs_response']]);
  expect(await list('status=won')).toEqual([]);
  expect((await list('')).map(([id]) => id).sort()).toEqual([lost.id, open.id, inquiry.id].sort());

  for (const status of ['closed', 'LOST']) {
    const bad = await request(app.url, 'GET', `/v1/disputes?status=${status}`, { token: s.token });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      status: 'error',
      code: 'INVALID_REQUEST',
      message: expect.stringContaining('status'),
      details: [{ field: 'status', issue: expect.stringContaining('must be one of') }],
    });
  }
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

test('a refund while a chargeback is open is 409 INVALID_STATE and changes nothing (REST and GraphQL); after the win it goes through; an inquiry does not stop one', async () => {
  const s = await shop();
  expect((await topUp(s, '10000')).status).toBe(200);
  const reference = await pay(s);
  const opened = await dispute(s, { payment_reference: reference, reason: 'general', amount: '200.00' });
  expect(opened.body.data).toMatchObject({ status: 'needs_response', funds: 'held' });
  const d = opened.body.data;

  const state = async () => ({
    payment: (
      await sql(app, `select refunded_amount::text as refunded, disputed_amount::text as disputed, dispute_open from "transaction" where reference = ?`, [
        reference,
      ])
    )[0],
    refunds: (await sql(app, `select count(*)::text as n from "transaction" where kind = 'refund' and parent_reference = ?`, [reference]))[0].n,
    balance: await balance(s),
    balanceTransactions: (await balanceTransactions(s)).length,
    entries: (await sql(app, `select count(*)::text as n from ledger_entry`))[0].n,
  });
  const before = await state();
  expect(before.payment).toEqual({ refunded: '0', disputed: '200', dispute_open: true });
  expect(before.refunds).toBe('0');

  const refused = await refund(s, reference, '100.00');
  expect(refused.status).toBe(409);
  expect(refused.body.code).toBe('INVALID_STATE');
  const refusedByGraphql = await graphql(
    app.url,
    `
      mutation ($i: RefundPaymentInput!) {
        refundPayment(input: $i) {
          reference
        }
      }
    `,
    {
      token: s.token,
      variables: { i: { paymentReference: reference, amount: '100.00', reason: 'asked', reference: 'rf-gql-during-dispute' } },
    },
  );
  expect(refusedByGraphql.body.errors?.[0]?.extensions?.code).toBe('INVALID_STATE');
  expect(await state()).toEqual(before);

  // Won: the chargeback is closed, and the payment can be refunded again (what is left of it: all 1000).
  await request(app.url, 'POST', `/v1/disputes/${d.id}/evidence`, { token: s.token, body: { uncategorized_text: 'Delivered' } });
  await request(app.url, 'POST', `/v1/disputes/${d.id}/submit`, { token: s.token });
  expect((await request(app.url, 'POST', `/v1/sandbox/disputes/${d.id}/simulate`, { token: s.token, body: { outcome: 'won' } })).body.data.status).toBe('won');
  expect((await refund(s, reference, '100.00')).status).toBe(200);

  // An inquiry (warning_needs_response) holds nothing and does not stop a refund, even of the whole payment (docs/disputes.md).
  const other = await pay(s, '500.00');
  const inquiry = (await dispute(s, { payment_reference: other, reason: 'unrecognized', inquiry: true })).body.data;
  expect(inquiry).toMatchObject({ status: 'warning_needs_response', funds: 'none' });
  const refunded = await refund(s, other, '500.00');
  expect(refunded.status).toBe(200);
  const [row] = await sql(
    app,
    `select refunded_amount::text as refunded, disputed_amount::text as disputed, dispute_open from "transaction" where reference = ?`,
    [other],
  );
  expect(row).toEqual({ refunded: '500', disputed: '0', dispute_open: false });
  await verify();
});

/** The audit log's entries about a dispute: action and who, oldest first. */
const auditOf = (disputeId: string) =>
  sql<{ action: string; actor_type: string; actor_id: string | null; role: string | null }>(
    app,
    `select action, actor_type, actor_id, role from audit_log where target_type = 'dispute' and target_id = ? order by created_at, id`,
    [disputeId],
  );
const eventsOf = async (disputeId: string) =>
  (await sql<{ type: string }>(app, `select type from outbox_event where subject_id = ?`, [disputeId])).map((e) => e.type).sort();

describe('the lifecycle as issue 39 lists it: the always-disputed card, the sweep, a PDF, the evidence, the submission, the outcome', () => {
  const PDF = Buffer.from('%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n');

  /** A shop with 1000.00 topped up, paid 1000.00 with the always-disputed test card, disputed by the sweep, answered with a PDF and text, submitted. */
  async function disputedAndAnswered() {
    const s = await shop();
    expect((await topUp(s, '1000.00')).status).toBe(200);
    const reference = await pay(s, '1000.00', '4000000000000259'); // fee 15.00: 1985.00 available
    expect(await balance(s)).toMatchObject({ available: 1985, disputed: 0, owed: 0 });
    // Nothing is disputed until the sweep runs (the card network's report, here the dispute sweep's job).
    expect((await request(app.url, 'GET', `/v1/disputes?payment_reference=${reference}`, { token: s.token })).body.data).toEqual([]);
    expect((await app.service.app.services.disputes.runDeadlines()).opened).toBe(1);
    const listed = (await request(app.url, 'GET', `/v1/disputes?payment_reference=${reference}`, { token: s.token })).body.data;
    expect(listed).toHaveLength(1);
    const d = listed[0];
    expect(d).toMatchObject({
      payment_reference: reference,
      status: 'needs_response',
      reason: 'fraudulent',
      amount: 1000,
      fee: 50,
      funds: 'held',
      submission_count: 0,
    });
    // The hold: amount and fee from available into disputed; available covers it, so nothing is owed.
    expect(await balance(s)).toMatchObject({ available: 935, disputed: 1050, owed: 0 });
    expect((await balanceTransactions(s))[0]).toMatchObject({ type: 'dispute_withdrawal', amount: -1000, fee: 50, net: -1050, source_reference: reference });
    await verify();

    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(PDF)]), 'delivery-note.pdf');
    const uploaded = await fetch(`${app.url}/v1/disputes/${d.id}/files`, { method: 'POST', headers: { authorization: `Bearer ${s.token}` }, body: form });
    expect(uploaded.status).toBe(201);
    const file = ((await uploaded.json()) as { data: { id: string; content_type: string } }).data;
    expect(file.content_type).toBe('application/pdf');
    const evidence = await request(app.url, 'POST', `/v1/disputes/${d.id}/evidence`, {
      token: s.token,
      body: { product_description: 'A lamp', customer_communication: 'Email of 20 Nov: "it works"', files: [file.id] },
    });
    expect(evidence.status).toBe(200);
    expect(evidence.body.data.evidence.files.map((f: { id: string }) => f.id)).toEqual([file.id]);
    const submitted = await request(app.url, 'POST', `/v1/disputes/${d.id}/submit`, { token: s.token });
    expect(submitted.body.data).toMatchObject({ status: 'under_review', submission_count: 1, funds: 'held' });
    // Once: a second submission is refused, and is not in the audit log.
    expect((await request(app.url, 'POST', `/v1/disputes/${d.id}/submit`, { token: s.token })).status).toBe(409);
    await verify();
    return { s, reference, d: d as { id: string } };
  }

  test('won: the hold comes back whole (a dispute_reinstatement), ledger:verify is clean, each answer audited once', async () => {
    const { s, reference, d } = await disputedAndAnswered();
    const won = await request(app.url, 'POST', `/v1/sandbox/disputes/${d.id}/simulate`, { token: s.token, body: { outcome: 'won' } });
    expect(won.body.data).toMatchObject({ status: 'won', funds: 'reinstated' });
    expect(await balance(s)).toMatchObject({ available: 1985, disputed: 0, owed: 0 });
    const bts = (await balanceTransactions(s)).map((b) => [b.type, b.amount, b.fee, b.net, b.balance_after, b.source_reference]);
    expect(bts.slice(0, 2)).toEqual([
      ['dispute_reinstatement', 1000, -50, 1050, 1985, reference],
      ['dispute_withdrawal', -1000, 50, -1050, 935, reference],
    ]);
    await verify();

    expect(await auditOf(d.id)).toEqual([
      expect.objectContaining({ action: 'dispute.file_uploaded', actor_type: 'api_key' }),
      expect.objectContaining({ action: 'dispute.evidence_updated', actor_type: 'api_key' }),
      expect.objectContaining({ action: 'dispute.submitted', actor_type: 'api_key' }),
    ]);
    expect(await eventsOf(d.id)).toEqual(
      ['dispute.closed', 'dispute.created', 'dispute.funds_reinstated', 'dispute.funds_withdrawn', 'dispute.updated', 'dispute.updated'].sort(),
    );
  });

  test('lost: the hold is paid out, the amount to the clearing account the payment settled from and the fee to revenue; ledger:verify is clean', async () => {
    const { s, reference, d } = await disputedAndAnswered();
    const [settled] = await sql<{ account_id: string }>(
      app,
      `select l.account_id from ledger_entry e join ledger_line l on l.entry_id = e.id join "transaction" t on e.key = t.id || ':settle'
       where t.reference = ? and l.account_id like 'p:provider_clearing:%'`,
      [reference],
    );
    const platform = async () =>
      Object.fromEntries(
        (
          await sql<{ account_id: string; balance: string }>(
            app,
            `select account_id, coalesce(sum(amount), 0)::text as balance from ledger_line where account_id in (?, 'p:fee_revenue:NGN') group by account_id`,
            [settled!.account_id],
          )
        ).map((r) => [r.account_id, Number(r.balance)]),
      );
    const before = await platform();
    const lost = await request(app.url, 'POST', `/v1/sandbox/disputes/${d.id}/simulate`, { token: s.token, body: { outcome: 'lost' } });
    expect(lost.body.data).toMatchObject({ status: 'lost', funds: 'withdrawn' });
    expect(lost.body.data.closed_at).not.toBeNull();
    // The balance fell at the hold; the loss moves the hold out, and nothing back to available.
    expect(await balance(s)).toMatchObject({ available: 935, disputed: 0, owed: 0 });
    const after = await platform();
    expect(after[settled!.account_id]! - before[settled!.account_id]!).toBe(1000);
    expect(after['p:fee_revenue:NGN']! - before['p:fee_revenue:NGN']!).toBe(50);
    // No balance transaction for the loss: the last is still the withdrawal.
    expect((await balanceTransactions(s))[0]).toMatchObject({ type: 'dispute_withdrawal', net: -1050, balance_after: 935 });
    expect((await balanceTransactions(s)).filter((b) => b.type === 'dispute_reinstatement')).toEqual([]);
    await verify();

    expect((await auditOf(d.id)).map((a) => a.action)).toEqual(['dispute.file_uploaded', 'dispute.evidence_updated', 'dispute.submitted']);
    expect(await eventsOf(d.id)).toEqual(['dispute.closed', 'dispute.created', 'dispute.funds_withdrawn', 'dispute.updated', 'dispute.updated'].sort());
  });

  test('a sandbox dispute accepted by a person (finance): one sandbox.dispute_created by the key, one dispute.accepted by that person', async () => {
    const s = await shop();
    expect((await topUp(s, '1000.00')).status).toBe(200);
    const reference = await pay(s);
    const d = (await dispute(s, { payment_reference: reference, reason: 'duplicate' })).body.data;
    const finance = await personOf(app, s.id, 'finance');
    const accepted = await request(app.url, 'POST', `/v1/disputes/${d.id}/accept`, { token: finance.token });
    expect(accepted.body.data).toMatchObject({ status: 'lost', funds: 'withdrawn' });
    // Accepting again is refused, and not audited.
    expect((await request(app.url, 'POST', `/v1/disputes/${d.id}/accept`, { token: finance.token })).status).toBe(409);
    expect(await auditOf(d.id)).toEqual([
      expect.objectContaining({ action: 'sandbox.dispute_created', actor_type: 'api_key' }),
      { action: 'dispute.accepted', actor_type: 'user', actor_id: finance.userId, role: 'finance' },
    ]);
    await verify();
  });
});

/**
 * ledger:verify on the dispute legs (docs/ledger.md, Verification): each tampering below is done as the replication role
 * (no triggers: the append-only rules and the lines' trigger, which keeps the running totals, do not run), reported
 * by its check's name, and undone; the books are clean again after each.
 */
describe('ledger:verify finds a dispute’s broken legs', () => {
  /** Runs `tamper`, then `check`, then `restore` (always), on one session as the replication role; then verify is clean. */
  async function whileTampered(tamper: string[], restore: string[], check: () => Promise<void>): Promise<void> {
    const client = new pg.Client({ connectionString: app.db.url });
    await client.connect();
    try {
      await client.query('set session_replication_role = replica');
      for (const text of tamper) await client.query(text);
      try {
        await check();
      } finally {
        for (const text of restore) await client.query(text);
      }
    } finally {
      await client.end();
    }
    await verify();
  }
  /** Each problem's check (its text before the first colon). */
  const checks = async () => (await problems()).map((p) => p.split(':')[0]);
  const problemOf = async (check: string) => (await problems()).find((p) => p.startsWith(`${check}:`)) ?? '';
  /** Deletes an entry and its lines, kept in temporary tables (of the session) to be put back. */
  const removeEntry = (key: string) => [
    `create temp table kept_entry as select * from ledger_entry where key = '${key}'`,
    `create temp table kept_lines as select * from ledger_line where entry_id in (select id from kept_entry)`,
    `delete from ledger_line where entry_id in (select id from kept_entry)`,
    `delete from ledger_entry where id in (select id from kept_entry)`,
  ];
  const putBack = [
    `insert into ledger_entry select * from kept_entry`,
    `insert into ledger_line select * from kept_lines`,
    `drop table kept_lines`,
    `drop table kept_entry`,
  ];

  test('a won dispute whose release entry is gone: its entries differ from where its money is; the disputed account’s totals from its lines', async () => {
    const s = await shop();
    const reference = await pay(s);
    const d = (await dispute(s, { payment_reference: reference, reason: 'general', amount: '100.00' })).body.data;
    await request(app.url, 'POST', `/v1/disputes/${d.id}/evidence`, { token: s.token, body: { uncategorized_text: 'Delivered' } });
    await request(app.url, 'POST', `/v1/disputes/${d.id}/submit`, { token: s.token });
    await request(app.url, 'POST', `/v1/sandbox/disputes/${d.id}/simulate`, { token: s.token, body: { outcome: 'won' } });
    await verify();
    await whileTampered(removeEntry(`${d.id}:release`), putBack, async () => {
      expect(await checks()).toEqual([
        'merchant accounts whose running totals differ from their lines',
        'disputes whose entries differ from where their money is',
      ]);
      expect(await problemOf('disputes whose entries differ from where their money is')).toContain(
        JSON.stringify({ id: d.id, funds: 'reinstated', legs: 'hold' }),
      );
      expect(await problemOf('merchant accounts whose running totals differ from their lines')).toContain(`m:${s.id}:disputed:NGN`);
    });
  });

  test('an open chargeback whose hold is gone, and a dispute marked held with no hold', async () => {
    const s = await shop();
    const d = (await dispute(s, { payment_reference: await pay(s), reason: 'general', amount: '100.00' })).body.data;
    await whileTampered(removeEntry(`${d.id}:hold`), putBack, async () => {
      expect(await problemOf('disputes whose entries differ from where their money is')).toContain(JSON.stringify({ id: d.id, funds: 'held', legs: '' }));
    });
    // The row says the money went back (reinstated) while the books hold it.
    await whileTampered(
      [`update dispute set funds = 'reinstated' where id = '${d.id}'`],
      [`update dispute set funds = 'held' where id = '${d.id}'`],
      async () => {
        expect(await checks()).toEqual(['disputes whose entries differ from where their money is']);
        expect(await problemOf('disputes whose entries differ from where their money is')).toContain(
          JSON.stringify({ id: d.id, funds: 'reinstated', legs: 'hold' }),
        );
      },
    );
  });

  test('a hold whose receivable leg was altered: the entry does not balance, the receivable’s totals differ from its lines, the hold from the dispute', async () => {
    const s = await shop();
    // 1000.00 paid (985.00 available); the chargeback of all of it and its fee (1050.00): 65.00 owed.
    const d = (await dispute(s, { payment_reference: await pay(s), reason: 'fraudulent' })).body.data;
    expect(await balance(s)).toMatchObject({ available: 0, disputed: 1050, owed: 65 });
    const receivable = `m:${s.id}:receivable:NGN`;
    const line = `(select l.id from ledger_line l join ledger_entry e on e.id = l.entry_id where e.key = '${d.id}:hold' and l.account_id = '${receivable}')`;
    await whileTampered(
      [`update ledger_line set amount = amount + 1 where id = ${line}`],
      [`update ledger_line set amount = amount - 1 where id = ${line}`],
      async () => {
        expect(await checks()).toEqual([
          'entries that do not balance in a currency',
          'merchant accounts whose running totals differ from their lines',
          'dispute entries whose amounts differ from the dispute’s amount and fee',
        ]);
        expect(await problemOf('entries that do not balance in a currency')).toContain(JSON.stringify({ key: `${d.id}:hold`, currency: 'NGN', sum: '1' }));
        expect(await problemOf('merchant accounts whose running totals differ from their lines')).toContain(receivable);
        // The hold took 1049.00 from available and the receivable, not the 1050.00 it put into disputed.
        expect(await problemOf('dispute entries whose amounts differ from the dispute’s amount and fee')).toContain(
          `"id":"${d.id}","leg":"hold","held":"1050","amount":"1000","fee":"50","disputed":"1050","merchant":"-1049"`,
        );
      },
    );
  });

  test('a debt repayment that is gone: available’s and the receivable’s running totals differ from their lines', async () => {
    const s = await shop();
    await dispute(s, { payment_reference: await pay(s), reason: 'fraudulent' }); // 65.00 owed
    await pay(s, '100.00'); // 98.50 net: 65.00 of it repays the debt
    expect(await balance(s)).toMatchObject({ available: 33.5, owed: 0 });
    const [repay] = await sql<{ key: string }>(app, `select key from ledger_entry where merchant_id = ? and type = 'debt_repayment'`, [s.id]);
    expect(repay!.key).toMatch(/^\d+:repay$/);
    await whileTampered(removeEntry(repay!.key), putBack, async () => {
      expect(await checks()).toEqual(['merchant accounts whose running totals differ from their lines']);
      const found = await problemOf('merchant accounts whose running totals differ from their lines');
      expect(found).toContain(`m:${s.id}:available:NGN`);
      expect(found).toContain(`m:${s.id}:receivable:NGN`);
    });
  });

  /** A merchant that owed 65.00 (a chargeback of its whole 1000.00 payment and the fee) and repaid it from a payment: its repayment's key. */
  async function repaid(s: Shop): Promise<string> {
    await dispute(s, { payment_reference: await pay(s), reason: 'fraudulent' }); // 65.00 owed
    await pay(s, '100.00'); // 98.50 net: 65.00 of it repays the debt
    expect(await balance(s)).toMatchObject({ available: 33.5, owed: 0 });
    await verify();
    const [repay] = await sql<{ key: string }>(app, `select key from ledger_entry where merchant_id = ? and type = 'debt_repayment'`, [s.id]);
    return repay!.key;
  }
  /** Moves the running totals of available and the receivable by what a repayment's tampering moved in their lines. */
  const totals = (s: Shop, available: { debits: number; credits: number }, receivable: { debits: number; credits: number }) => [
    `update ledger_account set debits_posted = debits_posted + ${available.debits}, credits_posted = credits_posted + ${available.credits}
     where id = 'm:${s.id}:available:NGN'`,
    `update ledger_account set debits_posted = debits_posted + ${receivable.debits}, credits_posted = credits_posted + ${receivable.credits}
     where id = 'm:${s.id}:receivable:NGN'`,
  ];
  const repayLine = (key: string, account: string) =>
    `(select l.id from ledger_line l join ledger_entry e on e.id = l.entry_id where e.key = '${key}' and l.account_id = '${account}')`;
  const REPAYMENTS = 'debt repayments that do not move r > 0 from available to the receivable';
  const DEBTS = 'merchants with money available while they owe the platform';

  test('a debt repayment whose amounts were changed, its running totals made to agree: the debt left owed beside money available; a reversed one', async () => {
    const s = await shop();
    const key = await repaid(s);
    const available = `m:${s.id}:available:NGN`;
    const receivable = `m:${s.id}:receivable:NGN`;
    // 40.00 repaid instead of 65.00: the entry balances, the totals follow its lines, the balance is the same (33.50);
    // but 25.00 is still owed while 58.50 is available.
    const shrink = (by: number) => [
      `update ledger_line set amount = amount + ${by} where id = ${repayLine(key, available)}`,
      `update ledger_line set amount = amount - ${by} where id = ${repayLine(key, receivable)}`,
      ...totals(s, { debits: -by, credits: 0 }, { debits: 0, credits: -by }),
    ];
    await whileTampered(shrink(25), shrink(-25), async () => {
      expect(await checks()).toEqual([DEBTS]);
      expect(await problemOf(DEBTS)).toContain(`"merchant_id":"${s.id}","currency":"NGN"`);
      expect(await problemOf(DEBTS)).toContain('"available":"58.5","owed":"25"');
    });
    // Reversed: available +65.00, the receivable −65.00 (a "repayment" that lends): balanced, totals agreeing.
    const reverse = (sign: 1 | -1) => [
      `update ledger_line set amount = -amount where entry_id = (select id from ledger_entry where key = '${key}')`,
      ...totals(s, { debits: -65 * sign, credits: 65 * sign }, { debits: 65 * sign, credits: -65 * sign }),
    ];
    await whileTampered(reverse(1), reverse(-1), async () => {
      expect(await checks()).toEqual([REPAYMENTS, DEBTS]);
      expect(await problemOf(REPAYMENTS)).toContain(`"key":"${key}","merchant_id":"${s.id}"`);
      expect(await problemOf(DEBTS)).toContain('"available":"163.5","owed":"130"');
    });
    // A repayment whose key names another entry (one that credited no available of this merchant): only its key is wrong.
    const rekey = (to: string, from: string) => [`update ledger_entry set key = '${to}' where key = '${from}'`];
    await whileTampered(rekey('1:repay', key), rekey(key, '1:repay'), async () => {
      expect(await checks()).toEqual([REPAYMENTS]);
      expect(await problemOf(REPAYMENTS)).toContain(`"key":"1:repay","merchant_id":"${s.id}"`);
    });
  });

  test('a debt repayment that is gone, its running totals restored to agree with the lines: the debt owed beside money available', async () => {
    const s = await shop();
    const key = await repaid(s);
    // Without the repayment available holds 98.50 and 65.00 is owed: no line, total or balance transaction disagrees.
    await whileTampered(
      [...removeEntry(key), ...totals(s, { debits: -65, credits: 0 }, { debits: 0, credits: -65 })],
      [...putBack, ...totals(s, { debits: 65, credits: 0 }, { debits: 0, credits: 65 })],
      async () => {
        expect(await checks()).toEqual([DEBTS]);
        expect(await problemOf(DEBTS)).toContain(`"merchant_id":"${s.id}","currency":"NGN"`);
        expect(await problemOf(DEBTS)).toContain('"available":"98.5","owed":"65"');
      },
    );
  });

  test('a lost dispute’s withdrawal that splits its money wrongly (balanced, platform accounts only, no running totals to betray it)', async () => {
    const s = await shop();
    expect((await topUp(s, '5000')).status).toBe(200);
    const d = (await dispute(s, { payment_reference: await pay(s), reason: 'general', amount: '300.00' })).body.data;
    expect((await request(app.url, 'POST', `/v1/disputes/${d.id}/accept`, { token: s.token })).body.data.funds).toBe('withdrawn');
    await verify();
    const lineOf = (leg: string, account: string) =>
      `(select l.id from ledger_line l join ledger_entry e on e.id = l.entry_id where e.key = '${d.id}:${leg}' and l.account_id like '${account}')`;
    // 10.00 of the amount to the provider moved to fee revenue: the entry balances, and no merchant account changed.
    const shift = (by: number) => [
      `update ledger_line set amount = amount - ${by} where id = ${lineOf('withdraw', 'p:provider_clearing:%')}`,
      `update ledger_line set amount = amount + ${by} where id = ${lineOf('withdraw', 'p:fee_revenue:%')}`,
    ];
    await whileTampered(shift(10), shift(-10), async () => {
      expect(await checks()).toEqual(['dispute entries whose amounts differ from the dispute’s amount and fee']);
      expect(await problemOf('dispute entries whose amounts differ from the dispute’s amount and fee')).toContain(`"id":"${d.id}","leg":"withdraw"`);
    });
  });
});

import type { MailMessage } from '../../../src/modules/mail/mailer';
import { graphql, request } from '../../helpers/http';
import type { MerchantCredentials } from '../../../src/modules/merchants/merchant.service';
import { apiKeyToken, personOf, sessionToken, type TestPerson } from '../../helpers/people';
import { captureMail } from '../../helpers/team';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { approvedCustomer } from '../../helpers/factories';
import { newReference, sql, transferBody } from '../../helpers/transactions';
import { eventually } from '../../helpers/wait';

/**
 * Issue 38, point 4 (docs/payouts.md): automatic payouts per schedule window on the test clock, manual payouts, what
 * each settles and its report, failures giving the money back once, and the books. The sandbox: an account number
 * ending in 000 fails a payout; the last digit names the holder (…0: Adaeze Okafor, whom each merchant is named after).
 */
const DAY = 86_400_000;
const GTBANK = (accountNumber: string) => ({ country: 'NG', bank_code: '058', account_number: accountNumber });

let app: TestApp;
beforeAll(async () => {
  // No opening balance, so every figure is the test's own; settlement decided by simulate; payouts run when the test says.
  app = await createTestApp({ env: { SANDBOX_OPENING_BALANCE: '0', SANDBOX_SETTLE_MS: '600000', PAYOUT_RUN_INTERVAL_S: '0' } });
}, 60_000);
afterAll(() => app?.close());

interface Shop {
  id: string;
  credentials: MerchantCredentials;
  token: string;
  owner: TestPerson;
}

async function shop(accountNumber = '0123456780'): Promise<Shop> {
  const m = await app.createMerchant('Adaeze Okafor');
  const owner = await personOf(app, m.merchant.id, 'owner');
  const added = await request(app.url, 'POST', '/v1/payout-destinations', { token: owner.token, body: GTBANK(accountNumber) });
  expect(added.status).toBe(201);
  return { id: m.merchant.id, credentials: m, token: (await app.token(m)).accessToken, owner };
}

const topUp = (s: Shop, amount: string) => request(app.url, 'POST', '/v1/sandbox/balance/top-up', { token: s.token, body: { currency: 'NGN', amount } });
const available = async (s: Shop) =>
  ((await request(app.url, 'GET', '/v1/balances', { token: s.token })).body.data as Array<{ currency: string; available: number; reserved: number }>).find(
    (b) => b.currency === 'NGN',
  )!;
const run = (s: Shop) => app.service.app.services.payouts.runWindow(s.id, 'NGN');
const list = async (s: Shop) => (await request(app.url, 'GET', '/v1/payouts', { token: s.token })).body.data as Array<Record<string, any>>;
const simulate = (s: Shop, reference: string, outcome: 'successful' | 'failed') =>
  request(app.url, 'POST', `/v1/sandbox/transactions/${reference}/simulate`, { token: s.token, body: { outcome } });
const verify = () => app.service.app.services.ledger.verify(app.service.app.services.transactions.expectedLegs());

/** Tokens expire on the test clock: after it moves, the shop's are made again. */
async function freshTokens(s: Shop): Promise<void> {
  s.token = (await app.token(s.credentials)).accessToken;
  s.owner.token = await sessionToken(app, s.id, s.owner.userId, 'owner');
}

/** Puts the test clock at `hh:mm` UTC of the clock's current day, or the next day's when that has passed. */
async function clockAt(s: Shop, hhmm: string): Promise<void> {
  const now = app.clock.now();
  const [h, m] = hhmm.split(':').map(Number);
  const at = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), h, m));
  if (at <= now) at.setTime(at.getTime() + DAY);
  app.clock.set(at);
  await freshTokens(s);
}

async function later(s: Shop, ms: number): Promise<void> {
  app.clock.advance(ms);
  await freshTokens(s);
}

describe('automatic payouts, daily (the sandbox default: cut-off 16:00, no delay)', () => {
  it('pays what was there at the cut-off and no more, once per window; its report equals its amount', async () => {
    const s = await shop();
    await clockAt(s, '10:00');
    await topUp(s, '1000.00');
    await clockAt(s, '15:59');
    expect(await run(s)).toBeNull(); // today's window has not closed: yesterday's held nothing
    const upcoming = await request(app.url, 'GET', '/v1/payouts/upcoming?currency=ngn', { token: s.token });
    expect(upcoming.body.data).toEqual({
      currency: 'NGN',
      scheduled_at: new Date(app.clock.now().getTime() + 60_000).toISOString(),
      expected_amount: 1000,
      minimum_amount: 100,
      destination: { account_name: 'Adaeze Okafor', account_number_masked: expect.stringMatching(/ ••••6780$/) },
    });
    expect((await request(app.url, 'GET', '/v1/payouts/upcoming?currency=XYZ', { token: s.token })).status).toBe(400);
    await clockAt(s, '16:00');
    await topUp(s, '250.00'); // at the cut-off: still today's
    await clockAt(s, '16:01');
    await topUp(s, '500.00'); // after it: tomorrow's
    const first = await run(s);
    expect(first).toMatchObject({ amount: expect.anything(), status: 'in_transit', automatic: true });
    expect(first!.amount.toFixed(2)).toBe('1250.00');
    expect(await run(s)).toBeNull(); // the window is paid: a second run changes nothing
    expect(await available(s)).toMatchObject({ available: 500, reserved: 1250, disputed: 0, owed: 0 });

    const [listed] = await list(s);
    expect(listed).toMatchObject({
      id: first!.id,
      object: 'payout',
      amount: 1250,
      fee: 0,
      currency: 'NGN',
      status: 'in_transit',
      automatic: true,
      destination: { account_type: 'bank', country_code: 'NG', account_name: 'Adaeze Okafor', account_number_masked: '••••6780' },
      transaction_reference: expect.stringMatching(/^pot_/),
    });
    expect(JSON.stringify(listed)).not.toContain('0123456780');

    const bts = await request(app.url, 'GET', `/v1/payouts/${first!.id}/balance-transactions`, { token: s.token });
    expect(bts.body.data.map((t: any) => [t.type, t.amount])).toEqual([
      ['top_up', 1000],
      ['top_up', 250],
    ]);
    const report = await request(app.url, 'GET', `/v1/payouts/${first!.id}/report`, { token: s.token, headers: { accept: 'application/json' } });
    expect(report.body.data.summary).toMatchObject({ adjustments: 1250, carried_in: 0, carried_out: 0, net: 1250, balance_transactions: 2 });
    const csv = await request(app.url, 'GET', `/v1/payouts/${first!.id}/report`, { token: s.token });
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const lines = csv.text.trim().split('\r\n');
    expect(lines[0]).toBe('row,id,type,currency,amount,fee,net,source_reference,created_at');
    const nets = lines.slice(1, -1).reduce((sum, l) => sum + Number(l.split(',')[6]), 0);
    expect(lines.at(-1)).toContain(`payout,${first!.id},automatic,NGN,1250.00,,1250.00`);
    expect(nets).toBe(1250);

    // Paid: the reservation goes to the provider; the next day's window pays the 500.
    await simulate(s, first!.transactionReference!, 'successful');
    expect((await request(app.url, 'GET', `/v1/payouts/${first!.id}`, { token: s.token })).body.data.status).toBe('paid');
    await later(s, DAY);
    const second = await run(s);
    expect(second!.amount.toFixed(2)).toBe('500.00');
    expect((await request(app.url, 'GET', `/v1/payouts/${second!.id}/balance-transactions`, { token: s.token })).body.data).toHaveLength(1);
    expect((await verify()).problems).toEqual([]);
  });

  it('a failed payout gives its money back once, emails the owner, and the next window pays it again', async () => {
    const s = await shop('0123451000');
    const mail: MailMessage[] = captureMail(app);
    await clockAt(s, '10:00');
    await topUp(s, '300.00');
    await clockAt(s, '16:30');
    const failed = await run(s);
    await simulate(s, failed!.transactionReference!, 'failed');
    expect((await request(app.url, 'GET', `/v1/payouts/${failed!.id}`, { token: s.token })).body.data).toMatchObject({
      status: 'failed',
      failure_reason: expect.any(String),
    });
    expect(await available(s)).toMatchObject({ available: 300, reserved: 0, disputed: 0, owed: 0 });
    expect(await simulate(s, failed!.transactionReference!, 'failed')).toMatchObject({ status: 409 });
    expect(await available(s)).toMatchObject({ available: 300, reserved: 0, disputed: 0, owed: 0 });
    expect(await eventually(async () => mail.filter((m) => m.to === s.owner.email && /payout of 300 NGN failed/.test(m.subject)).length === 1)).toBe(true);
    await later(s, DAY);
    const again = await run(s);
    expect(again!.amount.toFixed(2)).toBe('300.00');
    const settled = await request(app.url, 'GET', `/v1/payouts/${again!.id}/balance-transactions`, { token: s.token });
    expect(settled.body.data.map((t: any) => t.type)).toEqual(['payout_reversal']);
    expect((await verify()).problems).toEqual([]);
  });

  it('what available cannot cover is carried to the next window, and the reports still add up', async () => {
    const s = await shop();
    await clockAt(s, '10:00');
    await topUp(s, '1000.00');
    // Sent after the cut-off, a manual payout takes part of what the window holds.
    await clockAt(s, '16:10');
    const manual = await request(app.url, 'POST', '/v1/payouts', { token: s.owner.token, body: { currency: 'NGN', amount: '400' } });
    expect(manual.status).toBe(201);
    expect(manual.body.data).toMatchObject({ amount: 400, automatic: false, status: 'in_transit' });
    const p = await run(s);
    // The window's top-up (1000) is owed; 600 is available; the manual payout came after the window's last entry.
    expect([p!.amount.toFixed(2)]).toEqual(['600.00']);
    const r1 = await request(app.url, 'GET', `/v1/payouts/${p!.id}/report`, { token: s.token, headers: { accept: 'application/json' } });
    expect(r1.body.data.summary).toMatchObject({ adjustments: 1000, carried_out: 400, net: 600 });
    await later(s, DAY);
    await topUp(s, '100.00');
    await later(s, DAY);
    const next = await run(s);
    // The manual payout (−400) is settled now, against what was carried (400), with the new 100.
    expect(next!.amount.toFixed(2)).toBe('100.00');
    const r2 = await request(app.url, 'GET', `/v1/payouts/${next!.id}/report`, { token: s.token, headers: { accept: 'application/json' } });
    expect(r2.body.data.summary).toMatchObject({ adjustments: 100, payouts: -400, carried_in: 400, carried_out: 0, net: 100 });
    expect((await verify()).problems).toEqual([]);
  });
});

describe('manual payouts and who may make them', () => {
  it('within available: 402 beyond it and nothing held; 400 under the minimum; 409 without a destination', async () => {
    const s = await shop();
    await topUp(s, '5000.00');
    const over = await request(app.url, 'POST', '/v1/payouts', { token: s.owner.token, body: { currency: 'NGN', amount: '5000.01' } });
    expect(over.status).toBe(402);
    expect(over.body.code).toBe('INSUFFICIENT_FUNDS');
    expect(await list(s)).toEqual([]);
    expect(await available(s)).toMatchObject({ available: 5000, reserved: 0, disputed: 0, owed: 0 });
    for (const body of [
      { currency: 'NGN', amount: '1.001' },
      { currency: 'NGN', amount: '-5' },
      { currency: 'XYZ', amount: '5' },
      { currency: 'NGN' },
      { currency: 'NGN', amount: '0.50' },
    ]) {
      const bad = await request(app.url, 'POST', '/v1/payouts', { token: s.owner.token, body });
      expect([bad.status, bad.body.code]).toEqual([400, 'INVALID_REQUEST']);
    }
    const kes = await request(app.url, 'POST', '/v1/payouts', { token: s.owner.token, body: { currency: 'KES', amount: '500' } });
    expect([kes.status, kes.body.code]).toEqual([409, 'INVALID_STATE']);
    expect(await list(s)).toEqual([]);
  });

  it('Idempotency-Key: a retried payout request pays out once, and its answer is replayed; another body under the key is refused', async () => {
    const s = await shop();
    await topUp(s, '3000.00');
    const before = (await available(s))!.available;
    const key = `po-retry-${Date.now()}`;
    const body = { currency: 'NGN', amount: '1200' };
    const first = await request(app.url, 'POST', '/v1/payouts', { token: s.owner.token, body, headers: { 'Idempotency-Key': key } });
    expect(first.status).toBe(201);
    const again = await request(app.url, 'POST', '/v1/payouts', { token: s.owner.token, body, headers: { 'Idempotency-Key': key } });
    expect([again.status, again.headers.get('idempotent-replayed'), again.body.data.id]).toEqual([201, 'true', first.body.data.id]);
    const other = await request(app.url, 'POST', '/v1/payouts', {
      token: s.owner.token,
      body: { ...body, amount: '1300' },
      headers: { 'Idempotency-Key': key },
    });
    expect([other.status, other.body.code, other.body.details?.[0]?.field]).toEqual([400, 'INVALID_REQUEST', 'Idempotency-Key']);
    expect((await list(s)).map((p) => p.id)).toEqual([first.body.data.id]);
    expect((await available(s))!.available).toBe(before - 1200);
  });

  it('a finance key may pay out; a developer key or a viewer may not; another merchant sees none of it', async () => {
    const s = await shop();
    await topUp(s, '2000.00');
    const finance = await apiKeyToken(app, s.owner.token, 'finance');
    const developer = await apiKeyToken(app, s.owner.token, 'developer');
    const viewer = await personOf(app, s.id, 'viewer');
    const made = await request(app.url, 'POST', '/v1/payouts', { token: finance.token, body: { currency: 'NGN', amount: '700' } });
    expect(made.status).toBe(201);
    expect((await request(app.url, 'POST', '/v1/payouts', { token: developer.token, body: { currency: 'NGN', amount: '700' } })).status).toBe(403);
    expect((await request(app.url, 'POST', '/v1/payouts', { token: viewer.token, body: { currency: 'NGN', amount: '700' } })).status).toBe(403);
    expect((await request(app.url, 'GET', `/v1/payouts/${made.body.data.id}`, { token: viewer.token })).status).toBe(200);
    const other = await shop();
    for (const path of [
      `/v1/payouts/${made.body.data.id}`,
      `/v1/payouts/${made.body.data.id}/balance-transactions`,
      `/v1/payouts/${made.body.data.id}/report`,
    ]) {
      expect((await request(app.url, 'GET', path, { token: other.token })).status).toBe(404);
    }
    expect(await list(other)).toEqual([]);
    expect((await request(app.url, 'GET', '/v1/payouts/po_nonsense', { token: s.token })).status).toBe(404);
  });

  it('GraphQL: createPayout and payouts, with the report, the same as REST', async () => {
    const s = await shop();
    await topUp(s, '900.00');
    const made = await graphql(
      app.url,
      'mutation { createPayout(input: { currency: "NGN", amount: "150.00" }) { id amount fee status automatic destination { accountNumberMasked } } }',
      {
        token: s.owner.token,
      },
    );
    expect(made.body.errors).toBeUndefined();
    expect(made.body.data.createPayout).toMatchObject({
      amount: '150.00',
      fee: '0.00',
      status: 'IN_TRANSIT',
      automatic: false,
      destination: { accountNumberMasked: '••••6780' },
    });
    const read = await graphql(
      app.url,
      '{ payouts(first: 5) { edges { node { id report { net } balanceTransactions { id } } } } upcomingPayout(currency: "NGN") { expectedAmount } }',
      {
        token: s.token,
      },
    );
    expect(read.body.data.upcomingPayout).toEqual({ expectedAmount: '750.00' });
    expect(read.body.data.payouts.edges).toEqual([{ node: { id: made.body.data.createPayout.id, report: { net: '150.00' }, balanceTransactions: [] } }]);
    const refused = await graphql(app.url, 'mutation { createPayout(input: { currency: "NGN", amount: "100000" }) { id } }', { token: s.owner.token });
    expect(refused.body.errors?.[0]?.extensions?.code).toBe('INSUFFICIENT_FUNDS');
  });
});

describe('a payout run beside 50 concurrent transfers on one balance', () => {
  it('never overdraws it; the books verify', async () => {
    const s = await shop();
    await clockAt(s, '10:00');
    await topUp(s, '100000.00');
    await clockAt(s, '16:05');
    const customer = await approvedCustomer(app, s.token);
    const body = () => transferBody(customer.customer_uuid, { amount: '3000', source_currency: 'NGN', reference: newReference('t') });
    const transfers = Array.from({ length: 50 }, () => request(app.url, 'POST', '/v1/crossborder/global-transfer', { token: s.token, body: body() }));
    const [results, payout] = await Promise.all([Promise.all(transfers), run(s)]);
    const sent = results.filter((r) => r.status === 200).length;
    const refused = results.filter((r) => r.status === 402).length;
    expect(sent + refused).toBe(50);
    const rows = await sql(app, `select credits_posted - debits_posted as balance from ledger_account where id like ?`, [`m:${s.id}:%:NGN`]);
    for (const r of rows) expect(Number(r.balance)).toBeGreaterThanOrEqual(0);
    expect(sent).toBeGreaterThan(0);
    const spent = sent * 3030 + Number(payout?.amount.toFixed(2) ?? 0);
    expect(spent).toBeLessThanOrEqual(100000);
    expect((await verify()).problems).toEqual([]);
  }, 60_000);
});

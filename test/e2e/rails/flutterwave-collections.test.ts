import { FlutterwaveFake } from '../../fakes/flutterwave.fake';
import { MtnMomoFake } from '../../fakes/mtn-momo.fake';
import { ledgerVerify } from '../../helpers/engine';
import { graphql, request } from '../../helpers/http';
import { awaitStatus, breakerStates, notificationRows, flutterwaveApp, ngBankCollection, railsMerchant, txnRow, type RailsMerchant } from '../../helpers/rails';
import type { TestApp } from '../../helpers/test-app';
import { newReference, outboxRows, sql, transactionCount } from '../../helpers/transactions';
import { eventually } from '../../helpers/wait';

/**
 * Flutterwave's collections end to end, in production mode, against the fake of its v3 API: bank
 * collections into temporary virtual accounts (paid, expired, a lost webhook settled by polling)
 * and mobile money collections on the wallets MTN and M-Pesa do not serve, with the provider's
 * clearing account checked after each flow.
 */

const COLLECT = '/v1/crossborder/global-collection';

function ugAirtelCollection(customerUuid: string, accountNumber = '0752123456') {
  return {
    customer_uuid: customerUuid,
    amount: '30000',
    currency: 'UGX',
    country_code: 'UG',
    channel_id: 'ug_momo_deposit',
    network_id: 'ug_airtel_money',
    account_number: accountNumber,
    dial_code: '+256',
    account_type: 'momo',
    reason: 'Order 12',
    reference: newReference('flw-ug'),
  };
}

/** The sum of the lines on Flutterwave's clearing account in a currency (money in is a negative line there; docs/ledger.md). */
async function clearing(app: TestApp, currency: string): Promise<string> {
  const [row] = await sql<{ balance: string }>(app, `select coalesce(sum(amount), 0)::text as balance from ledger_line where account_id = ?`, [
    `p:provider_clearing:flutterwave:${currency}`,
  ]);
  return row!.balance;
}

describe('Flutterwave collections (production, against the fake)', () => {
  let flw: FlutterwaveFake;
  let app: TestApp;
  let m: RailsMerchant;

  beforeAll(async () => {
    flw = await FlutterwaveFake.start({ decisionDelayMs: 30 });
    // Our own deadline (two hours) comes after Flutterwave's hour: the collection expires with Flutterwave's account.
    app = await flutterwaveApp(flw, { COLLECTION_TTL_S: '7200' });
    m = await railsMerchant(app);
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await flw?.close();
  });
  beforeEach(() => {
    flw.dropWebhooks = false;
  });

  it('a bank collection gets a temporary account; paid into it, the webhook prompts the verify, and the books move', async () => {
    const body = ngBankCollection(m.customerUuid);
    const res = await request(app.url, 'POST', COLLECT, { token: m.token, body });
    expect(res.status).toBe(200);
    const row = (await txnRow(app, body.reference))!;
    expect(row.connector).toBe('flutterwave');
    const account = [...flw.virtualAccounts.values()].find((a) => a.tx_ref === row.id);
    expect(account).toMatchObject({ tx_ref: row.id, amount: 15000, currency: 'NGN', is_permanent: false });
    // The sender's email, as Flutterwave requires; the account shown is Flutterwave's.
    expect(account!.email).toMatch(/@/);
    expect(res.body.data).toMatchObject({
      status: 'processing',
      bankInfo: { accountNumber: account!.account_number, bankName: 'WEMA BANK', localCode: '035' },
    });
    // Flutterwave's account closes an hour after it opens: the collection expires then, not at our own deadline.
    const [expiry] = await sql<{ expires_at: Date }>(app, 'select expires_at from "transaction" where id = ?', [row.id]);
    // (Flutterwave gives whole seconds.)
    expect(Math.abs(new Date(expiry!.expires_at).getTime() - account!.expires_at.getTime())).toBeLessThan(2000);

    const before = await clearing(app, 'NGN');
    await flw.payVirtualAccount(account!.account_number);
    expect((await awaitStatus(app, body.reference, 'successful'))?.status).toBe('successful');
    expect((await outboxRows(app, row.reference)).map((o) => o.type)).toEqual(['collection.successful']);
    expect((await notificationRows(app, row.id)).length).toBeGreaterThan(0);
    // The sender's money is at Flutterwave: its clearing account moved by the amount, the merchant's balance by the net.
    expect(Number(await clearing(app, 'NGN')) - Number(before)).toBe(-15000);
    expect((await ledgerVerify(app.db.url)).ok).toBe(true);
  });

  it('a lost webhook: the poll chain asks Flutterwave by tx_ref and settles it', async () => {
    const body = ngBankCollection(m.customerUuid);
    await request(app.url, 'POST', COLLECT, { token: m.token, body });
    const row = (await txnRow(app, body.reference))!;
    const account = [...flw.virtualAccounts.values()].find((a) => a.tx_ref === row.id)!;
    flw.dropWebhooks = true;
    await flw.payVirtualAccount(account.account_number);
    expect(flw.droppedWebhooks.some((d) => d.body?.data?.tx_ref === row.id)).toBe(true);
    expect((await awaitStatus(app, body.reference, 'successful'))?.status).toBe('successful');
    expect(await notificationRows(app, row.id)).toEqual([]);
    expect(flw.requests.some((r) => r.path.includes(`verify_by_reference?tx_ref=${row.id}`))).toBe(true);
    expect((await ledgerVerify(app.db.url)).ok).toBe(true);
  });

  it('an account nobody paid expires with it, after Flutterwave is asked once more; the books are untouched', async () => {
    const short = await FlutterwaveFake.start({ decisionDelayMs: 30, virtualAccountTtlMs: 1500 });
    const shortApp = await flutterwaveApp(short, { COLLECTION_TTL_S: '3600' });
    try {
      const sm = await railsMerchant(shortApp);
      const body = ngBankCollection(sm.customerUuid);
      expect((await request(shortApp.url, 'POST', COLLECT, { token: sm.token, body })).status).toBe(200);
      const row = (await txnRow(shortApp, body.reference))!;
      // The service's clock is a test's manual one: it is moved past Flutterwave's expiry and the five minutes' grace
      // after it (a transfer sent just before the account closed), for the job to act.
      const account = [...short.virtualAccounts.values()].find((a) => a.tx_ref === row.id)!;
      shortApp.clock.set(new Date(account.expires_at.getTime() + 5 * 60_000 + 1000));
      const expired = await awaitStatus(shortApp, body.reference, 'expired', 400);
      expect(expired).toMatchObject({ status: 'expired', failure_reason: 'not_paid_before_expiry' });
      // Flutterwave's side (real time): the account takes no payment once closed.
      expect(await eventually(async () => Date.now() > account.expires_at.getTime(), { attempts: 100, everyMs: 50 })).toBe(true);
      await expect(short.payVirtualAccount(account.account_number)).rejects.toThrow(/expired/);
      expect(short.requests.filter((r) => r.path.includes(`verify_by_reference?tx_ref=${row.id}`)).length).toBeGreaterThan(0);
      expect(await clearing(shortApp, 'NGN')).toBe('0');
      expect((await ledgerVerify(shortApp.db.url)).ok).toBe(true);
    } finally {
      await shortApp.close();
      await short.close();
    }
  });

  it('Airtel Uganda: a mobile money charge whose approval page is the collection’s next_action (REST and GraphQL)', async () => {
    const body = ugAirtelCollection(m.customerUuid, '0752120009');
    const res = await request(app.url, 'POST', COLLECT, { token: m.token, body });
    expect(res.status).toBe(200);
    const row = (await txnRow(app, body.reference))!;
    expect(row.connector).toBe('flutterwave');
    const charge = [...flw.transactions.values()].find((t) => t.tx_ref === row.id)!;
    expect(charge).toMatchObject({ type: 'mobile_money_uganda', currency: 'UGX', amount: 30000, phone_number: '256752120009' });
    expect(res.body.data.next_action).toEqual({ type: 'redirect_to_url', url: flw.authorizationUrl(charge.flw_ref), expires_at: null });
    const status = await request(app.url, 'GET', `/v1/crossborder/global-transfer/${row.reference}`, { token: m.token });
    expect(status.body.data.next_action.url).toBe(flw.authorizationUrl(charge.flw_ref));
    const gql = await graphql(app.url, `{ transaction(reference: "${row.reference}") { nextAction { type url } } }`, { token: m.token });
    expect(gql.body.data.transaction.nextAction).toEqual({ type: 'REDIRECT_TO_URL', url: flw.authorizationUrl(charge.flw_ref) });
    // The payer approves on Flutterwave's page; its webhook prompts the verify.
    await flw.completeCharge(charge.id, 'successful');
    expect((await awaitStatus(app, body.reference, 'successful'))?.status).toBe('successful');
    const done = await request(app.url, 'GET', `/v1/crossborder/global-transfer/${row.reference}`, { token: m.token });
    expect(done.body.data.next_action).toBeUndefined();
    expect((await ledgerVerify(app.db.url)).ok).toBe(true);
  });

  it('a declined charge fails with its reason; the books are untouched', async () => {
    const before = await clearing(app, 'UGX');
    const body = ugAirtelCollection(m.customerUuid, '0752120001');
    expect((await request(app.url, 'POST', COLLECT, { token: m.token, body })).status).toBe(200);
    const row = await awaitStatus(app, body.reference, 'failed');
    expect(row).toMatchObject({ status: 'failed', failure_reason: 'insufficient_funds' });
    expect(await clearing(app, 'UGX')).toBe(before);
    expect((await ledgerVerify(app.db.url)).ok).toBe(true);
  });

  it('Flutterwave’s limits and currencies come from its data: an amount over its maximum is refused, nothing written', async () => {
    const before = await transactionCount(app);
    // Within the channel's own limits (50 000 000 NGN), above Flutterwave's for a virtual account.
    const res = await request(app.url, 'POST', COLLECT, { token: m.token, body: ngBankCollection(m.customerUuid, { amount: '20000000' }) });
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([
      { field: 'amount', issue: 'must be between 100 and 10000000 NGN for bank collections through our provider on this route' },
    ]);
    expect(await transactionCount(app)).toBe(before);
  });
});

describe('failover between MTN MoMo direct and Flutterwave on Uganda’s MTN collections (production)', () => {
  let flw: FlutterwaveFake;
  let mtn: MtnMomoFake;
  let app: TestApp;
  let m: RailsMerchant;

  beforeAll(async () => {
    flw = await FlutterwaveFake.start({ decisionDelayMs: 30 });
    mtn = await MtnMomoFake.start({ decisionDelayMs: 30, targetEnvironment: 'mtnuganda', currency: 'UGX' });
    app = await flutterwaveApp(flw, mtn.env());
    m = await railsMerchant(app);
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await flw?.close();
    await mtn?.close();
  });

  const ugMtn = () => ({ ...ugAirtelCollection(m.customerUuid, '0772123456'), network_id: 'ug_mtn_momo', reference: newReference('ug-mtn') });

  it('MTN takes the route while it answers; while its breaker is open Flutterwave’s mobile_money_uganda does', async () => {
    const first = ugMtn();
    await request(app.url, 'POST', COLLECT, { token: m.token, body: first });
    expect((await txnRow(app, first.reference))?.connector).toBe('mtn_momo');
    expect((await awaitStatus(app, first.reference, 'successful'))?.status).toBe('successful');

    mtn.down = true;
    for (let i = 0; i < 8 && (await breakerStates(app)).mtn_momo !== 'open'; i += 1) {
      await request(app.url, 'POST', COLLECT, { token: m.token, body: ugMtn() });
    }
    expect((await breakerStates(app)).mtn_momo).toBe('open');
    const moved = ugMtn();
    const res = await request(app.url, 'POST', COLLECT, { token: m.token, body: moved });
    expect(res.status).toBe(200);
    const row = (await txnRow(app, moved.reference))!;
    expect(row.connector).toBe('flutterwave');
    expect([...flw.transactions.values()].find((t) => t.tx_ref === row.id)).toMatchObject({ type: 'mobile_money_uganda', body: { network: 'MTN' } });
    mtn.down = false;
    expect((await ledgerVerify(app.db.url)).ok).toBe(true);
  });
});

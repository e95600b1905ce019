import { FlutterwaveFake } from '../../fakes/flutterwave.fake';
import { MtnMomoFake } from '../../fakes/mtn-momo.fake';
import { ledgerVerify } from '../../helpers/engine';
import { request } from '../../helpers/http';
import { awaitStatus, breakerStates, notificationRows, flutterwaveApp, railsMerchant, txnRow, type RailsMerchant } from '../../helpers/rails';
import type { TestApp } from '../../helpers/test-app';
import { newReference, outboxRows, sql, transactionCount } from '../../helpers/transactions';
import { eventually } from '../../helpers/wait';

/**
 * Flutterwave payouts end to end, in production mode, against a fake of Flutterwave's v3 API
 * (test/fakes/flutterwave.fake.ts): bank transfers in Nigeria, mobile money transfers, its
 * account-wide webhook (`verif-hash`), and failover from MTN MoMo direct to Flutterwave on Uganda's
 * MTN payouts.
 */

const SEND = '/v1/crossborder/global-transfer';

function bankPayout(customerUuid: string, accountNumber: string) {
  return {
    customer_uuid: customerUuid,
    amount: '5000',
    source_currency: 'NGN',
    destination_currency: 'NGN',
    country_code: 'NG',
    channel_id: 'ng_bank_withdrawal',
    network_id: 'ng_access_bank',
    account_number: accountNumber,
    account_name: 'Chidi Okafor',
    dial_code: '+234',
    account_type: 'bank',
    reason: 'Supplier payout',
    reference: newReference('flw-bank'),
  };
}

function ugMomoPayout(customerUuid: string) {
  return {
    customer_uuid: customerUuid,
    amount: '20000',
    source_currency: 'UGX',
    destination_currency: 'UGX',
    country_code: 'UG',
    channel_id: 'ug_momo_withdrawal',
    network_id: 'ug_mtn_momo',
    account_number: '0772123456',
    account_name: 'Okello James',
    dial_code: '+256',
    account_type: 'momo',
    reason: 'Payout',
    reference: newReference('flw-ug'),
  };
}

const transfersTo = (fake: FlutterwaveFake, reference: string) => [...fake.transfers.values()].filter((t) => t.reference === reference);

describe('Flutterwave payouts (production, against the fake)', () => {
  let flw: FlutterwaveFake;
  let mtn: MtnMomoFake;
  let app: TestApp;
  let m: RailsMerchant;

  beforeAll(async () => {
    flw = await FlutterwaveFake.start({ decisionDelayMs: 30 });
    mtn = await MtnMomoFake.start({ decisionDelayMs: 30, targetEnvironment: 'mtnuganda', currency: 'UGX' });
    app = await flutterwaveApp(flw, mtn.env());
    m = await railsMerchant(app, { currency: 'NGN', amount: '1000000' });
    await request(app.url, 'POST', `/v1/admin/merchants/${m.merchantId}/adjustments`, {
      headers: { authorization: 'Bearer test-admin-key-0123456789' },
      body: { currency: 'UGX', amount: '10000000', reason: 'test funding', reference: `fund-ugx-${Date.now()}` },
    });
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await flw?.close();
    await mtn?.close();
  });
  beforeEach(() => {
    flw.dropWebhooks = false;
    flw.down = false;
    mtn.down = false;
  });

  it('pays a Nigerian bank account: Flutterwave’s bank code, our id as the reference, the webhook confirmed by the GET', async () => {
    const body = bankPayout(m.customerUuid, '0690000031');
    const res = await request(app.url, 'POST', SEND, { token: m.token, body });
    expect(res.status).toBe(200);
    const row = (await txnRow(app, body.reference))!;
    expect(row.connector).toBe('flutterwave');
    const [sent] = transfersTo(flw, row.id);
    expect(sent).toMatchObject({ account_bank: '044', account_number: '0690000031', currency: 'NGN', reference: row.id });
    expect(row.provider_reference).toBe(String(sent!.id));
    expect((await awaitStatus(app, body.reference, 'successful'))?.status).toBe('successful');
    expect((await outboxRows(app, row.reference)).map((o) => o.type)).toEqual(['transfer.successful']);
    expect(await eventually(async () => (await notificationRows(app, row.id)).length > 0)).toBe(true);
    const [clearing] = await sql(app, `select id from ledger_account where id = 'p:provider_clearing:flutterwave:NGN'`);
    expect(clearing).toBeDefined();
    expect((await ledgerVerify(app.db.url)).ok).toBe(true);
  });

  it('a failed payout carries its reason, and the reservation comes back', async () => {
    const body = bankPayout(m.customerUuid, '0690000001');
    await request(app.url, 'POST', SEND, { token: m.token, body });
    const row = await awaitStatus(app, body.reference, 'failed');
    expect(row?.status).toBe('failed');
    // "DISBURSE FAILED: Insufficient funds in customer wallet": our float at Flutterwave.
    expect(row?.failure_reason).toBe('provider_float_insufficient');
    expect((await ledgerVerify(app.db.url)).ok).toBe(true);
  });

  it('a webhook with a wrong verif-hash is 404 and kept nowhere; a right one that lies only prompts the GET', async () => {
    const body = bankPayout(m.customerUuid, '0690000009'); // Flutterwave keeps it pending
    await request(app.url, 'POST', SEND, { token: m.token, body });
    const row = (await txnRow(app, body.reference))!;
    const lie = { event: 'transfer.completed', data: { id: Number(row.provider_reference), reference: row.id, status: 'SUCCESSFUL' } };
    const forged = await request(app.url, 'POST', '/v1/providers/flutterwave/webhook', { body: lie, headers: { 'verif-hash': 'not-the-hash' } });
    expect(forged.status).toBe(404);
    const missing = await request(app.url, 'POST', '/v1/providers/flutterwave/webhook', { body: lie });
    expect(missing.status).toBe(404);
    expect(await notificationRows(app, row.id)).toEqual([]);
    const leaked = await request(app.url, 'POST', '/v1/providers/flutterwave/webhook', {
      body: lie,
      headers: { 'verif-hash': flw.env().FLUTTERWAVE_WEBHOOK_HASH! },
    });
    expect(leaked.status).toBe(200);
    expect(await eventually(async () => (await notificationRows(app, row.id))[0]?.processed_at != null)).toBe(true);
    expect((await txnRow(app, body.reference))?.status).toBe('processing');
    await flw.completeTransfer(Number(row.provider_reference), 'SUCCESSFUL');
    expect((await awaitStatus(app, body.reference, 'successful'))?.status).toBe('successful');
  });

  it('a timeout on the transfer is never sent twice: the retry’s same reference is refused, the webhook names the transfer', async () => {
    flw.failNext('accept-then-timeout', { path: '/v3/transfers' });
    const body = bankPayout(m.customerUuid, '0690000033');
    expect((await request(app.url, 'POST', SEND, { token: m.token, body })).status).toBe(500);
    const row = (await txnRow(app, body.reference))!;
    expect(row.status).toBe('initiating');
    expect((await awaitStatus(app, body.reference, 'successful', 600))?.status).toBe('successful');
    expect(transfersTo(flw, row.id)).toHaveLength(1);
    expect((await txnRow(app, body.reference))?.provider_reference).toBe(String(transfersTo(flw, row.id)[0]!.id));
  }, 60_000);

  it('pays an M-Pesa wallet in Kenya with the sender in meta, as Flutterwave requires', async () => {
    await request(app.url, 'POST', `/v1/admin/merchants/${m.merchantId}/adjustments`, {
      headers: { authorization: 'Bearer test-admin-key-0123456789' },
      body: { currency: 'KES', amount: '100000', reason: 'test funding', reference: `fund-kes-${Date.now()}` },
    });
    const body = {
      ...ugMomoPayout(m.customerUuid),
      amount: '1500',
      source_currency: 'KES',
      destination_currency: 'KES',
      country_code: 'KE',
      channel_id: 'ke_momo_withdrawal',
      network_id: 'ke_mpesa',
      account_number: '0712345678',
      dial_code: '+254',
      reference: newReference('flw-ke'),
    };
    const res = await request(app.url, 'POST', SEND, { token: m.token, body });
    expect(res.status).toBe(200);
    const row = (await txnRow(app, body.reference))!;
    const [customer] = await sql<{ name: string; country_code: string }>(
      app,
      `select first_name || ' ' || last_name as name, country_code from customer where id = ?`,
      [m.customerUuid],
    );
    expect(transfersTo(flw, row.id)[0]).toMatchObject({
      account_bank: 'MPS',
      account_number: '254712345678',
      currency: 'KES',
      meta: [{ sender: customer!.name, sender_country: customer!.country_code, mobile_number: expect.stringMatching(/^\d{10,15}$/) }],
    });
    expect((await awaitStatus(app, body.reference, 'successful'))?.status).toBe('successful');
    expect((await ledgerVerify(app.db.url)).ok).toBe(true);
  });

  it('settles by polling when the webhook is lost', async () => {
    flw.dropWebhooks = true;
    const body = bankPayout(m.customerUuid, '0690000032');
    await request(app.url, 'POST', SEND, { token: m.token, body });
    const row = await awaitStatus(app, body.reference, 'successful');
    expect(row?.status).toBe('successful');
    expect(await notificationRows(app, row!.id)).toEqual([]);
    expect(flw.requests.some((r) => r.method === 'GET' && r.path === `/v3/transfers/${row!.provider_reference}`)).toBe(true);
  });

  it('fails over from MTN direct to Flutterwave on Uganda’s MTN payouts while MTN’s breaker is open', async () => {
    const first = ugMomoPayout(m.customerUuid);
    await request(app.url, 'POST', SEND, { token: m.token, body: first });
    expect((await txnRow(app, first.reference))?.connector).toBe('mtn_momo');
    expect((await awaitStatus(app, first.reference, 'successful'))?.status).toBe('successful');

    mtn.down = true;
    let opened = false;
    for (let i = 0; i < 50 && !opened; i += 1) {
      await request(app.url, 'POST', SEND, { token: m.token, body: ugMomoPayout(m.customerUuid) });
      opened = (await breakerStates(app)).mtn_momo === 'open';
    }
    expect(opened).toBe(true);
    const before = await transactionCount(app);
    const next = ugMomoPayout(m.customerUuid);
    const res = await request(app.url, 'POST', SEND, { token: m.token, body: next });
    expect(res.status).toBe(200);
    expect(await transactionCount(app)).toBe(before + 1);
    const row = (await txnRow(app, next.reference))!;
    expect(row.connector).toBe('flutterwave');
    expect(transfersTo(flw, row.id)[0]).toMatchObject({ account_bank: 'MTN', account_number: '256772123456', currency: 'UGX' });
    expect((await awaitStatus(app, next.reference, 'successful'))?.status).toBe('successful');
  }, 60_000);
});

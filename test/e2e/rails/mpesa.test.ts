import { MpesaFake } from '../../fakes/mpesa.fake';
import { request } from '../../helpers/http';
import { awaitStatus, notificationRows, railsApp, railsMerchant, txnRow, type RailsMerchant } from '../../helpers/rails';
import type { TestApp } from '../../helpers/test-app';
import { historyRows, newReference, outboxRows, transactionCount } from '../../helpers/transactions';
import { eventually } from '../../helpers/wait';

/**
 * M-Pesa Daraja end to end, in production mode, with the service pointed at a faithful fake of
 * Daraja by MPESA_BASE_URL (test/fakes/mpesa.fake.ts): STK Push collections and B2C payouts.
 */

const COLLECT = '/v1/crossborder/global-collection';
const SEND = '/v1/crossborder/global-transfer';
let phoneSeq = 100;
/** Daraja locks a phone while a prompt is pending on it: each test uses its own numbers. `suffix` picks the fake's outcome. */
const phone = (suffix = '5678') => `2547${String((phoneSeq += 1)).padStart(4, '0')}${suffix}`;

function collection(customerUuid: string, accountNumber: string, overrides: Record<string, unknown> = {}) {
  return {
    customer_uuid: customerUuid,
    amount: '150',
    currency: 'KES',
    country_code: 'KE',
    channel_id: 'ke_momo_deposit',
    network_id: 'ke_mpesa',
    account_number: accountNumber,
    dial_code: '+254',
    account_type: 'momo',
    reason: 'Order 9',
    reference: newReference('mp-col'),
    ...overrides,
  };
}

function payout(customerUuid: string, accountNumber: string) {
  return {
    customer_uuid: customerUuid,
    amount: '300',
    source_currency: 'KES',
    destination_currency: 'KES',
    country_code: 'KE',
    channel_id: 'ke_momo_withdrawal',
    network_id: 'ke_mpesa',
    account_number: accountNumber,
    account_name: 'Wanjiru Kamau',
    dial_code: '+254',
    account_type: 'momo',
    reason: 'Supplier payout',
    reference: newReference('mp-b2c'),
  };
}

const stkFor = (fake: MpesaFake, checkoutRequestId: string | null) => (checkoutRequestId ? fake.stk.get(checkoutRequestId) : undefined);
const pushesTo = (fake: MpesaFake, number: string) => [...fake.stk.values()].filter((s) => s.body.PhoneNumber === number);

describe('M-Pesa Daraja connector (production, against the fake)', () => {
  let fake: MpesaFake;
  let app: TestApp;
  let m: RailsMerchant;

  beforeAll(async () => {
    fake = await MpesaFake.start({ decisionDelayMs: 30 });
    app = await railsApp(fake.env());
    m = await railsMerchant(app, { currency: 'KES', amount: '100000' });
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await fake?.close();
  });
  beforeEach(() => {
    fake.dropCallbacks = false;
    fake.down = false;
  });
  afterEach(() => expect(fake.internalErrors).toEqual([]));

  it('collects by STK Push: Daraja’s fields, the callback prompts an STK query, the money lands in the books', async () => {
    const number = phone();
    const body = collection(m.customerUuid, number);
    const res = await request(app.url, 'POST', COLLECT, { token: m.token, body });
    expect(res.status).toBe(200);
    const row = (await txnRow(app, body.reference))!;
    expect(row.connector).toBe('mpesa');
    const push = stkFor(fake, row.provider_reference)!;
    expect(push).toBeDefined();
    expect(push.body).toMatchObject({
      BusinessShortCode: fake.shortcode,
      TransactionType: 'CustomerPayBillOnline',
      Amount: 150,
      PartyA: number,
      PartyB: fake.shortcode,
      PhoneNumber: number,
      CallBackURL: expect.stringMatching(new RegExp(`^${app.url}/v1/providers/mpesa/callback/${row.id}\\.`)),
    });
    expect((await awaitStatus(app, body.reference, 'successful'))?.status).toBe('successful');
    await fake.callbackDelivered(row.provider_reference!);
    const kept = await notificationRows(app, row.id);
    expect(kept).toHaveLength(1);
    expect(JSON.parse(kept[0]!.body).Body.stkCallback.ResultCode).toBe(0);
    expect((await outboxRows(app, row.reference)).map((o) => o.type)).toEqual(['collection.successful']);
    // Daraja's expected acknowledgement.
    expect(await fake.sendStkCallback(row.provider_reference!)).toBe(200);
  });

  it('refuses a fractional amount before anything is written (M-Pesa moves whole shillings)', async () => {
    const before = await transactionCount(app);
    const res = await request(app.url, 'POST', COLLECT, { token: m.token, body: collection(m.customerUuid, phone(), { amount: '150.50' }) });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      status: 'error',
      code: 'INVALID_REQUEST',
      message: 'amount must be a whole number of KES for M-Pesa',
      details: [{ field: 'amount', issue: 'must be a whole number of KES for M-Pesa' }],
    });
    expect(await transactionCount(app)).toBe(before);
  });

  it('settles by STK query when the callback is lost, and maps a cancelled prompt (1032)', async () => {
    fake.dropCallbacks = true;
    const body = collection(m.customerUuid, phone('0032'));
    await request(app.url, 'POST', COLLECT, { token: m.token, body });
    const row = await awaitStatus(app, body.reference, 'failed');
    expect(row).toMatchObject({ status: 'failed', failure_reason: 'payment_declined_by_sender' });
    expect(await notificationRows(app, row!.id)).toEqual([]);
    expect(fake.requests.some((r) => r.path === '/mpesa/stkpushquery/v1/query')).toBe(true);
  });

  it('a forged callback changes nothing, and a duplicate changes nothing', async () => {
    const body = collection(m.customerUuid, phone('0009')); // pending until decided
    await request(app.url, 'POST', COLLECT, { token: m.token, body });
    const row = (await txnRow(app, body.reference))!;
    const callbackPath = stkFor(fake, row.provider_reference)!.body.CallBackURL.slice(app.url.length) as string;
    const forged = {
      Body: {
        stkCallback: {
          MerchantRequestID: 'x',
          CheckoutRequestID: row.provider_reference,
          ResultCode: 0,
          ResultDesc: 'The service request is processed successfully.',
        },
      },
    };
    expect((await request(app.url, 'POST', callbackPath, { body: forged })).body).toEqual({ ResultCode: 0, ResultDesc: 'Accepted' });
    expect(await eventually(async () => (await notificationRows(app, row.id))[0]?.processed_at != null)).toBe(true);
    // Daraja's query still says "being processed".
    expect((await txnRow(app, body.reference))?.status).toBe('processing');

    await fake.decideStk(row.provider_reference!, 0);
    expect((await awaitStatus(app, body.reference, 'successful'))?.status).toBe('successful');
    await fake.callbackDelivered(row.provider_reference!);
    const kept = (await notificationRows(app, row.id)).length;
    expect(await fake.sendStkCallback(row.provider_reference!)).toBe(200);
    expect(await notificationRows(app, row.id)).toHaveLength(kept);
    expect((await historyRows(app, row.reference)).map((h) => h.to_status)).toEqual(['processing', 'successful']);
    expect((await outboxRows(app, row.reference)).map((o) => o.type)).toEqual(['collection.successful']);
  });

  it('a B2C retry after a timeout sends again with the same OriginatorConversationID: Daraja’s duplicate refusal says it has it, nothing is paid twice', async () => {
    fake.failNext('accept-then-timeout', { path: '/mpesa/b2c/v3/paymentrequest' });
    const body = payout(m.customerUuid, phone());
    expect((await request(app.url, 'POST', SEND, { token: m.token, body })).status).toBe(500);
    const row = (await txnRow(app, body.reference))!;
    expect(row.status).toBe('initiating');
    expect((await awaitStatus(app, body.reference, 'successful', 600))?.status).toBe('successful');
    expect([...fake.b2c.values()].filter((p) => p.originatorConversationId === row.id)).toHaveLength(1);
    expect(fake.requests.filter((r) => r.path === '/mpesa/b2c/v3/paymentrequest' && r.body.includes(row.id)).length).toBeGreaterThanOrEqual(2);
  }, 60_000);

  it('a timeout on the STK Push is never sent again: the callback names the prompt, and the query settles it', async () => {
    fake.failNext('accept-then-timeout', { path: '/mpesa/stkpush/v1/processrequest' });
    const number = phone();
    const body = collection(m.customerUuid, number);
    const res = await request(app.url, 'POST', COLLECT, { token: m.token, body });
    expect(res.status).toBe(500);
    expect((await txnRow(app, body.reference))?.status).toBe('initiating');
    const row = await awaitStatus(app, body.reference, 'successful', 400);
    expect(row?.status).toBe('successful');
    expect(pushesTo(fake, number)).toHaveLength(1);
    expect(row!.provider_reference).toBe(pushesTo(fake, number)[0]!.checkoutRequestId);
  });

  it('pays out by B2C; the result is a hint, Transaction Status answers to our own query decide it', async () => {
    const number = phone('0009'); // Daraja holds it until decided
    const body = payout(m.customerUuid, number);
    const res = await request(app.url, 'POST', SEND, { token: m.token, body });
    expect(res.status).toBe(200);
    const row = (await txnRow(app, body.reference))!;
    const b2c = fake.b2c.get(row.provider_reference!)!;
    expect(b2c.body).toMatchObject({
      OriginatorConversationID: row.id,
      CommandID: 'BusinessPayment',
      Amount: 300,
      PartyA: fake.b2cShortcode,
      PartyB: number,
      InitiatorName: fake.b2cInitiatorName,
      ResultURL: expect.stringContaining(`/v1/providers/mpesa/callback/${row.id}.`),
    });

    // A forged "Completed" status answer: it answers no query of ours, so nothing changes.
    const callbackPath = (b2c.body.ResultURL as string).slice(app.url.length);
    const forged = {
      Result: {
        ResultType: 0,
        ResultCode: 0,
        ResultDesc: 'The service request is processed successfully.',
        OriginatorConversationID: 'forged',
        ConversationID: 'AG_20261125_forged',
        TransactionID: 'FORGED0001',
        ResultParameters: { ResultParameter: [{ Key: 'TransactionStatus', Value: 'Completed' }] },
      },
    };
    expect((await request(app.url, 'POST', callbackPath, { body: forged })).status).toBe(200);
    expect(await eventually(async () => (await notificationRows(app, row.id)).some((n) => n.method === 'POST' && n.processed_at != null))).toBe(true);
    expect((await txnRow(app, body.reference))?.status).toBe('processing');
    // Our status queries are kept (to match their answers), and Daraja has received them.
    expect((await notificationRows(app, row.id)).some((n) => n.method === 'QUERY')).toBe(true);
    expect(fake.statusQueries.size).toBeGreaterThan(0);

    await fake.decideB2c(row.provider_reference!, 0);
    expect((await awaitStatus(app, body.reference, 'successful', 400))?.status).toBe('successful');
    expect((await outboxRows(app, row.reference)).map((o) => o.type)).toEqual(['transfer.successful']);
    // Paid once.
    expect([...fake.b2c.values()].filter((p) => p.originatorConversationId === row.id)).toHaveLength(1);
    // Answers never prompt questions: the status queries follow the poll chain, they do not feed themselves.
    const asked = [...fake.statusQueries.values()].filter((q) => q.body.OriginalConversationID === row.id).length;
    const polls = (await notificationRows(app, row.id)).filter((n) => n.method === 'QUERY').length;
    expect(asked).toBe(polls);
    expect(asked).toBeLessThan(10);
  });
});

import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import {
  ledgerVerify,
  adminMerchant,
  approvedCustomerAt,
  attempt,
  clientToken,
  hasExited,
  historyOf,
  outboxOf,
  stopIfRunning,
  transactionRowsByExternal,
  type AdminMerchant,
} from '../../helpers/engine';
import { request } from '../../helpers/http';
import { assertBuilt, serviceEnv, startServiceProcess, type ServiceProcess } from '../../helpers/process';
import { startReceiver, type Receiver } from '../../helpers/receiver';
import { CARDS, cardPaymentBody } from '../../helpers/payments';
import { bankCollectionBody, momoCollectionBody, newReference, transferBody } from '../../helpers/transactions';
import { eventually } from '../../helpers/wait';
import { FAST_WEBHOOKS, dbQuery, setEndpoint, verifyDelivery } from '../../helpers/webhooks';

/**
 * CONTRACT §6: "A transaction row is written before the provider is called (internal
 * state `initiating`, finished by reconciliation after a crash), so nothing moves
 * money without a record."
 *
 * A sandbox process started with FAULT_INJECT=crash-after-provider-call SIGKILLs
 * itself right after the provider answered an initiation, before the outcome is
 * committed. A fresh process (RECONCILE_AFTER_MS=500) must then finish the row by
 * asking the provider again: one row, one initiation entry, one final entry, one
 * outbox event, delivered.
 */
const COMMON = {
  PAYMENTS_ENV: 'sandbox',
  SANDBOX_KYC_DELAY_MS: '100',
  JOB_POLL_INTERVAL_MS: '500',
  ...FAST_WEBHOOKS,
};
const FAULTY = { ...COMMON, FAULT_INJECT: 'crash-after-provider-call' };
const HEALTHY = { ...COMMON, RECONCILE_AFTER_MS: '500', SANDBOX_SETTLE_MS: '200' };

const COLLECTION_PATH = '/v1/crossborder/global-collection';
const TRANSFER_PATH = '/v1/crossborder/global-transfer';
const PAYMENT_PATH = '/v1/payments/initiate';

describe('engine: a crash between the provider call and the commit is reconciled', () => {
  let db: TestDatabase;
  let receiver: Receiver;
  let merchant: AdminMerchant;
  let token: string;
  let customerUuid: string;
  const running: ServiceProcess[] = [];

  const start = async (extra: Record<string, string>) => {
    const proc = await startServiceProcess(serviceEnv(db.url, extra));
    running.push(proc);
    return proc;
  };

  beforeAll(async () => {
    assertBuilt();
    db = await createTestDatabase();
    receiver = await startReceiver(() => 200);
    // Set-up on a healthy process: merchant, KYC-approved customer, webhook endpoint.
    const setup = await start(HEALTHY);
    merchant = await adminMerchant(setup.url, 'Crash Reconciliation');
    token = await clientToken(setup.url, merchant);
    await setEndpoint(setup.url, token, receiver.url);
    customerUuid = await approvedCustomerAt(setup.url, token);
    await setup.stop('SIGTERM');
  }, 60_000);

  afterAll(async () => {
    for (const proc of running) await stopIfRunning(proc);
    await receiver?.close();
    await db?.drop();
  });

  /**
   * Starts a faulty process, initiates, and checks the crash: the request is cut off,
   * the process died of SIGKILL, and the row is in PostgreSQL as `initiating`.
   */
  async function initiateAndCrash(path: string, body: Record<string, unknown>) {
    const faulty = await start(FAULTY);
    const outcome = await attempt(faulty.url, 'POST', path, { token, body });
    // Without the fault injection the service answers 200 here, and nothing below can be tested.
    expect(outcome).toEqual({ error: expect.any(String) });
    expect(await eventually(async () => hasExited(faulty), { attempts: 100, everyMs: 50 })).toBe(true);
    expect(faulty.child.signalCode).toBe('SIGKILL');

    const rows = await transactionRowsByExternal(db.url, merchant.merchantId, String(body.reference));
    expect(rows.map((r) => r.status)).toEqual(['initiating']);
    expect(await outboxOf(db.url, rows[0]!.reference)).toEqual([]);
    // It waits in the reconciliation list.
    expect(await dbQuery(db.url, 'select 1 from transaction_initiation where transaction_id = $1', [rows[0]!.id])).toHaveLength(1);
    return rows[0]!;
  }

  /** Starts a healthy process and waits until the row reaches `status` (read from PostgreSQL). */
  async function reconcile(externalReference: string, status: string) {
    const healthy = await start(HEALTHY);
    let rows: Awaited<ReturnType<typeof transactionRowsByExternal>> = [];
    const reached = await eventually(
      async () => {
        rows = await transactionRowsByExternal(db.url, merchant.merchantId, externalReference);
        return rows.length === 1 && rows[0]!.status === status;
      },
      { attempts: 300, everyMs: 100 },
    );
    expect({ reached, rows: rows.map((r) => r.status) }).toEqual({ reached: true, rows: [status] });
    expect(await dbQuery(db.url, 'select 1 from transaction_initiation where transaction_id = $1', [rows[0]!.id])).toHaveLength(0);
    return { healthy, row: rows[0]! };
  }

  /** History: one initiation entry, written by reconciliation (to processing), then `final` if given. */
  async function expectHistory(transactionId: string, final: string | null) {
    const history = await historyOf(db.url, transactionId);
    expect(history.map((h) => h.to_status)).toEqual(final ? ['processing', final] : ['processing']);
    expect(history[0]).toMatchObject({ from_status: null, to_status: 'processing', reason: 'reconciled' });
    if (final) expect(history[1]!.from_status).toBe('processing');
  }

  /** Exactly one outbox event of `type`; the receiver got it (same webhook-id and body on every receipt). */
  async function expectOneEventDelivered(healthy: ServiceProcess, serviceReference: string, type: string) {
    const events = await outboxOf(db.url, serviceReference);
    expect(events.map((e) => e.type)).toEqual([type]);
    const event = events[0]!;

    const record = (await request(healthy.url, 'GET', `/v1/crossborder/global-transfer/${serviceReference}`, { token })).body.data;
    expect(event.payload).toEqual(record);

    const receipts = () => receiver.received.filter((r) => JSON.parse(r.body).data?.reference === serviceReference);
    expect(await eventually(async () => receipts().length > 0, { attempts: 200, everyMs: 100 })).toBe(true);
    for (const r of receipts()) {
      expect(r.headers['webhook-id']).toBe(event.id);
      expect(verifyDelivery(merchant.webhookSecret, r)).toMatchObject({ id: event.id, type, data: record });
    }
    expect(new Set(receipts().map((r) => r.body)).size).toBe(1);
  }

  it('a mobile money collection: the fresh process asks the provider again and settles it once (successful, one event, delivered)', async () => {
    const externalReference = newReference('crash-momo');
    const crashed = await initiateAndCrash(COLLECTION_PATH, momoCollectionBody(customerUuid, { reference: externalReference }));

    const { healthy, row } = await reconcile(externalReference, 'successful');
    expect(row.id).toBe(crashed.id);
    expect(row.reference).toBe(crashed.reference);
    expect(row.provider_reference).not.toBeNull();
    await expectHistory(row.id, 'successful');
    await expectOneEventDelivered(healthy, row.reference, 'collection.successful');
    await healthy.stop('SIGTERM');
  }, 60_000);

  it('a bank collection: the fresh process finishes it as processing, with one virtual account', async () => {
    const externalReference = newReference('crash-bank');
    const crashed = await initiateAndCrash(COLLECTION_PATH, bankCollectionBody(customerUuid, { reference: externalReference }));

    const { healthy, row } = await reconcile(externalReference, 'processing');
    expect(row.id).toBe(crashed.id);
    expect(row.provider_reference).not.toBeNull();
    expect(row.virtual_account_number).not.toBeNull();
    expect(row.bank_info?.accountNumber).toBe(row.virtual_account_number);
    await expectHistory(row.id, null);
    expect(await outboxOf(db.url, row.reference)).toEqual([]);

    const record = (await request(healthy.url, 'GET', `/v1/crossborder/global-transfer/${externalReference}`, { token })).body.data;
    expect(record).toMatchObject({ reference: row.reference, status: 'processing', account_type: 'bank' });
    expect(record.bankInfo).toEqual({
      accountName: expect.any(String),
      accountNumber: row.virtual_account_number,
      bankName: expect.any(String),
      bankCode: expect.any(String),
      localCode: expect.stringMatching(/^\d{2}$/), // KCB's CBK code (issue 38)
    });
    await healthy.stop('SIGTERM');
  }, 60_000);

  it('a transfer: the fresh process asks the provider again and settles it once (successful, one event, delivered)', async () => {
    const externalReference = newReference('crash-trf');
    const crashed = await initiateAndCrash(TRANSFER_PATH, transferBody(customerUuid, { reference: externalReference }));

    const { healthy, row } = await reconcile(externalReference, 'successful');
    expect(row.id).toBe(crashed.id);
    expect(row.kind).toBe('transfer');
    expect(row.provider_reference).not.toBeNull();
    await expectHistory(row.id, 'successful');
    await expectOneEventDelivered(healthy, row.reference, 'transfer.successful');
    await healthy.stop('SIGTERM');
  }, 60_000);

  it('a card payment: the card is not kept, so the fresh process asks the processor what became of the charge (successful once, one event, delivered)', async () => {
    const externalReference = newReference('crash-pay');
    const crashed = await initiateAndCrash(PAYMENT_PATH, cardPaymentBody({ reference: externalReference }));

    const { healthy, row } = await reconcile(externalReference, 'successful');
    expect(row.id).toBe(crashed.id);
    expect(row.kind).toBe('payment');
    expect(row.provider_reference).not.toBeNull();
    // One charge at the processor, found by the transaction's id: none was made again.
    expect(await dbQuery(db.url, 'select outcome from sandbox_card_charge where idempotency_key = $1', [row.id])).toEqual([{ outcome: 'successful' }]);
    const history = await historyOf(db.url, row.id);
    expect(history).toEqual([expect.objectContaining({ from_status: null, to_status: 'successful', reason: 'reconciled' })]);
    await expectOneEventDelivered(healthy, row.reference, 'payment.successful');
    await healthy.stop('SIGTERM');
  }, 60_000);

  it('issue 18: a charged card stuck with an amount from before the domain (99999999999999.99 NGN) is reconciled, and reads carry it exactly', async () => {
    const externalReference = newReference('crash-huge');
    const crashed = await initiateAndCrash(PAYMENT_PATH, cardPaymentBody({ reference: externalReference }));
    // The state the attack left: charged at the processor, `initiating`, with an amount the edge now refuses.
    await dbQuery(db.url, `update transaction set amount = '99999999999999.99' where id = $1`, [crashed.id]);

    const { healthy, row } = await reconcile(externalReference, 'successful');
    expect(await dbQuery(db.url, 'select outcome from sandbox_card_charge where idempotency_key = $1', [row.id])).toEqual([{ outcome: 'successful' }]);
    const verified = await request(healthy.url, 'GET', `/v1/payments/verify/${externalReference}`, { token });
    expect(verified.status).toBe(200);
    expect(verified.body.data).toMatchObject({ status: 'successful', amount: '99999999999999.99' });
    const list = await request(healthy.url, 'GET', '/v1/transactions?limit=100', { token });
    expect(list.status).toBe(200);
    expect(list.body.data.find((t: { reference: string }) => t.reference === row.reference)).toMatchObject({ amount: '99999999999999.99' });
    await expectOneEventDelivered(healthy, row.reference, 'payment.successful');
    await healthy.stop('SIGTERM');
  }, 60_000);

  it('a 3-D Secure payment: reconciled to requires_action with a fresh link (the first was lost with the response), no event yet', async () => {
    const externalReference = newReference('crash-3ds');
    await initiateAndCrash(PAYMENT_PATH, cardPaymentBody({ reference: externalReference, card: { number: CARDS.threeDs } }));

    const { healthy, row } = await reconcile(externalReference, 'requires_action');
    const record = (await request(healthy.url, 'GET', `/v1/payments/verify/${externalReference}`, { token })).body.data;
    expect(record).toMatchObject({ reference: row.reference, status: 'requires_action', next_action: { type: 'redirect_to_url', url: expect.any(String) } });
    // The cardholder can still authenticate on it.
    const page = await fetch(record.next_action.url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Complete');
    expect(await outboxOf(db.url, row.reference)).toEqual([]);
    await healthy.stop('SIGTERM');
  }, 60_000);

  it('a card charge that never reached the processor: reconciliation closes its key, so it fails once and is never charged', async () => {
    const externalReference = newReference('crash-lost');
    const crashed = await initiateAndCrash(PAYMENT_PATH, cardPaymentBody({ reference: externalReference }));
    // As if the request had died before reaching the processor: it has no record of the charge.
    await dbQuery(db.url, 'delete from sandbox_card_charge where idempotency_key = $1', [crashed.id]);

    const { healthy, row } = await reconcile(externalReference, 'failed');
    expect(row.failure_reason).toBe('processing_error');
    // The key is closed: a late charge with it would get this refusal, not a charge.
    expect(await dbQuery(db.url, 'select outcome, failure_reason from sandbox_card_charge where idempotency_key = $1', [row.id])).toEqual([
      { outcome: 'failed', failure_reason: 'processing_error' },
    ]);
    await expectOneEventDelivered(healthy, row.reference, 'payment.failed');
    await healthy.stop('SIGTERM');
  }, 60_000);

  it('issue 22: a first answer committed asynchronously and lost to a PostgreSQL crash is reconciled from the insert (collection and transfer); a card charge commits synchronously', async () => {
    // FAULT_INJECT=lose-asynchronous-commit: the process answers as usual but never sends the statements that would
    // commit asynchronously: the database is left as a PostgreSQL crash would leave it (WAL replays in order).
    const losing = await start({ ...COMMON, FAULT_INJECT: 'lose-asynchronous-commit', RECONCILE_AFTER_MS: '600000' });
    const answered: Array<{ reference: string; external: string; type: string }> = [];
    for (const [path, body, type] of [
      [COLLECTION_PATH, momoCollectionBody(customerUuid, { reference: newReference('lost-col') }), 'collection.successful'],
      [TRANSFER_PATH, transferBody(customerUuid, { reference: newReference('lost-trf') }), 'transfer.successful'],
    ] as const) {
      const answer = await request(losing.url, 'POST', path, { token, body });
      expect(answer.status).toBe(200);
      expect(answer.body.data.status).toBe('processing');
      answered.push({ reference: answer.body.data.reference, external: String(body.reference), type });
      // What survived the "crash": the insert (and a transfer's reservation), waiting for reconciliation.
      const [row] = await transactionRowsByExternal(db.url, merchant.merchantId, String(body.reference));
      expect(row).toMatchObject({ reference: answer.body.data.reference, status: 'initiating' });
      expect(await dbQuery(db.url, 'select 1 from transaction_initiation where transaction_id = $1', [row!.id])).toHaveLength(1);
      expect(await historyOf(db.url, row!.id)).toEqual([]);
    }
    // A card charged at once publishes an event and posts to the books: it commits synchronously, so nothing is lost.
    const paymentReference = newReference('kept-pay');
    const paid = await request(losing.url, 'POST', PAYMENT_PATH, { token, body: cardPaymentBody({ reference: paymentReference }) });
    expect(paid.status).toBe(200);
    const [payment] = await transactionRowsByExternal(db.url, merchant.merchantId, paymentReference);
    expect(payment).toMatchObject({ status: 'successful' });
    expect((await outboxOf(db.url, payment!.reference)).map((e) => e.type)).toEqual(['payment.successful']);
    await losing.stop('SIGKILL');

    for (const lost of answered) {
      const { healthy, row } = await reconcile(lost.external, 'successful');
      // The same transaction the client was answered with, finished once.
      expect(row.reference).toBe(lost.reference);
      await expectHistory(row.id, 'successful');
      await expectOneEventDelivered(healthy, row.reference, lost.type);
      await healthy.stop('SIGTERM');
    }
  }, 90_000);

  it('issue 19: after every crash above, the books verify (each reservation, settlement and void posted once)', async () => {
    const books = await ledgerVerify(db.url);
    expect({ exitCode: books.exitCode, problems: books.problems }).toEqual({ exitCode: 0, problems: [] });
    expect(books.entries).toBeGreaterThan(0);
    const twice = await dbQuery(
      db.url,
      'select transaction_id, leg, count(*)::int as n from ledger_entry where transaction_id is not null group by 1, 2 having count(*) > 1',
    );
    expect(twice).toEqual([]);
  });
});

import { referenceIdOf } from '../../../src/providers/mtn-momo/mapping';
import { MtnMomoFake } from '../../fakes/mtn-momo.fake';
import { request } from '../../helpers/http';
import { awaitStatus, ghMtnCollection, railsApp, railsMerchant, txnRow } from '../../helpers/rails';
import { day, reconciliation } from '../../helpers/reconciliation';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { momoCollectionBody, sql } from '../../helpers/transactions';
import { approvedCustomer } from '../../helpers/factories';

/**
 * Reconciliation with the providers that list nothing (docs/reconciliation.md): each of our transactions of the day is
 * asked by its status query (MTN MoMo's GET …/requesttopay/{referenceId}; the sandbox's decision table), and the
 * provider's balance read where it has a balance call (MTN's account balance).
 */

const COLLECT = '/v1/crossborder/global-collection';
/** The UTC day a transaction was created on (the window it is reconciled in). */
async function dayOf(app: TestApp, id: string) {
  const [row] = await sql<{ created_at: Date }>(app, 'select created_at from "transaction" where id = ?', [id]);
  return day(new Date(row!.created_at).toISOString().slice(0, 10));
}

describe('reconciliation by status queries: MTN MoMo (production, against the fake)', () => {
  let fake: MtnMomoFake;
  let app: TestApp;

  beforeAll(async () => {
    fake = await MtnMomoFake.start({ decisionDelayMs: 30, targetEnvironment: 'mtnghana', currency: 'GHS' });
    app = await railsApp(fake.env());
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await fake?.close();
  });

  it('asks MTN about each of our transactions: agreeing is matched, a status we hold otherwise is status_mismatch, PENDING is in flight', async () => {
    const m = await railsMerchant(app);
    const create = async (accountNumber: string) => {
      const body = ghMtnCollection(m.customerUuid, { account_number: accountNumber });
      expect((await request(app.url, 'POST', COLLECT, { token: m.token, body })).status).toBe(200);
      return body.reference;
    };
    const agreed = await create('0241234567');
    const disputed = await create('0241235555');
    const pending = await create('0241230009');
    await awaitStatus(app, agreed, 'successful');
    await awaitStatus(app, disputed, 'successful');
    // Our books say it failed where MTN says SUCCESSFUL (what reconciliation is for: seeded here by hand).
    const disputedRow = (await txnRow(app, disputed))!;
    await sql(app, `update "transaction" set status = 'failed' where id = ?`, [disputedRow.id]);
    const pendingRow = (await txnRow(app, pending))!;

    const asked = fake.requests.length;
    const outcome = await reconciliation(app).reconcile('mtn_momo', await dayOf(app, disputedRow.id));
    expect(outcome.run!.counts).toEqual({
      matched: 1,
      amount_mismatch: 0,
      status_mismatch: 1,
      missing_at_provider: 0,
      missing_here: 0,
      in_flight: 1,
      balance_mismatch: 0,
    });
    const { items } = await reconciliation(app).getRun(outcome.run!.id);
    expect(items.find((i) => i.transactionId === disputedRow.id)).toMatchObject({
      class: 'status_mismatch',
      ours: { status: 'failed' },
      theirs: { status: 'successful' },
    });
    expect(items.find((i) => i.transactionId === pendingRow.id)).toMatchObject({
      class: 'in_flight',
      ours: { status: 'processing' },
      theirs: { status: 'pending' },
    });
    // One status query per transaction, by its X-Reference-Id; the balance of both products' accounts.
    const since = fake.requests.slice(asked).map((r) => r.path);
    expect(since).toEqual(
      expect.arrayContaining([
        `/collection/v1_0/requesttopay/${referenceIdOf(disputedRow.id)}`,
        `/collection/v1_0/requesttopay/${referenceIdOf(pendingRow.id)}`,
      ]),
    );
    expect(since).toEqual(expect.arrayContaining(['/collection/v1_0/account/balance', '/disbursement/v1_0/account/balance']));
    expect(outcome.run!.clearing).toEqual([expect.objectContaining({ currency: 'GHS', theirs: '2000000', note: null })]);
  });
});

describe('reconciliation by status queries: the sandbox, by its table', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await createTestApp({ env: { SANDBOX_SETTLE_MS: '50' } });
  }, 60_000);
  afterAll(() => app?.close());

  it('its table decides each record: agreeing is matched, a row that disagrees is status_mismatch; no balance call', async () => {
    const merchant = await app.createMerchant('Recon Sandbox');
    const { accessToken: token } = await app.token(merchant);
    const customer = await approvedCustomer(app, token);
    const ok = momoCollectionBody(customer.customer_uuid);
    const declined = momoCollectionBody(customer.customer_uuid, { account_number: '712345000' });
    for (const body of [ok, declined]) expect((await request(app.url, 'POST', COLLECT, { token, body })).status).toBe(200);
    await awaitStatus(app, ok.reference, 'successful');
    await awaitStatus(app, declined.reference, 'failed');
    const declinedRow = (await txnRow(app, declined.reference))!;
    // The table says an account ending 000 fails; our row says otherwise.
    await sql(app, `update "transaction" set status = 'successful' where id = ?`, [declinedRow.id]);

    const outcome = await reconciliation(app).reconcile('sandbox', await dayOf(app, declinedRow.id));
    expect(outcome.run!.counts).toMatchObject({ matched: 1, status_mismatch: 1, missing_at_provider: 0, missing_here: 0 });
    expect(outcome.run!.clearing.every((c) => c.theirs === null && c.note === 'the provider reports no balance here')).toBe(true);
  });
});

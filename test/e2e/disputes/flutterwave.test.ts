import { FlutterwaveFake } from '../../fakes/flutterwave.fake';
import { request } from '../../helpers/http';
import { cardPaymentBody } from '../../helpers/payments';
import { flutterwaveApp, railsMerchant, txnRow, type RailsMerchant } from '../../helpers/rails';
import type { TestApp } from '../../helpers/test-app';
import { newReference, sql } from '../../helpers/transactions';
import { eventually } from '../../helpers/wait';

/**
 * Issue 39, point 3: Flutterwave's chargebacks become disputes in production mode, against the fake of its v3 API: by
 * webhook (read again from its list before anything moves) and by polling; the merchant's accept and decline go to
 * Flutterwave's API once; its decision moves the money.
 */
const NOAUTH_CARD = '5061460166976054667';

let flw: FlutterwaveFake;
let app: TestApp;
let m: RailsMerchant;
beforeAll(async () => {
  flw = await FlutterwaveFake.start({ decisionDelayMs: 30 });
  app = await flutterwaveApp(flw, { DISPUTE_SWEEP_INTERVAL_S: '0' });
  m = await railsMerchant(app, { currency: 'NGN', amount: '100000' });
}, 60_000);
afterAll(async () => {
  await app?.close();
  await flw?.close();
});

async function paidCard(amount: string): Promise<{ txRef: string; reference: string }> {
  const res = await request(app.url, 'POST', '/v1/payments/initiate', { token: m.token, body: cardPaymentBody({ card: { number: NOAUTH_CARD }, amount }) });
  expect(res.body.data.status).toBe('successful');
  const row = (await txnRow(app, res.body.data.external_reference))!;
  return { txRef: row.id, reference: res.body.data.reference };
}

const disputesOf = async (reference: string) =>
  (await request(app.url, 'GET', `/v1/disputes?payment_reference=${reference}`, { token: m.token })).body.data as Array<Record<string, any>>;

test('a chargeback arrives by webhook: a dispute with its hold; declined with the evidence; won at Flutterwave, the hold comes back', async () => {
  const { txRef, reference } = await paidCard('2500');
  const before = (await request(app.url, 'GET', '/v1/balances', { token: m.token })).body.data.find((b: { currency: string }) => b.currency === 'NGN');
  const opened = await flw.openChargeback(txRef, { amount: 600, comment: 'Product not received' });
  expect(await eventually(async () => (await disputesOf(reference)).length === 1)).toBe(true);
  const [d] = await disputesOf(reference);
  expect(d).toMatchObject({ provider: 'flutterwave', amount: 600, currency: 'NGN', status: 'needs_response', funds: 'held', provider_status: 'initiated' });
  expect(d.reason).toBe('product_not_received');
  const held = (await request(app.url, 'GET', '/v1/balances', { token: m.token })).body.data.find((b: { currency: string }) => b.currency === 'NGN');
  expect(held.disputed).toBe(600);
  expect(held.available).toBe(before.available - 600);

  await request(app.url, 'POST', `/v1/disputes/${d.id}/evidence`, { token: m.token, body: { service_details: 'Delivered, signed by the customer' } });
  const submitted = await request(app.url, 'POST', `/v1/disputes/${d.id}/submit`, { token: m.token });
  expect(submitted.body.data.status).toBe('under_review');
  const answered = flw.chargebacks.byId.get(Number(opened.id))!;
  expect(answered.status).toBe('declined');
  expect(flw.chargebacks.answers.find((a) => a.id === Number(opened.id))).toMatchObject({
    action: 'decline',
    comment: expect.stringContaining('Delivered, signed by the customer'),
  });

  await flw.decideChargeback(Number(opened.id), 'won');
  // The webhook (or the next poll) brings the decision.
  await app.service.app.services.disputeSweeps.run(Math.floor(Date.now() / 60_000) + 1_000_000);
  expect(await eventually(async () => (await disputesOf(reference))[0]!.status === 'won')).toBe(true);
  const after = (await request(app.url, 'GET', '/v1/balances', { token: m.token })).body.data.find((b: { currency: string }) => b.currency === 'NGN');
  expect(after).toMatchObject({ available: before.available, disputed: 0 });
  const report = await app.service.app.services.ledger.verify(app.service.app.services.transactions.expectedLegs());
  expect(report.problems).toEqual([]);
});

test('a chargeback whose webhook is lost is found by polling; accepting it answers Flutterwave and pays the hold out', async () => {
  const { txRef, reference } = await paidCard('1000');
  flw.dropWebhooks = true;
  const opened = await flw.openChargeback(txRef, {});
  flw.dropWebhooks = false;
  expect(await disputesOf(reference)).toEqual([]);
  await app.service.app.services.disputeSweeps.run(Math.floor(Date.now() / 60_000) + 2_000_000);
  const [d] = await disputesOf(reference);
  expect(d).toMatchObject({ provider: 'flutterwave', status: 'needs_response', funds: 'held' });
  const accepted = await request(app.url, 'POST', `/v1/disputes/${d!.id}/accept`, { token: m.token });
  expect(accepted.body.data).toMatchObject({ status: 'lost', funds: 'withdrawn' });
  expect(flw.chargebacks.byId.get(Number(opened.id))!.status).toBe('accepted');
  // A second answer is refused by the service before Flutterwave is asked.
  expect((await request(app.url, 'POST', `/v1/disputes/${d!.id}/accept`, { token: m.token })).status).toBe(409);
  const report = await app.service.app.services.ledger.verify(app.service.app.services.transactions.expectedLegs());
  expect(report.problems).toEqual([]);
});

test('a chargeback larger than what a refund left of the payment is opened for what is left (the refund and the dispute within what was captured)', async () => {
  const { txRef, reference } = await paidCard('1000');
  const refund = await request(app.url, 'POST', '/v1/refunds', {
    token: m.token,
    body: { payment_reference: reference, amount: '400.00', reason: 'Half returned', reference: newReference('flw-rf') },
  });
  expect(refund.status).toBe(200);
  // The bank charges back the whole 1000: only 600 was not refunded.
  await flw.openChargeback(txRef, { amount: 1000, comment: 'Not authorised' });
  expect(await eventually(async () => (await disputesOf(reference)).length === 1)).toBe(true);
  const [d] = await disputesOf(reference);
  expect(d).toMatchObject({ provider: 'flutterwave', amount: 600, status: 'needs_response', funds: 'held' });
  const [row] = await sql<{ refunded: string; disputed: string }>(
    app,
    `select refunded_amount::text as refunded, disputed_amount::text as disputed from "transaction" where reference = ?`,
    [reference],
  );
  expect(row).toEqual({ refunded: '400', disputed: '600' });
  const report = await app.service.app.services.ledger.verify(app.service.app.services.transactions.expectedLegs());
  expect(report.problems).toEqual([]);
});

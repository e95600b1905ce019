import { FlutterwaveFake } from '../../fakes/flutterwave.fake';
import { request } from '../../helpers/http';
import { cardPaymentBody } from '../../helpers/payments';
import { flutterwaveApp, railsMerchant, txnRow, type RailsMerchant } from '../../helpers/rails';
import type { TestApp } from '../../helpers/test-app';
import { GuardedConnector } from '../../../src/providers/breaker';
import { handlesDisputes, type HandlesDisputes } from '../../../src/providers/capabilities';
import { ProviderRefusal, ProviderUnreachable, type Connector } from '../../../src/providers/connector';
import { flutterwave } from '../../../src/providers/flutterwave';
import { createLogger } from '../../../src/shared/logger';

/**
 * Flutterwave's chargebacks through its connector, in production mode (live keys, the production configuration), against
 * the fake of its v3 API: a chargeback on a card payment the service took arrives by webhook (verif-hash) and by polling
 * (GET /v3/chargebacks), names our payment by its tx_ref, and is accepted or declined (PUT /v3/chargebacks/:id) once.
 * The connector is the one the service runs: built by the provider's declaration, behind its circuit breaker.
 */

/** Flutterwave's NoAuth test card: charged at once. */
const NOAUTH_CARD = '5061460166976054667';

describe('Flutterwave chargebacks (production, against the fake)', () => {
  let flw: FlutterwaveFake;
  let app: TestApp;
  let m: RailsMerchant;
  let connector: Connector & HandlesDisputes & { authenticateWebhook(h: Record<string, string>): boolean };

  beforeAll(async () => {
    flw = await FlutterwaveFake.start({ decisionDelayMs: 30 });
    app = await flutterwaveApp(flw);
    m = await railsMerchant(app);
    // Production's configuration path: live keys only (a test-mode key is refused there).
    const settings = flutterwave.configure(flw.env(), 'production');
    const guarded = new GuardedConnector({
      connector: flutterwave.create(settings!, { timeoutMs: 2000, now: () => new Date() }),
      settings: { volumeThreshold: 50, errorThresholdPercentage: 50, resetTimeoutMs: 60_000, rollingWindowMs: 10_000 },
      observer: undefined,
      logger: createLogger('silent'),
    });
    // The capability survives the breaker, as the service holds the connector.
    expect(handlesDisputes(guarded)).toBe(true);
    connector = guarded as unknown as typeof connector;
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await flw?.close();
  });
  beforeEach(() => {
    flw.dropWebhooks = false;
  });

  /** A card payment the service took through Flutterwave: our transaction's id (the charge's tx_ref) and Flutterwave's. */
  async function paidCard(amount = '2500'): Promise<{ txRef: string; chargeId: number; reference: string }> {
    const res = await request(app.url, 'POST', '/v1/payments/initiate', { token: m.token, body: cardPaymentBody({ card: { number: NOAUTH_CARD }, amount }) });
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('successful');
    const row = (await txnRow(app, res.body.data.external_reference))!;
    const charge = [...flw.transactions.values()].find((t) => t.tx_ref === row.id);
    expect(charge).toBeDefined();
    return { txRef: row.id, chargeId: charge.id, reference: res.body.data.external_reference };
  }

  it('a chargeback on our card payment arrives by webhook (verif-hash) and by polling, naming our payment by tx_ref', async () => {
    const { txRef, chargeId, reference } = await paidCard('2500');
    const since = new Date(Date.now() - 2000);
    const opened = await flw.openChargeback(txRef, { amount: 600 });

    const delivery = flw.webhookDeliveries.find((d) => d.event === 'chargeback.initiated' && JSON.parse(d.body).data.id === opened.id)!;
    expect(delivery).toBeDefined();
    // The service's account-wide address answered it (200: stored as a notification, nothing moved for now).
    expect(delivery.status).toBe(200);
    expect(connector.authenticateWebhook({ 'verif-hash': delivery.verifHash })).toBe(true);
    expect(connector.authenticateWebhook({ 'verif-hash': 'not-the-hash' })).toBe(false);
    const hinted = connector.webhookDispute(JSON.parse(delivery.body));
    expect(hinted).toEqual({
      providerDisputeId: String(opened.id),
      providerTransactionId: String(chargeId),
      transactionReference: txRef,
      amount: '600',
      currency: null,
      stage: 'chargeback',
      providerStage: 'new',
      providerStatus: 'initiated',
      status: 'needs_response',
      reason: 'Product/service not received',
      reasonCategory: 'product_not_received',
      dueBy: new Date(opened.due_date as string),
      createdAt: new Date(opened.created_at as string),
    });
    // The payment itself is untouched by the webhook today (the disputes module decides what a chargeback does).
    expect((await txnRow(app, reference))!.status).toBe('successful');

    // Polling finds the same chargeback: the webhook is a hint, the list the truth.
    const listed = await connector.listDisputes(since);
    expect(listed).toContainEqual(hinted);
    const get = flw.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/v3/chargebacks?'));
    expect(get.at(-1)!.path).toMatch(/^\/v3\/chargebacks\?from=\d{4}-\d{2}-\d{2}&page=1$/);
    expect(get.at(-1)!.headers.authorization).toBe(`Bearer ${flw.env().FLUTTERWAVE_SECRET_KEY}`);
  });

  it('accept: Flutterwave takes it once, the dispute is lost; a second answer or an unknown chargeback is a clear refusal', async () => {
    const { txRef } = await paidCard('1800');
    const opened = await flw.openChargeback(txRef);
    const id = String(opened.id);

    const accepted = await connector.answerDispute(id, 'accept', 'We refund the customer');
    expect(accepted).toMatchObject({ providerDisputeId: id, transactionReference: txRef, amount: '1800', status: 'lost', providerStatus: 'accepted' });
    const put = flw.requests.filter((r) => r.method === 'PUT').at(-1)!;
    expect(put.path).toBe(`/v3/chargebacks/${id}`);
    expect(JSON.parse(put.body)).toEqual({ action: 'accept', comment: 'We refund the customer' });
    await flw.webhookDelivered('chargeback.accepted', opened.id as number);

    const again = connector.answerDispute(id, 'decline', 'Changed our mind');
    await expect(again).rejects.toBeInstanceOf(ProviderRefusal);
    await expect(connector.answerDispute(id, 'decline', 'Changed our mind')).rejects.toMatchObject({
      code: 'INVALID_STATE',
      message: `Flutterwave refused to decline chargeback ${id}: Chargeback has already been accepted`,
    });
    await expect(connector.answerDispute('99999999', 'accept', 'x')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const puts = flw.requests.filter((r) => r.method === 'PUT').length;
    await expect(connector.answerDispute('dp_not-flutterwave', 'accept', 'x')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(flw.requests.filter((r) => r.method === 'PUT').length).toBe(puts);
    expect(flw.chargebacks.byId.get(opened.id as number)!.status).toBe('accepted');
  });

  it('decline with our proof link: under review; the bank decides (won) and the next poll sees it; unchanged ones are not listed', async () => {
    const { txRef } = await paidCard('3000');
    flw.dropWebhooks = true;
    // An older chargeback, left alone: its last change is an hour ago.
    const { txRef: olderRef } = await paidCard('900');
    const older = await flw.openChargeback(olderRef, { createdAt: new Date(Date.now() - 3600_000) });
    const opened = await flw.openChargeback(txRef, { stage: 'pre-arbitration' });
    const id = String(opened.id);

    const declined = await connector.answerDispute(id, 'decline', 'Delivered on 2 December, signed for', 'https://files.example.invalid/receipt.pdf');
    expect(declined).toMatchObject({ status: 'under_review', providerStatus: 'declined', stage: 'pre_arbitration', providerStage: 'pre-arbitration' });
    expect(JSON.parse(flw.requests.filter((r) => r.method === 'PUT').at(-1)!.body)).toEqual({
      action: 'decline',
      comment: 'Delivered on 2 December, signed for',
      prooflink: 'https://files.example.invalid/receipt.pdf',
    });
    expect(flw.chargebacks.byId.get(opened.id as number)!.uploaded_proof).toBe('https://files.example.invalid/receipt.pdf');

    const since = new Date(Date.now() - 600_000);
    await flw.decideChargeback(opened.id as number, 'won');
    const polled = await connector.listDisputes(since);
    expect(polled.find((d) => d.providerDisputeId === id)).toMatchObject({ status: 'won', providerStatus: 'won', transactionReference: txRef });
    expect(polled.some((d) => d.providerDisputeId === String(older.id))).toBe(false);
    // Asked from before its last change, it is there.
    expect((await connector.listDisputes(new Date(Date.now() - 2 * 3600_000))).some((d) => d.providerDisputeId === String(older.id))).toBe(true);
  });

  it('reads every page (twenty a page); a page that fails is an error, never a partial list', async () => {
    flw.dropWebhooks = true;
    const since = new Date(Date.now() - 2000);
    for (let i = 0; i < 45; i++) {
      const tx = flw.seedTransaction({ tx_ref: `seeded-${i}-${Date.now()}`, amount: 100 + i, currency: 'NGN', status: 'successful' });
      await flw.openChargeback(tx);
    }
    const before = flw.requests.length;
    const all = await connector.listDisputes(since);
    expect(all.length).toBeGreaterThanOrEqual(45);
    expect(new Set(all.map((d) => d.providerDisputeId)).size).toBe(all.length);
    const pages = flw.requests.slice(before).map((r) => new URL(r.path, 'http://x').searchParams.get('page'));
    expect(pages).toEqual(['1', '2', '3']);

    flw.failNext('500', { path: '/v3/chargebacks' });
    await expect(connector.listDisputes(since)).rejects.toBeInstanceOf(ProviderUnreachable);
    flw.failNext('500', { path: 'page=2' });
    await expect(connector.listDisputes(since)).rejects.toBeInstanceOf(ProviderUnreachable);
    expect((await connector.listDisputes(since)).length).toBe(all.length);
  });
});

import type { MerchantCredentials } from '../../../src/modules/merchants/merchant.service';
import { approvedCustomer } from '../../helpers/factories';
import { graphql, request } from '../../helpers/http';
import { CARDS, TEST_CVC, cardPaymentBody, initiatePayment } from '../../helpers/payments';
import { startReceiver, type Receiver, type ReceiverAnswer, type ReceivedWebhook } from '../../helpers/receiver';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { startTwoInstances, type TwoInstances } from '../../helpers/two-instances';
import { getTransaction, momoCollectionBody, transferBody } from '../../helpers/transactions';
import { eventually } from '../../helpers/wait';
import { FAST_WEBHOOKS, dbQuery, setEndpoint, verifyDelivery } from '../../helpers/webhooks';
import { collect, connect, subscribeLive } from '../../helpers/ws';

/** What every merchant receives until it chooses: final statuses and KYC decisions (written out: a change to the default shows here). */
const DEFAULT_TYPES = [
  'customer.kyc.approved',
  'customer.kyc.rejected',
  'collection.successful',
  'collection.failed',
  'collection.expired',
  'transfer.successful',
  'transfer.failed',
  'payment.successful',
  'payment.failed',
  // A bank transfer payment nobody paid into (issue 41: it could not expire before).
  'payment.expired',
  'refund.successful',
  'refund.failed',
  // Issue 38: a payout's events (its creation is news to the merchant, not a progress step it may do without).
  'payout.created',
  'payout.paid',
  'payout.failed',
  // Issue 41: a funding of the merchant's balance, arrived or not.
  'funding.successful',
  'funding.failed',
  'funding.expired',
  // Issue 37: a checkout session's outcome is a final state too.
  'checkout.session.completed',
  'checkout.session.expired',
  // Issue 39: every change of a dispute, and the deadline's reminders.
  'dispute.created',
  'dispute.updated',
  'dispute.closed',
  'dispute.funds_withdrawn',
  'dispute.funds_reinstated',
  'dispute.evidence_due_soon',
];

const PROGRESS_TYPES = [
  'collection.processing',
  'transfer.processing',
  'payment.processing',
  'payment.requires_action',
  'refund.processing',
  'funding.processing',
];

const SUBSCRIPTION = `subscription ($r: String, $s: [TransactionStatus!]) {
  transactionStatusChanged(reference: $r, statuses: $s) { reference status nextAction { type } }
}`;

/**
 * Issue 24, point 3: events for every change. A transaction's creation (`*.processing`) and a card
 * payment awaiting 3-D Secure (`payment.requires_action`) are events too, recorded and sent to the
 * merchants who chose them (per endpoint, `event_types`); the others keep the final-state events.
 * Subscribers hear of every change, or only the statuses they name. And a test event on request.
 */
describe('event types: progress events, the merchant’s choice, and the test event', () => {
  let app: TestApp;
  const receivers: Receiver[] = [];

  beforeAll(async () => {
    // Collections stay processing until the test simulates their outcome.
    app = await createTestApp({ env: { ...FAST_WEBHOOKS, SANDBOX_SETTLE_MS: '600000' } });
  });
  afterAll(async () => {
    for (const r of receivers) await r.close();
    await app?.close();
  });

  async function merchantWithReceiver(name: string, respond: (req: ReceivedWebhook, n: number) => ReceiverAnswer = () => 204) {
    const receiver = await startReceiver(respond);
    receivers.push(receiver);
    const merchant = await app.createMerchant(name);
    const { accessToken: token } = await app.token(merchant);
    await setEndpoint(app.url, token, receiver.url);
    return { merchant, token, receiver };
  }

  const putEndpoint = (token: string, body: unknown) => request(app.url, 'PUT', '/v1/webhooks/endpoint', { token, body });

  /** The verified bodies the receiver got about `reference`, in arrival order. */
  const webhooksAbout = (merchant: MerchantCredentials, receiver: Receiver, reference: string) =>
    receiver.received.map((r) => verifyDelivery(merchant.webhookSecret, r)).filter((b) => b.data?.reference === reference);

  const outboxTypes = async (reference: string) =>
    (await dbQuery<{ type: string }>(app.db.url, 'select type from outbox_event where subject_id = $1 order by created_at, id', [reference])).map(
      (r) => r.type,
    );

  const simulate = (token: string, reference: string, outcome: 'successful' | 'failed') =>
    request(app.url, 'POST', `/v1/sandbox/transactions/${reference}/simulate`, { token, body: { outcome } });

  it('a merchant keeps the final-state events until it chooses: no webhook or event for a creation', async () => {
    const { merchant, token, receiver } = await merchantWithReceiver('Final Only');
    const profile = await request(app.url, 'GET', '/v1/merchant', { token });
    expect(profile.body.data.webhook_event_types).toEqual(DEFAULT_TYPES);

    const customer = await approvedCustomer(app, token);
    const created = await request(app.url, 'POST', '/v1/crossborder/global-collection', { token, body: momoCollectionBody(customer.customer_uuid) });
    expect(created.body.data.status).toBe('processing');
    const reference: string = created.body.data.reference;
    expect((await simulate(token, reference, 'successful')).status).toBe(200);
    expect(await eventually(async () => webhooksAbout(merchant, receiver, reference).length === 1)).toBe(true);
    expect(webhooksAbout(merchant, receiver, reference).map((b) => b.type)).toEqual(['collection.successful']);
    expect(await outboxTypes(reference)).toEqual(['collection.successful']);
  });

  it('a merchant who chose the progress events gets collection.processing at creation, then collection.successful', async () => {
    const { merchant, token, receiver } = await merchantWithReceiver('Every Change');
    const chosen = await putEndpoint(token, { url: receiver.url, event_types: [...DEFAULT_TYPES, ...PROGRESS_TYPES] });
    expect(chosen.status).toBe(200);
    // In the service's order, whatever order they were sent in.
    expect(chosen.body.data.webhook_event_types).toEqual([
      'customer.kyc.approved',
      'customer.kyc.rejected',
      'collection.processing',
      'collection.successful',
      'collection.failed',
      'collection.expired',
      'transfer.processing',
      'transfer.successful',
      'transfer.failed',
      'payment.processing',
      'payment.requires_action',
      'payment.successful',
      'payment.failed',
      'payment.expired',
      'refund.processing',
      'refund.successful',
      'refund.failed',
      'payout.created',
      'payout.paid',
      'payout.failed',
      'funding.processing',
      'funding.successful',
      'funding.failed',
      'funding.expired',
      'checkout.session.completed',
      'checkout.session.expired',
      'dispute.created',
      'dispute.updated',
      'dispute.closed',
      'dispute.funds_withdrawn',
      'dispute.funds_reinstated',
      'dispute.evidence_due_soon',
    ]);

    const customer = await approvedCustomer(app, token);
    const created = await request(app.url, 'POST', '/v1/crossborder/global-collection', { token, body: momoCollectionBody(customer.customer_uuid) });
    const reference: string = created.body.data.reference;
    expect(await eventually(async () => webhooksAbout(merchant, receiver, reference).length === 1)).toBe(true);
    const [processing] = webhooksAbout(merchant, receiver, reference);
    expect(processing.type).toBe('collection.processing');
    // The record as the status endpoint shows it while it is processing.
    expect(processing.data).toEqual((await getTransaction(app, token, reference)).body.data);
    expect(processing.data).toMatchObject({ reference, status: 'processing', completed_at: null });

    // The test clock stands still: a second later, so the two events' times (which order the log) differ.
    app.clock.advance(1000);
    expect((await simulate(token, reference, 'successful')).status).toBe(200);
    expect(await eventually(async () => webhooksAbout(merchant, receiver, reference).length === 2)).toBe(true);
    const [, successful] = webhooksAbout(merchant, receiver, reference);
    expect(successful).toMatchObject({ type: 'collection.successful', data: { reference, status: 'successful' } });
    expect(successful.id).not.toBe(processing.id);
    expect(await outboxTypes(reference)).toEqual(['collection.processing', 'collection.successful']);

    // The event log lists both, each naming its transaction.
    const log = await request(app.url, 'GET', '/v1/webhooks/events?limit=10', { token });
    expect(log.body.data.filter((e: any) => e.reference === reference).map((e: any) => e.type)).toEqual(['collection.successful', 'collection.processing']);
    const filtered = await request(app.url, 'GET', '/v1/webhooks/events?type=collection.processing', { token });
    expect(filtered.body.data.map((e: any) => e.reference)).toEqual([reference]);

    // A transfer's creation too.
    const transfer = await request(app.url, 'POST', '/v1/crossborder/global-transfer', { token, body: transferBody(customer.customer_uuid) });
    expect(transfer.status).toBe(200);
    expect(await eventually(async () => webhooksAbout(merchant, receiver, transfer.body.data.reference).length >= 1)).toBe(true);
    expect(webhooksAbout(merchant, receiver, transfer.body.data.reference)[0].type).toBe('transfer.processing');
  });

  it('payment.requires_action, when chosen, carries the 3-D Secure next action', async () => {
    const { merchant, token, receiver } = await merchantWithReceiver('Card Progress');
    expect((await putEndpoint(token, { url: receiver.url, event_types: ['payment.requires_action', 'payment.successful'] })).status).toBe(200);
    const res = await initiatePayment(app, token, cardPaymentBody({ card: { number: CARDS.threeDs, cvc: TEST_CVC } }));
    expect(res.body.data.status).toBe('requires_action');
    const reference: string = res.body.data.reference;
    expect(await eventually(async () => webhooksAbout(merchant, receiver, reference).length === 1)).toBe(true);
    const [event] = webhooksAbout(merchant, receiver, reference);
    expect(event.type).toBe('payment.requires_action');
    expect(event.data).toEqual(res.body.data);
    expect(event.data.next_action).toMatchObject({ type: 'redirect_to_url', url: expect.any(String) });
  });

  it('a type left out is neither recorded nor sent, even a final one', async () => {
    const { merchant, token, receiver } = await merchantWithReceiver('Processing Only');
    expect((await putEndpoint(token, { url: receiver.url, event_types: ['collection.processing'] })).status).toBe(200);
    const customer = await approvedCustomer(app, token);
    const created = await request(app.url, 'POST', '/v1/crossborder/global-collection', { token, body: momoCollectionBody(customer.customer_uuid) });
    const reference: string = created.body.data.reference;
    expect((await simulate(token, reference, 'failed')).status).toBe(200);
    // A later collection's processing event arrives after: the failure would have been sent before it.
    const later = await request(app.url, 'POST', '/v1/crossborder/global-collection', { token, body: momoCollectionBody(customer.customer_uuid) });
    expect(await eventually(async () => webhooksAbout(merchant, receiver, later.body.data.reference).length === 1)).toBe(true);
    expect(webhooksAbout(merchant, receiver, reference).map((b) => b.type)).toEqual(['collection.processing']);
    expect(await outboxTypes(reference)).toEqual(['collection.processing']);
    // The transaction's own history keeps every change.
    const history = await request(app.url, 'GET', `/v1/transactions/${reference}/events`, { token });
    expect(history.body.data.map((h: any) => h.to_status)).toEqual(['processing', 'failed']);
  });

  it('the choice: omitted keeps it, null restores the default, and a bad one is refused in both doors and changes nothing', async () => {
    const { token, receiver } = await merchantWithReceiver('Chooser');
    expect((await putEndpoint(token, { url: receiver.url, event_types: ['payment.failed', 'payment.failed'] })).body.data.webhook_event_types).toEqual([
      'payment.failed',
    ]);
    expect((await putEndpoint(token, { url: receiver.url })).body.data.webhook_event_types).toEqual(['payment.failed']);

    for (const [event_types, issue] of [
      [['collection.settled'], 'is not an event type you can choose'],
      [['webhook.test'], 'is not an event type you can choose'],
      [[], 'must name at least one event type (null: the default)'],
      ['collection.processing', 'must be a list of event types, or null'],
    ] as const) {
      const refused = await putEndpoint(token, { url: 'http://127.0.0.1:1/elsewhere', event_types });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ status: 'error', code: 'INVALID_REQUEST' });
      expect(refused.body.details).toEqual([{ field: expect.stringMatching(/^event_types/), issue }]);
      // GraphQL's list type refuses a bare string itself; the lists reach the service, which refuses them alike.
      if (!Array.isArray(event_types)) continue;
      const gql = await graphql(
        app.url,
        'mutation ($t: [String!]) { setWebhookEndpoint(url: "http://127.0.0.1:1/elsewhere", eventTypes: $t) { webhookUrl } }',
        {
          token,
          variables: { t: event_types },
        },
      );
      expect(gql.body.errors?.[0]?.extensions?.code).toBe('INVALID_REQUEST');
    }
    const unchanged = await request(app.url, 'GET', '/v1/merchant', { token });
    expect(unchanged.body.data).toMatchObject({ webhook_url: receiver.url, webhook_event_types: ['payment.failed'] });

    const viaGraphql = await graphql(
      app.url,
      'mutation ($u: String, $t: [String!]) { setWebhookEndpoint(url: $u, eventTypes: $t) { webhookUrl webhookEventTypes } }',
      { token, variables: { u: receiver.url, t: ['transfer.processing', 'collection.processing'] } },
    );
    expect(viaGraphql.body.data.setWebhookEndpoint.webhookEventTypes).toEqual(['collection.processing', 'transfer.processing']);
    const reset = await putEndpoint(token, { url: receiver.url, event_types: null });
    expect(reset.body.data.webhook_event_types).toEqual(DEFAULT_TYPES);
    expect((await graphql(app.url, '{ merchant { webhookEventTypes } }', { token })).body.data.merchant.webhookEventTypes).toEqual(DEFAULT_TYPES);
  });

  it('subscribers hear of a creation and its outcome; `statuses` keeps only those named', async () => {
    const merchant = await app.createMerchant('Subscriber');
    const { accessToken: token } = await app.token(merchant);
    const client = connect(app, token);
    try {
      const every = await subscribeLive(app.url, client, SUBSCRIPTION);
      const finalOnly = await subscribeLive(app.url, client, SUBSCRIPTION, { s: ['SUCCESSFUL', 'FAILED', 'EXPIRED'] });
      const customer = await approvedCustomer(app, token);
      const created = await request(app.url, 'POST', '/v1/crossborder/global-collection', { token, body: momoCollectionBody(customer.customer_uuid) });
      const reference: string = created.body.data.reference;
      const about = (sub: ReturnType<typeof collect>) =>
        sub.received
          .map((m) => m.data?.transactionStatusChanged)
          .filter((t) => t?.reference === reference)
          .map((t) => t.status);
      expect(await eventually(async () => about(every).length === 1)).toBe(true);
      expect((await simulate(token, reference, 'successful')).status).toBe(200);
      expect(await eventually(async () => about(every).length === 2 && about(finalOnly).length === 1)).toBe(true);
      expect(about(every)).toEqual(['PROCESSING', 'SUCCESSFUL']);
      expect(about(finalOnly)).toEqual(['SUCCESSFUL']);
      expect([...every.errors, ...finalOnly.errors]).toEqual([]);
    } finally {
      await client.dispose();
    }
  });

  describe('the test event (POST /v1/webhooks/test-event, sendWebhookTestEvent)', () => {
    it('is refused without an endpoint, in both doors, and records nothing', async () => {
      const merchant = await app.createMerchant('No Endpoint');
      const { accessToken: token } = await app.token(merchant);
      const refused = await request(app.url, 'POST', '/v1/webhooks/test-event', { token });
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ status: 'error', code: 'INVALID_STATE', message: expect.stringContaining('No webhook endpoint') });
      const gql = await graphql(app.url, 'mutation { sendWebhookTestEvent { id } }', { token });
      expect(gql.body.errors?.[0]?.extensions?.code).toBe('INVALID_STATE');
      expect(await dbQuery(app.db.url, 'select id from outbox_event where merchant_id = $1', [merchant.merchant.id])).toEqual([]);
    });

    it('is signed and sent at once, whatever types were chosen, and the answer shows how the endpoint answered', async () => {
      const { merchant, token, receiver } = await merchantWithReceiver('Tester');
      expect((await putEndpoint(token, { url: receiver.url, event_types: ['refund.failed'] })).status).toBe(200);
      const sent = await request(app.url, 'POST', '/v1/webhooks/test-event', { token });
      expect(sent.status).toBe(201);
      expect(sent.body.message).toBe('Test event sent');
      const event = sent.body.data;
      expect(event).toMatchObject({
        id: expect.stringMatching(/^evt_/),
        type: 'webhook.test',
        reference: null,
        customer_uuid: null,
        delivery_status: 'delivered',
        attempt_count: 1,
        data: { test: true, merchant_id: merchant.merchant.id, message: expect.any(String), requested_at: expect.any(String) },
      });
      expect(event.attempts).toEqual([expect.objectContaining({ attempt_number: 1, url: receiver.url, status_code: 204, success: true, error: null })]);
      expect(receiver.received).toHaveLength(1);
      const body = verifyDelivery(merchant.webhookSecret, receiver.received[0]!);
      expect(body).toEqual({ id: event.id, type: 'webhook.test', created_at: event.created_at, data: event.data });

      const gql = await graphql(app.url, 'mutation { sendWebhookTestEvent { id type deliveryStatus attempts { statusCode success } } }', { token });
      expect(gql.body.data.sendWebhookTestEvent).toMatchObject({
        type: 'webhook.test',
        deliveryStatus: 'DELIVERED',
        attempts: [{ statusCode: 204, success: true }],
      });
      expect(receiver.received).toHaveLength(2);
    });

    it('a receiver that refuses it is shown in the answer, and the event is retried as any other', async () => {
      const { token, receiver } = await merchantWithReceiver('Broken Receiver', (_req, n) => (n === 1 ? 500 : 204));
      const sent = await request(app.url, 'POST', '/v1/webhooks/test-event', { token });
      expect(sent.status).toBe(201);
      expect(sent.body.data.attempts).toEqual([expect.objectContaining({ attempt_number: 1, status_code: 500, success: false })]);
      expect(sent.body.data.delivery_status).toBe('pending');
      // FAST_WEBHOOKS: the retry comes 200 ms later, and the receiver now answers 204.
      expect(await eventually(async () => receiver.received.length === 2)).toBe(true);
      const id = sent.body.data.id;
      expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([id, id]);
    });
  });
});

describe('event types on two instances (Redis pub/sub): a choice made on one reaches the other', () => {
  let instances: TwoInstances;

  beforeAll(async () => {
    instances = await startTwoInstances({ REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', SANDBOX_SETTLE_MS: '600000' });
  });
  afterAll(async () => {
    await instances?.close();
  });

  it('B records collection.processing soon after the merchant chose it on A (B had remembered "not chosen")', async () => {
    const { a, b } = instances;
    const merchant = await a.createMerchant('Two Instances');
    const tokenA = (await a.token(merchant)).accessToken;
    const tokenB = (await b.token(merchant)).accessToken;
    const customer = await approvedCustomer(a, tokenA);
    const types = async (reference: string) =>
      (await dbQuery<{ type: string }>(a.db.url, 'select type from outbox_event where subject_id = $1', [reference])).map((r) => r.type);
    const collectOnB = async () =>
      (await request(b.url, 'POST', '/v1/crossborder/global-collection', { token: tokenB, body: momoCollectionBody(customer.customer_uuid) })).body.data
        .reference as string;

    // B learns the merchant's choice (none) and remembers it.
    expect(await types(await collectOnB())).toEqual([]);
    const chosen = await request(a.url, 'PUT', '/v1/webhooks/endpoint', { token: tokenA, body: { url: null, event_types: ['collection.processing'] } });
    expect(chosen.status).toBe(200);
    // Published by A after its commit; B forgets its copy when it hears it (milliseconds), not after its minute of trust.
    let reference = '';
    expect(await eventually(async () => (await types((reference = await collectOnB()))).includes('collection.processing'), { attempts: 40, everyMs: 50 })).toBe(
      true,
    );
    expect(await types(reference)).toEqual(['collection.processing']);
  });
});

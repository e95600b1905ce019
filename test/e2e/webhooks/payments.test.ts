import { runJobsNow } from '../../helpers/jobs';
import type { Client } from 'graphql-ws';
import type { MerchantCredentials } from '../../../src/modules/merchants/merchant.service';
import { graphql } from '../../helpers/http';
import { CARDS, PAYMENT_FIELDS, TEST_CVC, cardPaymentBody, initiatePayment, verifyPayment } from '../../helpers/payments';
import { startReceiver, type Receiver, type ReceivedWebhook } from '../../helpers/receiver';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { authenticate, openPage, submitPage } from '../../helpers/three-ds';
import { newReference } from '../../helpers/transactions';
import { eventually } from '../../helpers/wait';
import { FAST_WEBHOOKS, awaitDelivery, dbQuery, setEndpoint, verifyDelivery } from '../../helpers/webhooks';
import { collect, connect } from '../../helpers/ws';

/**
 * CONTRACT §7/§8: a card payment's final status reaches the merchant once, as a
 * signed Standard Webhooks request (`payment.successful` / `payment.failed`) whose
 * data is the verify endpoint's record, and as a `transactionStatusChanged` event.
 * A payment awaiting 3-D Secure is not final and sends nothing.
 */

const SUBSCRIPTION = `subscription($r: String) { transactionStatusChanged(reference: $r) { ${PAYMENT_FIELDS} } }`;
const VERIFY = `query($r: String!) { verifyPayment(reference: $r) { ${PAYMENT_FIELDS} } }`;

type Subscription = ReturnType<typeof collect>;

/** One app's merchant with a loopback receiver as its endpoint and a socket for subscriptions. */
class Merchant {
  readonly sentinels: string[] = [];
  private readonly clients: Client[] = [];
  token = '';

  private constructor(
    readonly app: TestApp,
    readonly receiver: Receiver,
    readonly credentials: MerchantCredentials,
  ) {}

  static async start(app: TestApp, name: string): Promise<Merchant> {
    const receiver = await startReceiver(() => 200);
    const m = new Merchant(app, receiver, await app.createMerchant(name));
    m.token = (await app.token(m.credentials)).accessToken;
    // The endpoint exists before any payment is made.
    await setEndpoint(app.url, m.token, receiver.url);
    return m;
  }

  async close() {
    await Promise.all(this.clients.map((c) => c.dispose()));
    await this.receiver.close();
  }

  socket(): Client {
    const client = connect(this.app, this.token);
    this.clients.push(client);
    return client;
  }

  /** A payment with the 4242 card, made only to produce an event that must come after everything before it. */
  async sentinel(): Promise<string> {
    const res = await initiatePayment(this.app, this.token, cardPaymentBody({ reference: newReference('sentinel') }));
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('successful');
    this.sentinels.push(res.body.data.reference);
    return res.body.data.reference as string;
  }

  /**
   * An all-transactions subscription, known to be registered: sentinel payments are
   * made until one of them reaches it (each sentinel is otherwise an ordinary payment).
   */
  async subscribeAll(client: Client): Promise<Subscription> {
    const sub = collect(client, SUBSCRIPTION, {});
    const made: string[] = [];
    const live = await eventually(
      async () => {
        if (sub.received.some((e) => made.includes(e.data?.transactionStatusChanged?.reference))) return true;
        made.push(await this.sentinel());
        return false;
      },
      { attempts: 100, everyMs: 50 },
    );
    expect(live).toBe(true);
    expect(sub.errors).toEqual([]);
    return sub;
  }

  /** The requests the receiver got about one payment (by the service's reference in data). */
  webhooksFor(reference: string): ReceivedWebhook[] {
    return this.receiver.received.filter((r) => {
      try {
        return JSON.parse(r.body)?.data?.reference === reference;
      } catch {
        return false;
      }
    });
  }

  async awaitWebhook(reference: string): Promise<ReceivedWebhook> {
    const arrived = await eventually(async () => this.webhooksFor(reference).length > 0, { attempts: 300, everyMs: 50 });
    if (!arrived) throw new Error(`no webhook arrived for ${reference}`);
    return this.webhooksFor(reference)[0]!;
  }

  /**
   * Waits for the payment's webhook and checks it: verifiable with the merchant's
   * secret, the expected type, webhook-id = event id, and data = what verify returns now.
   */
  async expectWebhook(reference: string, type: 'payment.successful' | 'payment.failed', failureReason: string | null) {
    const delivery = await this.awaitWebhook(reference);
    const body = verifyDelivery(this.credentials.webhookSecret, delivery);
    expect(Object.keys(body).sort()).toEqual(['created_at', 'data', 'id', 'type']);
    expect(body.type).toBe(type);
    expect(body.id).toBe(delivery.headers['webhook-id']);
    const verified = await verifyPayment(this.app, this.token, reference);
    expect(verified.status).toBe(200);
    expect(body.data).toEqual(verified.body.data);
    expect(body.data).toMatchObject({
      reference,
      type: 'payment',
      status: type === 'payment.successful' ? 'successful' : 'failed',
      failure_reason: failureReason,
      next_action: null,
      completed_at: expect.any(String),
    });
    // A tampered body does not verify: the check above is a real one.
    expect(() => verifyDelivery(this.credentials.webhookSecret, { ...delivery, body: delivery.body.replace(reference, `${reference}x`) })).toThrow();
    return body;
  }

  /** The GraphQL verifyPayment record, to compare subscription events with. */
  async gqlVerify(reference: string) {
    const res = await graphql(this.app.url, VERIFY, { token: this.token, variables: { r: reference } });
    expect(res.body.errors).toBeUndefined();
    return res.body.data!.verifyPayment;
  }

  async transactionId(reference: string): Promise<string> {
    const [row] = await dbQuery<{ id: string }>(this.app.db.url, 'select id from "transaction" where reference = $1', [reference]);
    return row!.id;
  }

  async outboxTypes(reference: string): Promise<string[]> {
    return (await dbQuery<{ type: string }>(this.app.db.url, 'select type from outbox_event where subject_id = $1 order by created_at, id', [reference])).map(
      (r) => r.type,
    );
  }
}

const eventsFor = (sub: Subscription, reference: string) =>
  sub.received.filter((e) => e.data?.transactionStatusChanged?.reference === reference).map((e) => e.data.transactionStatusChanged);

/** The service references of the payments made by threeDsPayment: each awaited authentication first. */
const awaitedAuthentication = new Set<string>();

/**
 * What subscribers must have heard of a payment, given its final record (issue 24: every change): the
 * REQUIRES_ACTION record of a 3-D Secure payment, as the initiation answered it, then the final one.
 */
const changesOf = (record: { reference: string }) =>
  awaitedAuthentication.has(record.reference)
    ? [
        expect.objectContaining({ reference: record.reference, status: 'REQUIRES_ACTION', nextAction: expect.objectContaining({ type: 'REDIRECT_TO_URL' }) }),
        record,
      ]
    : [record];

/** A 3-D Secure payment (4000 0025 0000 3155), left awaiting authentication. */
async function threeDsPayment(m: Merchant, overrides: Record<string, unknown> = {}) {
  const res = await initiatePayment(m.app, m.token, cardPaymentBody({ card: { number: CARDS.threeDs, cvc: TEST_CVC }, ...overrides }));
  expect(res.status).toBe(200);
  expect(res.body.data).toMatchObject({ status: 'requires_action', next_action: { type: 'redirect_to_url', url: expect.any(String) } });
  awaitedAuthentication.add(res.body.data.reference);
  return res.body.data as { reference: string; external_reference: string; next_action: { url: string } };
}

describe('payment webhooks and subscriptions (sandbox, PAYMENT_ACTION_TTL_S default)', () => {
  let app: TestApp;
  let m: Merchant;
  let all: Subscription;
  /** Subscriptions by the merchant's reference, opened before each payment existed. */
  const byReference = new Map<string, Subscription>();
  /** Each payment's service reference → what its one webhook and event must say. */
  const expected = new Map<string, { status: 'SUCCESSFUL' | 'FAILED'; failureReason: string | null; external: string }>();
  const external = {
    success: newReference('wh-4242'),
    declined: newReference('wh-9995'),
    completed: newReference('wh-3ds-ok'),
    failedOnPage: newReference('wh-3ds-fail'),
    lateByClock: newReference('wh-3ds-late'),
  };
  /** The 3-D Secure payments' pages, kept to submit again after the decision. */
  const pages = new Map<string, { url: string; cookie: string | null; csrf: string | null }>();

  beforeAll(async () => {
    app = await createTestApp({ env: { ...FAST_WEBHOOKS, WEBHOOK_TIMEOUT_MS: '5000' } });
    m = await Merchant.start(app, 'Card Webhooks Merchant');
    const client = m.socket();
    all = await m.subscribeAll(client);
    for (const ref of Object.values(external)) byReference.set(ref, collect(client, SUBSCRIPTION, { r: ref }));
    // Subscribed after the by-reference ones on the same socket, and seen live: they are registered too.
    await m.subscribeAll(client);
  });
  afterAll(async () => {
    await m?.close();
    await app?.close();
  });

  it('4242: one payment.successful, verifiable, data = verify', async () => {
    const res = await initiatePayment(app, m.token, cardPaymentBody({ reference: external.success }));
    expect(res.body.data.status).toBe('successful');
    expected.set(res.body.data.reference, { status: 'SUCCESSFUL', failureReason: null, external: external.success });
    const body = await m.expectWebhook(res.body.data.reference, 'payment.successful', null);
    expect(body.data).toEqual(res.body.data);
    expect(body.data.card).toEqual({ brand: 'visa', last4: '4242', fingerprint: expect.stringMatching(/^fp_/) });
  });

  it('4000 0000 0000 9995: one payment.failed (insufficient_funds)', async () => {
    const res = await initiatePayment(app, m.token, cardPaymentBody({ reference: external.declined, card: { number: CARDS.insufficientFunds } }));
    expect(res.body.data).toMatchObject({ status: 'failed', failure_reason: 'insufficient_funds' });
    expected.set(res.body.data.reference, { status: 'FAILED', failureReason: 'insufficient_funds', external: external.declined });
    await m.expectWebhook(res.body.data.reference, 'payment.failed', 'insufficient_funds');
  });

  it('3-D Secure completed: no webhook while it awaits authentication (subscribers hear of it), then one payment.successful', async () => {
    const returnUrl = `${m.receiver.url.replace(/\/hooks$/, '')}/return?order=1001`;
    const payment = await threeDsPayment(m, { reference: external.completed, redirect_url: returnUrl });
    expected.set(payment.reference, { status: 'SUCCESSFUL', failureReason: null, external: external.completed });

    // A later payment's webhook and event arrive; the waiting payment has no webhook and no outbox event (this merchant
    // kept the default event types, without payment.requires_action), while subscribers heard it awaits authentication.
    const later = await m.sentinel();
    await m.awaitWebhook(later);
    expect(await eventually(async () => eventsFor(all, later).length === 1)).toBe(true);
    expect(m.webhooksFor(payment.reference)).toEqual([]);
    const awaiting = [expect.objectContaining({ reference: payment.reference, status: 'REQUIRES_ACTION', completedAt: null })];
    expect(eventsFor(all, payment.reference)).toEqual(awaiting);
    expect(byReference.get(external.completed)!.received.map((e) => e.data?.transactionStatusChanged)).toEqual(awaiting);
    expect(await m.outboxTypes(payment.reference)).toEqual([]);

    const page = await openPage(payment.next_action.url);
    expect(page.status).toBe(200);
    pages.set(payment.reference, { url: payment.next_action.url, ...page });
    const submitted = await submitPage(payment.next_action.url, page, 'complete');
    expect(submitted.status).toBe(303);
    const location = new URL(submitted.location!);
    expect(`${location.origin}${location.pathname}`).toBe(returnUrl.split('?')[0]);
    expect(Object.fromEntries(location.searchParams)).toEqual({
      order: '1001',
      reference: payment.reference,
      external_reference: external.completed,
      status: 'successful',
    });
    await m.expectWebhook(payment.reference, 'payment.successful', null);
  });

  it('3-D Secure failed on the page: one payment.failed (authentication_failed)', async () => {
    const payment = await threeDsPayment(m, { reference: external.failedOnPage });
    expected.set(payment.reference, { status: 'FAILED', failureReason: 'authentication_failed', external: external.failedOnPage });
    const page = await openPage(payment.next_action.url);
    pages.set(payment.reference, { url: payment.next_action.url, ...page });
    const submitted = await submitPage(payment.next_action.url, page, 'fail');
    expect(submitted).toMatchObject({ status: 200, location: null });
    expect(submitted.html).toContain('Payment failed');
    await m.expectWebhook(payment.reference, 'payment.failed', 'authentication_failed');
  });

  it('the authenticate() helper drives the same flow (GET, cookie + csrf, POST without following the redirect)', async () => {
    const payment = await threeDsPayment(m, { redirect_url: 'https://shop.example/return' });
    expected.set(payment.reference, { status: 'SUCCESSFUL', failureReason: null, external: payment.external_reference });
    const answer = await authenticate(payment.next_action.url, 'complete');
    expect(answer.status).toBe(303);
    expect(new URL(answer.location!).searchParams.get('status')).toBe('successful');
    await m.expectWebhook(payment.reference, 'payment.successful', null);
    // The page is spent: no form any more.
    await expect(authenticate(payment.next_action.url, 'fail')).rejects.toThrow(/showed no form \(HTTP 409/);
  });

  it('3-D Secure submitted after the deadline (service clock): one payment.failed (authentication_expired)', async () => {
    const payment = await threeDsPayment(m, { reference: external.lateByClock });
    expected.set(payment.reference, { status: 'FAILED', failureReason: 'authentication_expired', external: external.lateByClock });
    const page = await openPage(payment.next_action.url);
    expect(page.status).toBe(200);
    pages.set(payment.reference, { url: payment.next_action.url, ...page });
    app.clock.advance(900_000); // exactly the deadline (PAYMENT_ACTION_TTL_S=900): too late
    const submitted = await submitPage(payment.next_action.url, page, 'complete');
    expect(submitted.status).toBe(410);
    expect(submitted.html).toContain('Authentication expired');
    m.token = (await app.token(m.credentials)).accessToken;
    await m.expectWebhook(payment.reference, 'payment.failed', 'authentication_expired');
  });

  it('exactly one webhook and one event per payment: later submissions and expiry jobs add nothing', async () => {
    m.token = (await app.token(m.credentials)).accessToken;
    // Every decided page submitted again, with its still-signed cookie and field: refused, nothing changes.
    for (const [reference, page] of pages) {
      const again = await submitPage(page.url, page, 'fail');
      expect(again.status).toBe(409);
      expect(again.location).toBeNull();
      expect((await verifyPayment(app, m.token, reference)).body.data.status).toBe(expected.get(reference)!.status.toLowerCase());
    }
    // The expiry jobs of the decided 3-D Secure payments are made due now, past their deadline; they run and change nothing.
    app.clock.advance(900_000);
    for (const reference of pages.keys()) {
      expect(await runJobsNow(app.db.url, 'expire-payment-action', await m.transactionId(reference))).toEqual([]);
    }

    // A sentinel made after all of that: once its webhook and event are here, anything earlier would be too.
    const last = await m.sentinel();
    await m.awaitWebhook(last);
    expect(await eventually(async () => eventsFor(all, last).length === 1)).toBe(true);

    for (const [reference, want] of expected) {
      // One event; a request repeated by a delivery retry (at least once) is the same event, byte for byte.
      const deliveries = m.webhooksFor(reference);
      const eventIds = [...new Set(deliveries.map((d) => d.headers['webhook-id']))];
      expect({ reference, events: eventIds.length }).toEqual({ reference, events: 1 });
      expect(new Set(deliveries.map((d) => d.body)).size).toBe(1);
      const eventId = eventIds[0] as string;
      const event = await awaitDelivery(app, m.token, eventId);
      expect(event).toMatchObject({ delivery_status: 'delivered', type: want.status === 'SUCCESSFUL' ? 'payment.successful' : 'payment.failed' });
      expect(await m.outboxTypes(reference)).toEqual([event.type]);

      // The subscriptions: one event with the final status, equal to verifyPayment over GraphQL (after REQUIRES_ACTION for 3-D Secure).
      const record = await m.gqlVerify(reference);
      expect(record).toMatchObject({ reference, status: want.status, failureReason: want.failureReason, nextAction: null });
      expect(eventsFor(all, reference)).toEqual(changesOf(record));
      if (byReference.has(want.external))
        expect(byReference.get(want.external)!.received.map((e) => e.data?.transactionStatusChanged)).toEqual(changesOf(record));
    }
    for (const sub of [all, ...byReference.values()]) expect(sub.errors).toEqual([]);
    // Nothing else was sent: every request was about a payment made here.
    const known = new Set([...expected.keys(), ...m.sentinels]);
    expect(m.receiver.received.filter((r) => !known.has(JSON.parse(r.body).data?.reference))).toEqual([]);
    expect(new Set(m.receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(known.size);
  });
});

describe('payment webhooks: 3-D Secure not completed in time (the expiry job, at the deadline by the service clock)', () => {
  let app: TestApp;
  let m: Merchant;

  beforeAll(async () => {
    app = await createTestApp({ env: { ...FAST_WEBHOOKS, WEBHOOK_TIMEOUT_MS: '5000' } });
    m = await Merchant.start(app, 'Slow Cardholder Merchant');
  });
  afterAll(async () => {
    await m?.close();
    await app?.close();
  });

  it('the job fails it: one payment.failed (authentication_expired), the same final status on both subscriptions, and the page is spent', async () => {
    const client = m.socket();
    const all = await m.subscribeAll(client);
    const externalReference = newReference('wh-3ds-expired');
    const byRef = collect(client, SUBSCRIPTION, { r: externalReference });
    await m.subscribeAll(client);

    const payment = await threeDsPayment(m, { reference: externalReference });
    app.clock.advance(900_000); // PAYMENT_ACTION_TTL_S (900 s by default) has passed by the service's clock
    expect(await runJobsNow(app.db.url, 'expire-payment-action', await m.transactionId(payment.reference))).toEqual([]);
    const body = await m.expectWebhook(payment.reference, 'payment.failed', 'authentication_expired');
    expect(body.data.external_reference).toBe(externalReference);

    const record = await m.gqlVerify(payment.reference);
    expect(record).toMatchObject({ status: 'FAILED', failureReason: 'authentication_expired', nextAction: null });
    expect(await eventually(async () => eventsFor(all, payment.reference).length > 0)).toBe(true);

    // The page no longer offers a form; the payment stays failed.
    const page = await openPage(payment.next_action.url);
    expect(page.status).toBe(409);
    expect(page.csrf).toBeNull();

    const last = await m.sentinel();
    await m.awaitWebhook(last);
    expect(await eventually(async () => eventsFor(all, last).length === 1)).toBe(true);
    expect(new Set(m.webhooksFor(payment.reference).map((d) => d.headers['webhook-id'])).size).toBe(1);
    expect(await m.outboxTypes(payment.reference)).toEqual(['payment.failed']);
    expect(eventsFor(all, payment.reference)).toEqual(changesOf(record));
    expect(byRef.received.map((e) => e.data?.transactionStatusChanged)).toEqual(changesOf(record));
    expect([...all.errors, ...byRef.errors]).toEqual([]);
  });
});

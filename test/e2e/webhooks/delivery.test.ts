import type { MerchantCredentials } from '../../../src/modules/merchants/merchant.service';
import { approvedCustomer, enroll, kycBody, awaitKycDecision } from '../../helpers/factories';
import { graphql, request } from '../../helpers/http';
import { startReceiver, type Receiver, type ReceiverAnswer, type ReceivedWebhook } from '../../helpers/receiver';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { eventually } from '../../helpers/wait';
import { FAST_WEBHOOKS, awaitDelivery, dbQuery, getEvent, kycApprovedEvent, setEndpoint, verifyDelivery } from '../../helpers/webhooks';
import { momoCollectionBody } from '../../helpers/transactions';

/** CONTRACT §8: Standard Webhooks deliveries, retries, the final failed state, the event log and resend. */
describe('webhook delivery', () => {
  let app: TestApp;
  const receivers: Receiver[] = [];

  beforeAll(async () => {
    app = await createTestApp({ env: { ...FAST_WEBHOOKS, SANDBOX_SETTLE_MS: '100' } });
  });
  afterAll(async () => {
    for (const r of receivers) await r.close();
    await app.close();
  });

  /** A merchant with its own receiver registered as its endpoint. */
  async function merchantWithReceiver(name: string, respond: (req: ReceivedWebhook, n: number) => ReceiverAnswer = () => 200) {
    const receiver = await startReceiver(respond);
    receivers.push(receiver);
    const merchant = await app.createMerchant(name);
    const { accessToken: token } = await app.token(merchant);
    await setEndpoint(app.url, token, receiver.url);
    return { merchant, token, receiver };
  }

  const requestsFor = (receiver: Receiver, eventId: string) => receiver.received.filter((r) => r.headers['webhook-id'] === eventId);

  it('sends a Standard Webhooks request: {id, type, created_at, data} with data as REST shows it, webhook-id = event id, verifiable', async () => {
    const { merchant, token, receiver } = await merchantWithReceiver('Verifying Merchant');
    const { customerUuid, eventId } = await kycApprovedEvent(app, token);
    const event = await awaitDelivery(app, token, eventId);
    expect(event).toMatchObject({ id: eventId, type: 'customer.kyc.approved', delivery_status: 'delivered', attempt_count: 1 });

    const [delivery] = requestsFor(receiver, eventId);
    expect(delivery).toBeDefined();
    expect(delivery!.path).toBe('/hooks');
    expect(delivery!.headers['content-type']).toBe('application/json');
    expect(delivery!.headers['webhook-timestamp']).toMatch(/^\d{10}$/);
    const body = verifyDelivery(merchant.webhookSecret, delivery!);
    expect(Object.keys(body).sort()).toEqual(['created_at', 'data', 'id', 'type']);
    expect(body).toMatchObject({ id: eventId, type: 'customer.kyc.approved', created_at: event.created_at });
    const kyc = await request(app.url, 'GET', `/v1/customer/${customerUuid}/kyc`, { token });
    expect(body.data).toEqual(kyc.body.data);
    expect(event.data).toEqual(kyc.body.data);

    // A transaction's event carries the status endpoint's record.
    const customer = await approvedCustomer(app, token);
    const created = await request(app.url, 'POST', '/v1/crossborder/global-collection', { token, body: momoCollectionBody(customer.customer_uuid) });
    expect(created.status).toBe(200);
    const reference: string = created.body.data.reference;
    const [row] = await waitForEventRow(app, reference);
    const collectionEvent = await awaitDelivery(app, token, row!.id);
    expect(collectionEvent.type).toBe('collection.successful');
    const status = await request(app.url, 'GET', `/v1/crossborder/global-transfer/${reference}`, { token });
    expect(status.body.data.status).toBe('successful');
    const [collectionDelivery] = requestsFor(receiver, row!.id);
    const collectionBody = verifyDelivery(merchant.webhookSecret, collectionDelivery!);
    expect(collectionBody).toMatchObject({ id: row!.id, type: 'collection.successful' });
    expect(collectionBody.data).toEqual(status.body.data);
  });

  it('retries after a 500, then succeeds; both requests are the same signed message', async () => {
    const { merchant, token, receiver } = await merchantWithReceiver('Flaky 500', (_r, n) => (n === 1 ? 500 : 200));
    const { eventId } = await kycApprovedEvent(app, token);
    const event = await awaitDelivery(app, token, eventId);
    expect(event.delivery_status).toBe('delivered');
    expect(event.attempts).toEqual([
      expect.objectContaining({ attempt_number: 1, status_code: 500, success: false, error: 'HTTP 500', url: receiver.url }),
      expect.objectContaining({ attempt_number: 2, status_code: 200, success: true, error: null, url: receiver.url }),
    ]);
    const requests = requestsFor(receiver, eventId);
    expect(requests).toHaveLength(2);
    expect(requests[1]!.body).toBe(requests[0]!.body);
    for (const r of requests) expect(verifyDelivery(merchant.webhookSecret, r).id).toBe(eventId);
  });

  it('retries after a timeout (the receiver does not answer), then succeeds', async () => {
    const { token, receiver } = await merchantWithReceiver('Slow Receiver', (_r, n) => (n === 1 ? 'hang' : 200));
    const { eventId } = await kycApprovedEvent(app, token);
    const event = await awaitDelivery(app, token, eventId);
    expect(event.delivery_status).toBe('delivered');
    expect(event.attempts).toHaveLength(2);
    expect(event.attempts[0]).toMatchObject({ attempt_number: 1, status_code: null, success: false, error: expect.stringMatching(/timed out after 500 ms/) });
    expect(event.attempts[1]).toMatchObject({ attempt_number: 2, status_code: 200, success: true, error: null });
    expect(requestsFor(receiver, eventId)).toHaveLength(2);
  });

  it('counts a 3xx (never followed) and a 4xx as failures', async () => {
    let base = '';
    const { token, receiver } = await merchantWithReceiver('Redirecting Receiver', (_r, n) =>
      n === 1 ? { status: 302, headers: { location: `${base}/redirected` } } : n === 2 ? 400 : 200,
    );
    base = receiver.url.replace(/\/hooks$/, '');
    const { eventId } = await kycApprovedEvent(app, token);
    const event = await awaitDelivery(app, token, eventId);
    expect(event.delivery_status).toBe('delivered');
    expect(event.attempts.map((a: any) => [a.attempt_number, a.status_code, a.success, a.error])).toEqual([
      [1, 302, false, 'HTTP 302'],
      [2, 400, false, 'HTTP 400'],
      [3, 200, true, null],
    ]);
    expect(receiver.received.map((r) => r.path)).toEqual(['/hooks', '/hooks', '/hooks']);
  });

  it('fails for good once the schedule is spent, with every attempt recorded', async () => {
    const { token, receiver } = await merchantWithReceiver('Broken Receiver', (_r, n) => (n === 2 ? 'hang' : n === 3 ? 404 : 503));
    const { eventId } = await kycApprovedEvent(app, token);
    const event = await awaitDelivery(app, token, eventId);
    expect(event).toMatchObject({ delivery_status: 'failed', attempt_count: 4, next_attempt_at: null, delivered_at: null });
    expect(event.attempts).toHaveLength(4); // the first attempt, then one per step of '200ms,200ms,200ms'
    expect(event.attempts.map((a: any) => [a.attempt_number, a.status_code, a.success])).toEqual([
      [1, 503, false],
      [2, null, false],
      [3, 404, false],
      [4, 503, false],
    ]);
    expect(event.attempts.map((a: any) => a.error)).toEqual(['HTTP 503', expect.stringMatching(/timed out/), 'HTTP 404', 'HTTP 503']);
    for (const attempt of event.attempts) {
      expect(attempt.url).toBe(receiver.url);
      expect(Number.isInteger(attempt.latency_ms) && attempt.latency_ms >= 0).toBe(true);
      expect(new Date(attempt.attempted_at).toISOString()).toBe(attempt.attempted_at);
    }
    expect(requestsFor(receiver, eventId)).toHaveLength(4);
    const rows = await dbQuery(app.db.url, 'select attempt_number, status_code, success from webhook_attempt where event_id = $1 order by id', [eventId]);
    expect(rows.map((r) => r.attempt_number)).toEqual([1, 2, 3, 4]);
  });

  it('an event recorded while there is no endpoint is logged but never attempted; a resend delivers it once there is one', async () => {
    const merchant = await app.createMerchant('No Endpoint Yet');
    const { accessToken: token } = await app.token(merchant);
    const { eventId } = await kycApprovedEvent(app, token);
    const logged = (await getEvent(app, token, eventId)).body.data;
    expect(logged).toMatchObject({ id: eventId, type: 'customer.kyc.approved', delivery_status: null, attempt_count: 0, attempts: [] });
    // No delivery and no attempt: nothing is tried on a schedule for an endpoint that does not exist (the delivery row
    // is the queue: without one, a pick has nothing to find).
    expect(await dbQuery(app.db.url, 'select 1 from webhook_delivery where event_id = $1', [eventId])).toHaveLength(0);
    expect(await dbQuery(app.db.url, 'select 1 from webhook_attempt where event_id = $1', [eventId])).toHaveLength(0);

    const refused = await request(app.url, 'POST', `/v1/webhooks/events/${eventId}/resend`, { token });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('INVALID_STATE');

    const receiver = await startReceiver(() => 200);
    receivers.push(receiver);
    await setEndpoint(app.url, token, receiver.url);
    const resent = await request(app.url, 'POST', `/v1/webhooks/events/${eventId}/resend`, { token });
    expect(resent.status).toBe(200);
    const delivered = await awaitDelivery(app, token, eventId, (e) => e.delivery_status === 'delivered');
    expect(delivered.attempts).toHaveLength(1);
    expect(delivered.attempts[0]).toMatchObject({ attempt_number: 1, status_code: 200, success: true, url: receiver.url });
    expect(verifyDelivery(merchant.webhookSecret, requestsFor(receiver, eventId)[0]!).id).toBe(eventId);
  });

  it('two resends at once of a never-attempted event: both answer 200, and the attempt is sent once', async () => {
    const merchant = await app.createMerchant('Concurrent Resends');
    const { accessToken: token } = await app.token(merchant);
    const { eventId } = await kycApprovedEvent(app, token);
    const receiver = await startReceiver(() => 200);
    receivers.push(receiver);
    await setEndpoint(app.url, token, receiver.url);
    const answers = await Promise.all([1, 2].map(() => request(app.url, 'POST', `/v1/webhooks/events/${eventId}/resend`, { token })));
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    const delivered = await awaitDelivery(app, token, eventId, (e) => e.delivery_status === 'delivered');
    expect(delivered.attempts).toHaveLength(1);
    // Both resends made the same delivery due (no job each): one claim sent attempt 1, and its finish fenced off another.
    expect(delivered.attempt_count).toBe(1);
    expect(requestsFor(receiver, eventId)).toHaveLength(1);
  });

  describe('event log and resend', () => {
    let owner: { merchant: MerchantCredentials; token: string; receiver: Receiver };
    let other: { merchant: MerchantCredentials; token: string; receiver: Receiver };
    /** The owner's event ids, newest first. */
    let newestFirst: string[];
    let approvedIds: string[];
    let rejectedIds: string[];

    beforeAll(async () => {
      owner = await merchantWithReceiver('Event Log Owner');
      other = await merchantWithReceiver('Event Log Other');
      approvedIds = [];
      rejectedIds = [];
      // Three approvals and two rejections, a second apart, so the newest-first order is known.
      for (const outcome of ['approved', 'rejected', 'approved', 'rejected', 'approved'] as const) {
        app.clock.advance(1000);
        const customer = await enroll(app, owner.token);
        const submitted = await request(app.url, 'POST', `/v1/customer/${customer.customer_uuid}/kyc`, {
          token: owner.token,
          body: kycBody(outcome === 'rejected' ? { id_number: 'REJECT-1234' } : {}),
        });
        expect(submitted.status).toBe(200);
        await awaitKycDecision(app, owner.token, customer.customer_uuid);
        const [row] = await dbQuery<{ id: string }>(app.db.url, 'select id from outbox_event where subject_id = $1', [customer.customer_uuid]);
        (outcome === 'approved' ? approvedIds : rejectedIds).push(row!.id);
      }
      newestFirst = (
        await dbQuery<{ id: string }>(app.db.url, 'select id from outbox_event where merchant_id = $1 order by created_at desc, id desc', [
          owner.merchant.merchant.id,
        ])
      ).map((r) => r.id);
      expect(newestFirst).toHaveLength(5);
      for (const id of newestFirst) await awaitDelivery(app, owner.token, id);
    });

    const list = (token: string, query: string) => request(app.url, 'GET', `/v1/webhooks/events${query}`, { token });

    it('GET /v1/webhooks/events pages newest first with cursors, and filters by type', async () => {
      const seen: string[] = [];
      let after: string | null = null;
      let pages = 0;
      do {
        const page: any = await list(owner.token, `?limit=2${after ? `&after=${after}` : ''}`);
        expect(page.status).toBe(200);
        pages += 1;
        expect(page.body.meta.count).toBe(page.body.data.length);
        for (const summary of page.body.data) {
          expect(Object.keys(summary).sort()).toEqual([
            'attempt_count',
            'created_at',
            'customer_uuid',
            'delivered_at',
            'delivery_status',
            'id',
            'next_attempt_at',
            'reference',
            'type',
          ]);
          expect(summary).toMatchObject({ delivery_status: 'delivered', attempt_count: 1, next_attempt_at: null });
          seen.push(summary.id);
        }
        after = page.body.meta.has_more ? page.body.meta.next_cursor : null;
        if (!page.body.meta.has_more) expect(page.body.meta.next_cursor).toBeNull();
      } while (after);
      expect(pages).toBe(3);
      expect(seen).toEqual(newestFirst);

      const rejected = await list(owner.token, '?type=customer.kyc.rejected');
      expect(rejected.body.data.map((e: any) => e.id)).toEqual([...rejectedIds].reverse());
      expect(rejected.body.data.every((e: any) => e.type === 'customer.kyc.rejected')).toBe(true);
      const approved = await list(owner.token, '?type=customer.kyc.approved&limit=2');
      expect(approved.body.data.map((e: any) => e.id)).toEqual([...approvedIds].reverse().slice(0, 2));
      expect(approved.body.meta.has_more).toBe(true);
      expect((await list(owner.token, '?type=payment.failed')).body.data).toEqual([]);
    });

    it('refuses a bad type, limit or cursor with details on that parameter', async () => {
      for (const [query, field] of [
        ['?type=customer.kyc.maybe', 'type'],
        ['?limit=0', 'limit'],
        ['?limit=101', 'limit'],
        ['?after=not-a-cursor', 'after'],
      ] as const) {
        const res = await list(owner.token, query);
        expect(res.status).toBe(400);
        expect(res.body.code).toBe('INVALID_REQUEST');
        expect(res.body.details.map((d: any) => d.field)).toContain(field);
      }
    });

    it('GET /v1/webhooks/events/{id} shows the payload and every attempt; another merchant’s event is 404', async () => {
      const id = newestFirst[0]!;
      const res = await getEvent(app, owner.token, id);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ id, type: 'customer.kyc.approved', delivery_status: 'delivered', attempt_count: 1 });
      expect(res.body.data.data).toMatchObject({ kyc_status: 'approved' });
      expect(res.body.data.attempts).toEqual([
        {
          attempt_number: 1,
          attempted_at: expect.any(String),
          url: owner.receiver.url,
          status_code: 200,
          latency_ms: expect.any(Number),
          success: true,
          error: null,
        },
      ]);

      for (const path of [`/v1/webhooks/events/${id}`, `/v1/webhooks/events/evt_doesnotexist`]) {
        const notFound = await request(app.url, 'GET', path, { token: other.token });
        expect(notFound.status).toBe(404);
        expect(notFound.body.code).toBe('NOT_FOUND');
      }
      const resendOther = await request(app.url, 'POST', `/v1/webhooks/events/${id}/resend`, { token: other.token });
      expect(resendOther.status).toBe(404);
      expect((await list(other.token, '')).body.data).toEqual([]);
    });

    it('POST /v1/webhooks/events/{id}/resend sends it again with the same webhook-id', async () => {
      const id = newestFirst[1]!;
      expect(requestsFor(owner.receiver, id)).toHaveLength(1);
      const resent = await request(app.url, 'POST', `/v1/webhooks/events/${id}/resend`, { token: owner.token });
      expect(resent.status).toBe(200);
      expect(resent.body.data).toMatchObject({ id, delivery_status: expect.stringMatching(/^(pending|delivered)$/) });
      // The state after the resend was queued: pending with its attempt due, or (if that attempt ran already) delivered
      // twice; never the state before it (delivered once), which the request's own cache held.
      const answered = resent.body.data;
      expect(answered.delivery_status === 'pending' ? answered.next_attempt_at !== null : answered.attempt_count === 2).toBe(true);
      const event = await awaitDelivery(app, owner.token, id, (e) => e.delivery_status === 'delivered' && e.attempt_count === 2);
      expect(event.attempts.map((a: any) => [a.attempt_number, a.status_code, a.success])).toEqual([
        [1, 200, true],
        [2, 200, true],
      ]);
      const requests = requestsFor(owner.receiver, id);
      expect(requests).toHaveLength(2);
      expect(requests[1]!.body).toBe(requests[0]!.body);
      for (const r of requests) expect(verifyDelivery(owner.merchant.webhookSecret, r).id).toBe(id);
    });

    describe('GraphQL parity', () => {
      const EVENTS = `query ($first: Int, $after: String, $type: String) {
        webhookEvents(first: $first, after: $after, type: $type) {
          edges { cursor node { id type createdAt deliveryStatus attemptCount deliveredAt nextAttemptAt } }
          pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
        }
      }`;
      const EVENT = `query ($id: String!) {
        webhookEvent(id: $id) {
          id type createdAt data deliveryStatus attemptCount nextAttemptAt deliveredAt
          attempts { attemptNumber attemptedAt url statusCode latencyMs success error }
        }
      }`;
      const RESEND = `mutation ($id: String!) { resendWebhookEvent(id: $id) { id deliveryStatus attemptCount nextAttemptAt attempts { attemptNumber } } }`;

      it('each event names what it is about, in both doors: its transaction’s reference, or its customer', async () => {
        const listed = (await request(app.url, 'GET', '/v1/webhooks/events?limit=100', { token: owner.token })).body.data as any[];
        expect(listed.length).toBeGreaterThan(0);
        const gql = await graphql(
          app.url,
          `
            {
              webhookEvents(first: 100) {
                edges {
                  node {
                    id
                    reference
                    customerUuid
                  }
                }
              }
            }
          `,
          { token: owner.token },
        );
        const byId = new Map(gql.body.data.webhookEvents.edges.map((e: any) => [e.node.id, e.node]));
        for (const summary of listed) {
          const { data } = (await request(app.url, 'GET', `/v1/webhooks/events/${summary.id}`, { token: owner.token })).body.data;
          const expected = summary.type.startsWith('customer.kyc.')
            ? { reference: null, customer_uuid: data.customer_uuid }
            : { reference: data.reference, customer_uuid: null };
          expect({ type: summary.type, reference: summary.reference, customer_uuid: summary.customer_uuid }).toEqual({ type: summary.type, ...expected });
          expect(byId.get(summary.id)).toEqual({ id: summary.id, reference: expected.reference, customerUuid: expected.customer_uuid });
        }
      });

      it('webhookEvents pages like REST (Relay) and filters by type; its nodes resolve their attempts', async () => {
        const seen: string[] = [];
        let after: string | null = null;
        for (;;) {
          const res: any = await graphql(app.url, EVENTS, { token: owner.token, variables: { first: 2, after } });
          expect(res.body.errors).toBeUndefined();
          const connection = res.body.data.webhookEvents;
          expect(connection.pageInfo.hasPreviousPage).toBe(false);
          for (const edge of connection.edges) {
            expect(edge.node).toMatchObject({ deliveryStatus: 'DELIVERED', nextAttemptAt: null });
            seen.push(edge.node.id);
          }
          if (!connection.pageInfo.hasNextPage) break;
          after = connection.pageInfo.endCursor;
        }
        expect(seen).toEqual(newestFirst);

        const rejected = await graphql(app.url, EVENTS, { token: owner.token, variables: { type: 'customer.kyc.rejected' } });
        expect(rejected.body.data.webhookEvents.edges.map((e: any) => e.node.id)).toEqual([...rejectedIds].reverse());

        const withAttempts = await graphql(
          app.url,
          `
            {
              webhookEvents(first: 5) {
                edges {
                  node {
                    id
                    attempts {
                      attemptNumber
                      success
                    }
                  }
                }
              }
            }
          `,
          {
            token: owner.token,
          },
        );
        for (const edge of withAttempts.body.data.webhookEvents.edges) expect(edge.node.attempts.length).toBeGreaterThanOrEqual(1);

        const badType = await graphql(app.url, EVENTS, { token: owner.token, variables: { type: 'nope' } });
        expect(badType.body.errors?.[0]?.extensions).toMatchObject({ code: 'INVALID_REQUEST', details: [{ field: 'type', issue: expect.any(String) }] });
        const badFirst = await graphql(app.url, EVENTS, { token: owner.token, variables: { first: 0 } });
        expect(badFirst.body.errors?.[0]?.extensions).toMatchObject({ code: 'INVALID_REQUEST', details: [{ field: 'first', issue: expect.any(String) }] });
      });

      it('webhookEvent is the REST event, in camelCase, with data as a JSON object', async () => {
        const id = newestFirst[2]!;
        const rest = (await getEvent(app, owner.token, id)).body.data;
        const res = await graphql(app.url, EVENT, { token: owner.token, variables: { id } });
        expect(res.body.errors).toBeUndefined();
        expect(res.body.data.webhookEvent).toEqual({
          id,
          type: rest.type,
          createdAt: rest.created_at,
          data: rest.data,
          deliveryStatus: rest.delivery_status.toUpperCase(),
          attemptCount: rest.attempt_count,
          nextAttemptAt: rest.next_attempt_at,
          deliveredAt: rest.delivered_at,
          attempts: rest.attempts.map((a: any) => ({
            attemptNumber: a.attempt_number,
            attemptedAt: a.attempted_at,
            url: a.url,
            statusCode: a.status_code,
            latencyMs: a.latency_ms,
            success: a.success,
            error: a.error,
          })),
        });

        const foreign = await graphql(app.url, EVENT, { token: other.token, variables: { id } });
        expect(foreign.body.data).toBeNull();
        expect(foreign.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
      });

      it('resendWebhookEvent sends it again with the same webhook-id', async () => {
        const id = newestFirst[3]!;
        const before = requestsFor(owner.receiver, id).length;
        const res = await graphql(app.url, RESEND, { token: owner.token, variables: { id } });
        expect(res.body.errors).toBeUndefined();
        expect(res.body.data.resendWebhookEvent).toMatchObject({ id, deliveryStatus: expect.stringMatching(/^(PENDING|DELIVERED)$/) });
        // As on REST: the state after the resend was queued, never the one before it.
        const answered = res.body.data.resendWebhookEvent;
        expect(answered.deliveryStatus === 'PENDING' ? answered.nextAttemptAt !== null : answered.attemptCount === 2).toBe(true);
        await awaitDelivery(app, owner.token, id, (e) => e.delivery_status === 'delivered' && e.attempt_count === 2);
        const requests = requestsFor(owner.receiver, id);
        expect(requests).toHaveLength(before + 1);
        expect(verifyDelivery(owner.merchant.webhookSecret, requests.at(-1)!).id).toBe(id);

        const foreign = await graphql(app.url, RESEND, { token: other.token, variables: { id } });
        expect(foreign.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
      });
    });
  });
});

/** Waits for the outbox event of a transaction (subject = the service's reference). */
async function waitForEventRow(app: TestApp, reference: string) {
  let rows: Array<{ id: string }> = [];
  const found = await eventually(
    async () => {
      rows = await dbQuery(app.db.url, 'select id from outbox_event where subject_id = $1', [reference]);
      return rows.length > 0;
    },
    { attempts: 200, everyMs: 50 },
  );
  if (!found) throw new Error(`no event for ${reference}`);
  return rows;
}

import { INTERRUPTED } from '../../../src/modules/webhooks/webhook-dispatcher';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import { approvedCustomer, kycBody } from '../../helpers/factories';
import { request } from '../../helpers/http';
import { assertBuilt, serviceEnv, startServiceProcess, type ServiceProcess } from '../../helpers/process';
import { startReceiver, type ReceiverAnswer } from '../../helpers/receiver';
import { TEST_ADMIN_KEY, type TestApp } from '../../helpers/test-app';
import { startTwoInstances, type TwoInstances } from '../../helpers/two-instances';
import { eventually } from '../../helpers/wait';
import { dbQuery, setEndpoint, verifyDelivery } from '../../helpers/webhooks';
import { momoCollectionBody } from '../../helpers/transactions';

/** CONTRACT §8: delivery is durable (it survives kill -9) and several instances never send one attempt twice. */
describe('webhook delivery durability', () => {
  it('kill -9 while a delivery is in flight: after a restart every event is delivered, with its own id as webhook-id', async () => {
    assertBuilt();
    const db = await createTestDatabase();
    // Hang every request until the service has been killed; answer 200 afterwards.
    let answer: ReceiverAnswer = 'hang';
    const answered: Array<{ webhookId: string; body: string; status: ReceiverAnswer }> = [];
    const receiver = await startReceiver((req) => {
      answered.push({ webhookId: String(req.headers['webhook-id']), body: req.body, status: answer });
      return answer;
    });
    const env = serviceEnv(db.url, {
      SANDBOX_KYC_DELAY_MS: '100',
      JOB_POLL_INTERVAL_MS: '500',
      JOB_HEARTBEAT_MS: '500',
      WEBHOOK_TIMEOUT_MS: '3000',
      WEBHOOK_RETRY_SCHEDULE: '500ms,500ms,1s,1s,2s,2s',
    });
    let proc: ServiceProcess | undefined;
    try {
      proc = await startServiceProcess(env);
      const created = await request(proc.url, 'POST', '/v1/admin/merchants', {
        body: { name: 'Kill Nine Webhooks' },
        headers: { authorization: `Bearer ${TEST_ADMIN_KEY}` },
      });
      expect(created.status).toBe(201);
      const { client_id, client_secret, webhook_secret } = created.body.data;
      const getToken = async (url: string) =>
        (await request(url, 'POST', '/v1/oauth/token', { body: { grant_type: 'client_credentials', client_id, client_secret } })).body.data
          .access_token as string;
      let token = await getToken(proc.url);
      await setEndpoint(proc.url, token, receiver.url);

      // Three KYC approvals: three events, each with its delivery.
      for (let i = 0; i < 3; i++) {
        const enrolled = await request(proc.url, 'POST', '/v1/customer/enroll', {
          token,
          body: { customerid: `k9-${i}`, first_name: 'A', last_name: 'B', email: 'a@b.co', phone_number: '712345678', dial_code: '+254', country_code: 'KE' },
        });
        expect(enrolled.status).toBe(201);
        const submitted = await request(proc.url, 'POST', `/v1/customer/${enrolled.body.data.customer_uuid}/kyc`, { token, body: kycBody() });
        expect(submitted.status).toBe(200);
      }
      const allEvents = async () => (await dbQuery<{ id: string }>(db.url, 'select id from outbox_event order by created_at, id')).map((r) => r.id);
      expect(await eventually(async () => (await allEvents()).length === 3, { attempts: 200, everyMs: 50 })).toBe(true);
      const eventIds = await allEvents();

      // A delivery is in flight (the receiver holds the request open): kill the service now.
      expect(await eventually(async () => receiver.received.length >= 1, { attempts: 200, everyMs: 50 })).toBe(true);
      const inFlight = String(receiver.received[0]!.headers['webhook-id']);
      expect(eventIds).toContain(inFlight);
      expect(await proc.stop('SIGKILL')).toBeNull();
      const pendingAtKill = await dbQuery<{ n: number }>(db.url, `select count(*)::int as n from webhook_delivery where status = 'pending'`);
      expect(pendingAtKill[0]!.n).toBe(3);
      // Issue 18: the send cut off by the kill is in the attempt log (written before the POST left), with no outcome.
      const attemptsOf = (id: string) =>
        dbQuery<{ success: boolean | null; finished_at: Date | null; error: string | null; latency_ms: number | null }>(
          db.url,
          'select success, finished_at, error, latency_ms from webhook_attempt where event_id = $1 order by id',
          [id],
        );
      expect(await attemptsOf(inFlight)).toEqual([{ success: null, finished_at: null, error: null, latency_ms: null }]);
      /** Never fewer attempts in the log than requests the receiver got, for any event. */
      const expectLogCoversReceipts = async () => {
        for (const id of eventIds) {
          const receipts = receiver.received.filter((r) => r.headers['webhook-id'] === id).length;
          expect({ id, logged: (await attemptsOf(id)).length >= receipts }).toEqual({ id, logged: true });
        }
      };
      await expectLogCoversReceipts();

      answer = 200;
      proc = await startServiceProcess(env);
      token = await getToken(proc.url);
      const deliveredTo = () => new Set(answered.filter((a) => a.status === 200).map((a) => a.webhookId));
      const allDelivered = await eventually(async () => eventIds.every((id) => deliveredTo().has(id)), { attempts: 600, everyMs: 100 });
      expect(allDelivered).toBe(true);

      // Every request carried one of the events' ids, verified under the merchant's secret.
      for (const r of receiver.received) {
        const webhookId = String(r.headers['webhook-id']);
        expect(eventIds).toContain(webhookId);
        expect(verifyDelivery(webhook_secret, r).id).toBe(webhookId);
      }
      // The request cut off by the kill was sent again, with the same webhook-id.
      expect(answered.some((a) => a.webhookId === inFlight && a.status === 200)).toBe(true);
      expect(await eventually(async () => (await dbQuery(db.url, `select 1 from webhook_delivery where status <> 'delivered'`)).length === 0)).toBe(true);
      const deliveries = await dbQuery<{ event_id: string }>(db.url, 'select event_id from webhook_delivery');
      expect(deliveries.map((d) => d.event_id).sort()).toEqual([...eventIds].sort());
      const events = await request(proc.url, 'GET', '/v1/webhooks/events', { token });
      expect(events.body.data.map((e: any) => e.delivery_status)).toEqual(['delivered', 'delivered', 'delivered']);
      await expectLogCoversReceipts();
      // The cut-off attempt is closed as interrupted by the next claim of its event, and shown so on the event's record.
      const cutOff = (await request(proc.url, 'GET', `/v1/webhooks/events/${inFlight}`, { token })).body.data;
      expect(cutOff.attempts[0]).toMatchObject({ attempt_number: 1, success: null, latency_ms: null, status_code: null, error: INTERRUPTED });
      expect(cutOff.attempts.at(-1)).toMatchObject({ success: true, status_code: 200, error: null });
    } finally {
      await proc?.stop('SIGKILL');
      await receiver.close();
      await db.drop();
    }
  }, 120_000);

  describe('two instances on one database', () => {
    const EVENTS = 300;
    let instances: TwoInstances;
    let db: TestDatabase;
    let a: TestApp;
    let b: TestApp;

    beforeAll(async () => {
      instances = await startTwoInstances({ SANDBOX_SETTLE_MS: '100', WEBHOOK_RETRY_SCHEDULE: '1s,1s,1s', JOB_HEARTBEAT_MS: '500' });
      ({ db, a, b } = instances);
    });
    afterAll(() => instances?.close());

    it(`deliver ${EVENTS} events: each webhook-id reaches the receiver exactly once, with exactly ${EVENTS} attempts`, async () => {
      const receiver = await startReceiver(() => 200);
      try {
        const merchant = await a.createMerchant('Busy Merchant');
        const { accessToken: token } = await a.token(merchant);
        await setEndpoint(a.url, token, receiver.url);
        // One KYC approval (an event), then EVENTS - 1 mobile money collections that the
        // sandbox settles (one event each), started in parallel batches on both instances.
        const customer = await approvedCustomer(a, token);
        const collections = EVENTS - 1;
        const batch = 25;
        for (let start = 0; start < collections; start += batch) {
          const results = await Promise.all(
            Array.from({ length: Math.min(batch, collections - start) }, (_, i) => {
              const n = start + i;
              return request(n % 2 === 0 ? a.url : b.url, 'POST', '/v1/crossborder/global-collection', {
                token,
                body: momoCollectionBody(customer.customer_uuid, { reason: 'Load', reference: `load-${n}` }),
              });
            }),
          );
          expect(results.map((r) => r.status)).toEqual(results.map(() => 200));
        }

        const count = async (sql: string) => (await dbQuery<{ n: number }>(db.url, sql))[0]!.n;
        // A generous bound: how fast deliveries drain depends on the job runner's batch size and polling.
        const allDelivered = await eventually(
          async () => (await count(`select count(*)::int as n from webhook_delivery where status = 'delivered'`)) === EVENTS,
          { attempts: 1200, everyMs: 250 },
        );
        expect(allDelivered).toBe(true);

        const eventIds = (await dbQuery<{ id: string }>(db.url, 'select id from outbox_event')).map((r) => r.id);
        expect(eventIds).toHaveLength(EVENTS);
        const perId = new Map<string, number>();
        for (const r of receiver.received) {
          const id = String(r.headers['webhook-id']);
          perId.set(id, (perId.get(id) ?? 0) + 1);
        }
        expect(receiver.received).toHaveLength(EVENTS);
        expect([...perId.keys()].sort()).toEqual([...eventIds].sort());
        expect([...perId.values()].every((n) => n === 1)).toBe(true);
        expect(await count('select count(*)::int as n from webhook_attempt')).toBe(EVENTS);
        expect(await count('select count(*)::int as n from webhook_attempt where success and attempt_number = 1')).toBe(EVENTS);
        // Spot-check the signatures.
        for (const r of receiver.received.slice(0, 10)) expect(verifyDelivery(merchant.webhookSecret, r).id).toBe(r.headers['webhook-id']);
      } finally {
        await receiver.close();
      }
    }, 360_000);
  });
});

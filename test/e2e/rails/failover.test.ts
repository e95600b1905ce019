import { referenceIdOf } from '../../../src/providers/mtn-momo/mapping';
import { MtnMomoFake } from '../../fakes/mtn-momo.fake';
import { approvedCustomer } from '../../helpers/factories';
import { request } from '../../helpers/http';
import { awaitStatus, breakerStates, ghMtnCollection, railsApp, txnRow } from '../../helpers/rails';
import { startReceiver, type Receiver } from '../../helpers/receiver';
import type { TestApp } from '../../helpers/test-app';
import { newReference } from '../../helpers/transactions';
import { eventually } from '../../helpers/wait';
import { FAST_WEBHOOKS, setEndpoint, verifyDelivery } from '../../helpers/webhooks';
import { connect, subscribeLive } from '../../helpers/ws';

/**
 * A route with two connectors, as an integrator tries MTN's own sandbox from ours:
 * PROVIDER_ROUTES sends Ghana's MTN route to `mtn_momo` first and the in-process sandbox second.
 * (In production the second connector of a route comes with Flutterwave, issue 21; the routing
 * and breaker code is the same.) Webhooks and subscriptions fire as for the sandbox.
 */

const STATUS_CHANGED = `subscription($r: String) { transactionStatusChanged(reference: $r) { reference status } }`;

const collection = (customerUuid: string) => ghMtnCollection(customerUuid, { amount: '12', reason: 'Failover', reference: newReference('fo') });

describe('failover between the connectors of a route (sandbox, MTN’s fake first)', () => {
  let fake: MtnMomoFake;
  let app: TestApp;
  let receiver: Receiver;
  let token: string;
  let secret: string;
  let customerUuid: string;

  beforeAll(async () => {
    fake = await MtnMomoFake.start({ decisionDelayMs: 30 });
    receiver = await startReceiver(() => 200);
    app = await railsApp({
      ...fake.env(),
      ...FAST_WEBHOOKS,
      PAYMENTS_ENV: 'sandbox',
      SANDBOX_SETTLE_MS: '100',
      PROVIDER_ROUTES: 'GH/momo/MTN/*=mtn_momo,sandbox',
    });
    const merchant = await app.createMerchant('Failover Merchant');
    secret = merchant.webhookSecret;
    token = (await app.token(merchant)).accessToken;
    await setEndpoint(app.url, token, receiver.url);
    customerUuid = (await approvedCustomer(app, token)).customer_uuid;
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await receiver?.close();
    await fake?.close();
  });

  it('goes to MTN while it answers; its webhook and subscription event are the sandbox’s', async () => {
    const body = collection(customerUuid);
    const client = connect(app, token);
    try {
      const res = await request(app.url, 'POST', '/v1/crossborder/global-collection', { token, body });
      expect(res.status).toBe(200);
      const sub = await subscribeLive(app.url, client, STATUS_CHANGED, { r: res.body.data.reference });
      expect((await txnRow(app, body.reference))?.connector).toBe('mtn_momo');
      expect((await awaitStatus(app, body.reference, 'successful'))?.status).toBe('successful');
      const mine = () => receiver.received.find((r) => r.body.includes(res.body.data.reference));
      expect(await eventually(async () => mine() !== undefined, { attempts: 200, everyMs: 50 })).toBe(true);
      const event = verifyDelivery(secret, mine()!);
      expect(event).toMatchObject({ type: 'collection.successful', data: { reference: res.body.data.reference, status: 'successful' } });
      expect(await eventually(async () => sub.received.some((m) => m.data?.transactionStatusChanged?.status === 'SUCCESSFUL'))).toBe(true);
    } finally {
      await client.dispose();
    }
  });

  it('while MTN’s breaker is open a new transaction goes to the sandbox; one started on MTN stays on MTN', async () => {
    // Started on MTN, then MTN goes down before it is decided.
    const started = { ...collection(customerUuid), account_number: '0240000009' }; // MTN keeps it pending
    await request(app.url, 'POST', '/v1/crossborder/global-collection', { token, body: started });
    const startedRow = (await txnRow(app, started.reference))!;
    expect(startedRow.connector).toBe('mtn_momo');

    fake.down = true;
    let opened = false;
    // Two at a time, beside the started one's polls: the breaker may open between a request's routing and its call
    // to MTN. Nothing was sent then, so that request is routed again, to the sandbox: never a 503 while it is there.
    for (let i = 0; i < 50 && !opened; i += 1) {
      const answers = await Promise.all(
        [1, 2].map(() => request(app.url, 'POST', '/v1/crossborder/global-collection', { token, body: collection(customerUuid) })),
      );
      for (const res of answers) expect([200, 500]).toContain(res.status);
      opened = (await breakerStates(app)).mtn_momo === 'open';
    }
    expect(opened).toBe(true);

    const failedOver = collection(customerUuid);
    const res = await request(app.url, 'POST', '/v1/crossborder/global-collection', { token, body: failedOver });
    expect(res.status).toBe(200);
    expect((await txnRow(app, failedOver.reference))?.connector).toBe('sandbox');
    expect((await awaitStatus(app, failedOver.reference, 'successful'))?.status).toBe('successful');

    // MTN comes back and decides the one it holds: that transaction never moved.
    fake.down = false;
    await fake.decide(referenceIdOf(startedRow.id), 'SUCCESSFUL');
    const settled = await awaitStatus(app, started.reference, 'successful', 400);
    expect(settled).toMatchObject({ status: 'successful', connector: 'mtn_momo' });
  });
});

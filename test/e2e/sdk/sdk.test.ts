import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { Client as UrqlClient, fetchExchange } from '@urql/core';
import {
  createPaymentsClient,
  InitiateCollectionDocument,
  InitiateTransferDocument,
  TransactionsDocument,
  unwrap,
  verifyWebhook,
  WebhookVerificationError,
  type PaymentsClient,
  type Schemas,
  type WebhookEvent,
} from '../../../sdk/src';
import { payByCard } from '../../../sdk/examples/card-payment-3ds';
import { checkoutForOrder } from '../../../sdk/examples/hosted-checkout';
import { collectByMobileMoney } from '../../../sdk/examples/collect-mobile-money';
import { followTransaction } from '../../../sdk/examples/graphql-subscription';
import { payOutByBankTransfer } from '../../../sdk/examples/payout-bank-transfer';
import { describeEvent, startWebhookReceiver } from '../../../sdk/examples/receive-webhooks';
import type { MerchantCredentials } from '../../../src/modules/merchants/merchant.service';
import { enrollBody, kycBody } from '../../helpers/factories';
import { request } from '../../helpers/http';
import { startReceiver, type Receiver, type ReceivedWebhook } from '../../helpers/receiver';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { momoCollectionBody, momoCollectionInput, momoTransferInput, newReference, sql, transferBody } from '../../helpers/transactions';
import { eventually } from '../../helpers/wait';
import { awaitDelivery, setEndpoint } from '../../helpers/webhooks';
import { activeSubscriptions } from '../../helpers/ws';

const ROOT = path.join(__dirname, '../../..');
const readJson = (file: string) => JSON.parse(readFileSync(path.join(ROOT, file), 'utf8'));
/** The helpers' bodies, typed as the SDK's generated types want them (their enums are literal types there). */
const kycRequest = (): Schemas['SubmitKycRequest'] => ({ ...kycBody(), id_type: 'national_id' });
const collectionRequest = (customerUuid: string): Schemas['CollectionRequest'] => ({ ...momoCollectionBody(customerUuid), account_type: 'momo' });
const transferRequest = (customerUuid: string): Schemas['TransferRequest'] => ({ ...transferBody(customerUuid), account_type: 'momo' });
/** sdk/examples/, each shown in sdk/README.md and run below. */
const EXAMPLES = [
  'collect-mobile-money.ts',
  'payout-bank-transfer.ts',
  'card-payment-3ds.ts',
  'hosted-checkout.ts',
  'receive-webhooks.ts',
  'graphql-subscription.ts',
];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** One request the SDK sent, as the service saw it. */
interface Sent {
  method: string;
  path: string;
  idempotencyKey: string | null;
  bearer: string | null;
  status: number | 'lost';
  /** Token requests: the grant asked for, and the answer's data. */
  grant?: string;
  answer?: { access_token: string; refresh_token: string };
}

/**
 * Issue 24 point 7: the SDK (sdk/src, as a user imports it) against the real service. Every request it
 * sends goes through a recording fetch, which can also drop an answer after the service executed the
 * request (a connection lost on the way back), to show a retried create answering the same transaction.
 */
describe('the TypeScript SDK against the service', () => {
  let app: TestApp;
  let merchant: MerchantCredentials;
  let receiver: Receiver;
  let client: PaymentsClient;
  let customerUuid: string;
  let collectionReference: string;
  let newSecret: string;
  const sent: Sent[] = [];
  /** The SDK's own clock runs this far ahead of the real one. */
  let sdkClockAhead = 0;
  /** The path whose next answer is dropped after the service has answered it. */
  let loseNextAnswerOf: string | undefined;

  async function recordingFetch(req: Request): Promise<Response> {
    const url = new URL(req.url);
    expect(url.hostname).toBe('127.0.0.1');
    const body = req.method === 'GET' ? '' : await req.clone().text();
    const entry: Sent = {
      method: req.method,
      path: url.pathname,
      idempotencyKey: req.headers.get('idempotency-key'),
      bearer: req.headers.get('authorization'),
      status: 0,
    };
    sent.push(entry);
    const response = await fetch(req);
    entry.status = response.status;
    if (url.pathname === '/v1/oauth/token') {
      entry.grant = JSON.parse(body).grant_type;
      if (response.ok) entry.answer = ((await response.clone().json()) as { data: Sent['answer'] }).data;
    }
    if (loseNextAnswerOf === url.pathname) {
      loseNextAnswerOf = undefined;
      entry.status = 'lost';
      await response.arrayBuffer();
      throw new TypeError('fetch failed: the test dropped this answer');
    }
    return response;
  }

  const tokenRequests = () => sent.filter((s) => s.path === '/v1/oauth/token');
  const lastGrant = () =>
    tokenRequests()
      .filter((s) => s.answer)
      .at(-1)!.answer!;
  const sentSince = (mark: number) => sent.slice(mark);

  beforeAll(async () => {
    // No automatic settlement: the simulate route decides each transaction.
    app = await createTestApp({ env: { WEBHOOK_RETRY_SCHEDULE: '200ms,200ms,200ms', SANDBOX_SETTLE_MS: '600000' } });
    merchant = await app.createMerchant('SDK Merchant');
    receiver = await startReceiver(() => 204);
    client = createPaymentsClient({
      baseUrl: app.url,
      clientId: merchant.merchant.clientId,
      clientSecret: merchant.clientSecret,
      fetch: recordingFetch,
      now: () => Date.now() + sdkClockAhead,
    });
  });
  afterAll(async () => {
    await receiver?.close();
    await app?.close();
  });

  it('pins the exact versions the root installs, and its README shows every example', () => {
    const sdk = readJson('sdk/package.json');
    const root = readJson('package.json');
    // Packed and installed outside the repository by packed-package.test.ts.
    expect(sdk.name).toBe('@payments-gateway/sdk');
    expect(sdk).not.toHaveProperty('private');
    expect(Object.keys(sdk.dependencies).sort()).toEqual(['@graphql-typed-document-node/core', 'openapi-fetch', 'standardwebhooks']);
    for (const [name, version] of Object.entries({ ...sdk.dependencies, ...sdk.devDependencies })) {
      expect([name, version]).toEqual([name, root.dependencies[name] ?? root.devDependencies[name]]);
      expect(version).toMatch(/^\d+\.\d+\.\d+$/);
    }
    expect(root.devDependencies['openapi-typescript']).toMatch(/^\d+\.\d+\.\d+$/);

    // sdk/README.md shows each example whole: each line of its code block is a line of the file.
    const readme = readFileSync(path.join(ROOT, 'sdk/README.md'), 'utf8');
    for (const example of EXAMPLES) {
      const block = new RegExp(`\`${example}\`[^\\n]*\\n\\n\`\`\`ts\\n([\\s\\S]*?)\\n\`\`\``).exec(readme)?.[1];
      expect([example, block?.trim()]).toEqual([example, readFileSync(path.join(ROOT, 'sdk/examples', example), 'utf8').trim()]);
    }
  });

  it('gets a token with client credentials on its first request, and sends an Idempotency-Key on each create', async () => {
    const merchantProfile = unwrap(await client.GET('/v1/merchant'));
    expect(merchantProfile.client_id).toBe(merchant.merchant.clientId);
    expect(tokenRequests().map((s) => [s.grant, s.status])).toEqual([['client_credentials', 200]]);
    expect(sent[1]).toMatchObject({ path: '/v1/merchant', bearer: `Bearer ${lastGrant().access_token}`, idempotencyKey: null });

    // A customer and its KYC: both creates, each with its own generated key.
    const mark = sent.length;
    const customer = unwrap(await client.POST('/v1/customer/enroll', { body: enrollBody() }));
    customerUuid = customer.customer_uuid;
    const kyc = unwrap(await client.POST('/v1/customer/{uuid}/kyc', { params: { path: { uuid: customerUuid } }, body: kycRequest() }));
    expect(kyc.kyc_status).toBe('pending');
    const keys = sentSince(mark).map((s) => s.idempotencyKey);
    expect(keys).toHaveLength(2);
    for (const key of keys) expect(key).toMatch(UUID);
    expect(new Set(keys).size).toBe(2);

    const approved = await eventually(
      async () => unwrap(await client.GET('/v1/customer/{uuid}/kyc', { params: { path: { uuid: customerUuid } } })).overall_kyc_status === 'approved',
    );
    expect(approved).toBe(true);
    expect(sent.filter((s) => s.method === 'GET').every((s) => s.idempotencyKey === null)).toBe(true);
    expect(tokenRequests()).toHaveLength(1);
  });

  it('sends a create again with the same key when its answer is lost, and gets the same collection back', async () => {
    await setEndpoint(app.url, await client.getAccessToken(), receiver.url);
    const body = collectionRequest(customerUuid);
    const mark = sent.length;
    loseNextAnswerOf = '/v1/crossborder/global-collection';
    const result = await client.POST('/v1/crossborder/global-collection', { body });
    const collection = unwrap(result);

    const attempts = sentSince(mark).filter((s) => s.path === '/v1/crossborder/global-collection');
    expect(attempts.map((s) => s.status)).toEqual(['lost', 200]);
    expect(attempts[0]!.idempotencyKey).toMatch(UUID);
    expect(attempts[1]!.idempotencyKey).toBe(attempts[0]!.idempotencyKey);
    expect(result.response.headers.get('Idempotent-Replayed')).toBe('true');
    expect(collection).toMatchObject({ external_reference: body.reference, status: 'processing', account_type: 'momo' });
    const rows = await sql(app, 'select reference from "transaction" where external_reference = ?', [body.reference]);
    expect(rows.map((r) => r.reference)).toEqual([collection.reference]);
    collectionReference = collection.reference;

    // Its status, by the service's reference or the merchant's.
    for (const reference of [collection.reference, body.reference]) {
      const status = unwrap(await client.GET('/v1/crossborder/global-transfer/{reference}', { params: { path: { reference } } }));
      expect(status).toMatchObject({ reference: collection.reference, type: 'collection', status: 'processing' });
    }
  });

  it('creates a transfer with a generated key; a key the caller gives is sent as given, and its retry replays', async () => {
    unwrap(await client.POST('/v1/sandbox/balance/top-up', { body: { currency: 'USD', amount: '1000' } }));
    const mark = sent.length;
    const transfer = unwrap(await client.POST('/v1/crossborder/global-transfer', { body: transferRequest(customerUuid) }));
    expect(transfer).toMatchObject({ status: 'processing', source_currency: 'USD', destination_currency: 'KES' });
    expect(sentSince(mark).map((s) => [s.path, s.status])).toEqual([['/v1/crossborder/global-transfer', 200]]);
    expect(sentSince(mark)[0]!.idempotencyKey).toMatch(UUID);

    const key = `order-${randomBytes(6).toString('hex')}`;
    const body = transferRequest(customerUuid);
    const first = await client.POST('/v1/crossborder/global-transfer', { body, params: { header: { 'Idempotency-Key': key } } });
    const again = await client.POST('/v1/crossborder/global-transfer', { body, params: { header: { 'Idempotency-Key': key } } });
    expect(
      sentSince(mark)
        .slice(1)
        .map((s) => s.idempotencyKey),
    ).toEqual([key, key]);
    expect(first.response.headers.get('Idempotent-Replayed')).toBeNull();
    expect(again.response.headers.get('Idempotent-Replayed')).toBe('true');
    expect(unwrap(again).reference).toBe(unwrap(first).reference);
    expect(unwrap(first).reference).not.toBe(transfer.reference);
  });

  it('verifies a webhook the service delivered, typed by its event type; refuses a bad signature, a changed body or an old timestamp', async () => {
    unwrap(
      await client.POST('/v1/sandbox/transactions/{reference}/simulate', {
        params: { path: { reference: collectionReference } },
        body: { outcome: 'successful' },
      }),
    );
    const events = unwrap(await client.GET('/v1/webhooks/events', { params: { query: { type: 'collection.successful' } } }));
    expect(events).toHaveLength(1);
    const eventId = events[0]!.id;
    await awaitDelivery(app, await client.getAccessToken(), eventId);
    const delivery = receiver.received.find((r) => r.headers['webhook-id'] === eventId)!;
    expect(delivery).toBeDefined();

    const event: WebhookEvent = verifyWebhook(delivery.body, delivery.headers, merchant.webhookSecret);
    expect(event.type).toBe('collection.successful');
    if (event.type !== 'collection.successful') throw new Error('narrowed above');
    // Narrowed by type: data is the collection record.
    expect(event.data).toMatchObject({ reference: collectionReference, type: 'collection', status: 'successful', account_type: 'momo' });
    expect(event.id).toBe(eventId);
    // A test event (issue 24) checks the receiver without a transaction: typed, verified, data narrowed to WebhookTest.
    const test = unwrap(await client.POST('/v1/webhooks/test-event'));
    expect(test.attempts[0]).toMatchObject({ attempt_number: 1, success: true });
    const testDelivery = receiver.received.find((r) => r.headers['webhook-id'] === test.id)!;
    const testEvent = verifyWebhook(testDelivery.body, testDelivery.headers, merchant.webhookSecret);
    if (testEvent.type !== 'webhook.test') throw new Error(`expected webhook.test, got ${testEvent.type}`);
    expect(testEvent.data).toMatchObject({ test: true, merchant_id: merchant.merchant.id });
    // A Buffer body and fetch's Headers work too.
    expect(verifyWebhook(Buffer.from(delivery.body), new Headers(delivery.headers as Record<string, string>), merchant.webhookSecret).id).toBe(eventId);

    const anotherSecret = `whsec_${randomBytes(32).toString('base64')}`;
    const refusal = (run: () => unknown) => {
      try {
        run();
      } catch (err) {
        expect(err).toBeInstanceOf(WebhookVerificationError);
        return [(err as WebhookVerificationError).reason, (err as Error).message];
      }
      throw new Error('verified, but should have been refused');
    };
    expect(refusal(() => verifyWebhook(delivery.body, delivery.headers, anotherSecret))).toEqual([
      'bad_signature',
      'Webhook refused: no signature matches the webhook secret(s): a wrong secret, or a body changed on the way (verify the raw body, before parsing it)',
    ]);
    expect(refusal(() => verifyWebhook(delivery.body.replace('successful', 'failed'), delivery.headers, merchant.webhookSecret))[0]).toBe('bad_signature');
    expect(refusal(() => verifyWebhook(delivery.body, { ...delivery.headers, 'webhook-signature': undefined }, merchant.webhookSecret))[0]).toBe(
      'missing_headers',
    );
    const tenMinutesAgo = new Date(Date.now() - 10 * 60 * 1000);
    const stale = {
      'webhook-id': eventId,
      'webhook-timestamp': String(Math.floor(tenMinutesAgo.getTime() / 1000)),
      'webhook-signature': new Webhook(merchant.webhookSecret).sign(eventId, tenMinutesAgo, delivery.body),
    };
    expect(refusal(() => verifyWebhook(delivery.body, stale, merchant.webhookSecret))[0]).toBe('stale_timestamp');
    // Several secrets: any one that matches verifies.
    expect(verifyWebhook(delivery.body, delivery.headers, [anotherSecret, merchant.webhookSecret]).id).toBe(eventId);
  });

  it('during a secret rotation verifies with the old secret, the new one, or both (the service signs with each)', async () => {
    // The rotation answers a secret once: the SDK sends no Idempotency-Key there (the service would refuse it).
    const rotation = await client.POST('/v1/webhooks/secret/rotate');
    expect(sent.at(-1)).toMatchObject({ path: '/v1/webhooks/secret/rotate', idempotencyKey: null, status: 200 });
    newSecret = unwrap(rotation).webhook_secret;

    unwrap(await client.POST('/v1/crossborder/global-collection', { body: collectionRequest(customerUuid) }));
    const reference = unwrap(await client.GET('/v1/transactions', { params: { query: { limit: 1 } } }))[0]!.reference;
    unwrap(await client.POST('/v1/sandbox/transactions/{reference}/simulate', { params: { path: { reference } }, body: { outcome: 'failed' } }));
    const [event] = unwrap(await client.GET('/v1/webhooks/events', { params: { query: { type: 'collection.failed' } } }));
    await awaitDelivery(app, await client.getAccessToken(), event!.id);
    const delivery: ReceivedWebhook = receiver.received.find((r) => r.headers['webhook-id'] === event!.id)!;
    expect(String(delivery.headers['webhook-signature']).split(' ')).toHaveLength(2);
    for (const secrets of [merchant.webhookSecret, newSecret, [newSecret, merchant.webhookSecret]]) {
      const verified = verifyWebhook(delivery.body, delivery.headers, secrets);
      expect(verified).toMatchObject({ id: event!.id, type: 'collection.failed', data: { reference, status: 'failed' } });
    }
  });

  it('renews the token before it expires with the refresh token, and keeps the newest refresh token', async () => {
    const before = lastGrant();
    const mark = sent.length;
    sdkClockAhead = 3600_000 - 30_000; // 30 s left: inside the 60 s margin
    unwrap(await client.GET('/v1/merchant'));
    sdkClockAhead = 0;
    expect(sentSince(mark).map((s) => [s.path, s.grant, s.status])).toEqual([
      ['/v1/oauth/token', 'refresh_token', 200],
      ['/v1/merchant', undefined, 200],
    ]);
    const after = lastGrant();
    expect(after.refresh_token).not.toBe(before.refresh_token);
    expect(sent.at(-1)!.bearer).toBe(`Bearer ${after.access_token}`);
  });

  it('on a 401 (the service says the token expired) renews once for all concurrent requests and sends each again once', async () => {
    app.clock.advance(3601_000); // the service's clock: every access token it issued has expired
    const mark = sent.length;
    const answers = await Promise.all(Array.from({ length: 5 }, () => client.GET('/v1/merchant')));
    for (const answer of answers) expect(unwrap(answer).client_id).toBe(merchant.merchant.clientId);
    const since = sentSince(mark);
    expect(since.filter((s) => s.path === '/v1/oauth/token').map((s) => [s.grant, s.status])).toEqual([['refresh_token', 200]]);
    const merchantCalls = since.filter((s) => s.path === '/v1/merchant');
    expect(merchantCalls.filter((s) => s.status === 401)).toHaveLength(5);
    expect(merchantCalls.filter((s) => s.status === 200).map((s) => s.bearer)).toEqual(Array(5).fill(`Bearer ${lastGrant().access_token}`));
  });

  it('when the refresh token is refused, falls back to client credentials and sends the request again', async () => {
    const { access_token, refresh_token } = lastGrant();
    // Through the SDK too: the OAuth endpoints get no Bearer (they would refuse it).
    unwrap(await client.POST('/v1/oauth/revoke', { body: { token: refresh_token } }));
    expect(sent.at(-1)).toMatchObject({ path: '/v1/oauth/revoke', bearer: null, status: 200 });
    // Revocation reaches the access tokens of the family within TOKEN_REVOCATION_POLL_MS.
    expect(await eventually(async () => (await request(app.url, 'GET', '/v1/merchant', { token: access_token })).status === 401)).toBe(true);

    const mark = sent.length;
    expect(unwrap(await client.GET('/v1/merchant')).client_id).toBe(merchant.merchant.clientId);
    expect(sentSince(mark).map((s) => [s.path, s.grant, s.status])).toEqual([
      ['/v1/merchant', undefined, 401],
      ['/v1/oauth/token', 'refresh_token', 401],
      ['/v1/oauth/token', 'client_credentials', 200],
      ['/v1/merchant', undefined, 200],
    ]);
  });

  it('exports typed GraphQL documents that a GraphQL client (urql) runs as they are: create a collection and a transfer, list transactions', async () => {
    const urql = new UrqlClient({
      url: `${app.url}/graphql`,
      exchanges: [fetchExchange],
      preferGetMethod: false,
      fetch: async (input, init) => {
        const headers = new Headers(init?.headers);
        headers.set('Authorization', `Bearer ${await client.getAccessToken()}`);
        return fetch(input, { ...init, headers });
      },
    });
    const collected = await urql.mutation(InitiateCollectionDocument, { input: { ...momoCollectionInput(customerUuid), accountType: 'MOMO' } }).toPromise();
    expect(collected.error).toBeUndefined();
    expect(collected.data!.initiateCollection).toMatchObject({ type: 'COLLECTION', status: 'PROCESSING', accountType: 'MOMO', currency: 'KES' });
    const transferred = await urql.mutation(InitiateTransferDocument, { input: { ...momoTransferInput(customerUuid), accountType: 'MOMO' } }).toPromise();
    expect(transferred.error).toBeUndefined();
    expect(transferred.data!.initiateTransfer).toMatchObject({ type: 'TRANSFER', status: 'PROCESSING', sourceCurrency: 'USD' });

    const listed = await urql.query(TransactionsDocument, { first: 2 }).toPromise();
    expect(listed.data!.transactions.edges.map((e) => e.node.reference)).toEqual([
      transferred.data!.initiateTransfer.reference,
      collected.data!.initiateCollection.reference,
    ]);
    expect(listed.data!.transactions.pageInfo.hasNextPage).toBe(true);
  });

  it('throws an ApiError with the service’s code for an error answer', async () => {
    const result = await client.GET('/v1/crossborder/global-transfer/{reference}', { params: { path: { reference: newReference('missing') } } });
    expect(() => unwrap(result)).toThrow(expect.objectContaining({ name: 'ApiError', status: 404, code: 'NOT_FOUND' }));
  });

  it('the checkout resources: a create with your Idempotency-Key replays; a list pages with meta; an unknown id is an ApiError', async () => {
    const body = {
      amount: '100.00',
      currency: 'NGN',
      reference: `sdk-${Date.now()}`,
      customer: { email: 'ada@example.com' },
      redirect_url: 'https://shop.example/r',
    };
    const first = await client.checkout.sessions.create(body, { idempotencyKey: 'sdk-checkout-1' });
    const again = await client.checkout.sessions.create(body, { idempotencyKey: 'sdk-checkout-1' });
    expect(again.id).toBe(first.id);
    await client.paymentLinks.create({ name: 'One', currency: 'NGN', amount: '500.00' });
    await client.paymentLinks.create({ name: 'Two', currency: 'NGN', amount: '700.00' });
    const page = await client.paymentLinks.list({ limit: 1 });
    expect(page.data).toHaveLength(1);
    expect(page.meta).toMatchObject({ has_more: true, next_cursor: expect.any(String) });
    const next = await client.paymentLinks.list({ limit: 1, after: page.meta.next_cursor ?? undefined });
    expect(next.data[0]!.id).not.toBe(page.data[0]!.id);
    const off = await client.paymentLinks.deactivate(page.data[0]!.id);
    expect(off.active).toBe(false);
    await expect(client.checkout.sessions.retrieve('cs_nope')).rejects.toMatchObject({ name: 'ApiError', status: 404, code: 'NOT_FOUND' });
  });

  it('runs the examples: mobile money collection, GraphQL subscription, webhook receiver, bank payout, 3-D Secure card payment, hosted checkout', async () => {
    const handled: string[] = [];
    const examplesReceiver = await startWebhookReceiver([newSecret], (event) => handled.push(describeEvent(event)), 0);
    try {
      const { port } = examplesReceiver.address() as AddressInfo;
      await setEndpoint(app.url, await client.getAccessToken(), `http://127.0.0.1:${port}/hooks`);

      const collection = await collectByMobileMoney(client, customerUuid);
      expect(collection).toMatchObject({ type: 'collection', status: 'processing', account_type: 'momo', network_id: 'ke_mpesa' });

      // The subscription is set up (the service's gauge counts it) before the collection is decided.
      const subscriptionsBefore = await activeSubscriptions(app.url);
      const followed = followTransaction(client, collection.reference, app.url);
      expect(await eventually(async () => (await activeSubscriptions(app.url)) > subscriptionsBefore)).toBe(true);
      unwrap(
        await client.POST('/v1/sandbox/transactions/{reference}/simulate', {
          params: { path: { reference: collection.reference } },
          body: { outcome: 'successful' },
        }),
      );
      expect(await followed).toMatchObject({ reference: collection.reference, type: 'COLLECTION', status: 'SUCCESSFUL' });
      const line = `collection ${collection.reference}: 1500 KES received`;
      expect(await eventually(async () => handled.includes(line))).toBe(true);

      const payout = await payOutByBankTransfer(client, customerUuid);
      expect(payout).toMatchObject({ status: 'processing' });
      expect(Number(payout.receives)).toBeGreaterThan(100);

      const payment = await payByCard(client);
      expect(payment).toMatchObject({ status: 'requires_action' });
      expect(payment.sendCardholderTo).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1\/sandbox\/3ds\//);

      const checkout = await checkoutForOrder(client);
      expect(checkout).toMatchObject({ status: 'open', linkUrl: expect.stringMatching(/\/pay\/[a-z0-9-]+$/), qrSvg: expect.stringMatching(/^<svg/) });
      expect(checkout.sendCustomerTo).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/checkout\/cs_/);
    } finally {
      await new Promise((resolve) => examplesReceiver.close(resolve));
    }
  });
});

import type { Client } from 'graphql-ws';
import { ManualClock } from '../../../src/shared/clock';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import { approvedCustomer, enroll, kycBody } from '../../helpers/factories';
import { graphql, request } from '../../helpers/http';
import { cardPaymentBody } from '../../helpers/payments';
import { momoCollectionBody } from '../../helpers/transactions';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { eventually } from '../../helpers/wait';
import { connect, subscribeLive } from '../../helpers/ws';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const TRANSACTION_FIELDS = 'reference externalReference type status failureReason amount currency updatedAt completedAt';

async function momoCollection(app: TestApp, token: string, customerUuid: string, reference: string) {
  const res = await request(app.url, 'POST', '/v1/crossborder/global-collection', {
    token,
    body: momoCollectionBody(customerUuid, { account_number: '712345678', reason: 'test', reference }),
  });
  if (res.status !== 200) throw new Error(`collection failed: ${res.status} ${res.text}`);
  return res.body.data.reference as string;
}

describe('GraphQL subscriptions', () => {
  let app: TestApp;
  let token: string;
  let otherToken: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    app = await createTestApp({ env: { SANDBOX_SETTLE_MS: '60000', MAX_SOCKETS_PER_MERCHANT: '3' } });
    token = (await app.token(await app.createMerchant('Subscriber A'))).accessToken;
    otherToken = (await app.token(await app.createMerchant('Subscriber B'))).accessToken;
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.dispose()));
    await app.close();
  });

  it('transactionStatusChanged carries the same record as the transaction query, after the commit', async () => {
    const customer = await approvedCustomer(app, token);
    const reference = await momoCollection(app, token, customer.customer_uuid, 'sub-1');
    const client = connect(app, token);
    clients.push(client);
    const sub = await subscribeLive(app.url, client, `subscription($r: String) { transactionStatusChanged(reference: $r) { ${TRANSACTION_FIELDS} } }`, {
      r: 'sub-1',
    });

    await request(app.url, 'POST', `/v1/sandbox/transactions/${reference}/simulate`, { token, body: { outcome: 'successful' } });
    expect(await eventually(async () => sub.received.length === 1)).toBe(true);
    const query = await graphql(app.url, `query($r: String!) { transaction(reference: $r) { ${TRANSACTION_FIELDS} } }`, { token, variables: { r: reference } });
    expect(sub.received[0].data.transactionStatusChanged).toEqual(query.body.data.transaction);
    expect(sub.received[0].data.transactionStatusChanged).toMatchObject({ reference, externalReference: 'sub-1', status: 'SUCCESSFUL' });
    sub.stop();
  });

  it('a subscriber never receives another merchant’s events', async () => {
    const mine = connect(app, token);
    const theirs = connect(app, otherToken);
    clients.push(mine, theirs);
    const allMine = await subscribeLive(app.url, mine, `subscription { transactionStatusChanged { reference status } }`);
    const allTheirs = await subscribeLive(app.url, theirs, `subscription { transactionStatusChanged { reference status } }`);
    // Merchant B even asks for A's reference by name: it still gets nothing.
    const customer = await approvedCustomer(app, token);
    const reference = await momoCollection(app, token, customer.customer_uuid, 'sub-2');
    const targeted = await subscribeLive(app.url, theirs, `subscription($r: String) { transactionStatusChanged(reference: $r) { reference } }`, {
      r: reference,
    });

    await request(app.url, 'POST', `/v1/sandbox/transactions/${reference}/simulate`, { token, body: { outcome: 'failed' } });
    expect(await eventually(async () => allMine.received.some((e) => e.data.transactionStatusChanged.reference === reference))).toBe(true);
    // A's subscriber has the event. B's own payment, made after it, reaches B's socket; once it has,
    // A's event would have too (one socket, events in commit order): B got its own and nothing else.
    const sentinel = await request(app.url, 'POST', '/v1/payments/initiate', { token: otherToken, body: cardPaymentBody() });
    expect(sentinel.body.data.status).toBe('successful');
    expect(await eventually(async () => allTheirs.received.length > 0)).toBe(true);
    expect(allTheirs.received.map((e) => e.data.transactionStatusChanged.reference)).toEqual([sentinel.body.data.reference]);
    expect(targeted.received).toEqual([]);
  });

  it('one event, several subscriptions of a merchant: the same operation gets the same answer, another selection its own (issue 40: executed once per event and operation)', async () => {
    const customer = await approvedCustomer(app, token);
    const reference = await momoCollection(app, token, customer.customer_uuid, 'sub-share');
    // Its own socket, closed at the end: this app allows a merchant 3 at once, and the tests after it open theirs.
    const client = connect(app, token);
    const same = `subscription($r: String) { transactionStatusChanged(reference: $r) { reference status completedAt } }`;
    const [first, second, other, failedOnly] = [
      await subscribeLive(app.url, client, same, { r: 'sub-share' }),
      await subscribeLive(app.url, client, same, { r: 'sub-share' }),
      await subscribeLive(app.url, client, `subscription($r: String) { transactionStatusChanged(reference: $r) { reference amount currency } }`, {
        r: 'sub-share',
      }),
      await subscribeLive(app.url, client, `subscription($r: String) { transactionStatusChanged(reference: $r, statuses: [FAILED]) { reference status } }`, {
        r: 'sub-share',
      }),
    ];
    await request(app.url, 'POST', `/v1/sandbox/transactions/${reference}/simulate`, { token, body: { outcome: 'successful' } });
    expect(await eventually(async () => [first, second, other].every((s) => s.received.length === 1))).toBe(true);
    expect(first.received[0].data.transactionStatusChanged).toMatchObject({ reference, status: 'SUCCESSFUL' });
    expect(second.received).toEqual(first.received);
    expect(other.received[0].data.transactionStatusChanged).toEqual({ reference, amount: expect.any(String), currency: 'KES' });
    // The filtered subscription, on the same socket, saw nothing: events reach a socket in order, and the others have theirs.
    expect(failedOnly.received).toEqual([]);
    for (const s of [first, second, other, failedOnly]) s.stop();
    await client.dispose();
  });

  it('kycStatusChanged streams a customer’s KYC decision', async () => {
    const client = connect(app, token);
    clients.push(client);
    const customer = await enroll(app, token);
    const sub = await subscribeLive(
      app.url,
      client,
      `subscription($c: String) { kycStatusChanged(customerUuid: $c) { customerUuid kycStatus overallKycStatus } }`,
      { c: customer.customer_uuid },
    );
    await request(app.url, 'POST', `/v1/customer/${customer.customer_uuid}/kyc`, { token, body: kycBody() });
    expect(await eventually(async () => sub.received.some((e) => e.data.kycStatusChanged.kycStatus === 'APPROVED'))).toBe(true);
    expect(sub.received.map((e) => e.data.kycStatusChanged.kycStatus)).toEqual(['PENDING', 'APPROVED']);
    expect(sub.received.every((e) => e.data.kycStatusChanged.customerUuid === customer.customer_uuid)).toBe(true);
  });

  it('caps the open sockets of one merchant (close 4429), and frees a slot when one closes', async () => {
    const capped = await app.createMerchant('Capped');
    const cappedToken = (await app.token(capped)).accessToken;
    const open: Client[] = [];
    for (let i = 0; i < 3; i++) {
      const c = connect(app, cappedToken);
      open.push(c);
      clients.push(c);
      expect((await graphql(app.url, '{ merchant { id } }', { token: cappedToken })).status).toBe(200);
      await new Promise<void>((resolve, reject) => {
        const stop = c.subscribe(
          { query: '{ merchant { id } }' },
          {
            next: () => undefined,
            error: reject,
            complete: () => {
              stop();
              resolve();
            },
          },
        );
      });
    }
    let closedWith: number | undefined;
    const fourth = connect(app, cappedToken, (code) => (closedWith = code));
    clients.push(fourth);
    expect(await eventually(async () => closedWith !== undefined)).toBe(true);
    expect(closedWith).toBe(4429);

    await open[0]!.dispose();
    const fifth = connect(app, cappedToken);
    clients.push(fifth);
    const result = await new Promise<any>((resolve, reject) => {
      const stop = fifth.subscribe(
        { query: '{ merchant { name } }' },
        {
          next: (v) => {
            stop();
            resolve(v);
          },
          error: reject,
          complete: () => undefined,
        },
      );
    });
    expect(result.data.merchant.name).toBe('Capped');
  });
});

describe('GraphQL limits over both doors', () => {
  it('refuses a selection deeper than GRAPHQL_MAX_DEPTH the same way over HTTP and over the socket', async () => {
    const app = await createTestApp({ env: { GRAPHQL_MAX_DEPTH: '3' } });
    const token = (await app.token(await app.createMerchant('Shallow'))).accessToken;
    const client = connect(app, token);
    try {
      expect((await graphql(app.url, '{ merchant { id } }', { token })).body.errors).toBeUndefined();
      const tooDeep = '{ transactions { edges { node { reference } } } }';
      const http = await graphql(app.url, tooDeep, { token });
      expect(http.body.errors?.[0]?.extensions?.code).toBe('INVALID_REQUEST');
      const socket = await new Promise<any>((resolve) => {
        client.subscribe({ query: tooDeep }, { next: () => resolve(undefined), error: resolve, complete: () => undefined });
      });
      expect(Array.isArray(socket)).toBe(true);
      expect(socket[0].extensions.code).toBe('INVALID_REQUEST');
      expect(socket[0].message).toBe(http.body.errors![0]!.message);
    } finally {
      await client.dispose();
      await app.close();
    }
  });
});

describe('GraphQL subscriptions across instances (Redis)', () => {
  let db: TestDatabase;
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    db = await createTestDatabase();
    const clock = new ManualClock(new Date('2026-11-22T12:00:00Z'));
    const env = { REDIS_URL, SANDBOX_SETTLE_MS: '60000' };
    a = await createTestApp({ database: db, clock, env });
    b = await createTestApp({ database: db, clock, env });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
    await db.drop();
  });

  it('a subscriber on instance A receives a change committed through instance B', async () => {
    const merchant = await a.createMerchant('Across');
    const token = (await a.token(merchant)).accessToken;
    const customer = await approvedCustomer(b, token);
    const reference = await momoCollection(b, token, customer.customer_uuid, 'across-1');
    const client = connect(a, token);
    try {
      const sub = await subscribeLive(a.url, client, `subscription { transactionStatusChanged { reference status } }`);
      await request(b.url, 'POST', `/v1/sandbox/transactions/${reference}/simulate`, { token, body: { outcome: 'successful' } });
      expect(await eventually(async () => sub.received.length > 0)).toBe(true);
      expect(sub.received[0].data.transactionStatusChanged).toEqual({ reference, status: 'SUCCESSFUL' });
    } finally {
      await client.dispose();
    }
  });
});

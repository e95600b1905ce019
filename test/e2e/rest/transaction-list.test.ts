import { approvedCustomer, twoMerchants } from '../../helpers/factories';
import { graphql, request } from '../../helpers/http';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { momoCollectionBody, transferBody } from '../../helpers/transactions';

/** REST GET /v1/transactions: the twin of GraphQL's transactions(filter) (issue #11, point 3). */
describe('REST GET /v1/transactions', () => {
  let app: TestApp;
  let tokenA: string;
  let tokenB: string;
  let customerA: string;
  let customerA2: string;
  let customerB: string;
  const created: string[] = [];

  const list = (token: string, query = '') => request(app.url, 'GET', `/v1/transactions${query}`, { token });

  beforeAll(async () => {
    app = await createTestApp({ env: { SANDBOX_SETTLE_MS: '600000' } });
    const { mine, theirs } = await twoMerchants(app, 'Lister', { approvedCustomer: true });
    [tokenA, tokenB, customerA, customerB] = [mine.token, theirs.token, mine.customerUuid, theirs.customerUuid];
    customerA2 = (await approvedCustomer(app, tokenA, { email: 'Wanjiru.K@Example.com' })).customer_uuid;
    // A: two collections for one customer, one for another, and a transfer; B: one collection.
    for (const [path, body] of [
      ['/v1/crossborder/global-collection', momoCollectionBody(customerA)],
      ['/v1/crossborder/global-collection', momoCollectionBody(customerA)],
      ['/v1/crossborder/global-collection', momoCollectionBody(customerA2)],
      ['/v1/crossborder/global-transfer', transferBody(customerA)],
    ] as const) {
      // The test clock stands still: a second between them gives each its own created_at.
      app.clock.advance(1000);
      const res = await request(app.url, 'POST', path, { token: tokenA, body });
      expect(res.status).toBe(200);
      created.push(res.body.data.reference);
    }
    expect((await request(app.url, 'POST', '/v1/crossborder/global-collection', { token: tokenB, body: momoCollectionBody(customerB) })).status).toBe(200);
  });
  afterAll(() => app.close());

  it('lists the merchant’s own transactions newest first, each the record the status endpoint returns', async () => {
    const res = await list(tokenA);
    expect(res.status).toBe(200);
    expect(res.body.data.map((t: { reference: string }) => t.reference)).toEqual([...created].reverse());
    expect(res.body.meta).toEqual({ count: 4, has_more: false, next_cursor: null });
    const one = await request(app.url, 'GET', `/v1/crossborder/global-transfer/${created[3]}`, { token: tokenA });
    expect(res.body.data[0]).toEqual(one.body.data);
  });

  it('filters by type, status and customer, and pages with limit and after', async () => {
    expect((await list(tokenA, '?type=transfer')).body.data.map((t: { reference: string }) => t.reference)).toEqual([created[3]]);
    const forCustomer = await list(tokenA, `?type=collection&customer_uuid=${customerA}`);
    expect(forCustomer.body.data.map((t: { reference: string }) => t.reference)).toEqual([created[1], created[0]]);
    expect((await list(tokenA, '?status=successful')).body.data).toEqual([]);
    expect((await list(tokenA, '?status=processing')).body.data).toHaveLength(4);

    const first = await list(tokenA, '?limit=3');
    expect(first.body.meta).toMatchObject({ count: 3, has_more: true });
    const second = await list(tokenA, `?limit=3&after=${encodeURIComponent(first.body.meta.next_cursor)}`);
    expect(second.body.data.map((t: { reference: string }) => t.reference)).toEqual([created[0]]);
    expect(second.body.meta).toEqual({ count: 1, has_more: false, next_cursor: null });
  });

  it('is the same list as GraphQL transactions(filter)', async () => {
    const gql = await graphql(
      app.url,
      `{ transactions(first: 10, filter: { type: COLLECTION, customerUuid: "${customerA}" }) { edges { node { reference } } } }`,
      { token: tokenA },
    );
    const rest = await list(tokenA, `?type=collection&customer_uuid=${customerA}`);
    expect(gql.body.data.transactions.edges.map((e: { node: { reference: string } }) => e.node.reference)).toEqual(
      rest.body.data.map((t: { reference: string }) => t.reference),
    );
  });

  it('filters by creation time: created_from inclusive, created_to exclusive, the same over GraphQL', async () => {
    const records = (await list(tokenA)).body.data as Array<{ reference: string; created_at: string }>;
    const byTime = [...records].reverse(); // oldest first: one second apart
    const from = byTime[1]!.created_at;
    const to = byTime[3]!.created_at;
    const window = await list(tokenA, `?created_from=${encodeURIComponent(from)}&created_to=${encodeURIComponent(to)}`);
    expect(window.status).toBe(200);
    expect(window.body.data.map((t: { reference: string }) => t.reference)).toEqual([byTime[2]!.reference, byTime[1]!.reference]);

    const gql = await graphql(
      app.url,
      `
        query ($from: DateTime, $to: DateTime) {
          transactions(filter: { createdFrom: $from, createdTo: $to }) {
            edges {
              node {
                reference
              }
            }
          }
        }
      `,
      { token: tokenA, variables: { from, to } },
    );
    expect(gql.body.data.transactions.edges.map((e: { node: { reference: string } }) => e.node.reference)).toEqual(
      window.body.data.map((t: { reference: string }) => t.reference),
    );
    const bad = await list(tokenA, '?created_from=yesterday');
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual([expect.objectContaining({ field: 'created_from' })]);
  });

  it('never shows another merchant’s transactions: B sees only its own, and A’s customer as a filter gives an empty list', async () => {
    const b = await list(tokenB);
    expect(b.body.data).toHaveLength(1);
    expect(b.body.data[0].customer_uuid).toBe(customerB);
    expect((await list(tokenB, `?customer_uuid=${customerA}`)).body).toMatchObject({ data: [], meta: { count: 0, has_more: false } });
    // A's cursor on B's list: still only B's rows (the cursor is a position, not an authorisation).
    const aCursor = (await list(tokenA, '?limit=1')).body.meta.next_cursor;
    const bWithA = await list(tokenB, `?after=${encodeURIComponent(aCursor)}`);
    expect(bWithA.status).toBe(200);
    expect(bWithA.body.data.every((t: { customer_uuid: string }) => t.customer_uuid === customerB)).toBe(true);
  });

  it('search finds by the service’s reference, the merchant’s own, or a customer’s email in any case', async () => {
    const refs = (res: { body: { data: Array<{ reference: string }> } }) => res.body.data.map((t) => t.reference);
    expect(refs(await list(tokenA, `?search=${created[2]}`))).toEqual([created[2]]);
    const own = (await request(app.url, 'GET', `/v1/crossborder/global-transfer/${created[3]}`, { token: tokenA })).body.data.external_reference;
    expect(refs(await list(tokenA, `?search=${encodeURIComponent(own)}`))).toEqual([created[3]]);
    // Stored as enrolled ('Wanjiru.K@Example.com'); found in any case, and with spaces around it.
    expect(refs(await list(tokenA, `?search=${encodeURIComponent(' wanjiru.k@example.COM ')}`))).toEqual([created[2]]);
    // With other filters, both apply.
    expect(refs(await list(tokenA, '?search=amina%40example.com&type=collection'))).toEqual([created[1], created[0]]);
    expect(refs(await list(tokenA, '?search=amina%40example.com&limit=1'))).toEqual([created[3]]);
    // Not a prefix or a part: exact only.
    expect(refs(await list(tokenA, `?search=${created[2]!.slice(0, 10)}`))).toEqual([]);
    expect(refs(await list(tokenA, '?search=wanjiru'))).toEqual([]);
    for (const bad of ['%20%20', 'col_1%00', 'x'.repeat(255)]) {
      const res = await list(tokenA, `?search=${bad}`);
      expect(res.status).toBe(400);
      expect(res.body.details).toEqual([expect.objectContaining({ field: 'search' })]);
    }
  });

  it('search never finds another merchant’s transactions, by reference or by a customer email both merchants have', async () => {
    const refs = (res: { body: { data: Array<{ reference: string }> } }) => res.body.data.map((t) => t.reference);
    expect(refs(await list(tokenB, `?search=${created[0]}`))).toEqual([]);
    const own = (await request(app.url, 'GET', `/v1/crossborder/global-transfer/${created[0]}`, { token: tokenA })).body.data.external_reference;
    expect(refs(await list(tokenB, `?search=${encodeURIComponent(own)}`))).toEqual([]);
    expect(refs(await list(tokenB, '?search=wanjiru.k%40example.com'))).toEqual([]);
    // Both merchants have a customer amina@example.com: each finds only its own transactions.
    const bOwn = await list(tokenB, '?search=amina%40example.com');
    expect(bOwn.body.data).toHaveLength(1);
    expect(bOwn.body.data[0].customer_uuid).toBe(customerB);
    expect(refs(await list(tokenA, '?search=amina%40example.com'))).toEqual([created[3], created[1], created[0]]);
  });

  it('bad filters are 400 naming the field; no token is 401', async () => {
    const badStatus = await list(tokenA, '?status=done');
    expect(badStatus.status).toBe(400);
    expect(badStatus.body.details).toEqual([expect.objectContaining({ field: 'status' })]);
    expect((await list(tokenA, '?type=payoff')).body.details).toEqual([expect.objectContaining({ field: 'type' })]);
    expect((await list(tokenA, '?customer_uuid=nope')).body.details).toEqual([expect.objectContaining({ field: 'customer_uuid' })]);
    expect((await list(tokenA, '?limit=101')).status).toBe(400);
    expect((await list(tokenA, '?after=not-a-cursor')).body.details).toEqual([expect.objectContaining({ field: 'after' })]);
    expect((await request(app.url, 'GET', '/v1/transactions')).status).toBe(401);
  });
});

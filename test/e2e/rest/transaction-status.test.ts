import { twoMerchants } from '../../helpers/factories';
import { graphql, request } from '../../helpers/http';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { bankCollectionBody, getTransaction, momoCollectionBody, newReference, transferBody } from '../../helpers/transactions';

const COLLECT = '/v1/crossborder/global-collection';
const TRANSFER = '/v1/crossborder/global-transfer';
const STATUS_PATH = (reference: string) => `/v1/crossborder/global-transfer/${encodeURIComponent(reference)}`;
const simulatePath = (reference: string) => `/v1/sandbox/transactions/${encodeURIComponent(reference)}/simulate`;

/**
 * GET /v1/crossborder/global-transfer/{reference}. Settlement is set far in the
 * future (SANDBOX_SETTLE_MS), so a transaction stays processing until the test
 * decides it with the sandbox simulate route, and every timestamp is the manual clock's.
 */
describe('REST GET /v1/crossborder/global-transfer/{reference}', () => {
  let app: TestApp;
  let tokenA: string;
  let tokenB: string;
  let customerA: string;
  let customerB: string;

  beforeAll(async () => {
    app = await createTestApp({ env: { SANDBOX_SETTLE_MS: '600000' } });
    const { mine, theirs } = await twoMerchants(app, 'Status Merchant', { approvedCustomer: true });
    [tokenA, tokenB, customerA, customerB] = [mine.token, theirs.token, mine.customerUuid, theirs.customerUuid];
  });
  afterAll(() => app.close());

  const post = (path: string, body: unknown, token = tokenA) => request(app.url, 'POST', path, { token, body });

  /** GET by the service reference and by the merchant's; both must answer the same record. */
  async function byBothReferences(reference: string, externalReference: string, token = tokenA) {
    const byService = await getTransaction(app, token, reference);
    const byExternal = await getTransaction(app, token, externalReference);
    expect(byService.status).toBe(200);
    expect(byExternal.status).toBe(200);
    expect(byExternal.body).toEqual(byService.body);
    expect(byService.body).toMatchObject({ status: 'success', message: expect.any(String) });
    return byService.body.data;
  }

  it('returns a mobile money collection’s full record, by either reference; a decision fills failure_reason and completed_at', async () => {
    const createdAt = app.clock.now().toISOString();
    // Airtel Money: M-Pesa takes whole shillings only (docs/providers.md, "Rules").
    const body = momoCollectionBody(customerA, { amount: '1500.50', network_id: 'ke_airtel_money' });
    const created = await post(COLLECT, body);
    expect(created.status).toBe(200);
    const { reference } = created.body.data;

    const record = await byBothReferences(reference, body.reference);
    expect(record).toEqual({
      reference,
      external_reference: body.reference,
      type: 'collection',
      status: 'processing',
      failure_reason: null,
      fee: 15.01,
      customer_uuid: customerA,
      account_type: 'momo',
      country_code: 'KE',
      channel_id: 'ke_momo_deposit',
      network_id: 'ke_airtel_money',
      dial_code: '+254',
      reason: 'Invoice 42',
      provider_reference: expect.stringMatching(/^sbx_prompt_[0-9a-f]{20}$/),
      amount: 1500.5,
      currency: 'KES',
      account_number: '712345678',
      expires_at: null,
      created_at: createdAt,
      updated_at: createdAt,
      completed_at: null,
      available_at: null,
    });

    app.clock.advance(5_000);
    const decidedAt = app.clock.now().toISOString();
    expect((await post(simulatePath(reference), { outcome: 'failed' })).status).toBe(200);
    const decided = await byBothReferences(reference, body.reference);
    expect(decided).toEqual({
      ...record,
      status: 'failed',
      failure_reason: 'simulated_failure',
      updated_at: decidedAt,
      completed_at: decidedAt,
      // A failed collection makes nothing available, and charged no fee (issue 41).
      available_at: null,
      fee: 0,
    });
  });

  it('returns a bank collection with its bankInfo and expires_at (COLLECTION_TTL_S after creation)', async () => {
    const now = app.clock.now();
    const body = bankCollectionBody(customerA);
    const created = await post(COLLECT, body);
    const record = await byBothReferences(created.body.data.reference, body.reference);
    expect(record).toMatchObject({
      type: 'collection',
      status: 'processing',
      account_type: 'bank',
      channel_id: 'ke_bank_deposit',
      network_id: 'ke_kcb',
      amount: 5000,
      currency: 'KES',
      bankInfo: created.body.data.bankInfo,
      provider_reference: expect.stringMatching(/^sbx_va_[0-9a-f]{20}$/),
      expires_at: new Date(now.getTime() + 86_400_000).toISOString(),
      completed_at: null,
    });
  });

  it('returns a transfer’s full record, by either reference; success leaves failure_reason null and sets completed_at', async () => {
    const createdAt = app.clock.now().toISOString();
    const body = transferBody(customerA, { amount: 100 });
    const created = await post(TRANSFER, body);
    expect(created.status).toBe(200);
    const init = created.body.data;

    const record = await byBothReferences(init.reference, body.reference);
    expect(record).toEqual({
      reference: init.reference,
      external_reference: body.reference,
      type: 'transfer',
      status: 'processing',
      failure_reason: null,
      customer_uuid: customerA,
      account_type: 'momo',
      country_code: 'KE',
      channel_id: 'ke_momo_withdrawal',
      network_id: 'ke_mpesa',
      dial_code: '+254',
      reason: 'Supplier payout',
      provider_reference: expect.stringMatching(/^sbx_payout_[0-9a-f]{20}$/),
      source_amount: 100,
      source_currency: 'USD',
      destination_amount: init.destination_amount,
      destination_currency: 'KES',
      rate: init.rate,
      fee: init.fee,
      quote_id: null,
      beneficiary: { account_name: 'Jane Wanjiru', account_number: '712345678', network_id: 'ke_mpesa' },
      created_at: createdAt,
      updated_at: createdAt,
      completed_at: null,
    });

    app.clock.advance(7_000);
    const decidedAt = app.clock.now().toISOString();
    expect((await post(simulatePath(body.reference), { outcome: 'successful' })).status).toBe(200);
    expect(await byBothReferences(init.reference, body.reference)).toEqual({
      ...record,
      status: 'successful',
      updated_at: decidedAt,
      completed_at: decidedAt,
    });
  });

  it('answers another merchant’s reference, in either form, with 404 NOT_FOUND identical to an unknown reference', async () => {
    const body = momoCollectionBody(customerA);
    const { reference } = (await post(COLLECT, body)).body.data;
    const unknown = await getTransaction(app, tokenB, 'col_000000000000000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ status: 'error', code: 'NOT_FOUND', message: 'Transaction not found' });
    for (const ref of [reference, body.reference]) {
      const theirs = await getTransaction(app, tokenB, ref);
      expect(theirs.status).toBe(404);
      expect(theirs.body).toEqual(unknown.body);
    }
    // The owner still sees it.
    expect((await getTransaction(app, tokenA, reference)).status).toBe(200);
  });

  it('keeps references unique per merchant: A and B may both use one, and each sees only its own', async () => {
    const shared = newReference('shared');
    const a = await post(COLLECT, momoCollectionBody(customerA, { reference: shared, amount: 111 }), tokenA);
    const b = await post(TRANSFER, transferBody(customerB, { reference: shared, amount: 22 }), tokenB);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(a.body.data.reference).not.toBe(b.body.data.reference);

    const seenByA = (await getTransaction(app, tokenA, shared)).body.data;
    expect(seenByA).toMatchObject({ reference: a.body.data.reference, type: 'collection', customer_uuid: customerA, amount: 111 });
    const seenByB = (await getTransaction(app, tokenB, shared)).body.data;
    expect(seenByB).toMatchObject({ reference: b.body.data.reference, type: 'transfer', customer_uuid: customerB, source_amount: 22 });

    // Neither sees the other's by its service reference.
    expect((await getTransaction(app, tokenA, b.body.data.reference)).status).toBe(404);
    expect((await getTransaction(app, tokenB, a.body.data.reference)).status).toBe(404);
    // And within one merchant the reference is still taken.
    const again = await post(COLLECT, momoCollectionBody(customerA, { reference: shared }), tokenA);
    expect(again.status).toBe(409);
  });

  it('prefers the service’s reference when a merchant reference repeats another transaction’s service reference', async () => {
    const first = await post('/v1/crossborder/global-collection', momoCollectionBody(customerA));
    expect(first.status).toBe(200);
    // A second transaction whose merchant reference is the first one's service reference, and which
    // sorts before it (an earlier timestamp), so neither age nor insertion order can pick the right one.
    app.clock.advance(-60_000);
    const second = await post('/v1/crossborder/global-collection', momoCollectionBody(customerA, { reference: first.body.data.reference }));
    expect(second.status).toBe(200);
    const found = await getTransaction(app, tokenA, first.body.data.reference);
    expect(found.status).toBe(200);
    expect(found.body.data.reference).toBe(first.body.data.reference);
    expect(found.body.data.external_reference).toBe(first.body.data.external_reference);
    // The second is still found by its own service reference.
    expect((await getTransaction(app, tokenA, second.body.data.reference)).body.data.external_reference).toBe(first.body.data.reference);
    app.clock.advance(60_000);
  });

  it('GET /v1/transactions/{reference}/events: the status history, oldest first, by either reference, as GraphQL’s history', async () => {
    const body = momoCollectionBody(customerA);
    const { reference } = (await post(COLLECT, body)).body.data;
    const createdAt = app.clock.now().toISOString();
    app.clock.advance(5_000);
    const decidedAt = app.clock.now().toISOString();
    expect((await post(simulatePath(reference), { outcome: 'failed' })).status).toBe(200);

    const history = await request(app.url, 'GET', `/v1/transactions/${encodeURIComponent(reference)}/events`, { token: tokenA });
    expect(history.status).toBe(200);
    expect(history.body).toMatchObject({ status: 'success', message: 'Status history retrieved', meta: { count: 2 } });
    const entries = history.body.data;
    expect(entries).toEqual([
      { from_status: null, to_status: 'processing', reason: expect.any(String), occurred_at: createdAt },
      { from_status: 'processing', to_status: 'failed', reason: expect.any(String), occurred_at: decidedAt },
    ]);
    const byExternal = await request(app.url, 'GET', `/v1/transactions/${encodeURIComponent(body.reference)}/events`, { token: tokenA });
    expect(byExternal.body.data).toEqual(entries);

    // The same entries through GraphQL, field for field (its statuses are enum values).
    const gql = await graphql(
      app.url,
      `
        query ($r: String!) {
          transaction(reference: $r) {
            history {
              fromStatus
              toStatus
              reason
              occurredAt
            }
          }
        }
      `,
      {
        variables: { r: reference },
        token: tokenA,
      },
    );
    expect(gql.body.data.transaction.history).toEqual(
      entries.map((e: any) => ({
        fromStatus: e.from_status?.toUpperCase() ?? null,
        toStatus: e.to_status.toUpperCase(),
        reason: e.reason,
        occurredAt: e.occurred_at,
      })),
    );

    // Another merchant's reference is unknown, as on the status route.
    const theirs = await request(app.url, 'GET', `/v1/transactions/${encodeURIComponent(reference)}/events`, { token: tokenB });
    expect({ status: theirs.status, code: theirs.body.code }).toEqual({ status: 404, code: 'NOT_FOUND' });
  });

  it('needs a token', async () => {
    const res = await request(app.url, 'GET', STATUS_PATH('col_000000000000000000000000'));
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('INVALID_TOKEN');
  });

  it.each(['INV-2026.11:22_a', '..a', 'a..', '.a.'])('finds a transaction by any reference the service accepted, e.g. %j', async (reference) => {
    const created = await post(COLLECT, momoCollectionBody(customerA, { reference }));
    expect(created.status).toBe(200);
    // Looked up the way any standard HTTP client (fetch, curl, a browser) sends it: dot segments are normalised away.
    const found = await getTransaction(app, tokenA, reference);
    expect(found.status).toBe(200);
    expect(found.body.data.reference).toBe(created.body.data.reference);
  });

  it.each(['.', '..'])('refuses the reference %j at creation (400 reference): no URL path could look it up', async (reference) => {
    const res = await post(COLLECT, momoCollectionBody(customerA, { reference }));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INVALID_REQUEST');
    expect(res.body.details).toEqual([{ field: 'reference', issue: expect.any(String) }]);
  });
});

import { approvedCustomer } from '../../helpers/factories';
import { graphql, request, type HttpResult } from '../../helpers/http';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { eventually } from '../../helpers/wait';
import { momoCollectionBody, momoCollectionInput } from '../../helpers/transactions';

/**
 * CONTRACT §6: a merchant's reference is unique under concurrency, whichever door
 * the requests come through. The database constraint decides; exactly one request
 * creates the transaction, and its settlement writes exactly one outbox event.
 */
const CONCURRENCY = 50;

const COLLECT = `mutation($input: InitiateCollectionInput!) { initiateCollection(input: $input) { reference externalReference status } }`;

let seq = 0;
const nextReference = () => `conc-${Date.now()}-${++seq}`;

describe('concurrent collections with one reference', () => {
  let app: TestApp;
  let token: string;
  let merchantId: string;
  let customerUuid: string;

  beforeAll(async () => {
    app = await createTestApp({ env: { SANDBOX_SETTLE_MS: '100' } });
    const merchant = await app.createMerchant('Concurrency Merchant');
    merchantId = merchant.merchant.id;
    token = (await app.token(merchant)).accessToken;
    customerUuid = (await approvedCustomer(app, token)).customer_uuid;
  });
  afterAll(() => app.close());

  const restBody = (reference: string) => momoCollectionBody(customerUuid, { amount: '1500', reason: 'Concurrency', reference });
  const graphqlInput = (reference: string) => momoCollectionInput(customerUuid, { reason: 'Concurrency', reference });
  const viaRest = (reference: string) => request(app.url, 'POST', '/v1/crossborder/global-collection', { token, body: restBody(reference) });
  const viaGraphql = (reference: string) => graphql(app.url, COLLECT, { token, variables: { input: graphqlInput(reference) } });

  const count = async (sql: string, params: unknown[]) => {
    const [row] = await app.service.orm.em.fork().execute<Array<{ n: number }>>(sql, params);
    return row!.n;
  };
  const transactionRows = (reference: string) =>
    count(`select count(*)::int as n from "transaction" where merchant_id = ? and external_reference = ?`, [merchantId, reference]);
  const outboxRows = (serviceReference: string) =>
    count(`select count(*)::int as n from outbox_event where merchant_id = ? and subject_id = ?`, [merchantId, serviceReference]);

  /** Waits for the sandbox to settle the one transaction; returns its status. */
  async function awaitSettled(serviceReference: string): Promise<string> {
    let status = 'processing';
    await eventually(async () => {
      status = (await request(app.url, 'GET', `/v1/crossborder/global-transfer/${serviceReference}`, { token })).body.data.status;
      return status !== 'processing';
    });
    return status;
  }

  /**
   * After settlement, exactly one outbox event, and no second one turns up later: a sentinel
   * collection made after it is settled too, and no settlement is left that could add one.
   */
  async function expectOneOutboxEvent(serviceReference: string) {
    expect(await awaitSettled(serviceReference)).toBe('successful');
    expect(await outboxRows(serviceReference)).toBe(1);
    const sentinel = await viaRest(nextReference());
    expect(sentinel.status).toBe(200);
    expect(await awaitSettled(sentinel.body.data.reference)).toBe('successful');
    expect(await eventually(async () => (await settleJobsLeft()) === 0)).toBe(true);
    expect(await outboxRows(serviceReference)).toBe(1);
  }
  const settleJobsLeft = () => count(`select count(*)::int as n from settlement_due`, []);

  it(`${CONCURRENCY} identical REST requests: one 200, ${CONCURRENCY - 1} × 409 naming it, one row, one outbox event`, async () => {
    const reference = nextReference();
    const responses = await Promise.all(Array.from({ length: CONCURRENCY }, () => viaRest(reference)));

    const created = responses.filter((r) => r.status === 200);
    const duplicates = responses.filter((r) => r.status === 409);
    expect(created).toHaveLength(1);
    expect(duplicates).toHaveLength(CONCURRENCY - 1);
    const winner = created[0]!.body.data;
    expect(winner).toMatchObject({ external_reference: reference, status: 'processing' });
    for (const dup of duplicates) {
      expect(dup.body).toMatchObject({ status: 'error', code: 'DUPLICATE_REQUEST' });
      expect(dup.body.details).toEqual([{ field: 'reference', issue: `already used by transaction ${winner.reference}` }]);
    }

    expect(await transactionRows(reference)).toBe(1);
    await expectOneOutboxEvent(winner.reference);
  });

  it(`${CONCURRENCY} identical requests split between REST and GraphQL: one success overall, ${CONCURRENCY - 1} duplicates, one row, one outbox event`, async () => {
    const reference = nextReference();
    const calls: Array<Promise<{ door: 'rest' | 'graphql'; res: HttpResult }>> = [];
    for (let i = 0; i < CONCURRENCY; i++) {
      calls.push(
        i % 2 === 0
          ? viaRest(reference).then((res) => ({ door: 'rest' as const, res }))
          : viaGraphql(reference).then((res) => ({ door: 'graphql' as const, res })),
      );
    }
    const results = await Promise.all(calls);
    expect(results.filter((r) => r.door === 'rest')).toHaveLength(CONCURRENCY / 2);

    const winners: string[] = [];
    let duplicates = 0;
    for (const { door, res } of results) {
      if (door === 'rest') {
        if (res.status === 200) winners.push(res.body.data.reference);
        else if (res.status === 409 && res.body.code === 'DUPLICATE_REQUEST') duplicates += 1;
        else throw new Error(`unexpected REST answer: ${res.status} ${res.text}`);
      } else {
        const data = res.body.data?.initiateCollection;
        const code = res.body.errors?.[0]?.extensions?.code;
        if (data && !res.body.errors) winners.push(data.reference);
        else if (code === 'DUPLICATE_REQUEST' && res.body.data === null) duplicates += 1;
        else throw new Error(`unexpected GraphQL answer: ${res.status} ${res.text}`);
      }
    }
    expect(winners).toHaveLength(1);
    expect(duplicates).toBe(CONCURRENCY - 1);

    expect(await transactionRows(reference)).toBe(1);
    await expectOneOutboxEvent(winners[0]!);
  });
});

import { approvedCustomer } from '../../helpers/factories';
import { graphql, request, type HttpResult } from '../../helpers/http';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { momoCollectionBody, momoCollectionInput, newReference, transferBody } from '../../helpers/transactions';
import { dbQuery } from '../../helpers/webhooks';
import { INITIATE_TRANSFER, initiateCollectionGql } from '../../helpers/engine';

/**
 * CONTRACT §6: a merchant's reference is unique across every kind of transaction and
 * under concurrency, whichever door the requests come through. Counted in PostgreSQL
 * directly: one row, one history entry, however many requests raced.
 */
const CONCURRENCY = 200;

describe('engine: one merchant reference, one transaction', () => {
  let app: TestApp;
  let token: string;
  let merchantId: string;
  let customerUuid: string;

  beforeAll(async () => {
    // Settlement far in the future: the transaction stays processing with its single creation entry.
    app = await createTestApp({ env: { SANDBOX_SETTLE_MS: '600000' } });
    const merchant = await app.createMerchant('Engine Reference Merchant');
    merchantId = merchant.merchant.id;
    token = (await app.token(merchant)).accessToken;
    customerUuid = (await approvedCustomer(app, token)).customer_uuid;
  });
  afterAll(() => app.close());

  const rowsFor = (reference: string) =>
    dbQuery<{ id: string; reference: string; kind: string; status: string }>(
      app.db.url,
      'select id, reference, kind, status from "transaction" where merchant_id = $1 and external_reference = $2',
      [merchantId, reference],
    );
  const historyCount = async (transactionId: string) =>
    (await dbQuery<{ n: number }>(app.db.url, 'select count(*)::int as n from transaction_history where transaction_id = $1', [transactionId]))[0]!.n;

  it(`${CONCURRENCY} concurrent momo collections with one reference over REST and GraphQL: one success, ${CONCURRENCY - 1} × 409 DUPLICATE_REQUEST, one row with one history entry`, async () => {
    const reference = newReference('eng-dup');
    const calls: Array<Promise<{ door: 'rest' | 'graphql'; res: HttpResult }>> = [];
    for (let i = 0; i < CONCURRENCY; i++) {
      calls.push(
        i % 2 === 0
          ? request(app.url, 'POST', '/v1/crossborder/global-collection', { token, body: momoCollectionBody(customerUuid, { reference }) }).then((res) => ({
              door: 'rest' as const,
              res,
            }))
          : initiateCollectionGql(app.url, token, momoCollectionInput(customerUuid, { reference })).then((res) => ({ door: 'graphql' as const, res })),
      );
    }
    const results = await Promise.all(calls);

    const winners: Array<{ door: string; reference: string }> = [];
    const duplicates: Array<{ door: string; names: unknown }> = [];
    const unexpected: string[] = [];
    for (const { door, res } of results) {
      if (door === 'rest') {
        if (res.status === 200 && res.body?.status === 'success') winners.push({ door, reference: res.body.data.reference });
        else if (res.status === 409 && res.body?.code === 'DUPLICATE_REQUEST') duplicates.push({ door, names: res.body.details });
        else unexpected.push(`REST ${res.status} ${res.text}`);
      } else {
        const error = res.body?.errors?.[0];
        if (res.body?.data?.initiateCollection && !res.body.errors) winners.push({ door, reference: res.body.data.initiateCollection.reference });
        else if (error?.extensions?.code === 'DUPLICATE_REQUEST' && res.body.data === null) {
          duplicates.push({ door, names: error.extensions.details });
          if (error.extensions.http?.status !== 409) unexpected.push(`GraphQL duplicate without http status 409: ${res.text}`);
        } else unexpected.push(`GraphQL ${res.status} ${res.text}`);
      }
    }
    expect(unexpected).toEqual([]);
    expect(winners).toHaveLength(1);
    expect(duplicates).toHaveLength(CONCURRENCY - 1);
    // Both doors answered duplicates (the split really went through both).
    expect(new Set(duplicates.map((d) => d.door))).toEqual(new Set(['rest', 'graphql']));
    // Every duplicate names the one transaction that won, so a client that timed out can find it.
    const winner = winners[0]!.reference;
    for (const d of duplicates) expect(d.names).toEqual([{ field: 'reference', issue: `already used by transaction ${winner}` }]);

    const rows = await rowsFor(reference);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ reference: winner, kind: 'collection', status: 'processing' });
    expect(await historyCount(rows[0]!.id)).toBe(1);
  });

  it('a reference used by a collection is refused for a transfer (REST and GraphQL), and the other way round', async () => {
    const reference = newReference('eng-kind');
    const collection = await request(app.url, 'POST', '/v1/crossborder/global-collection', { token, body: momoCollectionBody(customerUuid, { reference }) });
    expect(collection.status).toBe(200);
    const collectionRef = collection.body.data.reference as string;

    const restTransfer = await request(app.url, 'POST', '/v1/crossborder/global-transfer', { token, body: transferBody(customerUuid, { reference }) });
    expect(restTransfer.status).toBe(409);
    expect(restTransfer.body).toMatchObject({ status: 'error', code: 'DUPLICATE_REQUEST' });
    expect(restTransfer.body.details).toEqual([{ field: 'reference', issue: `already used by transaction ${collectionRef}` }]);

    const t = transferBody(customerUuid, { reference });
    const gqlTransfer = await graphql(app.url, INITIATE_TRANSFER, {
      token,
      variables: {
        input: {
          customerUuid,
          amount: String(t.amount),
          sourceCurrency: t.source_currency,
          destinationCurrency: t.destination_currency,
          countryCode: t.country_code,
          channelId: t.channel_id,
          networkId: t.network_id,
          accountNumber: t.account_number,
          accountName: t.account_name,
          dialCode: t.dial_code,
          accountType: 'MOMO',
          reason: t.reason,
          reference,
        },
      },
    });
    expect(gqlTransfer.body.data).toBeNull();
    expect(gqlTransfer.body.errors?.[0]?.extensions?.code).toBe('DUPLICATE_REQUEST');

    const rows = await rowsFor(reference);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ reference: collectionRef, kind: 'collection' });

    // A transfer first, then a collection with its reference.
    const other = newReference('eng-kind');
    const transfer = await request(app.url, 'POST', '/v1/crossborder/global-transfer', { token, body: transferBody(customerUuid, { reference: other }) });
    expect(transfer.status).toBe(200);
    const laterCollection = await request(app.url, 'POST', '/v1/crossborder/global-collection', {
      token,
      body: momoCollectionBody(customerUuid, { reference: other }),
    });
    expect(laterCollection.status).toBe(409);
    expect(laterCollection.body.code).toBe('DUPLICATE_REQUEST');
    const otherRows = await rowsFor(other);
    expect(otherRows).toHaveLength(1);
    expect(otherRows[0]).toMatchObject({ reference: transfer.body.data.reference, kind: 'transfer' });
  });
});

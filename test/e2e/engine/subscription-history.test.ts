import type { Client } from 'graphql-ws';
import { approvedCustomer } from '../../helpers/factories';
import { graphql, request } from '../../helpers/http';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { momoCollectionBody, newReference } from '../../helpers/transactions';
import { eventually } from '../../helpers/wait';
import { collect as subscribe, connect } from '../../helpers/ws';

/**
 * A subscription may select every field of Transaction, including `history`, which
 * is resolved per event, outside any HTTP request: the event must arrive without
 * errors and carry the history as the `transaction` query shows it.
 */
const WITH_HISTORY = 'reference externalReference status history { fromStatus toStatus reason }';

describe('engine: transactionStatusChanged selecting history', () => {
  let app: TestApp;
  let token: string;
  let customerUuid: string;
  let client: Client;

  beforeAll(async () => {
    // No automatic settlement: the simulate route decides each transaction.
    app = await createTestApp({ env: { SANDBOX_SETTLE_MS: '600000' } });
    token = (await app.token(await app.createMerchant('History Subscriber'))).accessToken;
    customerUuid = (await approvedCustomer(app, token)).customer_uuid;
    client = connect(app, token);
  });
  afterAll(async () => {
    await client?.dispose();
    await app?.close();
  });

  async function collection(): Promise<{ reference: string; externalReference: string }> {
    const externalReference = newReference('sub-hist');
    const res = await request(app.url, 'POST', '/v1/crossborder/global-collection', {
      token,
      body: momoCollectionBody(customerUuid, { reference: externalReference }),
    });
    if (res.status !== 200) throw new Error(`collection failed: ${res.status} ${res.text}`);
    return { reference: res.body.data.reference, externalReference };
  }

  /**
   * Subscribes, then decides the transaction once the socket has answered a query sent
   * after the subscription: graphql-transport-ws has no "subscribed" acknowledgement,
   * and the server handles one socket's messages in order, so that round trip is the
   * barrier (no sleep). Waits, boundedly, for the first message.
   */
  async function decideWhileSubscribed(reference: string, query: string, variables: Record<string, unknown>) {
    const sub = subscribe(client, query, variables);
    await new Promise<void>((resolve, reject) => {
      const stop = client.subscribe(
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
    const simulated = await request(app.url, 'POST', `/v1/sandbox/transactions/${reference}/simulate`, { token, body: { outcome: 'successful' } });
    const arrived = await eventually(async () => sub.received.length > 0 || sub.errors.length > 0, { attempts: 100, everyMs: 50 });
    sub.stop();
    return { arrived, simulated: simulated.status, ...sub };
  }

  it('control: the same subscription without history delivers the decision', async () => {
    const { reference, externalReference } = await collection();
    const result = await decideWhileSubscribed(
      reference,
      `subscription($r: String) { transactionStatusChanged(reference: $r) { reference externalReference status } }`,
      {
        r: externalReference,
      },
    );
    expect(result.simulated).toBe(200);
    expect(result.arrived).toBe(true);
    expect(result.errors).toEqual([]);
    expect(result.received[0]).toEqual({ data: { transactionStatusChanged: { reference, externalReference, status: 'SUCCESSFUL' } } });
  });

  it('control: the transaction query over HTTP resolves history', async () => {
    const { reference } = await collection();
    const res = await graphql(app.url, `query($r: String!) { transaction(reference: $r) { ${WITH_HISTORY} } }`, { token, variables: { r: reference } });
    expect(res.body.errors).toBeUndefined();
    const history = res.body.data.transaction.history as Array<{ toStatus: string }>;
    expect(history.filter((h) => h.toStatus === 'PROCESSING')).toHaveLength(1);
    expect(history.at(-1)).toMatchObject({ toStatus: 'PROCESSING', reason: 'initiated' });
  });

  it('a subscription selecting history (one reference) receives the event without errors, its history ending with the successful entry', async () => {
    const { reference, externalReference } = await collection();
    const result = await decideWhileSubscribed(reference, `subscription($r: String) { transactionStatusChanged(reference: $r) { ${WITH_HISTORY} } }`, {
      r: reference,
    });
    expect(result.arrived).toBe(true);
    expect(result.errors).toEqual([]);
    const [message] = result.received;
    expect(message?.errors).toBeUndefined();
    const event = message?.data?.transactionStatusChanged;
    expect(event).toMatchObject({ reference, externalReference, status: 'SUCCESSFUL' });
    expect(event.history.at(-1)).toEqual({ fromStatus: 'PROCESSING', toStatus: 'SUCCESSFUL', reason: 'simulation' });
    expect(event.history.filter((h: any) => h.toStatus === 'SUCCESSFUL')).toHaveLength(1);
    // The event's history is the record's history, as the query shows it after the commit.
    const query = await graphql(app.url, `query($r: String!) { transaction(reference: $r) { ${WITH_HISTORY} } }`, { token, variables: { r: reference } });
    expect(event).toEqual(query.body.data.transaction);
  });

  it('a subscription to all transactions selecting history gets the same', async () => {
    const { reference } = await collection();
    const result = await decideWhileSubscribed(reference, `subscription { transactionStatusChanged { ${WITH_HISTORY} } }`, {});
    expect(result.arrived).toBe(true);
    expect(result.errors).toEqual([]);
    const [message] = result.received;
    expect(message?.errors).toBeUndefined();
    expect(message?.data?.transactionStatusChanged?.reference).toBe(reference);
    expect(message?.data?.transactionStatusChanged?.history?.at(-1)).toEqual({ fromStatus: 'PROCESSING', toStatus: 'SUCCESSFUL', reason: 'simulation' });
  });
});

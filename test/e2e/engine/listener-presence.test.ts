import Redis from 'ioredis';
import { TransactionTopic } from '../../../src/modules/transactions/transaction.topics';
import { approvedCustomer } from '../../helpers/factories';
import { request } from '../../helpers/http';
import { momoCollectionBody } from '../../helpers/transactions';
import { startTwoInstances, type TwoInstances } from '../../helpers/two-instances';
import { eventually } from '../../helpers/wait';
import { collect, connectTo, subscribeLive } from '../../helpers/ws';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const SUBSCRIPTION = 'subscription { transactionStatusChanged { reference status } }';

/**
 * Issue 24: a transaction's creation is published to subscribers only when some instance has a
 * subscriber of the merchant's transactions (events/listener-presence.ts); a final status always is.
 * Two instances on one database and one Redis; the test reads the pub/sub channel itself.
 */
describe('creations are published only when someone listens', () => {
  let instances: TwoInstances;
  let channel: Redis;
  /** The statuses published on the channel, by reference, in order. */
  const published = new Map<string, string[]>();

  beforeAll(async () => {
    instances = await startTwoInstances({ REDIS_URL, SANDBOX_SETTLE_MS: '600000' });
    channel = new Redis(REDIS_URL);
    await channel.subscribe(TransactionTopic.StatusChanged.name);
    channel.on('message', (_topic: string, message: string) => {
      const { reference, transaction } = JSON.parse(message) as { reference: string; transaction: { status: string } };
      published.set(reference, [...(published.get(reference) ?? []), transaction.status]);
    });
  });
  afterAll(async () => {
    channel?.disconnect();
    await instances?.close();
  });

  it('no subscriber anywhere: the creation is not published, the outcome is; a subscriber on B: A publishes creations; gone: not again', async () => {
    const { a, b } = instances;
    const merchant = await a.createMerchant('Presence');
    const token = (await a.token(merchant)).accessToken;
    const customer = await approvedCustomer(a, token);
    const collectOnA = async () =>
      (await request(a.url, 'POST', '/v1/crossborder/global-collection', { token, body: momoCollectionBody(customer.customer_uuid) })).body.data
        .reference as string;
    const decide = async (reference: string) =>
      expect((await request(a.url, 'POST', `/v1/sandbox/transactions/${reference}/simulate`, { token, body: { outcome: 'successful' } })).status).toBe(200);

    // Nobody listens: the outcome arrives on the channel, and nothing before it.
    const unheard = await collectOnA();
    await decide(unheard);
    expect(await eventually(async () => (published.get(unheard) ?? []).length > 0)).toBe(true);
    expect(published.get(unheard)).toEqual(['successful']);

    // A dashboard subscribes on B: once A has heard of it (milliseconds), A publishes creations, and B's subscriber gets them.
    const client = connectTo(b.url, token);
    const sub = await subscribeLive(b.url, client, SUBSCRIPTION);
    let heard = '';
    expect(
      await eventually(
        async () => {
          heard = await collectOnA();
          return (published.get(heard) ?? []).includes('processing');
        },
        { attempts: 40, everyMs: 50 },
      ),
    ).toBe(true);
    expect(await eventually(async () => sub.received.some((m) => m.data?.transactionStatusChanged?.reference === heard))).toBe(true);
    expect(sub.received.find((m) => m.data?.transactionStatusChanged?.reference === heard)!.data.transactionStatusChanged.status).toBe('PROCESSING');

    // The subscriber leaves: creations are not published again (once A has heard), outcomes still are.
    await client.dispose();
    let after = '';
    expect(
      await eventually(
        async () => {
          after = await collectOnA();
          await decide(after);
          await eventually(async () => (published.get(after) ?? []).includes('successful'));
          return (published.get(after) ?? []).join() === 'successful';
        },
        { attempts: 40, everyMs: 50 },
      ),
    ).toBe(true);
    expect(sub.errors).toEqual([]);
  });

  it('another merchant’s subscriber does not make this merchant’s creations published', async () => {
    const { a, b } = instances;
    const listening = await a.createMerchant('Listening');
    const quiet = await a.createMerchant('Quiet');
    const listeningToken = (await a.token(listening)).accessToken;
    const quietToken = (await a.token(quiet)).accessToken;
    const client = connectTo(b.url, listeningToken);
    try {
      const sub = collect(client, SUBSCRIPTION);
      const customer = await approvedCustomer(a, quietToken);
      const reference = (
        await request(a.url, 'POST', '/v1/crossborder/global-collection', { token: quietToken, body: momoCollectionBody(customer.customer_uuid) })
      ).body.data.reference as string;
      expect((await request(a.url, 'POST', `/v1/sandbox/transactions/${reference}/simulate`, { token: quietToken, body: { outcome: 'failed' } })).status).toBe(
        200,
      );
      expect(await eventually(async () => (published.get(reference) ?? []).length > 0)).toBe(true);
      expect(published.get(reference)).toEqual(['failed']);
      expect(sub.received).toEqual([]);
    } finally {
      await client.dispose();
    }
  });
});

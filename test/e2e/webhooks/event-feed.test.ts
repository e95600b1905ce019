import pino from 'pino';
import { Sql } from '../../../src/db/sql';
import { EventFeed, type RecordedEvent } from '../../../src/modules/webhooks/event-feed';
import { ManualClock } from '../../../src/shared/clock';
import { createTestApp, type TestApp } from '../../helpers/test-app';

/**
 * EventFeed (what `eventRecorded`, and so `listen`, streams) on the real event log: each event once, in order,
 * an event that commits late (stamped before one already streamed) included, nothing recorded before the stream
 * started, nothing of another merchant's, and an open read ended at once when the reader stops.
 */
describe('EventFeed: a merchant’s events as they are recorded', () => {
  let app: TestApp;
  let sql: Sql;
  let merchantId: string;
  let otherId: string;
  const clock = new ManualClock(new Date('2026-11-29T12:00:00Z'));
  let feed: EventFeed;
  let n = 0;

  /** Writes an event row as the outbox does, stamped `offsetMs` from the clock's time. */
  async function record(merchant: string, type: string, offsetMs = 0): Promise<string> {
    n += 1;
    const id = `evt_feed_${n}_${merchant.slice(0, 8)}`;
    await sql.query(`insert into outbox_event (id, merchant_id, type, subject_id, payload, created_at) values ($1, $2, $3, $4, $5::jsonb, $6)`, [
      id,
      merchant,
      type,
      `subject-${n}`,
      JSON.stringify({ n, text: 'ünïcode €' }),
      new Date(clock.now().getTime() + offsetMs),
    ]);
    return id;
  }

  beforeAll(async () => {
    app = await createTestApp();
    merchantId = (await app.createMerchant('Feed Merchant')).merchant.id;
    otherId = (await app.createMerchant('Other Merchant')).merchant.id;
    sql = new Sql({ url: app.db.url, max: 2, embedded: false, logger: pino({ level: 'silent' }) });
    feed = new EventFeed({ sql, clock, pollMs: 20 });
  });

  afterAll(async () => {
    await sql?.pool.end();
    await app?.close();
  });

  it('streams each new event once, in order, with the webhook body; a late commit too; nothing from before it started or of another merchant', async () => {
    // Recorded before the stream starts: not news (the first event streamed is `first`, below).
    await record(merchantId, 'collection.successful');
    const stream = await feed.stream(merchantId);
    try {
      const first = await record(merchantId, 'collection.successful', 1_000);
      await record(otherId, 'collection.successful', 1_500);
      const second = await record(merchantId, 'transfer.failed', 2_000);
      // The other merchant's event, between the two, is not among them.
      const got: RecordedEvent[] = [(await stream.next()).value, (await stream.next()).value];
      expect(got.map((e) => [e.id, e.type])).toEqual([
        [first, 'collection.successful'],
        [second, 'transfer.failed'],
      ]);
      // The body a delivery carries, byte for byte (webhookBody: the stored payload spliced in as PostgreSQL prints it).
      expect(got[0]!.body).toBe(
        `{"id":"${first}","type":"collection.successful","created_at":"2026-11-29T12:00:01.000Z","data":{"n": ${Number(first.split('_')[2])}, "text": "ünïcode €"}}`,
      );
      // Committed now, but stamped before `second`, which was already streamed: it still comes, once.
      const late = await record(merchantId, 'collection.failed', 500);
      expect((await stream.next()).value.id).toBe(late);
      const sentinel = await record(merchantId, 'payment.successful', 3_000);
      expect((await stream.next()).value.id).toBe(sentinel);
    } finally {
      await stream.return!();
    }
  });

  it('keeps only the types asked for', async () => {
    const stream = await feed.stream(merchantId, ['dispute.created']);
    try {
      await record(merchantId, 'payment.successful', 4_000);
      const wanted = await record(merchantId, 'dispute.created', 4_100);
      expect((await stream.next()).value).toMatchObject({ id: wanted, type: 'dispute.created' });
    } finally {
      await stream.return!();
    }
  });

  it('a read waiting for events ends as soon as the reader stops', async () => {
    const stream = await feed.stream(merchantId);
    const waiting = stream.next();
    await stream.return!();
    await expect(waiting).resolves.toEqual({ value: undefined, done: true });
  });
});

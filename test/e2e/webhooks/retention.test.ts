import { EVENT_PRUNE_BATCH } from '../../../src/modules/webhooks/event-retention';
import { startReceiver, type Receiver } from '../../helpers/receiver';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { awaitDelivery, dbQuery, getEvent, kycApprovedEvent, setEndpoint } from '../../helpers/webhooks';

/**
 * Issue 40, part 3: what only grows leaves the hot tables past its retention (docs/operations.md, "Retention"):
 * an event older than EVENT_RETENTION_DAYS whose delivery is over goes, with its delivery and attempts; one still
 * being retried stays until its delivery ends; jobs that spent every attempt go after FAILED_JOB_RETENTION_DAYS.
 * Ages are given by moving rows' timestamps back (the service's clock stands still).
 */
describe('retention of events, deliveries, attempts and spent jobs', () => {
  let app: TestApp;
  const receivers: Receiver[] = [];

  beforeAll(async () => {
    // A failed attempt is retried an hour later: a delivery to a failing endpoint stays pending through the test.
    app = await createTestApp({
      env: { WEBHOOK_RETRY_SCHEDULE: '1h,1h', WEBHOOK_TIMEOUT_MS: '2000', EVENT_RETENTION_DAYS: '30', FAILED_JOB_RETENTION_DAYS: '7' },
    });
  });
  afterAll(async () => {
    for (const r of receivers) await r.close();
    await app?.close();
  });

  const retention = () => app.service.app.services.retention;
  const age = (eventId: string, days: number) =>
    dbQuery(app.db.url, `update outbox_event set created_at = $2::timestamptz - make_interval(days => $3) where id = $1`, [eventId, app.clock.now(), days]);
  const rowsOf = async (eventId: string) => {
    const [row] = await dbQuery<{ events: number; deliveries: number; attempts: number }>(
      app.db.url,
      `select (select count(*) from outbox_event where id = $1)::int as events,
              (select count(*) from webhook_delivery where event_id = $1)::int as deliveries,
              (select count(*) from webhook_attempt where event_id = $1)::int as attempts`,
      [eventId],
    );
    return row!;
  };

  async function merchantWithEndpoint(name: string, status: number) {
    const receiver = await startReceiver(() => status);
    receivers.push(receiver);
    const merchant = await app.createMerchant(name);
    const { accessToken: token } = await app.token(merchant);
    await setEndpoint(app.url, token, receiver.url);
    return { merchant, token };
  }

  it('an old event whose delivery is over goes with its delivery and attempts; a younger one, a pending one and an old one of no endpoint are told apart', async () => {
    const delivered = await merchantWithEndpoint('Delivered Merchant', 200);
    const old = await kycApprovedEvent(app, delivered.token);
    const young = await kycApprovedEvent(app, delivered.token);
    await awaitDelivery(app, delivered.token, old.eventId);
    await awaitDelivery(app, delivered.token, young.eventId);

    const failing = await merchantWithEndpoint('Failing Merchant', 500);
    const pending = await kycApprovedEvent(app, failing.token);
    const afterOneTry = await awaitDelivery(app, failing.token, pending.eventId, (e) => e.attempt_count === 1);
    expect(afterOneTry.delivery_status).toBe('pending');

    const silent = await app.createMerchant('No Endpoint Merchant');
    const { accessToken: silentToken } = await app.token(silent);
    const unsent = await kycApprovedEvent(app, silentToken);

    expect(await rowsOf(old.eventId)).toEqual({ events: 1, deliveries: 1, attempts: 1 });
    await age(old.eventId, 31);
    await age(young.eventId, 29);
    await age(pending.eventId, 31);
    await age(unsent.eventId, 31);

    const pruned = await retention().prune();
    expect(pruned.events).toBe(2);
    expect(await rowsOf(old.eventId)).toEqual({ events: 0, deliveries: 0, attempts: 0 });
    expect((await rowsOf(unsent.eventId)).events).toBe(0);
    expect(await rowsOf(young.eventId)).toEqual({ events: 1, deliveries: 1, attempts: 1 });
    expect(await rowsOf(pending.eventId)).toEqual({ events: 1, deliveries: 1, attempts: 1 });
    // Gone through every door: the event log answers 404, as for an id that never existed.
    const gone = await getEvent(app, delivered.token, old.eventId);
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe('NOT_FOUND');
    expect((await getEvent(app, delivered.token, young.eventId)).status).toBe(200);

    // Once the pending delivery ends (its retries spent), the old event goes at the next run.
    await dbQuery(app.db.url, `update webhook_delivery set status = 'failed', next_attempt_at = null where event_id = $1`, [pending.eventId]);
    expect((await retention().prune()).events).toBe(1);
    expect(await rowsOf(pending.eventId)).toEqual({ events: 0, deliveries: 0, attempts: 0 });
  });

  it('removes a bounded amount per run, in batches, oldest first', async () => {
    const merchant = await app.createMerchant('Busy Merchant');
    const count = EVENT_PRUNE_BATCH * 10 + 500;
    await dbQuery(
      app.db.url,
      `with e as (
         insert into outbox_event (id, merchant_id, type, subject_id, payload, created_at)
         select 'evt_retention_' || i, $1, 'collection.successful', 'subject', '{}'::jsonb, $2::timestamptz - interval '40 days' + i * interval '1 second'
         from generate_series(1, $3::int) i
         returning id, merchant_id, created_at)
       insert into webhook_delivery (event_id, merchant_id, status, attempt_count, created_at, updated_at)
       select id, merchant_id, 'delivered', 1, created_at, created_at from e`,
      [merchant.merchant.id, app.clock.now(), count],
    );
    const left = async () =>
      (await dbQuery<{ n: number }>(app.db.url, `select count(*)::int as n from outbox_event where merchant_id = $1`, [merchant.merchant.id]))[0]!.n;

    // One run takes at most 10 batches; the rest waits for the next run.
    expect((await retention().prune()).events).toBe(EVENT_PRUNE_BATCH * 10);
    expect(await left()).toBe(500);
    const [oldestLeft] = await dbQuery<{ id: string }>(app.db.url, `select id from outbox_event where merchant_id = $1 order by created_at limit 1`, [
      merchant.merchant.id,
    ]);
    expect(oldestLeft!.id).toBe(`evt_retention_${EVENT_PRUNE_BATCH * 10 + 1}`);
    expect((await retention().prune()).events).toBe(500);
    expect(await left()).toBe(0);
    expect((await retention().prune()).events).toBe(0);
  });

  it('a job that spent every attempt goes after FAILED_JOB_RETENTION_DAYS; a younger failure and a waiting job stay', async () => {
    const jobs = await dbQuery<{ id: string; label: string }>(
      app.db.url,
      `with t as (select id from graphile_worker._private_tasks where identifier = 'expire-collection'),
            spec(label, attempts, max_attempts, run_at, updated_at) as (values
              ('old failure', 25, 25, $1::timestamptz, $1::timestamptz - interval '8 days'),
              ('young failure', 25, 25, $1::timestamptz, $1::timestamptz - interval '6 days'),
              ('waiting', 0, 25, $1::timestamptz + interval '30 days', $1::timestamptz - interval '8 days'))
       insert into graphile_worker._private_jobs (task_id, payload, run_at, attempts, max_attempts, updated_at, last_error)
       select t.id, json_build_object('label', s.label), s.run_at, s.attempts, s.max_attempts, s.updated_at, 'boom' from t, spec s
       returning id::text, payload->>'label' as label`,
      [app.clock.now()],
    );
    expect(jobs).toHaveLength(3);

    const pruned = await retention().prune();
    expect(pruned.failedJobs).toBe(1);
    const left = await dbQuery<{ label: string }>(
      app.db.url,
      `select payload->>'label' as label from graphile_worker._private_jobs where id = any($1::bigint[])`,
      [jobs.map((j) => j.id)],
    );
    expect(left.map((j) => j.label).sort()).toEqual(['waiting', 'young failure']);
  });
});

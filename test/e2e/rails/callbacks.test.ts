import { Client } from 'pg';
import { referenceIdOf } from '../../../src/providers/mtn-momo/mapping';
import { CallbackUrls } from '../../../src/providers/routing';
import { deriveKey } from '../../../src/shared/crypto';
import { PublicAddress } from '../../../src/shared/public-address';
import { approvedCustomer } from '../../helpers/factories';
import { request } from '../../helpers/http';
import { MtnMomoFake } from '../../fakes/mtn-momo.fake';
import { ghMtnCollection, notificationRows, railsApp, railsMerchant, txnRow } from '../../helpers/rails';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { bankCollectionBody, sql } from '../../helpers/transactions';
import { eventually } from '../../helpers/wait';

/**
 * The callback route is public: anyone can send anything. With a wrong token nothing is kept (404);
 * with a right one, any body at all is kept raw (once) and answered 200, never a 5xx, and it changes
 * no transaction by itself. The sandbox connector's callback address, as the service computes it
 * (the test app's ENCRYPTION_KEY is known here).
 */
describe('provider callbacks: junk and forged tokens', () => {
  let app: TestApp;
  let callbacks: CallbackUrls;
  let transactionId: string;
  let path: string;

  beforeAll(async () => {
    app = await createTestApp({ env: { SANDBOX_SETTLE_MS: '600000' } });
    const merchant = await app.createMerchant('Callback Junk');
    const { accessToken: token } = await app.token(merchant);
    const customer = await approvedCustomer(app, token);
    // A bank collection: the sandbox's status query says pending (the sender has not paid), so only a forged body could change it.
    const body = bankCollectionBody(customer.customer_uuid);
    expect((await request(app.url, 'POST', '/v1/crossborder/global-collection', { token, body })).status).toBe(200);
    transactionId = (await txnRow(app, body.reference))!.id;
    const address = new PublicAddress(app.url);
    callbacks = new CallbackUrls({ key: deriveKey(Buffer.alloc(32, 7), 'provider-callback'), publicAddress: address });
    path = callbacks.url('sandbox', transactionId).slice(app.url.length);
  }, 60_000);
  afterAll(() => app?.close());

  const junk: Array<[string, string, string]> = [
    ['not JSON', 'text/plain', 'hello'],
    ['an empty body', 'application/json', ''],
    ['a JSON array', 'application/json', '[1,2,3]'],
    ['a JSON number', 'application/json', '1e309'],
    ['deeply nested JSON', 'application/json', `${'['.repeat(5000)}${']'.repeat(5000)}`],
    ['escaped NUL and a lone surrogate', 'application/json', '{"status":"\\u0000","referenceId":"\\udfff","Body":{"stkCallback":{"ResultCode":"\\u0000"}}}'],
    ['form data', 'application/x-www-form-urlencoded', 'a=1&b=2'],
    ['XML', 'application/xml', '<status>SUCCESSFUL</status>'],
    ['no content type', '', '{"status":"SUCCESSFUL"}'],
  ];

  it.each(junk)('%s: kept, answered 200, the transaction unchanged', async (_label, contentType, body) => {
    const res = await fetch(`${app.url}${path}`, { method: 'POST', headers: contentType ? { 'content-type': contentType } : {}, body });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: true });
    expect((await notificationRows(app, transactionId)).some((n) => n.body === body)).toBe(true);
    expect(await eventually(async () => (await notificationRows(app, transactionId)).every((n) => n.processed_at !== null))).toBe(true);
    expect((await sql(app, 'select status from "transaction" where id = ?', [transactionId]))[0].status).toBe('processing');
  });

  it('a body over 64 KiB is refused (4xx) and not kept', async () => {
    const before = (await notificationRows(app, transactionId)).length;
    const res = await fetch(`${app.url}${path}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: `"${'x'.repeat(70_000)}"` });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ status: 'error', code: 'INVALID_REQUEST', message: 'Request body exceeds the limit of 65536 bytes' });
    expect(await notificationRows(app, transactionId)).toHaveLength(before);
  });

  it('wrong tokens are 404 and keep nothing: another MAC, another transaction’s id, another connector, junk', async () => {
    const before = (await notificationRows(app, transactionId)).length;
    const otherId = '00000000-0000-4000-8000-000000000001';
    const tokens = [
      `${transactionId}.${'A'.repeat(32)}`,
      callbacks.url('sandbox', otherId).split('/').pop()!,
      'x',
      `${transactionId}`,
      `${transactionId}.${'A'.repeat(31)}%00`,
      '..%2F..%2Fadmin',
    ];
    for (const token of tokens) {
      const res = await request(app.url, 'POST', `/v1/providers/sandbox/callback/${token}`, { body: { status: 'SUCCESSFUL' } });
      expect([404, 400]).toContain(res.status);
    }
    // The right token under another connector's name.
    const token = path.split('/').pop()!;
    for (const connector of ['mtn_momo', 'mpesa', 'SANDBOX', 'nobody']) {
      expect((await request(app.url, 'POST', `/v1/providers/${connector}/callback/${token}`, { body: {} })).status).toBe(404);
    }
    expect(await notificationRows(app, transactionId)).toHaveLength(before);
  });

  it('a duplicate is kept once', async () => {
    const body = '{"duplicate":true}';
    for (let i = 0; i < 3; i += 1) {
      expect((await fetch(`${app.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).status).toBe(200);
    }
    expect((await notificationRows(app, transactionId)).filter((n) => n.body === body)).toHaveLength(1);
  });
});

/**
 * Issue 34 (L6): a leaked callback address flooded at once. The per-transaction cap (100 kept
 * notifications) must hold under concurrency: 150 different bodies sent together kept 103 rows and
 * sent 104 status queries while the cap was a count each insert read for itself. On this two-core
 * machine statements seldom overlap on their own, so the test widens the window the attack found:
 * the database stalls for a moment (a lock this test holds on the notifications table) while the
 * bodies arrive, and every statement waiting then runs at once, as on a busy server.
 */
describe('provider callbacks: the per-transaction cap under concurrency', () => {
  const POOL = 30;
  let fake: MtnMomoFake;
  let app: TestApp;

  beforeAll(async () => {
    fake = await MtnMomoFake.start({ decisionDelayMs: 30, targetEnvironment: 'mtnghana', currency: 'GHS' });
    // No polling during the test: every status query counted below is one a kept notification prompted.
    app = await railsApp({ ...fake.env(), PROVIDER_POLL_SCHEDULE: '1h', DB_POOL_MAX: String(POOL) });
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await fake?.close();
  });

  it('150 concurrent bodies to one leaked MTN callback address: exactly 100 kept, at most 100 status queries', async () => {
    const m = await railsMerchant(app);
    // An account MTN keeps PENDING: the transaction stays open, so every notification prompts a query.
    const body = ghMtnCollection(m.customerUuid, { account_number: '0240000009' });
    expect((await request(app.url, 'POST', '/v1/crossborder/global-collection', { token: m.token, body })).status).toBe(200);
    const row = (await txnRow(app, body.reference))!;
    const referenceId = referenceIdOf(row.id);
    const callbackUrl = fake.requests.find((r) => r.method === 'POST' && r.headers['x-reference-id'] === referenceId)!.headers['x-callback-url'] as string;
    const queries = () => fake.requests.filter((r) => r.method === 'GET' && r.path === `/collection/v1_0/requesttopay/${referenceId}`).length;
    const send = (n: number) =>
      fetch(callbackUrl, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ status: 'SUCCESSFUL', n }) });
    /** The transaction's check jobs not yet run (each kept notification adds one, which sends one status query). */
    const checksLeft = async () =>
      Number(
        (
          await sql(
            app,
            `select count(*) as n from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
              where t.identifier = 'check-transaction' and j.payload->>'transactionId' = ?`,
            [row.id],
          )
        )[0].n,
      );
    expect(queries()).toBe(0);

    // A trickle first, one at a time, that brings the transaction near the cap; its queries run.
    for (let i = 0; i < 90; i++) expect((await send(i)).status).toBe(200);
    expect(await notificationRows(app, row.id)).toHaveLength(90);
    expect(await eventually(async () => (await checksLeft()) === 0, { attempts: 400, everyMs: 50 })).toBe(true);
    expect(queries()).toBe(90);

    // Then 150 at once, while the notifications table is locked: the statements queue up behind the lock.
    const stall = new Client({ connectionString: app.db.url });
    await stall.connect();
    let answers: Response[];
    try {
      await stall.query('begin');
      await stall.query('lock table provider_notification in share mode');
      const flood = Promise.all(Array.from({ length: 150 }, (_, i) => send(100 + i)));
      // Statements waiting for the lock show in pg_locks (pg_stat_activity shows their connection's previous statement).
      const waiting = async () =>
        Number(
          (await stall.query<{ n: string }>(`select count(*) as n from pg_locks where relation = 'provider_notification'::regclass and not granted`)).rows[0]!
            .n,
        );
      // A third of the pool's connections queued behind the lock (the rest serve the job workers and the reads before).
      expect(await eventually(async () => (await waiting()) >= POOL / 3, { attempts: 400, everyMs: 25 })).toBe(true);
      await stall.query('commit');
      answers = await flood;
    } finally {
      await stall.end();
    }
    // Every sender gets the acknowledgement MTN expects, kept or not (nothing tells a sender the cap is reached).
    expect(answers.map((a) => a.status)).toEqual(Array(150).fill(200));
    expect(await notificationRows(app, row.id)).toHaveLength(100);

    // Once the prompted status queries have all run: one per kept notification, never more.
    expect(await eventually(async () => (await checksLeft()) === 0, { attempts: 400, everyMs: 50 })).toBe(true);
    expect(queries()).toBeGreaterThan(90);
    expect(queries()).toBeLessThanOrEqual(100);
    // A later body finds the cap reached: answered, not kept, no query.
    expect((await send(1000)).status).toBe(200);
    expect(await notificationRows(app, row.id)).toHaveLength(100);
    expect(await checksLeft()).toBe(0);
    expect((await txnRow(app, body.reference))?.status).toBe('processing');
  }, 90_000);
});

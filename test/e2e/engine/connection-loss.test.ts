import { Client } from 'pg';
import type { MerchantCredentials } from '../../../src/modules/merchants/merchant.service';
import { approvedCustomer } from '../../helpers/factories';
import { graphql, request } from '../../helpers/http';
import { cardPaymentBody, initiatePayment } from '../../helpers/payments';
import { startReceiver, type Receiver } from '../../helpers/receiver';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { INITIATE_COLLECTION } from '../../helpers/engine';
import { momoCollectionBody, momoCollectionInput, newReference, transferBody } from '../../helpers/transactions';
import { eventually } from '../../helpers/wait';
import { FAST_WEBHOOKS, dbQuery, setEndpoint } from '../../helpers/webhooks';

/**
 * Issue 18, point 8: a database connection lost mid-transaction. The test holds a table lock
 * that one statement of the service needs (SHARE mode: reads go on, writes wait), waits until
 * the service's backend is blocked on it inside its transaction, and kills that backend
 * (pg_terminate_backend), as a failover or an operator would. Then: no partial rows, no answer
 * outside the envelope, the client's retry converges, and the pool keeps working.
 */

let app: TestApp;
let merchant: MerchantCredentials;
let token: string;
let customerUuid: string;
let receiver: Receiver;
let admin: Client;

const rows = <T = any>(sql: string, params: unknown[] = []) => dbQuery<T>(app.db.url, sql, params);

/**
 * Runs `action` while `table` is locked against writes, kills every backend of the app's
 * database that waits on that lock (at least one: the action's), then releases the lock.
 * Returns what the action answered.
 */
async function withBackendKilledOn<T>(
  table: string,
  action: () => Promise<T>,
  { actionBlocks = true, statement = '%' }: { actionBlocks?: boolean; statement?: string } = {},
): Promise<{ answer: T; killed: number }> {
  await admin.query('begin');
  await admin.query(`lock table ${table} in share mode`);
  let settled: { answer: T } | { error: unknown } | undefined;
  const pending = action().then(
    (answer) => (settled = { answer }),
    (error) => (settled = { error }),
  );
  let killed = 0;
  try {
    // When the action itself writes the table (`actionBlocks`), it cannot finish while its write
    // waits on the lock: one that settles before any backend waited never reached the table, and
    // the test says what it answered instead of timing out blind. Background work (a job) is
    // waited for until the bound.
    const blocked = await eventually(
      async () => {
        // Inside a transaction PostgreSQL keeps the first read of pg_stat_activity until it ends:
        // without this, a read made before the action's statement started waiting never sees it.
        await admin.query('select pg_stat_clear_snapshot()');
        const waiting = await admin.query<{ pid: number }>(
          `select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and wait_event_type = 'Lock' and query like $1`,
          [statement],
        );
        for (const { pid } of waiting.rows) {
          await admin.query('select pg_terminate_backend($1)', [pid]);
          killed++;
        }
        return killed > 0 || (actionBlocks && settled !== undefined);
      },
      { attempts: 1200, everyMs: 25 },
    );
    expect({ blocked, killed, settledFirst: killed === 0 ? settled : undefined }).toEqual({
      blocked: true,
      killed: expect.any(Number),
      settledFirst: undefined,
    });
    expect(killed).toBeGreaterThan(0);
  } finally {
    await admin.query('rollback');
  }
  await pending;
  if (settled && 'error' in settled) throw settled.error;
  return { answer: (settled as { answer: T }).answer, killed };
}

/** The first statement of every initiation (TransactionStore.insert). */
const INSERT = '%inserted as (insert into "transaction"%';

/** The statement that records a provider's first answer (it leaves `initiating`; a settlement job's does not). */
const ANSWER = '%initiation_done as (delete from transaction_initiation%';

/** An answer in the spec's error envelope: a code, a message, no stack, SQL or driver text. */
function expectServerErrorEnvelope(res: { status: number; body: any; text: string }) {
  expect(res.status).toBe(500);
  expect(res.body).toMatchObject({ status: 'error', code: 'SERVER_ERROR', message: expect.any(String) });
  expect(res.text).not.toMatch(/terminat|administrator|57P01|stack|at .*\.js|insert into|update /i);
}

/** The service still answers through its pool: a fresh read succeeds. */
async function expectPoolHealthy() {
  const res = await request(app.url, 'GET', '/v1/transactions?limit=1', { token });
  expect(res.status).toBe(200);
}

const rowsByExternal = (reference: string) =>
  rows<{ id: string; reference: string; status: string }>('select id, reference, status from transaction where external_reference = $1', [reference]);

/** Every row is consistent: an `initiating` row waits for reconciliation; any other has its history from the start. */
async function expectNoPartialRows() {
  const orphans = await rows(
    `select t.reference, t.status from transaction t
     where (t.status = 'initiating') <> exists (select 1 from transaction_initiation i where i.transaction_id = t.id)
        or (t.status <> 'initiating' and not exists (select 1 from transaction_history e where e.transaction_id = t.id))`,
  );
  expect(orphans).toEqual([]);
  // Every final transaction has exactly one event; nothing else has one.
  const events = await rows(
    `select t.reference, t.status, (select count(*)::int from outbox_event o where o.subject_id = t.reference) as events from transaction t`,
  );
  for (const e of events) expect({ ...e, events: e.events }).toEqual({ ...e, events: ['successful', 'failed', 'expired'].includes(e.status) ? 1 : 0 });
}

beforeAll(async () => {
  app = await createTestApp({
    env: { RECONCILE_AFTER_MS: '300', SANDBOX_SETTLE_MS: '300', JOB_POLL_INTERVAL_MS: '100', ...FAST_WEBHOOKS },
  });
  merchant = await app.createMerchant('Connection Loss');
  token = (await app.token(merchant)).accessToken;
  receiver = await startReceiver(() => 200);
  await setEndpoint(app.url, token, receiver.url);
  customerUuid = (await approvedCustomer(app, token)).customer_uuid;
  admin = new Client({ connectionString: app.db.url });
  await admin.connect();
});

afterAll(async () => {
  await admin?.end();
  await receiver?.close();
  await app?.close();
});

describe('initiation', () => {
  it.each([
    ['collection', '/v1/crossborder/global-collection', () => momoCollectionBody(customerUuid)],
    ['transfer', '/v1/crossborder/global-transfer', () => transferBody(customerUuid)],
    ['card payment', '/v1/payments/initiate', () => cardPaymentBody()],
  ])('a %s whose first statement loses its connection: a 500 in the envelope, nothing written, and the retry succeeds once', async (_kind, path, body) => {
    const sent = body();
    // Only the initiation's own insert: a settlement job of an earlier test may be waiting on the same lock.
    const { answer } = await withBackendKilledOn('transaction', () => request(app.url, 'POST', path, { token, body: sent }), { statement: INSERT });
    expectServerErrorEnvelope(answer);
    expect(await rowsByExternal(sent.reference)).toEqual([]);

    const retry = await request(app.url, 'POST', path, { token, body: sent });
    expect(retry.status).toBe(200);
    expect(await rowsByExternal(sent.reference)).toHaveLength(1);
    await expectNoPartialRows();
    await expectPoolHealthy();
  });

  it('a card payment whose outcome loses its connection after the charge: the row waits, reconciliation finishes it once, and the retry finds it', async () => {
    const sent = cardPaymentBody();
    const { answer } = await withBackendKilledOn('outbox_event', () => initiatePayment(app, token, sent), { statement: ANSWER });
    expectServerErrorEnvelope(answer);
    const [row] = await rowsByExternal(sent.reference);
    expect(row).toMatchObject({ status: 'initiating' });

    // The client's retry with the same reference does not charge again: the reference is taken, and the status endpoint has it.
    const retry = await initiatePayment(app, token, sent);
    expect(retry.status).toBe(409);
    expect(retry.body.code).toBe('DUPLICATE_REQUEST');
    expect(
      await eventually(async () => (await rowsByExternal(sent.reference))[0]?.status === 'successful', {
        attempts: 300,
        everyMs: 50,
      }),
    ).toBe(true);
    const status = await request(app.url, 'GET', `/v1/payments/verify/${sent.reference}`, { token });
    expect(status.body.data).toMatchObject({ reference: row!.reference, status: 'successful' });
    expect(await rows('select outcome from sandbox_card_charge where idempotency_key = $1', [row!.id])).toEqual([{ outcome: 'successful' }]);
    expect(await rows(`select type from outbox_event where subject_id = $1`, [row!.reference])).toEqual([{ type: 'payment.successful' }]);
    await expectNoPartialRows();
    await expectPoolHealthy();
  });

  it('GraphQL: the lost connection is a SERVER_ERROR in extensions.code, and the retry succeeds', async () => {
    const input = momoCollectionInput(customerUuid, { reference: newReference('gql-loss') });
    const { answer } = await withBackendKilledOn('transaction', () => graphql(app.url, INITIATE_COLLECTION, { token, variables: { input } }), {
      statement: INSERT,
    });
    expect(answer.body.errors?.[0]?.extensions?.code).toBe('SERVER_ERROR');
    expect(answer.text).not.toMatch(/terminat|administrator|57P01|insert into/i);
    expect(await rowsByExternal(String(input.reference))).toEqual([]);
    const retry = await graphql(app.url, INITIATE_COLLECTION, { token, variables: { input } });
    expect(retry.body.errors).toBeUndefined();
    expect(retry.body.data.initiateCollection.status).toBe('PROCESSING');
    await expectNoPartialRows();
  });
});

describe('settlement and delivery', () => {
  it('settlement: the job that loses its connection is retried and settles once (one history entry, one event, one webhook)', async () => {
    const sent = momoCollectionBody(customerUuid);
    // A processing collection writes no event at initiation; its settlement job does, and blocks there, and its backend dies.
    const { answer, killed } = await withBackendKilledOn(
      'outbox_event',
      () => request(app.url, 'POST', '/v1/crossborder/global-collection', { token, body: sent }),
      { actionBlocks: false },
    );
    expect(answer.status).toBe(200);
    expect(killed).toBeGreaterThanOrEqual(1);
    const reference = answer.body.data.reference as string;

    expect(await eventually(async () => (await rowsByExternal(sent.reference))[0]?.status === 'successful', { attempts: 400, everyMs: 50 })).toBe(true);
    const [row] = await rowsByExternal(sent.reference);
    const history = await rows<{ to_status: string }>('select to_status from transaction_history where transaction_id = $1 order by seq', [row!.id]);
    expect(history.map((h) => h.to_status)).toEqual(['processing', 'successful']);
    expect(await rows('select type from outbox_event where subject_id = $1', [reference])).toEqual([{ type: 'collection.successful' }]);
    const receipts = () => receiver.received.filter((r) => JSON.parse(r.body).data?.reference === reference);
    expect(await eventually(async () => receipts().length > 0, { attempts: 200, everyMs: 50 })).toBe(true);
    expect(new Set(receipts().map((r) => r.headers['webhook-id'])).size).toBe(1);
    await expectNoPartialRows();
    await expectPoolHealthy();
  });

  it('delivery: the claim that loses its connection is retried; the event is delivered, and the attempt log covers the receiver', async () => {
    const before = receiver.received.length;
    // A card payment's event is written at initiation; its delivery's claim records the attempt, blocks there, and dies.
    const { answer, killed } = await withBackendKilledOn('webhook_attempt', () => initiatePayment(app, token, cardPaymentBody()), {
      actionBlocks: false,
    });
    expect(answer.status).toBe(200);
    expect(killed).toBeGreaterThanOrEqual(1);
    const [event] = await rows<{ id: string }>('select id from outbox_event where subject_id = $1', [answer.body.data.reference]);
    expect(
      await eventually(async () => (await rows(`select status from webhook_delivery where event_id = $1`, [event!.id]))[0]?.status === 'delivered', {
        attempts: 400,
        everyMs: 50,
      }),
    ).toBe(true);
    const receipts = receiver.received.slice(before).filter((r) => r.headers['webhook-id'] === event!.id);
    const attempts = await rows('select success from webhook_attempt where event_id = $1', [event!.id]);
    expect(receipts.length).toBeGreaterThanOrEqual(1);
    expect(attempts.length).toBeGreaterThanOrEqual(receipts.length);
    expect(attempts.filter((a) => a.success === true)).toHaveLength(1);
    await expectPoolHealthy();
  });
});

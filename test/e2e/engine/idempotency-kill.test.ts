import { Client } from 'pg';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import { adminMerchant, approvedCustomerAt, attempt, clientToken, hasExited, stopIfRunning } from '../../helpers/engine';
import { request, type HttpResult } from '../../helpers/http';
import { assertBuilt, serviceEnv, startServiceProcess, type ServiceProcess } from '../../helpers/process';
import { momoCollectionBody, newReference } from '../../helpers/transactions';
import { eventually } from '../../helpers/wait';
import { dbQuery } from '../../helpers/webhooks';

/**
 * Issue 34, L8: a request holding an Idempotency-Key dies with its instance (kill -9). A retry with
 * the key on another instance must not wait out the 60 s lock timeout: the claim records the
 * instance that holds it, and once that instance stops heartbeating (here within 1.3 s) the claim
 * is abandoned and the retry runs. While the holder is alive, a retry is still 409 "in progress".
 */

/** The retry must succeed within this, far below the 60 s lock timeout (REQUEST_TIMEOUT_MS + 30 s). */
const RECOVERY_BOUND_MS = 20_000;
const COLLECT = '/v1/crossborder/global-collection';

describe('Idempotency-Key: a claim whose instance was killed is recovered at once', () => {
  let db: TestDatabase;
  let a: ServiceProcess | undefined;
  let b: ServiceProcess | undefined;
  let locker: Client | undefined;

  beforeAll(async () => {
    assertBuilt();
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await locker?.end().catch(() => undefined);
    await stopIfRunning(a);
    await stopIfRunning(b);
    await db?.drop();
  });

  it('kill -9 while a request holds the key: a retry on another instance runs well before 60 s, and exactly once', async () => {
    // Heartbeats every 300 ms; an instance silent for 1.3 s is dead (max(4 beats, webhook timeout + a beat)).
    const env = serviceEnv(db.url, { SANDBOX_KYC_DELAY_MS: '100', SANDBOX_SETTLE_MS: '600000', JOB_HEARTBEAT_MS: '300', WEBHOOK_TIMEOUT_MS: '1000' });
    a = await startServiceProcess(env);
    b = await startServiceProcess(env);
    const merchant = await adminMerchant(b.url, 'Killed Holder');
    const token = await clientToken(b.url, merchant);
    const customerUuid = await approvedCustomerAt(b.url, token);
    const key = `kill-9-${newReference('key')}`;
    const body = momoCollectionBody(customerUuid);

    // Hold A's request inside its handler, after its claim and before it writes anything: its first read of the
    // customer waits on this lock. (A read, not a write: a blocked write would still commit after A died.)
    locker = new Client({ connectionString: db.url });
    await locker.connect();
    await locker.query('begin');
    await locker.query('lock table customer in access exclusive mode');
    const held = attempt(a.url, 'POST', COLLECT, { token, body, headers: { 'idempotency-key': key } });
    const claimed = await eventually(
      async () => {
        const [row] = await dbQuery<{ waiting: number }>(
          db.url,
          `select (select count(*)::int from pg_locks where not granted and relation = 'customer'::regclass) as waiting
             from idempotency_key k where k.merchant_id = $1 and k.idempotency_key = $2 and k.completed_at is null`,
          [merchant.merchantId, key],
        );
        return row !== undefined && row.waiting > 0;
      },
      { attempts: 200, everyMs: 50 },
    );
    expect(claimed).toBe(true);

    // The holder is alive: another instance answers 409 "in progress", as before.
    const whileAlive = await request(b.url, 'POST', COLLECT, { token, body, headers: { 'idempotency-key': key } });
    expect(whileAlive.status).toBe(409);
    expect(whileAlive.body).toMatchObject({ code: 'INVALID_STATE', message: expect.stringContaining('still in progress') });

    a.child.kill('SIGKILL');
    expect(await eventually(async () => hasExited(a!), { attempts: 200, everyMs: 50 })).toBe(true);
    expect(await held).toMatchObject({ error: expect.any(String) });
    await locker.query('rollback');
    await locker.end();
    locker = undefined;

    // Retried the way a client retries: until it is no longer "in progress", within a bound far below 60 s.
    const started = Date.now();
    let retried: HttpResult | undefined;
    const recovered = await eventually(
      async () => {
        retried = await request(b!.url, 'POST', COLLECT, { token, body, headers: { 'idempotency-key': key } });
        return retried.status !== 409;
      },
      { attempts: RECOVERY_BOUND_MS / 200, everyMs: 200 },
    );
    const elapsed = Date.now() - started;
    expect({ recovered, status: retried?.status, code: retried?.body?.code }).toEqual({ recovered: true, status: 200, code: undefined });
    expect(elapsed).toBeLessThan(RECOVERY_BOUND_MS);
    expect(retried!.body.data).toMatchObject({ external_reference: body.reference, status: 'processing' });

    // Exactly one transaction, and the key now replays its answer.
    const rows = await dbQuery<{ n: number }>(db.url, 'select count(*)::int as n from "transaction" where merchant_id = $1 and external_reference = $2', [
      merchant.merchantId,
      body.reference,
    ]);
    expect(rows[0]!.n).toBe(1);
    const replay = await request(b.url, 'POST', COLLECT, { token, body, headers: { 'idempotency-key': key } });
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(retried!.body);
  });
});

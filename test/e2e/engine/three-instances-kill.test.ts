import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import { adminMerchant, approvedCustomerAt, clientToken, ledgerVerify, stopIfRunning } from '../../helpers/engine';
import { request } from '../../helpers/http';
import { assertBuilt, serviceEnv, startServiceProcess, type ServiceProcess } from '../../helpers/process';
import { startReceiver, type Receiver } from '../../helpers/receiver';
import { momoCollectionBody, newReference } from '../../helpers/transactions';
import { eventually } from '../../helpers/wait';
import { FAST_WEBHOOKS, dbQuery, setEndpoint, verifyDelivery } from '../../helpers/webhooks';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * Three built service processes on one database and one Redis. Mobile money
 * collections are spread over all three; one instance is killed with SIGKILL while
 * settlement and webhook delivery are under way. The two survivors must finish
 * everything: every transaction decided exactly once (one final history entry, one
 * outbox event), every event delivered at least once, never with two bodies.
 */
const TOTAL = 150;
const BATCH = 15;
/** The victim is killed once this many collections exist (a multiple of BATCH). */
const KILL_AFTER = 105;
/**
 * How long after the last initiation the survivors may take to decide and deliver everything
 * (checks included). A worker's claim on a job dies with it; recovering it must not
 * take minutes.
 */
const RECOVERY_BOUND_MS = 30_000;

describe('engine: three instances on one database, one killed with kill -9 mid-lifecycle', () => {
  let db: TestDatabase;
  let receiver: Receiver;
  const procs: ServiceProcess[] = [];

  beforeAll(async () => {
    assertBuilt();
    db = await createTestDatabase();
    receiver = await startReceiver(() => 200);
  });
  afterAll(async () => {
    for (const p of procs) await stopIfRunning(p);
    await receiver?.close();
    await db?.drop();
  });

  // Three service processes start and run 150 lifecycles on two cores beside the rest of the suite: a loaded CI run
  // went past the 75 s this test had. What it checks waits with its own deadlines (eventually).
  it(`${TOTAL} collections over three instances, one SIGKILLed: each settled once, each event delivered, nothing lost`, async () => {
    const env = serviceEnv(db.url, {
      REDIS_URL,
      SANDBOX_KYC_DELAY_MS: '100',
      SANDBOX_SETTLE_MS: '300',
      JOB_POLL_INTERVAL_MS: '500',
      DB_POOL_MAX: '6',
      ...FAST_WEBHOOKS,
      // The receiver runs in this test's process: on two cores busy with the rest of the suite it can miss a
      // 500 ms timeout four times running, and a delivery out of retries is never delivered. More room here;
      // the dead instance's claims are still recovered within its heartbeat (deadAfterMs: 2.5 s).
      WEBHOOK_TIMEOUT_MS: '2000',
      WEBHOOK_RETRY_SCHEDULE: '200ms,500ms,1s,2s,4s',
      // A CI run failed here with 145 of 151 events undelivered after 30 s and nothing undecided: the likeliest cause a
      // stall of the loaded test process (the receiver) long enough for five attempts in flight to time out together,
      // which opens the endpoint's circuit for 30 s (the default), the whole recovery bound. The circuit stays on, and
      // is tested in test/e2e/webhooks/isolation.test.ts; here an opened circuit may only cost seconds.
      WEBHOOK_CIRCUIT_OPEN_S: '1',
      WEBHOOK_CIRCUIT_MAX_OPEN_S: '2',
    });
    procs.push(...(await Promise.all([0, 1, 2].map(() => startServiceProcess(env)))));
    const [a, b, victim] = procs as [ServiceProcess, ServiceProcess, ServiceProcess];

    const merchant = await adminMerchant(a.url, 'Three Instances');
    const token = await clientToken(a.url, merchant);
    // The endpoint first: an event of a merchant without one is kept, not attempted (CONTRACT §8).
    await setEndpoint(victim.url, token, receiver.url);
    const customerUuid = await approvedCustomerAt(b.url, token);

    const count = async (text: string) => (await dbQuery<{ n: number }>(db.url, text, [merchant.merchantId]))[0]!.n;
    const undecided = () => count(`select count(*)::int as n from "transaction" where merchant_id = $1 and status not in ('successful', 'failed')`);
    const undelivered = () =>
      count(`select count(*)::int as n from outbox_event o left join webhook_delivery d on d.event_id = o.id
              where o.merchant_id = $1 and (d.status is null or d.status <> 'delivered')`);

    // Batches spread over the three instances until KILL_AFTER collections exist; then, while
    // settlement and delivery are under way, the victim is SIGKILLed and the rest go to the
    // two survivors. One collection in five fails by the sandbox rule (account ends in 000).
    interface Made {
      reference: string;
      expected: 'successful' | 'failed';
    }
    const made: Made[] = [];
    let inFlightAtKill = 0;
    for (let start = 0; start < TOTAL; start += BATCH) {
      if (start === KILL_AFTER) {
        inFlightAtKill = (await undecided()) + (await undelivered());
        expect(await victim.stop('SIGKILL')).toBeNull();
      }
      const instances = start < KILL_AFTER ? [a, b, victim] : [a, b];
      const batch = Array.from({ length: BATCH }, (_, j) => start + j).map(async (i): Promise<Made> => {
        const fails = i % 5 === 0;
        const accountNumber = `2547${String(i).padStart(5, '0')}${fails ? '000' : '123'}`;
        const res = await request(instances[i % instances.length]!.url, 'POST', '/v1/crossborder/global-collection', {
          token,
          body: momoCollectionBody(customerUuid, { account_number: accountNumber, amount: 100 + i, reference: newReference('three') }),
        });
        if (res.status !== 200) throw new Error(`collection #${i} failed: ${res.status} ${res.text}`);
        return { reference: res.body.data.reference, expected: fails ? 'failed' : 'successful' };
      });
      made.push(...(await Promise.all(batch)));
    }
    expect(new Set(made.map((m) => m.reference)).size).toBe(TOTAL);
    // The kill really came mid-lifecycle: transactions undecided or events undelivered.
    expect(inFlightAtKill).toBeGreaterThan(0);

    // The two survivors finish everything, within a bound: a dead worker's claims must be
    // recovered, not waited out for minutes.
    let left = { undecided: -1, undelivered: -1 };
    const finished = await eventually(
      async () => {
        left = { undecided: await undecided(), undelivered: await undelivered() };
        return left.undecided === 0 && left.undelivered === 0;
      },
      { attempts: RECOVERY_BOUND_MS / 250, everyMs: 250 },
    );
    const stuck = finished
      ? []
      : await dbQuery(db.url, `select reference, status, updated_at from "transaction" where merchant_id = $1 and status not in ('successful', 'failed')`, [
          merchant.merchantId,
        ]);
    // When something is left, what the deliveries, the endpoint and its slots were at: the failure message says why.
    const deliveries = finished ? null : await deliveryState(db.url, merchant.merchantId, receiver.received.length);
    expect({ finished, left, stuck, deliveries }).toEqual({ finished: true, left: { undecided: 0, undelivered: 0 }, stuck: [], deliveries: null });

    // In the database: each transaction final with its expected status, exactly one final history entry, one outbox event.
    const rows = await dbQuery<{ reference: string; status: string; finals: number; initiations: number; events: number; event_types: string[] }>(
      db.url,
      `select t.reference, t.status,
              (select count(*)::int from transaction_history e where e.transaction_id = t.id and e.to_status in ('successful', 'failed', 'expired')) as finals,
              (select count(*)::int from transaction_history e where e.transaction_id = t.id and e.to_status = 'processing') as initiations,
              (select count(*)::int from outbox_event o where o.subject_id = t.reference) as events,
              (select array_agg(o.type) from outbox_event o where o.subject_id = t.reference) as event_types
         from "transaction" t where t.merchant_id = $1`,
      [merchant.merchantId],
    );
    expect(rows).toHaveLength(TOTAL);
    const byReference = new Map(rows.map((r) => [r.reference, r]));
    const problems: string[] = [];
    for (const m of made) {
      const row = byReference.get(m.reference);
      const want = { status: m.expected, finals: 1, initiations: 1, events: 1, event_types: [`collection.${m.expected}`] };
      const got = row && { status: row.status, finals: row.finals, initiations: row.initiations, events: row.events, event_types: row.event_types };
      if (JSON.stringify(got) !== JSON.stringify(want)) problems.push(`${m.reference}: ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);
    }
    expect(problems).toEqual([]);

    // At the receiver: every event id at least once, each always with the same body, signed, and nothing unknown.
    const events = await dbQuery<{ id: string; type: string }>(db.url, 'select id, type from outbox_event where merchant_id = $1', [merchant.merchantId]);
    expect(events).toHaveLength(TOTAL + 1); // + the customer's customer.kyc.approved
    const bodiesById = new Map<string, Set<string>>();
    for (const r of receiver.received) {
      const id = String(r.headers['webhook-id']);
      if (!bodiesById.has(id)) bodiesById.set(id, new Set());
      bodiesById.get(id)!.add(r.body);
      expect(verifyDelivery(merchant.webhookSecret, r).id).toBe(id);
    }
    const eventIds = new Set(events.map((e) => e.id));
    expect([...bodiesById.keys()].filter((id) => !eventIds.has(id))).toEqual([]);
    expect(events.filter((e) => !bodiesById.has(e.id)).map((e) => e.id)).toEqual([]);
    expect([...bodiesById.entries()].filter(([, bodies]) => bodies.size !== 1).map(([id]) => id)).toEqual([]);
    // Issue 19: the books after the kill: every settled collection posted once (settle + release), nothing else.
    const books = await ledgerVerify(db.url);
    expect({ exitCode: books.exitCode, problems: books.problems }).toEqual({ exitCode: 0, problems: [] });
    const postings = await dbQuery<{ legs: string }>(
      db.url,
      `select string_agg(e.leg, ',' order by e.leg) as legs from "transaction" t left join ledger_entry e on e.transaction_id = t.id
       where t.kind = 'collection' group by t.id, t.status having t.status = 'successful'`,
    );
    expect(postings.filter((p) => p.legs !== 'release,settle')).toEqual([]);

    // Each delivered body is the transaction's final record.
    for (const r of receiver.received) {
      const body = JSON.parse(r.body);
      if (!body.type.startsWith('collection.')) continue;
      expect(body.type).toBe(`collection.${byReference.get(body.data.reference)?.status}`);
      expect(body.data.status).toBe(byReference.get(body.data.reference)?.status);
    }
  }, 150_000);
});

/** The webhook side of a merchant, for a failure message: deliveries by status, the endpoint's circuit, its slots, the last attempts' errors. */
async function deliveryState(url: string, merchantId: string, received: number) {
  const q = (text: string) => dbQuery(url, text, [merchantId]);
  return {
    received,
    at: new Date().toISOString(),
    byStatus: await q(`select status, count(*)::int as n, min(next_attempt_at) as next, max(attempt_count) as attempts,
                              count(*) filter (where claimed_until > now())::int as claimed from webhook_delivery where merchant_id = $1 group by status`),
    endpoint: await q('select failures, openings, open_until, prompt_until, updated_at from webhook_endpoint where merchant_id = $1'),
    slots: await q('select slot, event_id, held_until from webhook_endpoint_slot where merchant_id = $1 and held_until > now()'),
    errors: await q(`select error, count(*)::int as n, max(attempted_at) as last from webhook_attempt where merchant_id = $1 and not coalesce(success, false)
                     group by error order by n desc limit 5`),
  };
}

import { Client } from 'pg';
import { sandboxSettlement } from '../../../src/providers/sandbox';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import { approvedCustomer, kycBody } from '../../helpers/factories';
import { request } from '../../helpers/http';
import { assertBuilt, serviceEnv, startServiceProcess, type ServiceProcess } from '../../helpers/process';
import { TEST_ADMIN_KEY, createTestApp, type TestApp } from '../../helpers/test-app';
import { startTwoInstances, type TwoInstances } from '../../helpers/two-instances';
import { momoCollectionBody, sql, transferBody } from '../../helpers/transactions';
import { eventually } from '../../helpers/wait';
import { transactionIdOf } from '../../helpers/jobs';

async function query<T = any>(db: TestDatabase, text: string, params: unknown[] = []): Promise<T[]> {
  const client = new Client({ connectionString: db.url });
  await client.connect();
  try {
    return (await client.query(text, params)).rows as T[];
  } finally {
    await client.end();
  }
}

/** Settlement is durable work: it survives a crash, and several instances decide each transaction exactly once. */
describe('settlement durability', () => {
  it('settles a mobile money collection after kill -9 of the service process, with exactly one outbox event', async () => {
    assertBuilt();
    const db = await createTestDatabase();
    const env = serviceEnv(db.url, {
      SANDBOX_KYC_DELAY_MS: '100',
      SANDBOX_SETTLE_MS: '1500',
      JOB_POLL_INTERVAL_MS: '500',
    });
    let proc: ServiceProcess = await startServiceProcess(env);
    try {
      const created = await request(proc.url, 'POST', '/v1/admin/merchants', {
        body: { name: 'Settle Kill Nine' },
        headers: { authorization: `Bearer ${TEST_ADMIN_KEY}` },
      });
      expect(created.status).toBe(201);
      const { client_id, client_secret } = created.body.data;
      const getToken = async (url: string) =>
        (await request(url, 'POST', '/v1/oauth/token', { body: { grant_type: 'client_credentials', client_id, client_secret } })).body.data
          .access_token as string;
      let token = await getToken(proc.url);

      const enrolled = await request(proc.url, 'POST', '/v1/customer/enroll', {
        token,
        body: {
          customerid: 'settle-k9',
          first_name: 'Amina',
          last_name: 'Otieno',
          email: 'a@b.co',
          phone_number: '712345678',
          dial_code: '+254',
          country_code: 'KE',
        },
      });
      const uuid = enrolled.body.data.customer_uuid as string;
      expect((await request(proc.url, 'POST', `/v1/customer/${uuid}/kyc`, { token, body: kycBody() })).status).toBe(200);
      const approved = await eventually(
        async () => (await request(proc.url, 'GET', `/v1/customer/${uuid}/kyc`, { token })).body.data.kyc_status === 'approved',
      );
      expect(approved).toBe(true);

      const collection = await request(proc.url, 'POST', '/v1/crossborder/global-collection', { token, body: momoCollectionBody(uuid) });
      expect(collection.status).toBe(200);
      const { reference } = collection.body.data;

      expect(await proc.stop('SIGKILL')).toBeNull();
      // The process died before the settlement was due: nothing was decided yet.
      const [before] = await query(db, 'select status from "transaction" where reference = $1', [reference]);
      expect(before.status).toBe('processing');
      expect(await query(db, 'select 1 from outbox_event where subject_id = $1', [reference])).toHaveLength(0);

      proc = await startServiceProcess(env);
      token = await getToken(proc.url);
      let record: any;
      const settled = await eventually(
        async () => {
          record = (await request(proc.url, 'GET', `/v1/crossborder/global-transfer/${reference}`, { token })).body.data;
          return record.status !== 'processing';
        },
        { attempts: 300, everyMs: 100 },
      );
      expect(settled).toBe(true);
      expect(record).toMatchObject({ reference, status: 'successful', failure_reason: null });

      const events = await query(db, 'select type, payload from outbox_event where subject_id = $1', [reference]);
      expect(events).toHaveLength(1);
      expect(events[0].type).toBe('collection.successful');
      expect(events[0].payload).toEqual(record);
      const history = await query(
        db,
        'select e.from_status, e.to_status from transaction_history e join "transaction" t on t.id = e.transaction_id where t.reference = $1 order by e.seq',
        [reference],
      );
      expect(history).toEqual([
        { from_status: null, to_status: 'processing' },
        { from_status: 'processing', to_status: 'successful' },
      ]);
    } finally {
      await proc.stop('SIGKILL');
      await db.drop();
    }
  });

  describe('two instances on one database (SANDBOX_SETTLE_MS=200)', () => {
    const TOTAL = 200;
    const BATCH = 20;
    let instances: TwoInstances;
    let a: TestApp;
    let b: TestApp;

    beforeAll(async () => {
      instances = await startTwoInstances({ SANDBOX_SETTLE_MS: '200' });
      ({ a, b } = instances);
    });
    afterAll(() => instances?.close());

    it(`decides ${TOTAL} mixed collections and transfers exactly once each`, async () => {
      const merchant = await a.createMerchant('Two Instance Settlement');
      const token = (await a.token(merchant)).accessToken;
      const customer = (await approvedCustomer(a, token)).customer_uuid;

      interface Made {
        reference: string;
        kind: 'collection' | 'transfer';
        accountNumber: string;
      }
      const made: Made[] = [];
      for (let start = 0; start < TOTAL; start += BATCH) {
        const batch = Array.from({ length: BATCH }, (_, j) => start + j).map(async (i): Promise<Made> => {
          const kind = i % 2 === 0 ? 'collection' : 'transfer';
          const accountNumber = `2547${String(i).padStart(5, '0')}${i % 5 === 0 ? '000' : '123'}`;
          const instance = i % 4 < 2 ? a : b; // both kinds on both instances
          const res =
            kind === 'collection'
              ? await request(instance.url, 'POST', '/v1/crossborder/global-collection', {
                  token,
                  body: momoCollectionBody(customer, { account_number: accountNumber, amount: 100 + i }),
                })
              : await request(instance.url, 'POST', '/v1/crossborder/global-transfer', {
                  token,
                  body: transferBody(customer, { account_number: accountNumber, amount: 10 + i }),
                });
          if (res.status !== 200) throw new Error(`create ${kind} #${i} failed: ${res.status} ${res.text}`);
          return { reference: res.body.data.reference, kind, accountNumber };
        });
        made.push(...(await Promise.all(batch)));
      }
      expect(new Set(made.map((m) => m.reference)).size).toBe(TOTAL);

      const processing = async () =>
        Number((await sql(a, `select count(*) as n from "transaction" where merchant_id = ? and status = 'processing'`, [merchant.merchant.id]))[0].n);
      // Bounded: far more than the settle queue needs at one job per poll interval per instance.
      const allDecided = await eventually(async () => (await processing()) === 0, { attempts: 900, everyMs: 200 });
      expect(allDecided).toBe(true);

      const rows = await sql(
        a,
        `select t.reference, t.kind, t.status, t.failure_reason,
                (select count(*)::int from transaction_history e where e.transaction_id = t.id) as history,
                (select count(*)::int from outbox_event o where o.subject_id = t.reference) as events
           from "transaction" t where t.merchant_id = ?`,
        [merchant.merchant.id],
      );
      expect(rows).toHaveLength(TOTAL);
      const byReference = new Map(rows.map((r: any) => [r.reference as string, r]));

      const problems: string[] = [];
      for (const m of made) {
        const row = byReference.get(m.reference);
        const rule = sandboxSettlement({ kind: m.kind, accountType: 'momo', accountNumber: m.accountNumber });
        const expectedStatus = rule.outcome;
        const expectedReason = rule.outcome === 'failed' ? rule.reason : null;
        if (!row) problems.push(`${m.reference}: missing`);
        else if (row.status !== expectedStatus || row.failure_reason !== expectedReason || row.history !== 2 || row.events !== 1) {
          problems.push(`${m.reference} (${m.kind} ${m.accountNumber}): ${JSON.stringify(row)}, expected ${expectedStatus}`);
        }
      }
      expect(problems).toEqual([]);

      // History: processing, then exactly one final status; outbox: one event of the right type per transaction.
      const history = await sql(
        a,
        `select t.reference, array_agg(coalesce(e.from_status, '-') || '>' || e.to_status order by e.seq) as steps
           from transaction_history e join "transaction" t on t.id = e.transaction_id where t.merchant_id = ? group by t.reference`,
        [merchant.merchant.id],
      );
      const events = await sql(a, 'select subject_id, type, payload from outbox_event where merchant_id = ? and type not like ?', [
        merchant.merchant.id,
        'customer.%',
      ]);
      expect(events).toHaveLength(TOTAL);
      const stepsOf = new Map(history.map((h: any) => [h.reference, h.steps]));
      const eventOf = new Map(events.map((e: any) => [e.subject_id, e]));
      for (const m of made) {
        const status = byReference.get(m.reference).status;
        expect([m.reference, stepsOf.get(m.reference)]).toEqual([m.reference, ['->processing', `processing>${status}`]]);
        expect([m.reference, eventOf.get(m.reference)?.type]).toEqual([m.reference, `${m.kind}.${status}`]);
      }

      // Each event carries what the status endpoint shows, whichever instance is asked.
      for (const [i, m] of made.entries()) {
        const res = await request((i % 2 === 0 ? b : a).url, 'GET', `/v1/crossborder/global-transfer/${m.reference}`, { token });
        expect(res.body.data).toEqual(eventOf.get(m.reference).payload);
      }
    }, 300_000);
  });

  it('a claim held by an instance that stopped heartbeating is taken over at once; one held by a live instance is left alone', async () => {
    // Decisions a minute away: nothing settles unless a test makes it due.
    const app = await createTestApp({ env: { SANDBOX_SETTLE_MS: '60000' } });
    try {
      const merchant = await app.createMerchant('Takeover Merchant');
      const { accessToken: token } = await app.token(merchant);
      const customer = await approvedCustomer(app, token);
      const collect = async () => {
        const res = await request(app.url, 'POST', '/v1/crossborder/global-collection', { token, body: momoCollectionBody(customer.customer_uuid) });
        expect(res.status).toBe(200);
        return transactionIdOf(app.db.url, res.body.data.reference);
      };
      const [orphan, held] = [await collect(), await collect()];
      const [{ pool_id: live }] = await query<{ pool_id: string }>(app.db, 'select pool_id from job_worker_instance');
      // Both due now and claimed for an hour: one by an instance with no heartbeat (killed), one by this live instance.
      await query(
        app.db,
        `update settlement_due set due_at = now(), claimed_until = now() + interval '1 hour',
                claimed_by = case transaction_id when $1::uuid then 'killed-instance' else $3 end
          where transaction_id in ($1::uuid, $2::uuid)`,
        [orphan, held, live],
      );
      const status = async (id: string) => (await query<{ status: string }>(app.db, 'select status from "transaction" where id = $1', [id]))[0]!.status;
      expect(await eventually(async () => (await status(orphan)) !== 'processing', { attempts: 100, everyMs: 100 })).toBe(true);
      // The same claim statement passed over the live instance's row: still held, still undecided.
      expect(await status(held)).toBe('processing');
      const [row] = await query<{ claimed_by: string; held: boolean }>(
        app.db,
        'select claimed_by, claimed_until > now() as held from settlement_due where transaction_id = $1',
        [held],
      );
      expect(row).toEqual({ claimed_by: live, held: true });
    } finally {
      await app.close();
    }
  });
});

/**
 * npm run bench: a bounded benchmark of the hot paths, on this machine, against the
 * real PostgreSQL (TEST_DATABASE_URL) and loopback HTTP. Prints numbers; asserts nothing.
 * Speed goals live here, not in the tests.
 */
import 'reflect-metadata';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { approvedCustomer } from '../helpers/factories';
import { request } from '../helpers/http';
import { startReceiver } from '../helpers/receiver';
import { momoCollectionBody } from '../helpers/transactions';
import { eventually } from '../helpers/wait';

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** Runs `op` with `concurrency` workers for `seconds`; returns throughput and latency percentiles. */
async function load(label: string, seconds: number, concurrency: number, op: (i: number) => Promise<void>) {
  const latencies: number[] = [];
  const deadline = Date.now() + seconds * 1000;
  let n = 0;
  let errors = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < deadline) {
        const i = n++;
        const started = performance.now();
        try {
          await op(i);
        } catch {
          errors++;
        }
        latencies.push(performance.now() - started);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const rps = (latencies.length / seconds).toFixed(0);
  console.log(
    `${label.padEnd(44)} ${rps.padStart(6)} req/s  p50 ${percentile(latencies, 50).toFixed(1)} ms  p99 ${percentile(latencies, 99).toFixed(1)} ms  errors ${errors}`,
  );
}

async function main() {
  const receiver = await startReceiver(() => 200);
  const app: TestApp = await createTestApp({ env: { SANDBOX_SETTLE_MS: '50', WEBHOOK_RETRY_SCHEDULE: '1s', JOB_POLL_INTERVAL_MS: '500' } });
  try {
    const merchant = await app.createMerchant('Bench');
    const { accessToken: token } = await app.token(merchant);
    await request(app.url, 'PUT', '/v1/webhooks/endpoint', { token, body: { url: receiver.url } });
    const customer = await approvedCustomer(app, token);
    console.log(`node ${process.version}, PostgreSQL at ${new URL(app.db.url).host}, 20 concurrent clients unless stated\n`);

    await load('POST /v1/oauth/token (client_credentials)', 5, 20, async () => {
      const res = await request(app.url, 'POST', '/v1/oauth/token', {
        body: { grant_type: 'client_credentials', client_id: merchant.merchant.clientId, client_secret: merchant.clientSecret },
      });
      if (res.status !== 200) throw new Error(String(res.status));
    });
    await load('GET /v1/crossborder/countries (auth only)', 5, 20, async () => {
      if ((await request(app.url, 'GET', '/v1/crossborder/countries', { token })).status !== 200) throw new Error('status');
    });
    await load('GET /v1/merchant (auth + one read)', 5, 20, async () => {
      if ((await request(app.url, 'GET', '/v1/merchant', { token })).status !== 200) throw new Error('status');
    });
    await load('GraphQL { merchant }', 5, 20, async () => {
      const res = await request(app.url, 'POST', '/graphql', { token, body: { query: '{ merchant { id } }' } });
      if (res.status !== 200) throw new Error('status');
    });

    const started = Date.now();
    let created = 0;
    await load('POST global-collection (momo)', 5, 20, async (i) => {
      const res = await request(app.url, 'POST', '/v1/crossborder/global-collection', {
        token,
        body: momoCollectionBody(customer.customer_uuid, { account_number: '712345678', reason: 'bench', reference: `bench-${started}-${i}` }),
      });
      if (res.status !== 200) throw new Error(String(res.status));
      created++;
    });

    // Background drain: settlement and webhook delivery of everything just created.
    const drainStart = Date.now();
    const count = async (sql: string) => Number((await app.service.orm.em.fork().execute(sql))[0].n);
    const settled = await eventually(async () => (await count(`select count(*) as n from "transaction" where status = 'processing'`)) === 0, { attempts: 1200, everyMs: 100 });
    const settleMs = Date.now() - drainStart;
    const delivered = await eventually(async () => (await count(`select count(*) as n from webhook_delivery where status = 'pending'`)) === 0, { attempts: 1200, everyMs: 100 });
    const deliverMs = Date.now() - drainStart;
    console.log(`\nsettled ${created} collections in ${(settleMs / 1000).toFixed(1)} s (${settled ? 'all' : 'NOT all'}) on one instance`);
    console.log(`delivered their webhooks (+1 KYC event) in ${(deliverMs / 1000).toFixed(1)} s (${delivered ? 'all' : 'NOT all'}); receiver got ${receiver.received.length}`);
  } finally {
    await app.close();
    await receiver.close();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);

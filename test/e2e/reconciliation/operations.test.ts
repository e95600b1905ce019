import { Writable } from 'node:stream';
import { FlutterwaveFake } from '../../fakes/flutterwave.fake';
import { runCli } from '../../helpers/engine';
import { request } from '../../helpers/http';
import { flutterwaveApp, railsMerchant, type RailsMerchant } from '../../helpers/rails';
import { day, reconciliation, seedOurs } from '../../helpers/reconciliation';
import { TEST_ADMIN_KEY, type TestApp } from '../../helpers/test-app';
import { eventually } from '../../helpers/wait';
import { dbQuery } from '../../helpers/webhooks';

/**
 * Reconciliation's outputs (docs/reconciliation.md): `npm run recon` (spawned, on the test database), the admin API
 * (runs, one run's items, an exception resolved with a note: audited), the open-exceptions gauge, one error log line
 * per exception, and the daily job chain.
 */

const METRICS_TOKEN = 'recon-metrics-token-0123456789';
const admin = { authorization: `Bearer ${TEST_ADMIN_KEY}` };

describe('reconciliation: the CLI, the admin API, the metric, the log and the daily job', () => {
  let flw: FlutterwaveFake;
  let app: TestApp;
  let m: RailsMerchant;
  const logs: string[] = [];

  beforeAll(async () => {
    flw = await FlutterwaveFake.start({ decisionDelayMs: 30 });
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        logs.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        done();
      },
    });
    app = await flutterwaveApp(flw, { METRICS_TOKEN, RECONCILIATION_ENABLED: 'true' }, stream);
    m = await railsMerchant(app);
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await flw?.close();
  });

  /** What an operator's shell has: the provider's variables, the environment, the service's public address. */
  const cliEnv = () => ({ ...flw.env(), PAYMENTS_ENV: 'production', PUBLIC_BASE_URL: app.url });

  const gauge = async (cls: string): Promise<number | null> => {
    const res = await request(app.url, 'GET', '/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    const match = new RegExp(`payments_reconciliation_open_exceptions\\{connector="flutterwave",class="${cls}"\\} (\\d+)`).exec(res.text ?? '');
    return match ? Number(match[1]) : null;
  };

  it('npm run recon reconciles a day, prints the run as JSON and exits 1 on exceptions; the API lists it; an operator resolves one with a note', async () => {
    const date = '2026-10-05';
    const at = new Date(`${date}T08:00:00Z`);
    const short = await seedOurs(app, m.merchantId, {
      kind: 'collection',
      status: 'successful',
      amount: '900',
      currency: 'NGN',
      connector: 'flutterwave',
      createdAt: at,
    });
    flw.seedTransaction({ tx_ref: short.id, amount: 890, currency: 'NGN', status: 'successful', created_at: at });
    const fine = await seedOurs(app, m.merchantId, {
      kind: 'collection',
      status: 'successful',
      amount: '40',
      currency: 'NGN',
      connector: 'flutterwave',
      createdAt: at,
    });
    flw.seedTransaction({ tx_ref: fine.id, amount: 40, currency: 'NGN', status: 'successful', created_at: at });

    const cli = await runCli(app.db.url, 'reconcile', ['--connector', 'flutterwave', '--date', date], cliEnv());
    expect(cli.stderr).not.toMatch(/failed/);
    expect(cli.exitCode).toBe(1);
    expect(cli.output).toMatchObject({
      ran: true,
      connector: 'flutterwave',
      status: 'completed',
      open_exceptions: 1,
      counts: { matched: 1, amount_mismatch: 1 },
    });
    expect(cli.output.window).toEqual({ from: '2026-10-05T00:00:00.000Z', to: '2026-10-06T00:00:00.000Z' });
    // A bad date is refused, naming it.
    const bad = await runCli(app.db.url, 'reconcile', ['--connector', 'flutterwave', '--date', '5 Oct'], cliEnv());
    expect(bad.exitCode).toBe(1);
    expect(bad.stderr).toMatch(/INVALID_REQUEST: .*date/);

    // The admin API: the key is required.
    expect((await request(app.url, 'GET', '/v1/admin/reconciliation/runs')).status).toBe(401);
    const list = await request(app.url, 'GET', '/v1/admin/reconciliation/runs?connector=flutterwave', { headers: admin });
    expect(list.status).toBe(200);
    const run = list.body.data.find((r: any) => r.run_id === cli.output.run_id);
    expect(run).toMatchObject({ connector: 'flutterwave', status: 'completed', window_from: '2026-10-05T00:00:00.000Z', counts: { amount_mismatch: 1 } });
    expect((await request(app.url, 'GET', '/v1/admin/reconciliation/runs?limit=0', { headers: admin })).status).toBe(400);
    const detail = await request(app.url, 'GET', `/v1/admin/reconciliation/runs/${run.run_id}`, { headers: admin });
    expect(detail.status).toBe(200);
    const item = detail.body.data.items.find((i: any) => i.class === 'amount_mismatch');
    expect(item).toMatchObject({
      transaction_id: short.id,
      ours: { amount: 900, currency: 'NGN', status: 'successful' },
      theirs: { amount: 890 },
      resolved_at: null,
    });
    const matched = detail.body.data.items.find((i: any) => i.class === 'matched');
    expect((await request(app.url, 'GET', `/v1/admin/reconciliation/runs/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`, { headers: admin })).status).toBe(
      404,
    );

    // One error line per exception, with references and no account data.
    const lines = logs.filter((l) => l.includes('reconciliation exception'));
    expect(lines).toHaveLength(0); // the CLI ran in its own process: its lines went to its stderr
    expect(cli.stderr).toContain('reconciliation exception: amount_mismatch');
    expect(cli.stderr).not.toMatch(/0690000031|account_number/);

    // The gauge counts it until it is resolved.
    expect(await gauge('amount_mismatch')).toBe(1);
    const path = `/v1/admin/reconciliation/items/${item.item_id}/resolve`;
    expect((await request(app.url, 'POST', path, { body: { note: 'x' } })).status).toBe(401);
    const empty = await request(app.url, 'POST', path, { headers: admin, body: { note: '  ' } });
    expect(empty.status).toBe(400);
    expect(JSON.stringify(empty.body)).toContain('note');
    const resolved = await request(app.url, 'POST', path, { headers: admin, body: { note: 'Flutterwave kept a 10 NGN fee; agreed with finance' } });
    expect(resolved.status).toBe(200);
    expect(resolved.body.data).toMatchObject({
      item_id: item.item_id,
      resolved_by: 'admin_api',
      resolution_note: 'Flutterwave kept a 10 NGN fee; agreed with finance',
    });
    const audit = await dbQuery(
      app.db.url,
      `select actor_type, target_type, target_id, after from audit_log where action = 'reconciliation.exception_resolved'`,
    );
    expect(audit).toEqual([
      expect.objectContaining({
        actor_type: 'operator',
        target_type: 'reconciliation_item',
        target_id: item.item_id,
        after: expect.objectContaining({ note: expect.stringContaining('10 NGN fee') }),
      }),
    ]);
    expect(await gauge('amount_mismatch')).toBe(0);
    // Once only; a matched item is no exception.
    expect((await request(app.url, 'POST', path, { headers: admin, body: { note: 'again' } })).status).toBe(409);
    expect((await request(app.url, 'POST', `/v1/admin/reconciliation/items/${matched.item_id}/resolve`, { headers: admin, body: { note: 'n' } })).status).toBe(
      409,
    );
    expect(await dbQuery(app.db.url, `select 1 from audit_log where action = 'reconciliation.exception_resolved'`)).toHaveLength(1);
  });

  it('a run in the service logs one error line per exception', async () => {
    const date = '2026-10-07';
    flw.seedTransaction({ tx_ref: 'unknown-1', amount: 3, currency: 'NGN', status: 'successful', created_at: new Date(`${date}T03:00:00Z`) });
    flw.seedTransaction({ tx_ref: 'unknown-2', amount: 4, currency: 'NGN', status: 'successful', created_at: new Date(`${date}T04:00:00Z`) });
    await reconciliation(app).reconcile('flutterwave', day(date));
    const lines = logs.map((l) => JSON.parse(l)).filter((l) => l.msg === 'reconciliation exception: missing_here');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ level: 50, connector: 'flutterwave', class: 'missing_here', currency: 'NGN' });
    expect(await gauge('missing_here')).toBe(2);
  });

  it('the daily job reconciles yesterday for every connector, once, and adds the next day’s run', async () => {
    const yesterday = day(new Date(Date.now() - 24 * 60 * 60 * 1000).toISOString().slice(0, 10));
    const key = (d: Date) => `reconciliation.reconcile-day:${d.toISOString().slice(0, 10)}`;
    // Added at start, due an hour after the day ends: made due now (graphile-worker's clock is the database's).
    await dbQuery(app.db.url, 'update graphile_worker._private_jobs set run_at = now() where key = $1', [key(yesterday.from)]);
    const ran = await eventually(
      async () =>
        (
          await dbQuery(app.db.url, `select 1 from reconciliation_run where connector = 'flutterwave' and window_from = $1 and status = 'completed'`, [
            yesterday.from,
          ])
        ).length === 1,
      { attempts: 200, everyMs: 50 },
    );
    expect(ran).toBe(true);
    const next = await eventually(
      async () => (await dbQuery(app.db.url, 'select 1 from graphile_worker._private_jobs where key = $1', [key(yesterday.to)])).length === 1,
    );
    expect(next).toBe(true);
  });
});

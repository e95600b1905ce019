import type { Client as SocketClient } from 'graphql-ws';
import { Client } from 'pg';
import { enroll } from '../../helpers/factories';
import { graphql, request } from '../../helpers/http';
import { startReceiver, type Receiver } from '../../helpers/receiver';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { eventually } from '../../helpers/wait';
import { FAST_WEBHOOKS, awaitDelivery, dbQuery, kycApprovedEvent, setEndpoint } from '../../helpers/webhooks';
import { collect, connect } from '../../helpers/ws';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const SAMPLE_LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(?:,|$)/gy;

/**
 * Prometheus text format 0.0.4, strictly: every line is a HELP, a TYPE or a sample; every
 * sample belongs to a family announced by HELP and TYPE before it.
 */
function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  const typed = new Map<string, string>();
  const helped = new Set<string>();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    let m: RegExpExecArray | null;
    if ((m = /^# HELP ([a-zA-Z_:][a-zA-Z0-9_:]*) .+$/.exec(line))) {
      helped.add(m[1]!);
      continue;
    }
    if ((m = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)$/.exec(line))) {
      typed.set(m[1]!, m[2]!);
      continue;
    }
    m = SAMPLE_LINE.exec(line);
    if (!m) throw new Error(`not an exposition line: ${line}`);
    const [, name, rawLabels = '', rawValue] = m;
    const family = typed.has(name!) ? name! : name!.replace(/_(bucket|sum|count)$/, '');
    if (!typed.has(family) || !helped.has(family)) throw new Error(`sample of an unannounced family: ${line}`);
    const labels: Record<string, string> = {};
    LABEL.lastIndex = 0;
    let consumed = 0;
    let l: RegExpExecArray | null;
    while ((l = LABEL.exec(rawLabels))) {
      labels[l[1]!] = l[2]!;
      consumed = LABEL.lastIndex;
    }
    if (consumed !== rawLabels.length) throw new Error(`malformed labels: ${line}`);
    // Prometheus reads values with Go's ParseFloat: NaN in any case (prom-client writes `Nan`), ±Inf.
    const value = /^nan$/i.test(rawValue!) ? NaN : rawValue === '+Inf' ? Infinity : rawValue === '-Inf' ? -Infinity : Number(rawValue);
    if (Number.isNaN(value) && !/^nan$/i.test(rawValue!)) throw new Error(`malformed value: ${line}`);
    samples.push({ name: name!, labels, value });
  }
  return samples;
}

/** The value of the one sample with this name whose labels include `labels`; undefined when there is none. */
function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const found = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
  return found[0]?.value;
}

async function scrape(app: TestApp, headers: Record<string, string> = {}) {
  const res = await request(app.url, 'GET', '/metrics', { headers });
  expect(res.status).toBe(200);
  return { text: res.text, samples: parseExposition(res.text), contentType: res.headers.get('content-type') };
}

/** Runs one operation over the socket until it completes. */
function runOnSocket(client: SocketClient, query: string): Promise<void> {
  return new Promise((resolve, reject) => {
    client.subscribe({ query }, { next: () => undefined, error: reject, complete: resolve });
  });
}

describe('metrics and health', () => {
  let app: TestApp;
  let token: string;
  let receiver: Receiver;

  beforeAll(async () => {
    app = await createTestApp({ env: FAST_WEBHOOKS });
    receiver = await startReceiver();
    const merchant = await app.createMerchant('Metrics Merchant');
    ({ accessToken: token } = await app.token(merchant));
    await setEndpoint(app.url, token, receiver.url);
  });
  afterAll(async () => {
    await app.close();
    await receiver.close();
  });

  it('serves the Prometheus text format with HTTP latency by route pattern, never by raw URL', async () => {
    const customer = await enroll(app, token);
    for (let i = 0; i < 2; i++) expect((await request(app.url, 'GET', `/v1/customer/${customer.customer_uuid}`, { token })).status).toBe(200);
    const stray = `stray-${Date.now()}`;
    expect((await request(app.url, 'GET', `/v1/no-such-route/${stray}`, { token })).status).toBe(404);

    const { text, samples, contentType } = await scrape(app);
    expect(contentType).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(text).toContain('# TYPE http_request_duration_seconds histogram');
    const route = { method: 'GET', route: '/v1/customer/:uuid', status_code: '200' };
    expect(valueOf(samples, 'http_request_duration_seconds_count', route)).toBe(2);
    expect(valueOf(samples, 'http_request_duration_seconds_bucket', { ...route, le: '+Inf' })).toBe(2);
    expect(valueOf(samples, 'http_request_duration_seconds_sum', route)).toBeGreaterThan(0);
    expect(valueOf(samples, 'http_request_duration_seconds_count', { method: 'POST', route: '/v1/customer/enroll', status_code: '201' })).toBe(1);
    expect(valueOf(samples, 'http_request_duration_seconds_count', { method: 'GET', route: 'not_found', status_code: '404' })).toBe(1);
    // Neither the customer's uuid nor the stray path appears anywhere.
    expect(text).not.toContain(customer.customer_uuid);
    expect(text).not.toContain(stray);
    // The process's default metrics are there too.
    expect(valueOf(samples, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
  });

  it('observes GraphQL operations by type, name and outcome over HTTP and over the socket', async () => {
    expect((await graphql(app.url, 'query MerchantProfile { merchant { id } }', { token })).status).toBe(200);
    expect((await graphql(app.url, '{ merchant { name } }', { token })).status).toBe(200);
    expect((await graphql(app.url, 'query Broken { merchant { nope } }', { token })).status).toBe(400);
    expect((await graphql(app.url, 'query Unparsable { merchant {', { token })).status).toBe(400);

    const client = connect(app, token);
    try {
      await runOnSocket(client, 'query SocketProfile { merchant { id } }');
      let samples = (await scrape(app)).samples;
      const graphqlCount = (labels: Record<string, string>) => valueOf(samples, 'graphql_operation_duration_seconds_count', labels);
      expect(graphqlCount({ transport: 'http', operation_type: 'query', operation_name: 'MerchantProfile', outcome: 'ok' })).toBe(1);
      expect(graphqlCount({ transport: 'http', operation_type: 'query', operation_name: 'anonymous', outcome: 'ok' })).toBe(1);
      // Neither a document that fails validation nor one that does not parse is counted under the name it claims.
      expect(graphqlCount({ transport: 'http', operation_type: 'unknown', operation_name: 'invalid', outcome: 'error' })).toBe(2);
      expect(samples.some((s) => s.labels.operation_name === 'Broken' || s.labels.operation_name === 'Unparsable')).toBe(false);
      expect(graphqlCount({ transport: 'ws', operation_type: 'query', operation_name: 'SocketProfile', outcome: 'ok' })).toBe(1);

      // One open socket; a subscription counts once it is set up, and stays active until it ends.
      const sub = collect(client, 'subscription WatchKyc { kycStatusChanged { customerUuid } }');
      const gauges = async () => {
        samples = (await scrape(app)).samples;
        return [valueOf(samples, 'payments_graphql_ws_open_sockets'), valueOf(samples, 'payments_graphql_ws_active_subscriptions')];
      };
      expect(await eventually(async () => (await gauges())[1] === 1)).toBe(true);
      expect(await gauges()).toEqual([1, 1]);
      expect(graphqlCount({ transport: 'ws', operation_type: 'subscription', operation_name: 'WatchKyc', outcome: 'ok' })).toBe(1);
      sub.stop();
      expect(await eventually(async () => (await gauges())[1] === 0)).toBe(true);
      expect((await gauges())[0]).toBe(1);
    } finally {
      await client.dispose();
    }
    expect(await eventually(async () => valueOf((await scrape(app)).samples, 'payments_graphql_ws_open_sockets') === 0)).toBe(true);
  });

  it('keeps at most 100 distinct operation names; the rest are counted as other', async () => {
    for (let i = 0; i < 110; i++) expect((await graphql(app.url, `query Name${i} { merchant { id } }`, { token })).status).toBe(200);
    const { samples } = await scrape(app);
    const names = new Set(samples.filter((s) => s.name === 'graphql_operation_duration_seconds_count').map((s) => s.labels.operation_name));
    expect(names.has('other')).toBe(true);
    expect(names.has('Name109')).toBe(false);
    expect(names.has('anonymous') && names.has('invalid')).toBe(true);
    // The names seen before, the first of these, and the two reserved ones and `other`.
    expect(names.size).toBe(100 + 3);
    const other = valueOf(samples, 'graphql_operation_duration_seconds_count', {
      transport: 'http',
      operation_type: 'query',
      operation_name: 'other',
      outcome: 'ok',
    });
    expect(other).toBe(110 - (100 - 3));
  });

  it('counts webhook attempts by outcome, with the POST duration', async () => {
    const { eventId } = await kycApprovedEvent(app, token);
    expect((await awaitDelivery(app, token, eventId)).delivery_status).toBe('delivered');
    const { samples } = await scrape(app);
    expect(valueOf(samples, 'payments_webhook_deliveries_total', { outcome: 'delivered' })).toBeGreaterThanOrEqual(1);
    expect(valueOf(samples, 'payments_webhook_deliveries_total', { outcome: 'failed' })).toBe(0);
    expect(valueOf(samples, 'payments_webhook_attempt_duration_seconds_count', { outcome: 'delivered' })).toBeGreaterThanOrEqual(1);
  });

  it('counts each retry, and the attempt that spends the schedule as failed', async () => {
    const failing = await startReceiver(() => 500);
    try {
      const merchant = await app.createMerchant('Failing Receiver');
      const { accessToken } = await app.token(merchant);
      await setEndpoint(app.url, accessToken, failing.url);
      const { eventId } = await kycApprovedEvent(app, accessToken);
      // FAST_WEBHOOKS: three retries, then failed.
      expect((await awaitDelivery(app, accessToken, eventId)).delivery_status).toBe('failed');
      const { samples } = await scrape(app);
      expect(valueOf(samples, 'payments_webhook_deliveries_total', { outcome: 'retry_scheduled' })).toBe(3);
      expect(valueOf(samples, 'payments_webhook_deliveries_total', { outcome: 'failed' })).toBe(1);
      expect(valueOf(samples, 'payments_webhook_attempt_duration_seconds_count', { outcome: 'retry_scheduled' })).toBe(3);
    } finally {
      await failing.close();
    }
  });

  it('reads the pools and the job queue at scrape time', async () => {
    const { samples } = await scrape(app);
    for (const pool of ['direct', 'orm']) {
      for (const state of ['used', 'idle']) expect(valueOf(samples, 'payments_db_pool_connections', { pool, state })).toBeGreaterThanOrEqual(0);
      expect(valueOf(samples, 'payments_db_pool_waiting_requests', { pool })).toBe(0);
      expect(valueOf(samples, 'payments_db_pool_max_connections', { pool })).toBe(10);
    }
    // The scrape's own queue statement holds a direct connection: at least one is in use or idle.
    expect(
      valueOf(samples, 'payments_db_pool_connections', { pool: 'direct', state: 'idle' })! +
        valueOf(samples, 'payments_db_pool_connections', { pool: 'direct', state: 'used' })!,
    ).toBeGreaterThan(0);
    for (const task of ['deliver-webhook', 'kyc-review', 'settle-transaction']) {
      for (const name of [
        'payments_jobs_queued',
        'payments_jobs_scheduled',
        'payments_jobs_running',
        'payments_jobs_failed',
        'payments_jobs_oldest_age_seconds',
      ]) {
        expect(valueOf(samples, name, { task })).toBeGreaterThanOrEqual(0);
      }
    }
  });

  it('a due job nobody takes shows as queued, with the age of the oldest', async () => {
    // A job for a task no worker of this instance knows: it stays due and unlocked.
    await dbQuery(app.db.url, `select graphile_worker.add_job('metrics-test-orphan', '{}'::json, run_at => now() - interval '30 seconds')`);
    // A scrape whose queue statement runs past its deadline (a loaded machine) answers the values before: the next one
    // reads the orphan.
    let samples: Awaited<ReturnType<typeof scrape>>['samples'] = [];
    expect(
      await eventually(async () => {
        samples = (await scrape(app)).samples;
        return valueOf(samples, 'payments_jobs_queued', { task: 'metrics-test-orphan' }) === 1;
      }),
    ).toBe(true);
    expect(valueOf(samples, 'payments_jobs_queued', { task: 'metrics-test-orphan' })).toBe(1);
    expect(valueOf(samples, 'payments_jobs_oldest_age_seconds', { task: 'metrics-test-orphan' })).toBeGreaterThanOrEqual(29);

    // The queue's statement cannot run (its table is locked): the scrape still answers, within about a second, with the last values.
    const locker = new Client({ connectionString: app.db.url });
    await locker.connect();
    try {
      await locker.query('begin');
      await locker.query('lock table graphile_worker._private_jobs in access exclusive mode');
      const started = Date.now();
      const stale = (await scrape(app)).samples;
      expect(Date.now() - started).toBeLessThan(2500);
      expect(valueOf(stale, 'payments_jobs_queued', { task: 'metrics-test-orphan' })).toBe(1);
    } finally {
      await locker.query('rollback');
      await locker.end();
    }
  });

  it('health: live without I/O, ready when the database answers (Redis not configured), and the old /health', async () => {
    const live = await request(app.url, 'GET', '/health/live');
    expect(live.status).toBe(200);
    expect(live.body).toEqual({ status: 'success', message: 'Live', data: { status: 'ok' } });
    const ready = await request(app.url, 'GET', '/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({
      status: 'success',
      message: 'Ready',
      data: { status: 'ready', checks: { database: 'ok', redis: 'not_configured' }, providers: { sandbox: 'closed' } },
    });
    const legacy = await request(app.url, 'GET', '/health');
    expect(legacy.status).toBe(200);
    expect(legacy.body.data).toEqual({ status: 'ok', env: 'sandbox' });
  });

  it('with METRICS_TOKEN, /metrics needs it; with Redis unreachable the app starts and is not ready; draining is not ready', async () => {
    const metricsToken = 'metrics-token-0123456789abcdef';
    const lines: string[] = [];
    const other = await createTestApp({
      env: { METRICS_TOKEN: metricsToken, REDIS_URL: 'redis://127.0.0.1:1' },
      logDestination: { write: (chunk: string) => void lines.push(chunk) },
    });
    try {
      const none = await request(other.url, 'GET', '/metrics');
      expect(none.status).toBe(401);
      expect(none.body).toEqual({ status: 'error', code: 'INVALID_TOKEN', message: expect.any(String) });
      expect((await request(other.url, 'GET', '/metrics', { token: 'wrong-token-0123456789abcdef' })).status).toBe(401);
      const { samples } = await scrape(other, { authorization: `Bearer ${metricsToken}` });
      expect(valueOf(samples, 'http_request_duration_seconds_count', { method: 'GET', route: '/metrics', status_code: '401' })).toBe(2);

      const started = Date.now();
      const ready = await request(other.url, 'GET', '/health/ready');
      expect(Date.now() - started).toBeLessThan(1500);
      expect(ready.status).toBe(503);
      expect(ready.body).toEqual({
        status: 'error',
        code: 'SERVICE_UNAVAILABLE',
        message: expect.stringContaining('redis'),
        data: { status: 'not_ready', checks: { database: 'ok', redis: 'failed' }, providers: { sandbox: 'closed' } },
      });
      expect((await request(other.url, 'GET', '/health/live')).status).toBe(200);

      other.service.app.observability.markNotReady();
      const draining = await request(other.url, 'GET', '/health/ready');
      expect(draining.status).toBe(503);
      expect(draining.body.data).toEqual({ status: 'draining', checks: {}, providers: { sandbox: 'closed' } });

      // Scrapes and probes write no access line (the log keeps their warnings: the refused scrapes are 401s, not logged either).
      expect((await request(other.url, 'GET', '/v1/merchant')).status).toBe(401); // an ordinary request, logged
      const accessLines = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'request completed');
      expect(accessLines.map((l) => l.path)).toContain('/v1/merchant');
      expect(accessLines.filter((l) => /^\/(metrics|health\/)/.test(l.path))).toEqual([]);
      expect(lines.some((l) => l.includes('readiness: dependency is not answering') && l.includes('redis'))).toBe(true);
    } finally {
      await other.close();
    }
  });

  it('in production without METRICS_TOKEN there is no /metrics (404); ready checks a reachable Redis, and is degraded with no provider', async () => {
    // With a Redis that answers, ready checks it too.
    const production = await createTestApp({ env: { PAYMENTS_ENV: 'production', REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379' } });
    try {
      const res = await request(production.url, 'GET', '/metrics');
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('NOT_FOUND');
      const ready = await request(production.url, 'GET', '/health/ready');
      expect(ready.status).toBe(200);
      // Ready (it answers, and serves what it can), but degraded: no provider is connected, so it serves no route, and says so.
      expect(ready.body.data).toEqual({
        status: 'degraded',
        degraded: ['no connector serves card payments', expect.stringMatching(/^no connector serves \d+ channels \(\w+(, \w+){5} and \d+ more\)$/)],
        checks: { database: 'ok', redis: 'ok' },
        providers: {},
      });
      expect(ready.body.message).toBe(`Ready, degraded: ${ready.body.data.degraded.join('; ')}`);
      const channels = production.service.app.services.reference.unservedChannels();
      expect(ready.body.data.degraded[1]).toContain(`serves ${channels.length} channels`);
    } finally {
      await production.close();
    }
  });
});

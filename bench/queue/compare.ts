/**
 * graphile-worker 0.17.3 vs pg-boss 10.4.2 on this machine's PostgreSQL (and a
 * functional check on the embedded PGlite + pglite-socket setup).
 *
 *   npx tsc -p tsconfig.json && node dist/bench/queue/compare.js
 *
 * Creates throw-away databases `qbench_<random>` (dropped at the end), prints a
 * Markdown section to stdout (diagnostics go to stderr) and writes the raw
 * figures to bench/queue/results.json. Bounded to ~3 minutes by a watchdog.
 *
 * The same file is forked as the "crash child" (argv[2] === 'crash-child').
 */
import { execSync, fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client, Pool, type PoolClient } from 'pg';
import PgBoss from 'pg-boss';
import { Logger, run, runMigrations, type Runner, type TaskList } from 'graphile-worker';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

// ---------------------------------------------------------------- settings
const ADMIN_URL = 'postgresql://postgres@127.0.0.1:5432/postgres';
const LAT_RATE = 200; // jobs/s
const LAT_WARMUP_S = 1;
const LAT_SECONDS = 8;
const DRAIN_JOBS = 5000;
const DRAIN_WARMUP_JOBS = 300;
const DRAIN_CAP_MS = 12_000; // a drain that is not done by then is reported as a rate over the cap
const POLL_BOUND_DRAIN_CAP_MS = 4000; // pg-boss untuned: 20 jobs per 0.5 s poll is deterministic, so a short window suffices
const ENQUEUE_BATCH = 500;
const GW_CONCURRENCY = 10; // graphile-worker `concurrency` (jobs in flight)
const GW_POOL_MAX = GW_CONCURRENCY + 4; // its own pg.Pool (workers + LISTEN + completion)
const BOSS_BATCH = 20; // pg-boss batchSize (what src/jobs/job-runner.ts uses); the batch runs in Promise.all
const BOSS_POOL_MAX = 4; // pg-boss's own pool (as in job-runner.ts)
const BOSS_POLL_S = 0.5; // pg-boss 10 minimum
const HANDLER_POOL_MAX = 10; // the handlers' UPDATEs go through one shared pool of 10, for both libraries
const WATCHDOG_MS = 178_000;

const T0 = performance.now();
const log = (...a: unknown[]) => console.error(`[${((performance.now() - T0) / 1000).toFixed(1)}s]`, ...a);
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const quietGwLogger = new Logger(() => (level, message) => {
  if (level === 'error' || level === 'warning') console.error(`[graphile-worker ${level}] ${message}`);
});

function pct(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}
const r1 = (n: number) => (Number.isFinite(n) ? Math.round(n * 10) / 10 : n);

async function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let t: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([p, new Promise<never>((_, rej) => (t = setTimeout(() => rej(new Error(`timeout after ${ms} ms: ${what}`)), ms)))]);
  } finally {
    clearTimeout(t);
  }
}

async function waitFor(cond: () => boolean, ms: number, stepMs = 2): Promise<boolean> {
  const end = performance.now() + ms;
  while (!cond()) {
    if (performance.now() > end) return false;
    await sleep(stepMs);
  }
  return true;
}

function newPool(connectionString: string, max: number, label: string): Pool {
  const pool = new Pool({ connectionString, max });
  pool.on('error', (e) => log(`${label} pool error: ${e.message}`));
  pool.on('connect', (c) => c.on('error', (e) => log(`${label} client error: ${e.message}`)));
  return pool;
}

// ---------------------------------------------------------------- CPU accounting
let CLK_TCK = 100;
try {
  CLK_TCK = Number(execSync('getconf CLK_TCK').toString().trim()) || 100;
} catch {
  /* default */
}
/** Sum of utime+stime (ms) of all processes named `postgres` (server + backends). */
function pgCpuMs(): number {
  let ticks = 0;
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const s = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
      const close = s.lastIndexOf(')');
      const comm = s.slice(s.indexOf('(') + 1, close);
      if (comm !== 'postgres') continue;
      const f = s.slice(close + 2).split(' '); // f[0] = state (field 3); utime = field 14, stime = field 15
      ticks += Number(f[11]) + Number(f[12]);
    } catch {
      /* process went away */
    }
  }
  return (ticks * 1000) / CLK_TCK;
}
interface CpuMark {
  node: NodeJS.CpuUsage;
  pg: number;
  t: number;
}
const cpuMark = (): CpuMark => ({ node: process.cpuUsage(), pg: pgCpuMs(), t: performance.now() });
function cpuSince(m: CpuMark) {
  const d = process.cpuUsage(m.node);
  return { nodeMs: (d.user + d.system) / 1000, pgMs: pgCpuMs() - m.pg, wallMs: performance.now() - m.t };
}

// ---------------------------------------------------------------- databases
const createdDbs: string[] = [];
async function createDb(): Promise<string> {
  const name = `qbench_${randomBytes(5).toString('hex')}`;
  const c = new Client({ connectionString: ADMIN_URL });
  await c.connect();
  try {
    await c.query(`create database ${name}`);
  } finally {
    await c.end();
  }
  createdDbs.push(name);
  const url = `postgresql://postgres@127.0.0.1:5432/${name}`;
  const s = new Client({ connectionString: url });
  await s.connect();
  await s.query(`
    create table bench_orders (id bigint primary key, note text not null, created_at timestamptz not null default now());
    create table bench_accounts (id int primary key, balance bigint not null default 0);
    insert into bench_accounts (id) select g from generate_series(1, ${DRAIN_JOBS + DRAIN_WARMUP_JOBS}) g;
    analyze bench_accounts;`);
  await s.end();
  return url;
}
async function dropDbs(): Promise<void> {
  if (createdDbs.length === 0) return;
  const c = new Client({ connectionString: ADMIN_URL });
  await c.connect();
  for (const name of createdDbs.splice(0)) {
    try {
      await c.query(`drop database if exists ${name} with (force)`);
    } catch (err) {
      log(`could not drop ${name}: ${(err as Error).message}`);
    }
  }
  await c.end();
}

// ---------------------------------------------------------------- library adapters
type Payload = { i: number };
type Handler = (p: Payload) => Promise<void>;

interface Adapter {
  lib: 'graphile-worker' | 'pg-boss';
  variant: string;
  config: string;
  drainCapMs?: number;
  /** Enqueue on the producer's transaction connection. */
  enqueueInTx(client: PoolClient, queue: string, p: Payload): Promise<void>;
  /** Called after the producer's COMMIT (pg-boss tuned: wake the local worker). */
  afterCommit(): void;
  enqueueBulk(queue: string, from: number, to: number): Promise<void>;
  startWorker(queue: string, handler: Handler): Promise<void>;
  stopWorker(): Promise<void>;
  remaining(queue: string): Promise<number>;
  close(): Promise<void>;
}

type GwVariant = 'default' | 'tuned';
async function graphileAdapter(
  url: string,
  variant: GwVariant,
  extra: {
    poolMax?: number;
    concurrency?: number;
    noPreparedStatements?: boolean;
    pollInterval?: number;
    logger?: Logger;
    onRunnerEnd?: (e: Error | undefined, requested: boolean) => void;
  } = {},
): Promise<Adapter> {
  const pool = newPool(url, extra.poolMax ?? GW_POOL_MAX, 'graphile-worker');
  const worker: GraphileConfig.WorkerOptions =
    variant === 'tuned' ? { localQueue: { size: 2 * GW_CONCURRENCY }, completeJobBatchDelay: 0, failJobBatchDelay: 0 } : {};
  if (extra.noPreparedStatements) worker.preparedStatements = false;
  if (extra.pollInterval) worker.pollInterval = extra.pollInterval;
  const logger = extra.logger ?? quietGwLogger;
  await runMigrations({ pgPool: pool, logger });
  let runner: Runner | undefined;
  let stopRequested = false;
  const stopWorker = async () => {
    stopRequested = true;
    if (runner)
      await withTimeout(
        runner.stop().catch(() => undefined),
        15_000,
        'graphile runner.stop',
      );
    runner = undefined;
  };
  return {
    lib: 'graphile-worker',
    variant,
    config: `concurrency ${extra.concurrency ?? GW_CONCURRENCY}, pool ${extra.poolMax ?? GW_POOL_MAX}, preset.worker ${JSON.stringify(worker)}`,
    async enqueueInTx(client, queue, p) {
      await client.query('select graphile_worker.add_job($1::text, $2::json)', [queue, JSON.stringify(p)]);
    },
    afterCommit() {},
    async enqueueBulk(queue, from, to) {
      for (let a = from; a <= to; a += ENQUEUE_BATCH) {
        const b = Math.min(to, a + ENQUEUE_BATCH - 1);
        await pool.query(
          `select count(*) from graphile_worker.add_jobs(array(
             select json_populate_record(null::graphile_worker.job_spec, json_build_object('identifier', $1::text, 'payload', json_build_object('i', g)))
             from generate_series($2::int, $3::int) g))`,
          [queue, a, b],
        );
      }
    },
    async startWorker(queue, handler) {
      const taskList: TaskList = { [queue]: async (payload) => handler(payload as Payload) };
      stopRequested = false;
      const r = await run({ pgPool: pool, taskList, concurrency: extra.concurrency ?? GW_CONCURRENCY, noHandleSignals: true, logger, preset: { worker } });
      runner = r;
      r.promise.then(
        () => extra.onRunnerEnd?.(undefined, stopRequested),
        (e: Error) => extra.onRunnerEnd?.(e, stopRequested),
      );
    },
    stopWorker,
    async remaining(queue) {
      const { rows } = await pool.query('select count(*)::int as n from graphile_worker.jobs where task_identifier = $1', [queue]);
      return rows[0].n as number;
    },
    async close() {
      await stopWorker();
      await pool.end();
    },
  };
}

type BossVariant = 'default' | 'tuned';
async function bossAdapter(url: string, variant: BossVariant, extra: { max?: number; batchSize?: number } = {}): Promise<Adapter> {
  const batchSize = extra.batchSize ?? BOSS_BATCH;
  // As src/jobs/job-runner.ts configures it (maintenance 30 s = the service's JOB_MAINTENANCE_INTERVAL_S default).
  const boss = new PgBoss({
    connectionString: url,
    schema: 'pgboss',
    max: extra.max ?? BOSS_POOL_MAX,
    schedule: false,
    maintenanceIntervalSeconds: 30,
    retryLimit: 10,
    retryDelay: 1,
    retryBackoff: true,
    expireInSeconds: 120,
  });
  boss.on('error', (e: Error) => log('pg-boss error', e.message));
  await boss.start();
  const queues = new Set<string>();
  const ensureQueue = async (q: string) => {
    if (!queues.has(q)) {
      await boss.createQueue(q, { name: q });
      queues.add(q);
    }
  };
  let workerId: string | undefined;
  return {
    lib: 'pg-boss',
    variant: variant + (batchSize !== BOSS_BATCH ? `, batchSize ${batchSize}` : ''),
    drainCapMs: variant === 'default' ? POLL_BOUND_DRAIN_CAP_MS : undefined,
    config: `batchSize ${batchSize} (run with Promise.all), pollingIntervalSeconds ${BOSS_POLL_S}, pool max ${extra.max ?? BOSS_POOL_MAX}${
      variant === 'tuned' ? ', notifyWorker(id) after producer commit and after a full batch' : ''
    }`,
    async enqueueInTx(client, queue, p) {
      await boss.send(queue, p, { db: { executeSql: (text: string, values: unknown[]) => client.query(text, values) } });
    },
    afterCommit() {
      if (variant === 'tuned' && workerId) boss.notifyWorker(workerId);
    },
    async enqueueBulk(queue, from, to) {
      await ensureQueue(queue);
      for (let a = from; a <= to; a += ENQUEUE_BATCH) {
        const b = Math.min(to, a + ENQUEUE_BATCH - 1);
        const jobs: PgBoss.JobInsert<Payload>[] = [];
        for (let i = a; i <= b; i++) jobs.push({ name: queue, data: { i } });
        await boss.insert(jobs);
      }
    },
    async startWorker(queue, handler) {
      await ensureQueue(queue);
      workerId = await boss.work<Payload>(queue, { batchSize, pollingIntervalSeconds: BOSS_POLL_S }, async (jobs) => {
        await Promise.all(jobs.map((j) => handler(j.data)));
        // Tuned: a full batch means there is probably more; skip the polling wait.
        if (variant === 'tuned' && jobs.length === batchSize && workerId) boss.notifyWorker(workerId);
      });
    },
    async stopWorker() {
      if (workerId) await boss.offWork({ id: workerId });
      workerId = undefined;
      await sleep(300); // let an in-flight batch finish (offWork stops the loop after its current batch)
    },
    async remaining(queue) {
      const { rows } = await boss
        .getDb()
        .executeSql(`select count(*)::int as n from pgboss.job where name = $1 and state in ('created','retry','active')`, [queue]);
      return rows[0].n as number;
    },
    async close() {
      await withTimeout(boss.stop({ graceful: true, wait: true, timeout: 5000 }), 15_000, 'boss.stop');
    },
  };
}

// ---------------------------------------------------------------- 1. wake-up latency
interface LatencyResult {
  lib: string;
  variant: string;
  config: string;
  targetRate: number;
  achievedRate: number;
  measuredJobs: number;
  handled: number;
  p50: number;
  p99: number;
  max: number;
  mean: number;
  producerTxP50: number;
  nodeCpuMsPerJob: number;
  pgCpuMsPerJob: number;
}

async function latencyRun(make: (url: string) => Promise<Adapter>): Promise<LatencyResult> {
  const url = await createDb();
  const ad = await make(url);
  const queue = 'lat';
  const producer = newPool(url, 4, 'producer');
  const commitAt = new Map<number, number>();
  const startAt = new Map<number, number>();
  const txMs: number[] = [];
  await ad.startWorker(queue, async (p) => {
    startAt.set(p.i, performance.now());
  });
  await sleep(300);
  const warm = LAT_RATE * LAT_WARMUP_S;
  const total = warm + LAT_RATE * LAT_SECONDS;
  const interval = 1000 / LAT_RATE;
  const inflight: Promise<void>[] = [];
  let cpu: CpuMark | undefined;
  const begin = performance.now();
  let measuredBegin = 0;
  for (let i = 1; i <= total; i++) {
    const target = begin + (i - 1) * interval;
    const wait = target - performance.now();
    if (wait > 1) await sleep(wait);
    if (i === warm + 1) {
      cpu = cpuMark();
      measuredBegin = performance.now();
    }
    inflight.push(
      (async () => {
        const client = await producer.connect();
        const t = performance.now();
        try {
          await client.query('begin');
          await client.query('insert into bench_orders (id, note) values ($1, $2)', [i, 'order']);
          await ad.enqueueInTx(client, queue, { i });
          await client.query('commit');
          commitAt.set(i, performance.now());
          txMs.push(performance.now() - t);
        } catch (err) {
          await client.query('rollback').catch(() => undefined);
          log('producer error', (err as Error).message);
        } finally {
          client.release();
        }
        ad.afterCommit();
      })(),
    );
  }
  const producedIn = performance.now() - measuredBegin;
  await Promise.all(inflight);
  await waitFor(() => startAt.size >= total, 3000, 5); // a worker that cannot keep up is not waited for
  const c = cpuSince(cpu!);
  const lat: number[] = [];
  for (let i = warm + 1; i <= total; i++) {
    const s = startAt.get(i);
    const ct = commitAt.get(i);
    if (s !== undefined && ct !== undefined) lat.push(s - ct);
  }
  await ad.close();
  await producer.end();
  const measured = total - warm;
  return {
    lib: ad.lib,
    variant: ad.variant,
    config: ad.config,
    targetRate: LAT_RATE,
    achievedRate: r1((measured / producedIn) * 1000),
    measuredJobs: measured,
    handled: lat.length,
    p50: r1(pct(lat, 50)),
    p99: r1(pct(lat, 99)),
    max: r1(Math.max(...lat)),
    mean: r1(lat.reduce((a, b) => a + b, 0) / lat.length),
    producerTxP50: r1(pct(txMs, 50)),
    nodeCpuMsPerJob: Math.round((c.nodeMs / measured) * 1000) / 1000,
    pgCpuMsPerJob: Math.round((c.pgMs / measured) * 1000) / 1000,
  };
}

// ---------------------------------------------------------------- 2./3. drain throughput + CPU
interface DrainResult {
  lib: string;
  variant: string;
  handler: 'no-op' | 'update';
  config: string;
  jobs: number;
  handled: number;
  capped: boolean;
  ms: number;
  jobsPerSec: number;
  allCompletedMs: number | null;
  nodeCpuMsPerJob: number;
  pgCpuMsPerJob: number;
}

async function drainRun(make: (url: string) => Promise<Adapter>, kind: 'no-op' | 'update'): Promise<DrainResult> {
  const url = await createDb();
  const handlerPool = newPool(url, HANDLER_POOL_MAX, 'handler');
  const ad = await make(url);
  let handled = 0;
  const handler: Handler =
    kind === 'no-op'
      ? async () => {
          handled++;
        }
      : async (p) => {
          await handlerPool.query('update bench_accounts set balance = balance + 1 where id = $1', [p.i]);
          handled++;
        };
  // Warm-up: a small drain of the same kind, untimed.
  await ad.enqueueBulk('warm', DRAIN_JOBS + 1, DRAIN_JOBS + DRAIN_WARMUP_JOBS);
  await ad.startWorker('warm', handler);
  await waitFor(() => handled >= DRAIN_WARMUP_JOBS, 3000, 5);
  await ad.stopWorker();
  // The timed drain.
  await ad.enqueueBulk('drain', 1, DRAIN_JOBS);
  {
    const c = new Client({ connectionString: url });
    await c.connect();
    await c.query('analyze');
    await c.end();
  }
  await sleep(200);
  handled = 0;
  const cpu = cpuMark();
  await ad.startWorker('drain', handler);
  const done = await waitFor(() => handled >= DRAIN_JOBS, ad.drainCapMs ?? DRAIN_CAP_MS, 1);
  const ms = performance.now() - cpu.t;
  const n = handled;
  const c = cpuSince(cpu);
  let allCompletedMs: number | null = null;
  if (done) {
    // How long until the queue's own bookkeeping caught up (completion rows) — polled only after the last handler.
    for (let k = 0; k < 200; k++) {
      if ((await ad.remaining('drain')) === 0) {
        allCompletedMs = r1(performance.now() - cpu.t);
        break;
      }
      await sleep(20);
    }
  }
  await ad.close();
  await handlerPool.end();
  return {
    lib: ad.lib,
    variant: ad.variant,
    handler: kind,
    config: ad.config,
    jobs: DRAIN_JOBS,
    handled: n,
    capped: !done,
    ms: r1(ms),
    jobsPerSec: Math.round((n / ms) * 1000),
    allCompletedMs,
    nodeCpuMsPerJob: Math.round((c.nodeMs / n) * 1000) / 1000,
    pgCpuMsPerJob: Math.round((c.pgMs / n) * 1000) / 1000,
  };
}

// ---------------------------------------------------------------- 4. crash recovery
interface CrashResult {
  lib: string;
  config: string;
  rerunAfterKillMs: number | null;
  observedForMs: number;
  notes: string[];
}

function forkChild(lib: string, url: string, queue: string): { child: ChildProcess; started: Promise<number> } {
  const child = fork(__filename, ['crash-child', lib, url, queue], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const started = new Promise<number>((resolve, reject) => {
    child.once('message', () => resolve(performance.now()));
    child.once('exit', (code) => reject(new Error(`crash child exited early (${code})`)));
  });
  return { child, started };
}

async function killChild(child: ChildProcess): Promise<number> {
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGKILL');
  const at = performance.now();
  await exited;
  return at;
}

async function crashGraphile(): Promise<CrashResult> {
  const url = await createDb();
  const notes: string[] = [];
  const pool = newPool(url, 6, 'graphile-worker');
  await runMigrations({ pgPool: pool, logger: quietGwLogger });
  const { rows } = await pool.query(`select (graphile_worker.add_job('crash', '{"i":1}'::json)).id`);
  const jobId = rows[0].id as string;
  const { child, started } = forkChild('graphile-worker', url, 'crash');
  await withTimeout(started, 20_000, 'gw crash child start');
  const killAt = await killChild(child);
  const lock = await pool.query('select locked_by, locked_at, attempts from graphile_worker.jobs where id = $1', [jobId]);
  notes.push(`after SIGKILL the row stays locked_by=${lock.rows[0]?.locked_by} (attempts=${lock.rows[0]?.attempts})`);
  let rerunAt: number | undefined;
  const runner = await run({
    pgPool: pool,
    taskList: {
      crash: async () => {
        rerunAt ??= performance.now();
      },
    },
    concurrency: 1,
    noHandleSignals: true,
    logger: quietGwLogger,
  });
  const observeMs = 5000;
  await waitFor(() => rerunAt !== undefined, observeMs, 20);
  let rerunAfterKillMs: number | null = null;
  if (rerunAt !== undefined) {
    rerunAfterKillMs = r1(rerunAt - killAt);
  } else {
    notes.push(`a fresh default runner did NOT re-run it within ${observeMs / 1000} s (stale locks are only cleared when locked_at < now() - 4 hours)`);
    const t = performance.now();
    await pool.query('select graphile_worker.force_unlock_workers($1::text[])', [[lock.rows[0].locked_by]]);
    await waitFor(() => rerunAt !== undefined, 5000, 5);
    notes.push(
      rerunAt !== undefined
        ? `manual \`select graphile_worker.force_unlock_workers(array['${lock.rows[0].locked_by}'])\` → re-run ${r1(rerunAt - t)} ms later (found by the next poll, ≤ pollInterval 2000 ms)`
        : 'force_unlock_workers did not lead to a re-run within 5 s',
    );
  }
  await withTimeout(runner.stop(), 10_000, 'gw runner stop');
  await pool.end();
  return {
    lib: 'graphile-worker',
    config: 'defaults (pollInterval 2000, minResetLockedInterval 8 min, maxResetLockedInterval 10 min; 4 h lock age hard-coded)',
    rerunAfterKillMs,
    observedForMs: observeMs,
    notes,
  };
}

async function crashBoss(): Promise<CrashResult> {
  const url = await createDb();
  const notes: string[] = [];
  const expireInSeconds = 2;
  const maintenanceIntervalSeconds = 1;
  const boss = new PgBoss({ connectionString: url, schema: 'pgboss', max: 4, schedule: false, maintenanceIntervalSeconds });
  boss.on('error', (e: Error) => log('pg-boss error', e.message));
  await boss.start();
  await boss.createQueue('crash', { name: 'crash', expireInSeconds, retryLimit: 3, retryDelay: 0, retryBackoff: false });
  await boss.send('crash', { i: 1 });
  const { child, started } = forkChild('pg-boss', url, 'crash');
  const startedAt = await withTimeout(started, 20_000, 'boss crash child start');
  const killAt = await killChild(child);
  notes.push(`child held the job ${r1(killAt - startedAt)} ms before SIGKILL`);
  let rerunAt: number | undefined;
  await boss.work('crash', { batchSize: 1, pollingIntervalSeconds: BOSS_POLL_S }, async () => {
    rerunAt ??= performance.now();
  });
  const observeMs = 15_000;
  await waitFor(() => rerunAt !== undefined, observeMs, 10);
  const state = await boss.getDb().executeSql(`select state, retry_count, output from pgboss.job where name = 'crash'`, []);
  notes.push(`job row afterwards: ${JSON.stringify(state.rows[0])}`);
  await withTimeout(boss.stop({ graceful: true, wait: true, timeout: 3000 }), 10_000, 'boss stop');
  return {
    lib: 'pg-boss',
    config: `queue expireInSeconds ${expireInSeconds}, retryLimit 3, retryDelay 0; maintenanceIntervalSeconds ${maintenanceIntervalSeconds}; pollingIntervalSeconds ${BOSS_POLL_S}`,
    rerunAfterKillMs: rerunAt !== undefined ? r1(rerunAt - killAt) : null,
    observedForMs: observeMs,
    notes,
  };
}

async function childMain(): Promise<void> {
  const [, , , lib, url, queue] = process.argv;
  const hang = () => new Promise<void>(() => undefined);
  if (lib === 'graphile-worker') {
    await run({
      connectionString: url,
      concurrency: 1,
      noHandleSignals: true,
      logger: quietGwLogger,
      taskList: {
        [queue]: async () => {
          process.send?.('started');
          await hang();
        },
      },
    });
  } else {
    const boss = new PgBoss({ connectionString: url, schema: 'pgboss', max: 2, schedule: false, supervise: false });
    boss.on('error', () => undefined);
    await boss.start();
    await boss.work(queue, { batchSize: 1, pollingIntervalSeconds: BOSS_POLL_S }, async () => {
      process.send?.('started');
      await hang();
    });
  }
}

// ---------------------------------------------------------------- 5. PGlite + pglite-socket
interface PgliteResult {
  rawNotify: { listenerGotIt: boolean; notifierGotIt: boolean };
  graphile: Record<string, unknown>;
  pgboss: Record<string, unknown>;
}

let pgliteIdBase = 0;
async function pgliteLatency(
  ad: Adapter,
  url: string,
  n: number,
  gapMs: number,
  waitMs: number,
): Promise<{ latenciesMs: number[]; handled: number; sent: number }> {
  const producer = newPool(url, 1, 'pglite producer');
  const base = (pgliteIdBase += 1000);
  const startAt = new Map<number, number>();
  const commitAt = new Map<number, number>();
  const queue = `pgl${base}`;
  try {
    await ad.startWorker(queue, async (p) => {
      startAt.set(p.i, performance.now());
    });
    await sleep(300);
    for (let i = base + 1; i <= base + n; i++) {
      const client = await producer.connect();
      try {
        await client.query('begin');
        await client.query('insert into bench_orders (id, note) values ($1, $2)', [i, 'order']);
        await ad.enqueueInTx(client, queue, { i });
        await client.query('commit');
        commitAt.set(i, performance.now());
      } catch (err) {
        await client.query('rollback').catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
      ad.afterCommit();
      await sleep(gapMs);
    }
    await waitFor(() => startAt.size >= n, waitMs, 10);
  } finally {
    await ad.stopWorker().catch(() => undefined);
    await producer.end();
  }
  const latenciesMs: number[] = [];
  for (const [i, c] of commitAt) {
    const st = startAt.get(i);
    if (st !== undefined) latenciesMs.push(Math.round(st - c));
  }
  return { latenciesMs, handled: startAt.size, sent: commitAt.size };
}

async function pgliteChecks(): Promise<PgliteResult> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qbench-pglite-'));
  const db = await PGlite.create(path.join(dir, 'pgdata'));
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 40 });
  await server.start();
  const url = `postgresql://postgres@127.0.0.1:${Number(server.getServerConn().split(':').pop())}/postgres`;
  const out: PgliteResult = { rawNotify: { listenerGotIt: false, notifierGotIt: false }, graphile: {}, pgboss: {} };
  try {
    {
      const s = new Client({ connectionString: url });
      await s.connect();
      await s.query(`create table bench_orders (id bigint primary key, note text not null, created_at timestamptz not null default now())`);
      await s.end();
    }
    // Raw LISTEN/NOTIFY across two socket connections.
    {
      const a = new Client({ connectionString: url });
      const b = new Client({ connectionString: url });
      await a.connect();
      await b.connect();
      a.on('notification', () => (out.rawNotify.listenerGotIt = true));
      b.on('notification', () => (out.rawNotify.notifierGotIt = true));
      await a.query('listen qbench');
      await b.query(`notify qbench, 'x'`);
      await sleep(300);
      await a.query('select 1'); // give a pending async message a chance to reach A
      await sleep(200);
      await a.end();
      await b.end();
    }
    // graphile-worker: defaults (prepared statements on), then preparedStatements=false, then that + pollInterval 500.
    const gwCases: Array<[string, { noPreparedStatements?: boolean; pollInterval?: number }, number]> = [
      ['defaults', {}, 3],
      ['preparedStatements=false', { noPreparedStatements: true }, 6],
      ['preparedStatements=false, pollInterval=500', { noPreparedStatements: true, pollInterval: 500 }, 6],
    ];
    for (const [key, opts, n] of gwCases) {
      const errors: string[] = [];
      let ad: Adapter | undefined;
      let runnerEnded: string | undefined;
      // Record graphile-worker's own complaints (its "Failed to acquire job" messages are debug level).
      const logger = new Logger(() => (level, message) => {
        if ((level === 'error' || level === 'warning' || /fail|error/i.test(message)) && !/crontab/.test(message))
          errors.push(`${level}: ${message.replace(/\(\d+ contiguous fails\)/, '').slice(0, 140)}`);
      });
      try {
        ad = await withTimeout(
          graphileAdapter(url, 'default', {
            poolMax: 6,
            concurrency: 2,
            logger,
            ...opts,
            onRunnerEnd: (e, requested) => {
              if (!requested) runnerEnded = e ? `rejected: ${e.message}` : 'resolved';
            },
          }),
          20_000,
          'gw migrate on PGlite',
        );
        const r = await pgliteLatency(ad, url, n, 600, 2500);
        out.graphile[key] = { schemaInstalled: true, ...r, runnerEndedEarly: runnerEnded ?? false, errors: [...new Set(errors)].slice(0, 4) };
      } catch (err) {
        out.graphile[key] = { error: (err as Error).message, runnerEndedEarly: runnerEnded ?? false, errors: [...new Set(errors)].slice(0, 4) };
      } finally {
        await ad?.close().catch((e) => errors.push(`close: ${(e as Error).message}`));
      }
      log('pglite graphile', key, JSON.stringify(out.graphile[key]));
    }
    // pg-boss (as the service runs it today), default then with notifyWorker.
    for (const variant of ['default', 'tuned'] as const) {
      let ad: Adapter | undefined;
      try {
        ad = await withTimeout(bossAdapter(url, variant), 20_000, 'pg-boss start on PGlite');
        const r = await pgliteLatency(ad, url, 6, 600, 2500);
        out.pgboss[variant] = { started: true, ...r };
      } catch (err) {
        out.pgboss[variant] = { error: (err as Error).message };
      } finally {
        await ad?.close().catch((e) => log('boss close on pglite', (e as Error).message));
      }
      log('pglite pg-boss', variant, JSON.stringify(out.pgboss[variant]));
    }
  } finally {
    await server.stop();
    await db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return out;
}

// ---------------------------------------------------------------- report
function machineLoad(): { loadavg: number[]; top: string } {
  let top = '';
  try {
    const lines = execSync('top -bn1 -o %CPU -w 200').toString().split('\n');
    const head = lines.findIndex((l) => /^\s*PID\s/.test(l));
    top = [
      lines[head],
      ...lines
        .slice(head + 1)
        .filter((l) => l.trim() && !l.trim().startsWith(`${process.pid} `))
        .slice(0, 5),
    ].join('\n');
  } catch {
    /* ignore */
  }
  return { loadavg: os.loadavg().map((x) => r1(x * 100) / 100), top };
}

function markdown(res: {
  startLoad: ReturnType<typeof machineLoad>;
  endLoad: ReturnType<typeof machineLoad>;
  latency: LatencyResult[];
  drain: DrainResult[];
  crash: CrashResult[];
  pglite?: PgliteResult;
  errors: string[];
  totalS: number;
}): string {
  const L: string[] = [];
  L.push('## Job queue comparison: graphile-worker 0.17.3 vs pg-boss 10.4.2');
  L.push('');
  L.push(
    `Node ${process.version}, ${os.cpus().length} cores, PostgreSQL at 127.0.0.1:5432. Load average at start ${res.startLoad.loadavg.join(' / ')}, at end ${res.endLoad.loadavg.join(' / ')}. Total run ${res.totalS} s. Libraries run one after another, each in a fresh database.`,
  );
  L.push('');
  L.push(`### 1. Wake-up latency (commit → handler start), ${LAT_RATE} jobs/s for ${LAT_SECONDS} s after ${LAT_WARMUP_S} s warm-up`);
  L.push('');
  L.push('Producer: `BEGIN; INSERT bench_orders; enqueue; COMMIT` on one pooled connection; worker in the same process.');
  L.push('');
  L.push('| library | variant | p50 ms | p99 ms | max ms | mean ms | handled | rate/s | producer tx p50 ms | node CPU ms/job | PG CPU ms/job |');
  L.push('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of res.latency)
    L.push(
      `| ${r.lib} | ${r.variant} | ${r.p50} | ${r.p99} | ${r.max} | ${r.mean} | ${r.handled}/${r.measuredJobs} | ${r.achievedRate} | ${r.producerTxP50} | ${r.nodeCpuMsPerJob} | ${r.pgCpuMsPerJob} |`,
    );
  L.push('');
  for (const r of res.latency) L.push(`- ${r.lib} ${r.variant}: ${r.config}`);
  L.push('');
  L.push(`### 2./3. Drain throughput and CPU: ${DRAIN_JOBS} jobs enqueued up front, then the worker started`);
  L.push('');
  L.push(
    `Handler "update" = one \`UPDATE bench_accounts SET balance = balance + 1 WHERE id = $1\` through a shared pool of ${HANDLER_POOL_MAX}. Cap ${DRAIN_CAP_MS / 1000} s (${POLL_BOUND_DRAIN_CAP_MS / 1000} s for untuned pg-boss); a capped row's rate is over the cap.`,
  );
  L.push('');
  L.push('| library | variant | handler | jobs/s | time ms | all rows completed ms | node CPU ms/job | PG CPU ms/job |');
  L.push('|---|---|---|---:|---:|---:|---:|---:|');
  for (const r of res.drain)
    L.push(
      `| ${r.lib} | ${r.variant} | ${r.handler} | ${r.jobsPerSec} | ${r.capped ? `capped: ${r.handled} in ${r.ms}` : r.ms} | ${r.allCompletedMs ?? '–'} | ${r.nodeCpuMsPerJob} | ${r.pgCpuMsPerJob} |`,
    );
  L.push('');
  L.push('### 4. Crash recovery (worker child process SIGKILLed mid-job, then a new worker started)');
  L.push('');
  L.push('| library | configuration | job re-run after kill |');
  L.push('|---|---|---|');
  for (const r of res.crash)
    L.push(
      `| ${r.lib} | ${r.config} | ${r.rerunAfterKillMs !== null ? `${r.rerunAfterKillMs} ms` : `not within ${r.observedForMs / 1000} s (≈ 4 h + up to 10 min by default)`} |`,
    );
  L.push('');
  for (const r of res.crash) for (const n of r.notes) L.push(`- ${r.lib}: ${n}`);
  L.push('');
  if (res.pglite) {
    const p = res.pglite;
    L.push('### 5. PGlite 0.5.14 over pglite-socket 0.2.17');
    L.push('');
    L.push(
      `Raw \`LISTEN\` on connection A, \`NOTIFY\` on connection B: A received it: **${p.rawNotify.listenerGotIt}**; B (the notifier) received it: ${p.rawNotify.notifierGotIt}.`,
    );
    L.push('');
    L.push('| library | configuration | schema / start | jobs run / sent | commit → start latencies ms | problems |');
    L.push('|---|---|---|---|---|---|');
    const cell = (v: Record<string, unknown>) => {
      const lat = (v.latenciesMs as number[] | undefined)?.join(', ') ?? '–';
      const probs = [v.error, ...(((v.errors as string[]) ?? []) as string[]), v.runnerEndedEarly ? `runner ended: ${v.runnerEndedEarly}` : undefined]
        .filter(Boolean)
        .join('; ');
      return `${v.error ? 'failed' : 'ok'} | ${v.handled ?? 0} / ${v.sent ?? '–'} | ${lat} | ${probs || '–'}`;
    };
    for (const [k, v] of Object.entries(p.graphile)) L.push(`| graphile-worker | ${k} (concurrency 2) | ${cell(v as Record<string, unknown>)} |`);
    for (const [k, v] of Object.entries(p.pgboss))
      L.push(`| pg-boss | ${k} (as the service, batchSize 20, poll 0.5 s) | ${cell(v as Record<string, unknown>)} |`);
    L.push('');
  }
  if (res.errors.length) {
    L.push('### Errors');
    for (const e of res.errors) L.push(`- ${e}`);
    L.push('');
  }
  L.push('Busiest other processes at the start (`top -bn1`):');
  L.push('```');
  L.push(res.startLoad.top.trimEnd());
  L.push('```');
  L.push('and at the end:');
  L.push('```');
  L.push(res.endLoad.top.trimEnd());
  L.push('```');
  return L.join('\n');
}

// ---------------------------------------------------------------- main
async function main(): Promise<void> {
  const watchdog = setTimeout(() => {
    console.error(`watchdog: ${WATCHDOG_MS} ms exceeded; dropping databases and exiting`);
    dropDbs().finally(() => process.exit(2));
  }, WATCHDOG_MS);
  watchdog.unref();
  const startLoad = machineLoad();
  const errors: string[] = [];
  const latency: LatencyResult[] = [];
  const drain: DrainResult[] = [];
  const crash: CrashResult[] = [];
  let pglite: PgliteResult | undefined;
  const attempt = async <T>(label: string, f: () => Promise<T>): Promise<T | undefined> => {
    log('start', label);
    try {
      const r = await f();
      log('done', label, JSON.stringify(r).slice(0, 2000));
      return r;
    } catch (err) {
      errors.push(`${label}: ${(err as Error).message}`);
      log('FAILED', label, (err as Error).stack);
      return undefined;
    }
  };
  try {
    // QBENCH_ONLY=latency,drain,crash,pglite runs a subset (for development); default: everything.
    const only = process.env.QBENCH_ONLY?.split(',');
    const want = (section: string) => !only || only.includes(section);
    const gw = (v: GwVariant) => (url: string) => graphileAdapter(url, v);
    const pb = (v: BossVariant) => (url: string) => bossAdapter(url, v);
    for (const [label, make] of [
      ['latency graphile default', gw('default')],
      ['latency graphile tuned', gw('tuned')],
      ['latency pg-boss default', pb('default')],
      ['latency pg-boss tuned', pb('tuned')],
      ['latency pg-boss default batchSize 100', (url: string) => bossAdapter(url, 'default', { batchSize: 100 })],
    ] as const) {
      if (!want('latency')) break;
      const r = await attempt(label, () => withTimeout(latencyRun(make), 30_000, label));
      if (r) latency.push(r);
    }
    for (const [label, make] of [
      ['graphile default', gw('default')],
      ['graphile tuned', gw('tuned')],
      ['pg-boss default', pb('default')],
      ['pg-boss tuned', pb('tuned')],
    ] as const) {
      if (!want('drain')) break;
      for (const kind of ['no-op', 'update'] as const) {
        const r = await attempt(`drain ${label} ${kind}`, () => withTimeout(drainRun(make, kind), 30_000, label));
        if (r) drain.push(r);
      }
    }
    for (const [label, f] of [
      ['crash graphile', crashGraphile],
      ['crash pg-boss', crashBoss],
    ] as const) {
      if (!want('crash')) break;
      const r = await attempt(label, () => withTimeout(f(), 40_000, label));
      if (r) crash.push(r);
    }
    if (want('pglite')) pglite = await attempt('pglite', () => withTimeout(pgliteChecks(), 60_000, 'pglite'));
  } finally {
    await dropDbs().catch((e) => errors.push(`drop databases: ${(e as Error).message}`));
  }
  const totalS = r1((performance.now() - T0) / 1000);
  const endLoad = machineLoad();
  const results = {
    node: process.version,
    cores: os.cpus().length,
    startLoad,
    endLoad,
    totalS,
    settings: {
      LAT_RATE,
      LAT_WARMUP_S,
      LAT_SECONDS,
      DRAIN_JOBS,
      DRAIN_CAP_MS,
      POLL_BOUND_DRAIN_CAP_MS,
      GW_CONCURRENCY,
      GW_POOL_MAX,
      BOSS_BATCH,
      BOSS_POOL_MAX,
      BOSS_POLL_S,
      HANDLER_POOL_MAX,
    },
    latency,
    drain,
    crash,
    pglite,
    errors,
  };
  const outFile = process.env.QBENCH_RESULTS ?? path.resolve(__dirname, '../../../bench/queue/results.json');
  fs.writeFileSync(outFile, JSON.stringify(results, null, 2) + '\n');
  process.stdout.write(markdown({ startLoad, endLoad, latency, drain, crash, pglite, errors, totalS }) + '\n');
  log(`wrote ${outFile}`);
  // If something still holds the event loop open, say so (unref'd: does not itself keep the process alive).
  setTimeout(() => {
    console.error('note: process still alive 5 s after the report; forcing exit');
    process.exit(0);
  }, 5000).unref();
}

if (process.argv[2] === 'crash-child') {
  childMain().catch((err) => {
    console.error('crash child failed', err);
    process.exit(1);
  });
} else {
  main().catch(async (err) => {
    console.error(err);
    await dropDbs().catch(() => undefined);
    process.exitCode = 1;
  });
}

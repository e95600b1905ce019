/**
 * npm run bench: a bounded benchmark of the product against a bare baseline, on this machine.
 *
 * It starts everything it needs and stops all of it, even on failure:
 *   - fresh PostgreSQL databases on 127.0.0.1:5432 (bench_<random>, and bench_<random>_lifecycle
 *     for the settlement phase), dropped at the end;
 *   - the product (the built dist/src/main.js) as its own process, once with settlement pushed
 *     out of the way (initiation, reads, token, subscriptions), once with fast settlement (lifecycle);
 *   - the baseline (bench/baseline/server.ts: Fastify + pg, one INSERT / one SELECT) as its own process;
 *   - the engine floor (bench/baseline/engine-floor.ts: Fastify + pg running the product's own statements
 *     for a collection, nothing else) as its own process, on the product's database;
 *   - a local webhook receiver (in this process);
 *   - the load generator (bench/load.ts, autocannon) and the subscribers (bench/subscribers.ts)
 *     as separate processes.
 * Baseline runs alternate with the product's, so every ratio uses baseline figures taken next to it.
 * It asserts nothing: it prints and writes numbers (BENCHMARKS.md between the bench markers, and
 * bench/results/latest.json), and exits non-zero only when it cannot measure (setup failed).
 *
 * Flags: --quick (short runs, for smoke tests), --scenario <name> (one scenario, with the
 * baseline runs around it), --out <path> (the JSON file). A partial run (--quick or --scenario)
 * leaves BENCHMARKS.md alone and writes bench/results/latest-partial.json unless --out is given.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { LoadConfig, LoadKind, LoadResult } from './load';
import type { SubscribersConfig, SubscribersResult } from './subscribers';
import { approvedCustomer, chooseEveryEventType, createMerchant, initiateCollection, setWebhookEndpoint, simulate, type BenchMerchant } from './lib/api';
import { jsonLines, spawnTracked, stopAll, stopChild, tail } from './lib/children';
import { dropCreatedDatabases, emergencyStop, rememberDatabase, runHarness } from './lib/harness';
import { UsageWindow, type Usage } from './lib/proc';
import { ROOT, baseEnv, createDatabase, machineFacts, round, startProduct as startProductProcess, type ProductKeys, type Server } from './lib/product';
import { startReceiver, type Delivery, type Receiver } from './lib/receiver';
import { renderMarkdown, replaceBetweenMarkers } from './lib/report';
import { mapLimit, sleep, summarize } from './lib/stats';
import type { BenchResults, Comparison, HttpScenario, LifecycleResult, Settings, SubscriptionsResult, Target } from './lib/types';

const LOAD_JS = path.join(__dirname, 'load.js');
const SUBSCRIBERS_JS = path.join(__dirname, 'subscribers.js');
const BASELINE_JS = path.join(__dirname, 'baseline', 'server.js');
const FLOOR_JS = path.join(__dirname, 'baseline', 'engine-floor.js');

const PRODUCT_SCENARIOS = ['rest-init', 'rest-init-idem', 'gql-init', 'rest-pay', 'checkout-create', 'rest-transfer', 'token', 'rest-get', 'gql-get'] as const;
const ALL_SCENARIOS = [...PRODUCT_SCENARIOS, 'subscriptions', 'lifecycle'] as const;
type ScenarioName = (typeof ALL_SCENARIOS)[number];

const LABELS: Record<string, string> = {
  'rest-init': 'REST POST /v1/crossborder/global-collection (momo)',
  'rest-init-idem': 'REST POST /v1/crossborder/global-collection (momo) with a new Idempotency-Key each',
  'gql-init': 'GraphQL initiateCollection',
  'rest-pay': 'REST POST /v1/payments/initiate (card 4242…, charged at once)',
  'checkout-create': 'REST POST /v1/checkout/sessions (one INSERT: issue 37)',
  'rest-transfer': 'REST POST /v1/crossborder/global-transfer (1,000 by one merchant: each reserves from one balance)',
  token: 'POST /v1/oauth/token (client_credentials)',
  'rest-get': 'REST GET /v1/crossborder/global-transfer/{reference}',
  'gql-get': 'GraphQL transaction(reference)',
  'base-insert': 'baseline POST (one INSERT)',
  'base-get': 'baseline GET (one SELECT)',
  'floor-init': "engine floor POST (the product's three statements for a collection)",
};

/** The alternating order of the HTTP runs, and which baseline runs bracket each product run. */
const SEQUENCE: Array<{ id: string; kind: LoadKind }> = [
  { id: 'baseline-insert-1', kind: 'base-insert' },
  { id: 'floor-init-1', kind: 'floor-init' },
  { id: 'rest-init', kind: 'rest-init' },
  { id: 'rest-init-idem', kind: 'rest-init-idem' },
  { id: 'gql-init', kind: 'gql-init' },
  { id: 'floor-init-2', kind: 'floor-init' },
  { id: 'baseline-insert-2', kind: 'base-insert' },
  { id: 'rest-pay', kind: 'rest-pay' },
  { id: 'checkout-create', kind: 'checkout-create' },
  { id: 'rest-transfer', kind: 'rest-transfer' },
  { id: 'token', kind: 'token' },
  { id: 'baseline-insert-3', kind: 'base-insert' },
  { id: 'baseline-get-1', kind: 'base-get' },
  { id: 'rest-get', kind: 'rest-get' },
  { id: 'gql-get', kind: 'gql-get' },
  { id: 'baseline-get-2', kind: 'base-get' },
];
const BRACKETS: Record<string, string[]> = {
  'rest-init': ['baseline-insert-1', 'baseline-insert-2'],
  'rest-init-idem': ['baseline-insert-1', 'baseline-insert-2'],
  'gql-init': ['baseline-insert-1', 'baseline-insert-2'],
  'rest-pay': ['baseline-insert-2', 'baseline-insert-3'],
  'checkout-create': ['baseline-insert-2', 'baseline-insert-3'],
  'rest-transfer': ['baseline-insert-2', 'baseline-insert-3'],
  token: ['baseline-insert-2', 'baseline-insert-3'],
  'rest-get': ['baseline-get-1', 'baseline-get-2'],
  'gql-get': ['baseline-get-1', 'baseline-get-2'],
};
/** The engine-floor runs bracketing each collection initiation run. */
const FLOOR_BRACKETS: Record<string, string[]> = {
  'rest-init': ['floor-init-1', 'floor-init-2'],
  'rest-init-idem': ['floor-init-1', 'floor-init-2'],
  'gql-init': ['floor-init-1', 'floor-init-2'],
};

function settingsFor(quick: boolean, scenario: string | null): Settings {
  return {
    quick,
    scenario,
    profileDir: null,
    connections: 50,
    durationS: quick ? 3 : 10,
    warmupS: quick ? 1 : 2,
    dbPoolMax: 10,
    lifecycleN: quick ? 300 : 2000,
    lifecycleTimeoutS: quick ? 45 : 150,
    lifecycleSettleMs: 200,
    initOnlySettleMs: 3_600_000,
    subsMerchants: 10,
    subsPerMerchant: quick ? 20 : 100,
    subsChangesPerMerchant: quick ? 5 : 30,
    subsRatePerS: 50,
    subsGraceS: quick ? 15 : 45,
  };
}

/** A failure that leaves nothing to measure: the run stops and exits non-zero. */
class SetupError extends Error {}

const log = (msg: string) => process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${msg}\n`);
const randomHex = (bytes: number) => crypto.randomBytes(bytes).toString('hex');

// ---------------------------------------------------------------------------------------------
// Processes under test

async function startProduct(label: string, databaseUrl: string, settleMs: number, s: Settings, keys: ProductKeys, tmp: string): Promise<Server> {
  const product = await startProductProcess(label, databaseUrl, keys, tmp, { settleMs, dbPoolMax: s.dbPoolMax, profileDir: s.profileDir });
  log(`product (${label}) listening at ${product.url} (pid ${product.pid}, log ${product.logPath})`);
  return product;
}

async function startBaseline(
  databaseUrl: string,
  s: Settings,
  name: 'baseline' | 'floor' = 'baseline',
  extraEnv: Record<string, string> = {},
): Promise<Server> {
  const env = { ...baseEnv(), NODE_ENV: 'production', DATABASE_URL: databaseUrl, PORT: '0', DB_POOL_MAX: String(s.dbPoolMax), ...extraEnv };
  const child = spawnTracked(process.execPath, [name === 'floor' ? FLOOR_JS : BASELINE_JS], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const stderr = tail(child);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the ${name} did not start in 30 s: ${stderr()}`)), 30_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the ${name} exited (${code}) before listening: ${stderr()}`));
    });
    jsonLines(child, (event) => {
      if (typeof event.url !== 'string') return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      log(`${name} listening at ${event.url} (pid ${child.pid})`);
      resolve({ name, child, pid: child.pid!, url: event.url });
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Load generator

interface LoadHooks {
  onMeasureStart?: (loadgenPid: number) => void;
  onResult?: () => void;
}

async function runLoad(cfg: LoadConfig, tmp: string, hooks: LoadHooks = {}): Promise<LoadResult> {
  const cfgPath = path.join(tmp, `load-${cfg.refPrefix}.json`);
  fs.writeFileSync(cfgPath, JSON.stringify(cfg));
  const child = spawnTracked(process.execPath, [LOAD_JS, cfgPath], { cwd: ROOT, env: baseEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  const stderr = tail(child);
  let result: LoadResult | undefined;
  jsonLines(child, (event) => {
    if (event.event === 'measure-start') hooks.onMeasureStart?.(child.pid!);
    if (event.event === 'result') {
      result = event as LoadResult;
      hooks.onResult?.();
    }
  });
  const budgetMs = cfg.amount !== undefined ? ((cfg.maxDurationS ?? 180) + 30) * 1000 : (cfg.durationS + cfg.warmupS + 60) * 1000;
  const timer = setTimeout(() => child.kill('SIGKILL'), budgetMs);
  const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  clearTimeout(timer);
  if (!result) throw new Error(`load generator (${cfg.kind}) failed (exit ${code}): ${stderr()}`);
  return result;
}

// ---------------------------------------------------------------------------------------------
// HTTP scenarios, alternating with the baseline

interface HttpContext {
  s: Settings;
  tmp: string;
  runId: string;
  dbName: string;
  product: Server;
  baseline: Server;
  /** The engine floor, on the product's database (null: no run needs it). */
  floor: Server | null;
  merchant: BenchMerchant;
  customerUuid: string;
  baselineMerchantId: string;
  productRefs: string[];
  baselineRefs: string[];
}

function writeRefs(ctx: HttpContext, refs: string[], name: string): string {
  // At most 20,000 references, spread over everything created.
  const pick = refs.length <= 20_000 ? refs : Array.from({ length: 20_000 }, (_, i) => refs[Math.floor((i * refs.length) / 20_000)]!);
  const file = path.join(ctx.tmp, `refs-${name}.json`);
  fs.writeFileSync(file, JSON.stringify(pick));
  return file;
}

function loadConfig(ctx: HttpContext, kind: LoadKind, id: string, overrides: Partial<LoadConfig> = {}): LoadConfig {
  const toBaseline = kind.startsWith('base-');
  const toFloor = kind.startsWith('floor-');
  const cfg: LoadConfig = {
    kind,
    url: toBaseline ? ctx.baseline.url : toFloor ? ctx.floor!.url : ctx.product.url,
    connections: ctx.s.connections,
    durationS: ctx.s.durationS,
    warmupS: ctx.s.warmupS,
    refPrefix: `b${ctx.runId}-${id}`,
    customerUuid: ctx.customerUuid,
    ...overrides,
  };
  if (toBaseline) cfg.merchantId = ctx.baselineMerchantId;
  else if (toFloor) cfg.merchantId = ctx.merchant.merchantId;
  else cfg.token = ctx.merchant.token;
  if (kind === 'token') {
    cfg.clientId = ctx.merchant.clientId;
    cfg.clientSecret = ctx.merchant.clientSecret;
    delete cfg.token;
  }
  if (kind === 'rest-init' || kind === 'rest-init-idem' || kind === 'gql-init' || kind === 'rest-pay' || kind === 'base-insert')
    cfg.refsOut = path.join(ctx.tmp, `out-${id}.json`);
  // Issue 19: a fixed 1,000 transfers (no warm-up: each one spends the balance), bounded at 60 s.
  if (kind === 'rest-transfer') Object.assign(cfg, { amount: ctx.s.quick ? 200 : 1000, maxDurationS: 60, warmupS: 0 });
  return cfg;
}

async function seedRefs(ctx: HttpContext, toBaseline: boolean): Promise<void> {
  const kind: LoadKind = toBaseline ? 'base-insert' : 'rest-init';
  log(`seeding references for reads (${kind}, 2 s, not reported)`);
  const cfg = loadConfig(ctx, kind, toBaseline ? 'seed-base' : 'seed-product', { durationS: 2, warmupS: 0 });
  await runLoad(cfg, ctx.tmp);
  const refs = JSON.parse(fs.readFileSync(cfg.refsOut!, 'utf8')) as string[];
  (toBaseline ? ctx.baselineRefs : ctx.productRefs).push(...refs);
}

async function runHttpStep(ctx: HttpContext, id: string, kind: LoadKind): Promise<HttpScenario> {
  const toBaseline = kind.startsWith('base-');
  const server = toBaseline ? 'baseline' : kind.startsWith('floor-') ? 'floor' : 'product';
  const overrides: Partial<LoadConfig> = {};
  if (kind === 'rest-get' || kind === 'gql-get' || kind === 'base-get') {
    const pool = toBaseline ? ctx.baselineRefs : ctx.productRefs;
    if (pool.length === 0) await seedRefs(ctx, toBaseline);
    overrides.refsIn = writeRefs(ctx, toBaseline ? ctx.baselineRefs : ctx.productRefs, id);
  }
  const cfg = loadConfig(ctx, kind, id, overrides);
  log(`${id}: ${LABELS[kind]} — ${cfg.connections} connections, ${cfg.warmupS} s warm-up + ${cfg.durationS} s`);
  let window: UsageWindow | undefined;
  let usage: Usage | undefined;
  let startedUs = 0n;
  const result = await runLoad(cfg, ctx.tmp, {
    onMeasureStart: (loadgen) => {
      startedUs = process.hrtime.bigint() / 1000n;
      window = new UsageWindow({ product: ctx.product.pid, baseline: ctx.baseline.pid, floor: ctx.floor?.pid, loadgen }, ctx.dbName);
    },
    onResult: () => {
      usage = window?.stop();
      if (ctx.s.profileDir) recordProfileWindow(ctx.s.profileDir, id, startedUs, process.hrtime.bigint() / 1000n);
    },
  });
  if (!usage) throw new Error(`${id}: no usage window (the load generator never started measuring)`);
  if (cfg.refsOut && fs.existsSync(cfg.refsOut)) {
    const refs = JSON.parse(fs.readFileSync(cfg.refsOut, 'utf8')) as string[];
    (toBaseline ? ctx.baselineRefs : ctx.productRefs).push(...refs);
  }
  const cpu = usage.cpuMs[server] ?? null;
  const loadgenCpu = usage.cpuMs.loadgen ?? null;
  const scenario: HttpScenario = {
    id,
    label: LABELS[kind]!,
    server,
    kind,
    requests: result.requests,
    durationS: round(result.durationS, 2)!,
    rps: result.rps,
    latency: result.latency,
    errors: result.errors,
    non2xx: result.non2xx,
    connectionErrors: result.connectionErrors,
    graphqlErrors: result.graphqlErrors,
    statusCodes: result.statusCodes,
    rssPeakMb: usage.rssPeakMb[server] ?? null,
    productRssPeakMb: usage.rssPeakMb.product ?? null,
    cpuMsPerRequest: cpu === null || result.requests === 0 ? null : round(cpu / result.requests, 3),
    serverCpuPct: cpu === null ? null : round((cpu / usage.wallMs) * 100, 0),
    postgresCpuMsPerRequest: result.requests === 0 ? null : round(usage.postgresCpuMs / result.requests, 3),
    loadgenCpuPct: loadgenCpu === null ? null : round((loadgenCpu / usage.wallMs) * 100, 0),
    ...(result.sampleErrorBody ? { sampleErrorBody: result.sampleErrorBody } : {}),
  };
  log(
    `${id}: ${scenario.rps} req/s, p50 ${scenario.latency.p50} ms, p99 ${scenario.latency.p99} ms, errors ${scenario.errors}, ` +
      `CPU ${scenario.cpuMsPerRequest} ms/req (${scenario.serverCpuPct}% of a core), PostgreSQL ${scenario.postgresCpuMsPerRequest} ms/req, RSS ${scenario.rssPeakMb} MB` +
      (scenario.sampleErrorBody ? `; first error: ${scenario.sampleErrorBody}` : ''),
  );
  return scenario;
}

/**
 * The measured window of a run, on the monotonic clock V8's profiles use (the same clock in every
 * process on Linux), so `profile-summary --window <run>` can leave out start-up, seeding and warm-up.
 */
function recordProfileWindow(dir: string, id: string, startUs: bigint, endUs: bigint): void {
  const file = path.join(dir, 'windows.json');
  const windows = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, [number, number]>) : {};
  windows[id] = [Number(startUs), Number(endUs)];
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(file, JSON.stringify(windows, null, 2));
}

function compare(scenarios: HttpScenario[]): Comparison[] {
  const byId = new Map(scenarios.map((x) => [x.id, x]));
  const out: Comparison[] = [];
  for (const name of PRODUCT_SCENARIOS) {
    const p = byId.get(name);
    if (!p) continue;
    const runs = (BRACKETS[name] ?? []).map((id) => byId.get(id)).filter((x): x is HttpScenario => x !== undefined);
    const baselineRps = runs.length ? runs.reduce((a, r) => a + r.rps, 0) / runs.length : null;
    const cpuRuns = runs.filter((r) => r.cpuMsPerRequest !== null);
    const baselineCpu = cpuRuns.length ? cpuRuns.reduce((a, r) => a + r.cpuMsPerRequest!, 0) / cpuRuns.length : null;
    const floorRuns = (FLOOR_BRACKETS[name] ?? []).map((id) => byId.get(id)).filter((x): x is HttpScenario => x !== undefined);
    const floorRps = floorRuns.length ? floorRuns.reduce((a, r) => a + r.rps, 0) / floorRuns.length : null;
    const pgRuns = runs.filter((r) => r.postgresCpuMsPerRequest !== null);
    const baselinePg = pgRuns.length ? pgRuns.reduce((a, r) => a + r.postgresCpuMsPerRequest!, 0) / pgRuns.length : null;
    out.push({
      scenario: name,
      label: p.label,
      baselineRuns: runs.map((r) => r.id),
      baselineRps: round(baselineRps, 1),
      ratio: baselineRps ? round(p.rps / baselineRps, 3) : null,
      cpuRatio: baselineCpu && p.cpuMsPerRequest !== null ? round(p.cpuMsPerRequest / baselineCpu, 2) : null,
      postgresCpuRatio: baselinePg && p.postgresCpuMsPerRequest !== null ? round(p.postgresCpuMsPerRequest / baselinePg, 2) : null,
      floorRuns: floorRuns.map((r) => r.id),
      floorRps: round(floorRps, 1),
      floorRatio: floorRps ? round(p.rps / floorRps, 3) : null,
    });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Subscriptions

interface SubsSetup {
  merchants: Array<{ m: BenchMerchant; customerUuid: string; probe: string; expected: string[] }>;
}

async function prepareSubscriptions(product: Server, keys: ProductKeys, s: Settings, runId: string): Promise<SubsSetup> {
  const merchants = await mapLimit(
    Array.from({ length: s.subsMerchants }, (_, i) => i),
    5,
    async (i) => {
      const m = await createMerchant(product.url, keys.admin, `Bench subscriptions ${i}`);
      const customerUuid = await approvedCustomer(product.url, m.token, `bench-subs-${runId}-${i}`);
      return { m, customerUuid };
    },
  );
  const out: SubsSetup = { merchants: [] };
  for (const [i, { m, customerUuid }] of merchants.entries()) {
    const refs = await mapLimit(
      Array.from({ length: s.subsChangesPerMerchant + 1 }, (_, k) => k),
      10,
      (k) => initiateCollection(product.url, m.token, customerUuid, `b${runId}-subs-${i}-${k}`),
    );
    out.merchants.push({ m, customerUuid, probe: refs[0]!, expected: refs.slice(1) });
  }
  return out;
}

async function runSubscriptions(product: Server, setup: SubsSetup, s: Settings, tmp: string, dbName: string): Promise<SubscriptionsResult> {
  const cfg: SubscribersConfig = {
    wsUrl: product.url.replace(/^http/, 'ws') + '/graphql',
    perMerchant: s.subsPerMerchant,
    graceS: s.subsGraceS,
    merchants: setup.merchants.map((x) => ({ token: x.m.token, probe: x.probe, expected: x.expected })),
  };
  const cfgPath = path.join(tmp, 'subscribers.json');
  fs.writeFileSync(cfgPath, JSON.stringify(cfg));
  const total = s.subsMerchants * s.subsPerMerchant;
  log(`subscriptions: ${total} subscribers over ${s.subsMerchants} merchants connecting`);
  const child = spawnTracked(process.execPath, [SUBSCRIBERS_JS, cfgPath], { cwd: ROOT, env: baseEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
  const window = new UsageWindow({ product: product.pid, subscribers: child.pid }, dbName);
  const stderr = tail(child);
  const waiters = new Map<string, (e: any) => void>();
  const seen = new Map<string, any>();
  jsonLines(child, (event) => {
    seen.set(event.event, event);
    waiters.get(event.event)?.(event);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const waitFor = (name: string, ms: number) =>
    new Promise<any>((resolve, reject) => {
      if (seen.has(name)) return resolve(seen.get(name));
      const timer = setTimeout(() => reject(new Error(`subscribers: no "${name}" within ${ms / 1000} s: ${stderr()}`)), ms);
      waiters.set(name, (e) => {
        clearTimeout(timer);
        resolve(e);
      });
      void exited.then(() => {
        clearTimeout(timer);
        if (!seen.has(name)) reject(new Error(`subscribers exited before "${name}": ${stderr()}`));
      });
    });
  try {
    const subscribed = await waitFor('subscribed', 90_000);
    log(`subscriptions: ${subscribed.connected} connected, ${subscribed.failedToConnect} refused; sending one probe event per merchant`);
    let simulateErrors = 0;
    let firstSimulateError: string | undefined;
    const fire = async (token: string, reference: string) => {
      try {
        const answer = await simulate(product.url, token, reference);
        if (answer.status !== 200) {
          simulateErrors++;
          firstSimulateError ??= `${answer.status} ${answer.text.slice(0, 200)}`;
        }
      } catch (err) {
        simulateErrors++;
        firstSimulateError ??= (err as Error).message;
      }
    };
    await Promise.all(setup.merchants.map((x) => fire(x.m.token, x.probe)));
    const probed = await waitFor('probed', 30_000);
    log(
      `subscriptions: probe received by ${probed.by} of ${probed.of}; driving ${s.subsMerchants * s.subsChangesPerMerchant} status changes at ${s.subsRatePerS}/s`,
    );
    // Open loop: one simulate every 1/rate s, round-robin over the merchants, whatever the answers' pace.
    const plan: Array<{ token: string; reference: string }> = [];
    for (let k = 0; k < s.subsChangesPerMerchant; k++) for (const x of setup.merchants) plan.push({ token: x.m.token, reference: x.expected[k]! });
    const started = performance.now();
    const inflight: Promise<void>[] = [];
    for (const [i, item] of plan.entries()) {
      const due = started + (i * 1000) / s.subsRatePerS;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      inflight.push(fire(item.token, item.reference));
    }
    await Promise.all(inflight);
    child.stdin!.write('driven\n');
    const r = (await waitFor('result', (s.subsGraceS + 30) * 1000)) as SubscribersResult;
    const usage = window.stop();
    const changes = plan.length;
    const cpu = usage.cpuMs.product ?? null;
    const subscribersCpu = usage.cpuMs.subscribers ?? null;
    const result: SubscriptionsResult = {
      subscribers: total,
      merchants: s.subsMerchants,
      connected: r.connected,
      failedToConnect: r.failedToConnect,
      closedEarly: r.closedEarly,
      probeReceivedBy: r.probeReceivedBy,
      changes,
      driveRatePerS: s.subsRatePerS,
      simulateErrors,
      expectedDeliveries: r.expectedDeliveries,
      received: r.received,
      missed: r.missed,
      duplicates: r.duplicates,
      otherEvents: r.otherEvents,
      graphqlErrors: r.graphqlErrors,
      ...(r.firstError ? { firstError: r.firstError } : {}),
      latencyMs: r.latency,
      productRssPeakMb: usage.rssPeakMb.product ?? null,
      cpuMsPerChange: cpu === null ? null : round(cpu / changes, 2),
      postgresCpuMsPerChange: round(usage.postgresCpuMs / changes, 2),
      subscribersProcessCpuPct: subscribersCpu === null ? null : round((subscribersCpu / usage.wallMs) * 100, 0),
      windowS: round(usage.wallMs / 1000, 1),
      note:
        `${changes} status changes (sandbox simulate, ${s.subsRatePerS}/s, open loop) fanned out to ${s.subsPerMerchant} subscribers per merchant; ` +
        `missed = expected events not received within ${s.subsGraceS} s after the last change; ` +
        `CPU figures cover connecting, the probes and the drive` +
        (firstSimulateError ? `; first simulate error: ${firstSimulateError}` : ''),
    };
    log(
      `subscriptions: received ${result.received}/${result.expectedDeliveries}, missed ${result.missed}, ` +
        `commit→receipt p50 ${result.latencyMs.p50} p99 ${result.latencyMs.p99} max ${result.latencyMs.max} ms, RSS ${result.productRssPeakMb} MB`,
    );
    return result;
  } finally {
    await stopChild(child, 5_000);
  }
}

// ---------------------------------------------------------------------------------------------
// Lifecycle drain

async function runLifecycle(
  product: Server,
  receiver: Receiver,
  keys: ProductKeys,
  s: Settings,
  tmp: string,
  runId: string,
  dbName: string,
): Promise<LifecycleResult> {
  const hookPath = `/hooks/lifecycle-${runId}`;
  let m: BenchMerchant;
  let customerUuid: string;
  try {
    m = await createMerchant(product.url, keys.admin, 'Bench lifecycle');
    await setWebhookEndpoint(product.url, m.token, `${receiver.base}${hookPath}`);
    customerUuid = await approvedCustomer(product.url, m.token, `bench-life-${runId}`);
  } catch (err) {
    throw new SetupError(`lifecycle setup: ${(err as Error).message}`);
  }

  const byRef = new Map<string, Delivery>();
  let duplicates = 0;
  let target = Number.POSITIVE_INFINITY;
  let allIn: () => void = () => {};
  const done = new Promise<void>((resolve) => (allIn = resolve));
  receiver.onDelivery((d) => {
    if (d.path !== hookPath || !d.type?.startsWith('collection.') || !d.reference) return;
    if (byRef.has(d.reference)) duplicates++;
    else byRef.set(d.reference, d);
    if (byRef.size >= target) allIn();
  });

  log(
    `lifecycle: ${s.lifecycleN} momo collections over ${s.connections} connections, settlement after ${s.lifecycleSettleMs} ms, webhooks to the local receiver`,
  );
  let window: UsageWindow | undefined;
  const load = await runLoad(
    {
      kind: 'rest-init',
      url: product.url,
      connections: s.connections,
      durationS: 0,
      warmupS: 0,
      amount: s.lifecycleN,
      maxDurationS: s.lifecycleTimeoutS,
      token: m.token,
      customerUuid,
      refPrefix: `b${runId}-life`,
      maxRefs: 0,
    },
    tmp,
    { onMeasureStart: (loadgen) => (window = new UsageWindow({ product: product.pid, loadgen }, dbName)) },
  );
  const initiated = Object.entries(load.statusCodes).reduce((n, [code, count]) => (code.startsWith('2') ? n + count : n), 0);
  log(`lifecycle: ${initiated} initiated at ${load.rps}/s (errors ${load.errors}); waiting for settlement and webhooks`);
  target = initiated;
  const deadline = load.startedAt + s.lifecycleTimeoutS * 1000;
  if (byRef.size < target) await Promise.race([done, sleep(Math.max(0, deadline - Date.now()))]);
  const usage = window!.stop();
  receiver.onDelivery(() => {});
  const finished = load.requests >= s.lifecycleN && byRef.size >= initiated;
  const deliveries = [...byRef.values()];
  const lastAt = deliveries.reduce((max, d) => Math.max(max, d.receivedAt), 0);
  const elapsedMs = finished ? lastAt - load.startedAt : Date.now() - load.startedAt;
  const settle: number[] = [];
  const hook: number[] = [];
  for (const d of deliveries) {
    const completed = d.completedAt ? Date.parse(d.completedAt) : NaN;
    const created = d.createdAt ? Date.parse(d.createdAt) : NaN;
    if (Number.isFinite(completed) && Number.isFinite(created)) settle.push(completed - created);
    if (Number.isFinite(completed)) hook.push(d.receivedAt - completed);
  }
  const cpu = usage.cpuMs.product ?? null;
  const result: LifecycleResult = {
    n: s.lifecycleN,
    initiated,
    initiationErrors: load.errors,
    initiationRps: load.rps,
    initiationLatency: load.latency,
    finished,
    timeoutS: s.lifecycleTimeoutS,
    webhooksReceived: byRef.size,
    duplicates,
    failedCollections: deliveries.filter((d) => d.type !== 'collection.successful').length,
    elapsedMs,
    endToEndRps: finished && elapsedMs > 0 ? round((initiated / elapsedMs) * 1000, 1) : null,
    settleMs: summarize(settle),
    webhookLatencyMs: summarize(hook),
    productRssPeakMb: usage.rssPeakMb.product ?? null,
    cpuMsPerCollection: cpu === null || initiated === 0 ? null : round(cpu / initiated, 2),
    postgresCpuMsPerCollection: initiated === 0 ? null : round(usage.postgresCpuMs / initiated, 2),
    note:
      (finished
        ? `all ${initiated} collections settled and their webhooks received in ${(elapsedMs / 1000).toFixed(1)} s from the first initiation`
        : `not finished in ${s.lifecycleTimeoutS} s: ${byRef.size} of ${initiated} webhooks received`) +
      (initiated + load.errors < s.lifecycleN
        ? ` (only ${initiated + load.errors} of ${s.lifecycleN} initiations were answered within ${s.lifecycleTimeoutS} s)`
        : ''),
    ...(load.sampleErrorBody ? { sampleErrorBody: load.sampleErrorBody } : {}),
  };
  log(
    `lifecycle: ${result.note}; end-to-end ${result.endToEndRps ?? '—'}/s; settle p50 ${result.settleMs.p50} p99 ${result.settleMs.p99} ms; ` +
      `commit→webhook p50 ${result.webhookLatencyMs.p50} p99 ${result.webhookLatencyMs.p99} max ${result.webhookLatencyMs.max} ms`,
  );
  return result;
}

// ---------------------------------------------------------------------------------------------
// Facts, targets, output

function evaluateTargets(r: Omit<BenchResults, 'targets'>): Target[] {
  const t: Target[] = [];
  const cmp = new Map(r.comparisons.map((c) => [c.scenario, c]));
  const sc = new Map(r.scenarios.map((x) => [x.id, x]));
  const fmt = (v: number | null | undefined, unit = '') => (v === null || v === undefined ? '—' : `${v}${unit}`);
  const ratioTarget = (name: string, label: string, min: number, base: string) => {
    const c = cmp.get(name);
    t.push({
      name: `${label} ≥ ${min} × baseline ${base}`,
      goal: `≥ ${min}`,
      value: c ? `${fmt(c.ratio)} (${sc.get(name)?.rps} vs ${c.baselineRps} req/s)` : 'not run',
      met: c?.ratio === null || c?.ratio === undefined ? null : c.ratio >= min,
    });
  };
  // Issue 22's targets for the write paths (issue 8's were 0.5 / 0.4 / 0.5); the reads keep issue 8's.
  ratioTarget('rest-init', 'REST initiation', 0.3, 'INSERT');
  ratioTarget('gql-init', 'GraphQL initiateCollection', 0.25, 'INSERT');
  ratioTarget('rest-pay', 'REST card payment', 0.25, 'INSERT');
  // One INSERT, like the baseline's (the issue's speed point); the rest is the doors' work (token, rate limit, validation, envelope), as token issuance's.
  ratioTarget('checkout-create', 'REST checkout session', 0.3, 'INSERT');
  ratioTarget('token', 'Token issuance', 0.3, 'INSERT');
  ratioTarget('rest-get', 'REST status GET', 0.6, 'GET');
  ratioTarget('gql-get', 'GraphQL transaction', 0.45, 'GET');
  const init = cmp.get('rest-init');
  t.push({
    name: 'PostgreSQL CPU per REST initiation ≤ 3 × the baseline INSERT’s',
    goal: '≤ 3 ×',
    value: init?.postgresCpuRatio ? `${init.postgresCpuRatio} × (${sc.get('rest-init')?.postgresCpuMsPerRequest} ms)` : 'not run',
    met: init?.postgresCpuRatio ? init.postgresCpuRatio <= 3 : null,
  });
  t.push({
    name: 'REST initiation ≥ 0.7 × the engine floor (the same statements, without our code)',
    goal: '≥ 0.7',
    value: init?.floorRatio ? `${init.floorRatio} (${sc.get('rest-init')?.rps} vs ${init.floorRps} req/s)` : 'not run',
    met: init?.floorRatio ? init.floorRatio >= 0.7 : null,
  });
  for (const [gql, rest] of [
    ['gql-init', 'rest-init'],
    ['gql-get', 'rest-get'],
  ] as const) {
    const g = sc.get(gql)?.cpuMsPerRequest;
    const x = sc.get(rest)?.cpuMsPerRequest;
    t.push({
      name: `${LABELS[gql]}: CPU per request ≤ 1.3 × REST's (${LABELS[rest]})`,
      goal: '≤ 1.3 ×',
      value: g && x ? `${round(g / x, 2)} × (${g} vs ${x} ms)` : 'not run',
      met: g && x ? g / x <= 1.3 : null,
    });
  }
  for (const name of ['rest-init', 'gql-init', 'rest-pay', 'rest-get', 'gql-get']) {
    const x = sc.get(name);
    t.push({
      name: `${LABELS[name]}: p99 < 50 ms at ${r.settings.connections} connections`,
      goal: '< 50 ms',
      value: x ? fmt(x.latency.p99, ' ms') : 'not run',
      met: x?.latency.p99 === null || x === undefined ? null : x.latency.p99 < 50,
    });
  }
  const lc = r.lifecycle;
  const initOnly = sc.get('rest-init')?.rps ?? null;
  const reference = initOnly ?? lc?.initiationRps ?? null;
  t.push({
    name: `Lifecycle end-to-end rate ≥ 0.8 × initiation-only rate (${initOnly !== null ? 'REST initiation scenario' : 'the lifecycle’s own initiation rate'})`,
    goal: `≥ ${reference !== null ? round(0.8 * reference, 1) : '—'}/s`,
    value: !lc ? 'not run' : lc.endToEndRps === null ? lc.note : `${lc.endToEndRps}/s (${reference ? round(lc.endToEndRps / reference, 2) : '—'} ×)`,
    met: !lc ? null : lc.endToEndRps === null ? false : reference === null ? null : lc.endToEndRps >= 0.8 * reference,
  });
  t.push({
    name: 'Commit → webhook received p99 < 100 ms',
    goal: '< 100 ms',
    value: !lc ? 'not run' : `${fmt(lc.webhookLatencyMs.p99, ' ms')}${lc.finished ? '' : ' (not finished)'}`,
    met: !lc || lc.webhookLatencyMs.p99 === null ? (lc ? false : null) : lc.finished && lc.webhookLatencyMs.p99 < 100,
  });
  const sub = r.subscriptions;
  t.push({
    name: `Commit → subscription event p99 < 50 ms with ${sub?.subscribers ?? r.settings.subsMerchants * r.settings.subsPerMerchant} subscribers, none missed`,
    goal: '< 50 ms, 0 missed',
    value: !sub ? 'not run' : `p99 ${fmt(sub.latencyMs.p99, ' ms')}, missed ${sub.missed}`,
    met: !sub ? null : sub.latencyMs.p99 !== null && sub.latencyMs.p99 < 50 && sub.missed === 0,
  });
  const rss: Array<[string, number | null]> = [
    ...r.scenarios.map((x) => [x.id, x.productRssPeakMb] as [string, number | null]),
    ...(lc ? [['lifecycle', lc.productRssPeakMb] as [string, number | null]] : []),
    ...(sub ? [['subscriptions', sub.productRssPeakMb] as [string, number | null]] : []),
  ];
  const peak = rss.reduce<[string, number] | null>((best, [id, v]) => (v !== null && (!best || v > best[1]) ? [id, v] : best), null);
  t.push({
    name: 'Product RSS < 300 MB in every scenario',
    goal: '< 300 MB',
    value: peak ? `peak ${peak[1]} MB (${peak[0]})` : 'not measured',
    met: peak ? peak[1] < 300 : null,
  });
  const productErrors =
    r.scenarios.filter((x) => x.server === 'product').reduce((n, x) => n + x.errors, 0) +
    (lc ? lc.initiationErrors : 0) +
    (sub ? sub.simulateErrors + sub.graphqlErrors : 0);
  t.push({ name: 'No error responses from the product', goal: '0', value: String(productErrors), met: productErrors === 0 });
  return t;
}

function parseOptions() {
  const { values } = parseArgs({
    options: {
      quick: { type: 'boolean', default: false },
      scenario: { type: 'string' },
      out: { type: 'string' },
      profile: { type: 'string' },
      'progress-events': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
    allowPositionals: false,
  });
  if (values.help) {
    process.stdout.write(
      `usage: npm run bench -- [--quick] [--scenario <${ALL_SCENARIOS.join('|')}>] [--out <file.json>] [--profile <dir>] [--progress-events]\n` +
        `--progress-events: the HTTP scenarios' merchant has an endpoint (the bench's receiver) and chose every event type,\n` +
        `  so each initiation also records its *.processing event and delivers it (what such a merchant pays).\n` +
        `--profile: each product process writes a CPU profile into <dir> (summarise with node dist/bench/profile-summary.js <file>).\n` +
        `A full run writes bench/results/latest.json and the generated part of BENCHMARKS.md; a partial run\n` +
        `(--quick or --scenario) prints its tables and writes bench/results/latest-partial.json (or --out) only.\n`,
    );
    process.exit(0);
  }
  const scenario = values.scenario ?? null;
  if (scenario !== null && !(ALL_SCENARIOS as readonly string[]).includes(scenario)) {
    throw new Error(`unknown scenario "${scenario}"; one of: ${ALL_SCENARIOS.join(', ')}`);
  }
  const quick = values.quick ?? false;
  // A partial run (--quick or --scenario) does not replace the full run's figures unless --out says where.
  const partial = quick || scenario !== null;
  return {
    quick,
    scenario: scenario as ScenarioName | null,
    profileDir: values.profile ? path.resolve(values.profile) : null,
    progressEvents: values['progress-events'] ?? false,
    partial,
    out: path.resolve(values.out ?? path.join(ROOT, 'bench', 'results', partial ? 'latest-partial.json' : 'latest.json')),
  };
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<number> {
  const opts = parseOptions();
  const s = { ...settingsFor(opts.quick, opts.scenario), profileDir: opts.profileDir };
  const want = (name: ScenarioName) => opts.scenario === null || opts.scenario === name;
  const runId = randomHex(4);
  const dbName = `bench_${runId}`;
  const lifecycleDbName = `${dbName}_lifecycle`;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), `bench-${runId}-`));
  const startedAt = new Date();
  const keys: ProductKeys = {
    signing: randomHex(32),
    encryption: crypto.randomBytes(32).toString('base64'),
    admin: `bench-admin-${randomHex(16)}`,
  };
  const machine = await machineFacts();
  log(
    `run ${runId}: ${machine.cpuModel}, ${machine.cores} cores, load average ${machine.loadAverageAtStart.join(' ')}; commit ${machine.commit}${machine.uncommittedChanges ? ' (+ uncommitted changes)' : ''}`,
  );

  // A hard bound on the whole run, whatever hangs.
  const budgetS = opts.quick ? 300 : 570;
  const watchdog = setTimeout(() => void emergencyStop(log, `over the ${budgetS} s budget`, 1), budgetS * 1000);
  watchdog.unref();

  const problems: string[] = [];
  const scenarios: HttpScenario[] = [];
  let lifecycle: LifecycleResult | null = null;
  let subscriptions: SubscriptionsResult | null = null;
  let receiver: Receiver | undefined;
  let setupFailed = false;
  let keepTmp = false;

  try {
    const dbUrl = await createDatabase(dbName);
    rememberDatabase(dbName);
    log(`database ${dbName} created`);
    receiver = await startReceiver();

    const httpWanted = PRODUCT_SCENARIOS.filter((n) => want(n));
    if (httpWanted.length > 0 || want('subscriptions')) {
      const baseline = httpWanted.length > 0 ? await startBaseline(dbUrl, s) : null;
      const product = await startProduct('init-only', dbUrl, s.initOnlySettleMs, s, keys, tmp);
      try {
        log('setup: merchant, token and a KYC-approved customer over the public API');
        const [main, subsSetup] = await Promise.all([
          (async () => {
            const merchant = await createMerchant(product.url, keys.admin, 'Bench HTTP');
            if (opts.progressEvents) await chooseEveryEventType(product.url, merchant.token, `${receiver!.base}/hooks/http-${runId}`);
            const customerUuid = await approvedCustomer(product.url, merchant.token, `bench-http-${runId}`);
            return { merchant, customerUuid };
          })(),
          want('subscriptions') ? prepareSubscriptions(product, keys, s, runId) : Promise.resolve(null),
        ]);
        if (baseline) {
          const ctx: HttpContext = {
            s,
            tmp,
            runId,
            dbName,
            product,
            baseline,
            floor: null,
            merchant: main.merchant,
            customerUuid: main.customerUuid,
            baselineMerchantId: crypto.randomUUID(),
            productRefs: [],
            baselineRefs: [],
          };
          const ids = new Set<string>();
          for (const name of httpWanted) {
            ids.add(name);
            for (const b of [...(BRACKETS[name] ?? []), ...(FLOOR_BRACKETS[name] ?? [])]) ids.add(b);
          }
          // After the product, whose start migrated the database.
          if ([...ids].some((id) => id.startsWith('floor-'))) ctx.floor = await startBaseline(dbUrl, s, 'floor');
          for (const step of SEQUENCE.filter((x) => ids.has(x.id))) {
            try {
              scenarios.push(await runHttpStep(ctx, step.id, step.kind));
            } catch (err) {
              problems.push(`${step.id}: ${(err as Error).message}`);
              log(`${step.id} failed: ${(err as Error).message}`);
              if (product.child.exitCode !== null || baseline.child.exitCode !== null) throw err;
            }
          }
          if (ctx.floor) await stopChild(ctx.floor.child, 5_000);
        }
        if (subsSetup) {
          try {
            subscriptions = await runSubscriptions(product, subsSetup, s, tmp, dbName);
          } catch (err) {
            problems.push(`subscriptions: ${(err as Error).message}`);
            log(`subscriptions failed: ${(err as Error).message}`);
          }
        }
      } finally {
        await stopChild(product.child);
        if (baseline) await stopChild(baseline.child, 5_000);
      }
    }

    if (want('lifecycle')) {
      const lifecycleUrl = await createDatabase(lifecycleDbName);
      rememberDatabase(lifecycleDbName);
      const product = await startProduct('lifecycle', lifecycleUrl, s.lifecycleSettleMs, s, keys, tmp);
      try {
        lifecycle = await runLifecycle(product, receiver, keys, s, tmp, runId, lifecycleDbName);
      } catch (err) {
        if (err instanceof SetupError) throw err;
        problems.push(`lifecycle: ${(err as Error).message}`);
        log(`lifecycle failed: ${(err as Error).message}`);
      } finally {
        await stopChild(product.child);
      }
    }
  } catch (err) {
    setupFailed = true;
    keepTmp = true;
    log(`FAILED: ${(err as Error).stack ?? String(err)}`);
  } finally {
    clearTimeout(watchdog);
    await stopAll(10_000);
    await receiver?.close();
    await dropCreatedDatabases(log);
    if (problems.length > 0) keepTmp = true;
    if (keepTmp) log(`logs and load configs kept in ${tmp}`);
    else fs.rmSync(tmp, { recursive: true, force: true });
  }
  if (setupFailed) return 1;

  machine.loadAverageAtEnd = os.loadavg().map((x) => round(x, 2)!);
  const finishedAt = new Date();
  const partial: Omit<BenchResults, 'targets'> = {
    version: 1,
    runId,
    startedAt: startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    totalS: round((finishedAt.getTime() - startedAt.getTime()) / 1000, 1)!,
    machine,
    settings: s,
    scenarios,
    comparisons: compare(scenarios),
    lifecycle,
    subscriptions,
    problems,
  };
  const results: BenchResults = { ...partial, targets: evaluateTargets(partial) };
  fs.mkdirSync(path.dirname(opts.out), { recursive: true });
  fs.writeFileSync(opts.out, `${JSON.stringify(results, null, 2)}\n`);
  const markdown = renderMarkdown(results);
  process.stdout.write(`\n${markdown}\n`);
  if (opts.partial) {
    log(`wrote ${opts.out} in ${results.totalS} s (a partial run: BENCHMARKS.md left as it was)`);
  } else {
    const mdPath = path.join(ROOT, 'BENCHMARKS.md');
    const existing = fs.existsSync(mdPath) ? fs.readFileSync(mdPath, 'utf8') : '# Benchmarks\n';
    fs.writeFileSync(mdPath, replaceBetweenMarkers(existing, markdown));
    log(`wrote ${opts.out} and BENCHMARKS.md in ${results.totalS} s`);
  }
  return problems.length > 0 ? 1 : 0;
}

runHarness(main, log, 1);

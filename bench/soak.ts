/**
 * npm run soak: the product under a steady mixed load for SOAK_MINUTES (default 10), with
 * bursts above one merchant's rate limit, to show what a benchmark's seconds cannot: that
 * latency and memory stay flat, and that nothing is lost.
 *
 * It starts everything it needs and stops all of it, even on failure or Ctrl-C:
 *   - a fresh PostgreSQL database on 127.0.0.1:5432 (soak_<random>), dropped at the end;
 *   - the product (the built dist/src/main.js) with Redis, settling the sandbox's transactions
 *     after 200 ms; a first instance for the setup and the calibration (rate limits off), then,
 *     on the same database, a fresh one with a real merchant rate limit for the soak itself;
 *   - a webhook receiver on 127.0.0.1 (in this process) verifying every signature with
 *     standardwebhooks and counting deliveries by event id;
 *   - the load generator (bench/soak-load.ts, autocannon) as a separate process.
 *
 * Steps: setup over the public API (merchants with an endpoint and a KYC-approved customer) →
 * calibration (15 s flat out at 50 connections, or --capacity) → the soak at 60 % of that →
 * drain (bounded wait for every final transaction's webhook) → checks. Every minute it prints
 * p50/p99, requests, errors, 429s, the product's RSS, the outbox lag and webhooks delivered vs
 * expected. It writes bench/results/soak-latest.json, prints PASS or FAIL with the reasons,
 * and exits non-zero on FAIL. Everything it sends goes to 127.0.0.1.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import type http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { parseArgs } from 'node:util';
import { Client } from 'pg';
import { Webhook } from 'standardwebhooks';
import type { BurstResult, SoakKind, SoakLoadConfig, SoakTick } from './soak-load';
import { approvedCustomer, createMerchant, initiateCollection, issueToken, setWebhookEndpoint, type BenchMerchant } from './lib/api';
import { autovacuumSummary, startAutovacuumStandIn, type AutovacuumStandIn } from './lib/autovacuum';
import { MaintenanceLog, maintenanceCell } from './lib/maintenance';
import { jsonLines, spawnTracked, stopAll, stopChild, tail } from './lib/children';
import { dropCreatedDatabases, emergencyStop, rememberDatabase, runHarness } from './lib/harness';
import { rssKb } from './lib/proc';
import { ROOT, baseEnv, createDatabase, machineFacts, round, startProduct, type ProductKeys, type Server } from './lib/product';
import { startReceiver, type Receiver } from './lib/receiver';
import { median, renderSoakMarkdown, trendOf, type SoakMinute, type SoakReport, type Trend } from './lib/soak-report';
import { mapLimit, sleep, summarize } from './lib/stats';
import type { Target } from './lib/types';

const LOAD_JS = path.join(__dirname, 'soak-load.js');

/** The mix, by weight: two thirds writes (each ends in a webhook), one third reads. */
const WEIGHTS: Record<SoakKind, number> = {
  collection: 22,
  'collection-fail': 3,
  transfer: 10,
  payment: 15,
  'rest-get': 37,
  'gql-get': 10,
  'gql-list': 3,
};

const S = {
  calibrationConnections: 50,
  calibrationWarmupS: 3,
  calibrationS: 12,
  soakConnections: 32,
  waves: 4,
  settleMs: 200,
  dbPoolMax: 10,
  /** The merchant rate limit's window during the soak (short, so a burst is a few seconds). */
  rateWindowS: 10,
  /** A normal merchant uses at most 1 / headroom of its budget. */
  rateHeadroom: 2.5,
  /** A burst sends this many times the budget, as fast as its connections go. */
  burstFactor: 2,
  burstConnections: 10,
  rssEveryMs: 5_000,
  dbEveryMs: 15_000,
  /** Access tokens live an hour: fresh ones every 20 minutes. */
  tokenRefreshMs: 20 * 60_000,
  /** Growth allowed, last third's median over the first third's. */
  rssGrowthPct: 15,
  p99GrowthPct: 25,
  /** WAL per request: random keys made it grow with the tables (full-page images of random index pages). */
  walGrowthPct: 25,
  /** p99 also gets a few milliseconds of slack: at a few ms, 25 % is noise. */
  p99SlackMs: 5,
};

const log = (msg: string) => process.stderr.write(`[soak ${new Date().toISOString().slice(11, 19)}] ${msg}\n`);
const randomHex = (bytes: number) => crypto.randomBytes(bytes).toString('hex');

function parseOptions() {
  const { values } = parseArgs({
    options: {
      minutes: { type: 'string' },
      capacity: { type: 'string' },
      load: { type: 'string' },
      merchants: { type: 'string' },
      interval: { type: 'string' },
      'drain-s': { type: 'string' },
      'burst-every': { type: 'string' },
      out: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
    allowPositionals: false,
  });
  if (values.help) {
    process.stdout.write(
      'usage: [SOAK_MINUTES=10] npm run soak -- [--minutes <n>] [--capacity <req/s>] [--load <fraction>] [--merchants <n>]\n' +
        '         [--interval <s>] [--burst-every <s>] [--drain-s <s>] [--out <file.json>]\n' +
        '--minutes (or SOAK_MINUTES): length of the soak, default 10 (at most 720).\n' +
        '--capacity (or SOAK_CAPACITY_RPS): skip the calibration and take this as capacity.\n' +
        '--load: fraction of capacity to run at, default 0.6. --merchants: normal merchants, default 8.\n' +
        '--interval: seconds per report row, default 60 (shorter only to try the harness).\n' +
        '--burst-every: seconds between bursts, default the interval. --drain-s: bound of the final drain, default 180.\n' +
        'Writes bench/results/soak-latest.json (or --out); exits 1 on FAIL, 2 when it could not run.\n',
    );
    process.exit(0);
  }
  const num = (v: string | undefined, fallback: number, min: number, max: number, name: string) => {
    if (v === undefined || v === '') return fallback;
    const x = Number(v);
    if (!Number.isFinite(x) || x < min || x > max) throw new Error(`${name} must be a number between ${min} and ${max}, not "${v}"`);
    return x;
  };
  const minutes = num(values.minutes ?? process.env.SOAK_MINUTES, 10, 0.5, 720, 'SOAK_MINUTES (--minutes)');
  const capacity = values.capacity ?? process.env.SOAK_CAPACITY_RPS;
  const intervalS = num(values.interval, 60, 10, 600, '--interval');
  return {
    minutes,
    capacity: capacity === undefined || capacity === '' ? null : num(capacity, 0, 10, 1_000_000, 'SOAK_CAPACITY_RPS (--capacity)'),
    load: num(values.load, 0.6, 0.05, 1, '--load'),
    merchants: Math.round(num(values.merchants, 8, 1, 100, '--merchants')),
    intervalS,
    burstEveryS: num(values['burst-every'], intervalS, 10, 3600, '--burst-every'),
    drainS: num(values['drain-s'], 180, 10, 1800, '--drain-s'),
    out: path.resolve(values.out ?? path.join(ROOT, 'bench', 'results', 'soak-latest.json')),
  };
}

// ---------------------------------------------------------------------------------------------
// Setup

interface SoakMerchant {
  m: BenchMerchant;
  customerUuid: string;
}

/** `secrets[i]` is set before merchant i has an endpoint, so the receiver can verify its first delivery. */
async function setupMerchants(base: string, keys: ProductKeys, receiver: Receiver, secrets: string[], count: number, runId: string): Promise<SoakMerchant[]> {
  return mapLimit(
    Array.from({ length: count }, (_, i) => i),
    4,
    async (i) => {
      const m = await createMerchant(base, keys.admin, `Soak merchant ${i}`);
      secrets[i] = m.webhookSecret;
      // The endpoint first, so every event from here on (the customer's KYC included) is delivered.
      await setWebhookEndpoint(base, m.token, `${receiver.base}/hooks/${i}`);
      const customerUuid = await approvedCustomer(base, m.token, `soak-${runId}-${i}`);
      return { m, customerUuid };
    },
  );
}

/** Signature check of one delivery: the path names the merchant, whose secret must verify the raw body. */
function verifier(secrets: () => string[]) {
  const hooks = new Map<number, Webhook>();
  return (reqPath: string, raw: string, headers: http.IncomingHttpHeaders): boolean => {
    const match = /^\/hooks\/(\d+)$/.exec(reqPath);
    const i = match ? Number(match[1]) : -1;
    const secret = secrets()[i];
    if (!secret) return false;
    let wh = hooks.get(i);
    if (!wh) hooks.set(i, (wh = new Webhook(secret)));
    const h = (name: string) => {
      const v = headers[name];
      return Array.isArray(v) ? v.join(', ') : (v ?? '');
    };
    try {
      wh.verify(raw, { 'webhook-id': h('webhook-id'), 'webhook-timestamp': h('webhook-timestamp'), 'webhook-signature': h('webhook-signature') });
      return true;
    } catch {
      return false;
    }
  };
}

// ---------------------------------------------------------------------------------------------
// The load generator

interface LoadHandle {
  ticks: AsyncIterable<SoakTick>;
  send: (msg: object) => void;
  done: Promise<void>;
}

function startLoad(cfg: SoakLoadConfig, tmp: string, name: string, budgetS: number): LoadHandle {
  const cfgPath = path.join(tmp, `${name}.json`);
  fs.writeFileSync(cfgPath, JSON.stringify(cfg));
  const child = spawnTracked(process.execPath, [LOAD_JS, cfgPath], { cwd: ROOT, env: baseEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
  const stderr = tail(child);
  const queue: SoakTick[] = [];
  let wake: () => void = () => {};
  let finished = false;
  let sawDone = false;
  jsonLines(child, (event) => {
    if (event.event === 'tick') queue.push(event as SoakTick);
    if (event.event === 'done') sawDone = true;
    wake();
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), budgetS * 1000);
  const done = new Promise<void>((resolve, reject) =>
    child.once('exit', (code) => {
      clearTimeout(timer);
      finished = true;
      wake();
      if (sawDone && code === 0) resolve();
      else reject(new Error(`load generator (${name}) ended without finishing (exit ${code}): ${stderr()}`));
    }),
  );
  done.catch(() => {});
  const ticks = {
    async *[Symbol.asyncIterator]() {
      for (;;) {
        while (queue.length > 0) yield queue.shift()!;
        if (finished) return;
        await new Promise<void>((resolve) => (wake = resolve));
      }
    },
  };
  return { ticks, done, send: (msg) => child.stdin?.write(`${JSON.stringify(msg)}\n`) };
}

// ---------------------------------------------------------------------------------------------
// The database, seen from outside the product

interface DbSample {
  at: number;
  deliveries: number;
  pending: number;
  failed: number;
  lagMs: number;
  /** The cluster's WAL position (bytes): its growth over a minute, divided by that minute's responses, is WAL per request. */
  walBytes: number;
}

async function deliveryStats(db: Client): Promise<DbSample> {
  const row = (
    await db.query(`
      select count(*)::int as deliveries,
             count(*) filter (where status = 'pending')::int as pending,
             count(*) filter (where status = 'failed')::int as failed,
             coalesce(extract(epoch from now() - min(created_at) filter (where status = 'pending')) * 1000, 0)::float8 as lag_ms,
             pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::float8 as wal_bytes
        from webhook_delivery`)
  ).rows[0];
  return {
    at: Date.now(),
    deliveries: row.deliveries,
    pending: row.pending,
    failed: row.failed,
    lagMs: Math.max(0, row.lag_ms),
    walBytes: row.wal_bytes,
  };
}

async function unfinishedTransactions(db: Client): Promise<number> {
  return (await db.query(`select count(*)::int as n from "transaction" where status not in ('successful', 'failed', 'expired')`)).rows[0].n;
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<number> {
  const opts = parseOptions();
  const runId = randomHex(4);
  const dbName = `soak_${runId}`;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), `soak-${runId}-`));
  const startedAt = new Date();
  const keys: ProductKeys = { signing: randomHex(32), encryption: crypto.randomBytes(32).toString('base64'), admin: `soak-admin-${randomHex(16)}` };
  const machine = await machineFacts();
  log(
    `run ${runId}: ${opts.minutes} min soak; ${machine.cpuModel}, ${machine.cores} cores, load average ${machine.loadAverageAtStart.join(' ')}; ` +
      `commit ${machine.commit}${machine.uncommittedChanges ? ' (+ uncommitted changes)' : ''}`,
  );

  // A hard bound on the whole run, whatever hangs: setup, calibration, the soak, the drain, and margins.
  const budgetS = 240 + opts.minutes * 60 + opts.drainS + 120;
  const watchdog = setTimeout(() => void emergencyStop(log, `over the ${budgetS} s budget`, 2), budgetS * 1000);
  watchdog.unref();

  const problems: string[] = [];
  const secrets: string[] = [];
  const acceptedPath = path.join(tmp, 'accepted.tsv');
  fs.writeFileSync(acceptedPath, '');
  const received = new Set<string>();
  let duplicates = 0;
  let unverified = 0;
  let firstUnverified: string | undefined;
  let receivedTotal = 0;
  let hookLatencies: number[] = [];
  const receiver = await startReceiver({ keep: false, verify: verifier(() => secrets) });
  receiver.onDelivery((d) => {
    receivedTotal++;
    if (!d.verified) {
      unverified++;
      firstUnverified ??= `${d.path} ${d.webhookId ?? '(no webhook-id)'} ${d.type ?? ''}`;
      return;
    }
    if (!d.webhookId) return;
    if (received.has(d.webhookId)) duplicates++;
    else received.add(d.webhookId);
    const created = d.eventCreatedAt ? Date.parse(d.eventCreatedAt) : NaN;
    if (Number.isFinite(created)) hookLatencies.push(d.receivedAt - created);
  });

  let product: Server | undefined;
  let db: Client | undefined;
  let report: SoakReport | undefined;
  let autovacuum: AutovacuumStandIn | undefined;
  try {
    const dbUrl = await createDatabase(dbName);
    rememberDatabase(dbName);
    log(`database ${dbName} created; webhook receiver at ${receiver.base}`);

    // 1. Setup (and calibration) on an instance without rate limits.
    const limitsFor = (capacity: number) => {
      const target = Math.max(10, Math.round(capacity * opts.load));
      const perMerchantWindow = (target / opts.merchants) * S.rateWindowS;
      const budget = Math.max(100, Math.ceil(perMerchantWindow * S.rateHeadroom));
      return { target, budget, burstAmount: Math.ceil(budget * S.burstFactor) };
    };
    // The setup instance counts in the same short window (with a budget never reached): the soak instance shares
    // its Redis counters, so they must have expired before the soak starts (see the wait after the calibration).
    // Each merchant's opening balance covers every transfer it can send: at 217 req/s a 60-minute soak sent about
    // 9,800 transfers of 100 USD (and their fee) per merchant, and the default million ran out in minute 60 (402s).
    const soakEnv = (budget?: number) => ({
      RATE_LIMIT_WINDOW_S: String(S.rateWindowS),
      SANDBOX_OPENING_BALANCE: '1000000000',
      ...(budget ? { RATE_LIMIT_MERCHANT: String(budget) } : {}),
    });
    const productOpts = (env: Record<string, string>) => ({ settleMs: S.settleMs, dbPoolMax: S.dbPoolMax, env });
    let limits = opts.capacity !== null ? limitsFor(opts.capacity) : null;
    product = await startProduct(limits ? 'soak' : 'setup', dbUrl, keys, tmp, productOpts(soakEnv(limits?.budget)));
    log(`product (${product.name}) listening at ${product.url} (pid ${product.pid})`);
    log(`setup: ${opts.merchants} merchants and one burst merchant, each with a webhook endpoint and a KYC-approved customer`);
    const all = await setupMerchants(product.url, keys, receiver, secrets, opts.merchants + 1, runId);
    const merchants = all.slice(0, opts.merchants);
    const burstIndex = opts.merchants;
    const burstMerchant = all[burstIndex]!;
    const burstRefs = await mapLimit(
      Array.from({ length: 20 }, (_, k) => k),
      5,
      (k) => initiateCollection(product!.url, burstMerchant.m.token, burstMerchant.customerUuid, `s${runId}-burst-${k}`),
    );
    fs.appendFileSync(acceptedPath, burstRefs.map((ref, k) => `${burstIndex}\tcollection\t${ref}\ts${runId}-burst-${k}\n`).join(''));

    const loadConfig = (mode: SoakLoadConfig['mode'], extra: Partial<SoakLoadConfig>): SoakLoadConfig => ({
      mode,
      url: product!.url,
      merchants: merchants.map((x) => ({ token: x.m.token, customerUuid: x.customerUuid })),
      weights: WEIGHTS,
      connections: S.soakConnections,
      warmupS: 0,
      durationS: 0,
      waves: 1,
      intervalS: opts.intervalS,
      refPrefix: `s${runId}-${mode}`,
      acceptedPath,
      ...extra,
    });

    // 2. Capacity.
    let capacity: SoakReport['capacity'];
    if (opts.capacity !== null) {
      capacity = { rps: opts.capacity, source: 'given', calibrationP99: null };
    } else {
      log(`calibration: the mixed load flat out at ${S.calibrationConnections} connections, ${S.calibrationWarmupS} s warm-up + ${S.calibrationS} s`);
      const cal = startLoad(
        loadConfig('calibrate', {
          connections: S.calibrationConnections,
          warmupS: S.calibrationWarmupS,
          durationS: S.calibrationS,
          intervalS: S.calibrationS,
        }),
        tmp,
        'calibrate',
        S.calibrationWarmupS + S.calibrationS + 60,
      );
      let last: SoakTick | undefined;
      for await (const t of cal.ticks) last = t;
      await cal.done;
      if (!last || last.requests === 0) throw new Error('calibration measured nothing');
      const rps = last.requests / ((last.to - last.from) / 1000);
      capacity = { rps: round(rps, 1)!, source: 'calibrated', calibrationP99: last.latency.p99 };
      log(
        `calibration: ${capacity.rps} req/s, p99 ${last.latency.p99} ms, errors ${last.errors}${last.sampleErrors[0] ? ` (first: ${last.sampleErrors[0]})` : ''}`,
      );
      if (last.errors > 0) problems.push(`calibration: ${last.errors} errors, first: ${last.sampleErrors[0] ?? 'a connection error or timeout'}`);
      limits = limitsFor(rps);
      // 3. The soak runs on a fresh instance with the real limit (same database, same keys), once the
      // calibration's counters have expired: otherwise they would count against the new, smaller budget.
      const calibrationEnded = Date.now();
      await stopChild(product.child);
      await sleep(Math.max(0, calibrationEnded + (S.rateWindowS + 1) * 1000 - Date.now()));
      product = await startProduct('soak', dbUrl, keys, tmp, productOpts(soakEnv(limits.budget)));
      log(`product (soak) listening at ${product.url} (pid ${product.pid})`);
    }
    const lim = limits!;
    log(
      `soak: ${lim.target} req/s (${Math.round(opts.load * 100)} % of ${capacity.rps}) over ${opts.merchants} merchants for ${opts.minutes} min; ` +
        `merchant limit ${lim.budget} per ${S.rateWindowS} s (a merchant uses about ${Math.round((lim.target / opts.merchants) * S.rateWindowS)}); ` +
        `a burst of ${lim.burstAmount} reads for merchant ${burstIndex} every ${opts.burstEveryS} s`,
    );

    db = new Client({ connectionString: dbUrl });
    await db.connect();
    autovacuum = await startAutovacuumStandIn(dbUrl, log, (msg) => problems.push(msg));
    // When each vacuum, analyze and checkpoint ran, so that a minute's spike can be explained.
    const maintenance = new MaintenanceLog(autovacuum);
    await maintenance.sample(db!);
    const durationS = Math.round(opts.minutes * 60);
    const load = startLoad(
      loadConfig('soak', {
        url: product.url,
        durationS,
        rate: lim.target,
        waves: S.waves,
        burst: {
          token: burstMerchant.m.token,
          refs: burstRefs,
          everyS: opts.burstEveryS,
          offsetS: opts.burstEveryS / 2,
          amount: lim.burstAmount,
          connections: S.burstConnections,
        },
      }),
      tmp,
      'soak',
      durationS + 120,
    );

    // Samplers: the product's RSS, the outbox from the database, fresh tokens.
    const soakStart = Date.now();
    const rssSamples: Array<{ at: number; mb: number }> = [];
    const dbSamples: DbSample[] = [];
    const soakPid = product.pid;
    const rssTimer = setInterval(() => {
      const kb = rssKb(soakPid);
      if (kb !== undefined) rssSamples.push({ at: Date.now(), mb: kb / 1024 });
    }, S.rssEveryMs);
    let dbBusy = false;
    const sampleDb = async () => {
      if (dbBusy) return;
      dbBusy = true;
      try {
        dbSamples.push(await deliveryStats(db!));
        await maintenance.sample(db!);
      } catch (err) {
        problems.push(`database sample: ${(err as Error).message}`);
      } finally {
        dbBusy = false;
      }
    };
    const dbTimer = setInterval(() => void sampleDb(), S.dbEveryMs);
    const soakProduct = product;
    const tokenTimer = setInterval(() => {
      void (async () => {
        try {
          const fresh = await Promise.all(all.map((x) => issueToken(soakProduct.url, x.m.clientId, x.m.clientSecret)));
          load.send({ tokens: fresh.slice(0, opts.merchants), burstToken: fresh[burstIndex] });
          log('fresh access tokens sent to the load generator');
        } catch (err) {
          problems.push(`token refresh: ${(err as Error).message}`);
        }
      })();
    }, S.tokenRefreshMs);

    const minutes: SoakMinute[] = [];
    const bursts: BurstResult[] = [];
    let acceptedTotal = 0;
    let walAt: number | undefined = (await deliveryStats(db!)).walBytes;
    try {
      for await (const t of load.ticks) {
        await sampleDb();
        const inWindow = <T extends { at: number }>(xs: T[]) => xs.filter((x) => x.at >= t.from && x.at <= t.to + 1000);
        const rss = inWindow(rssSamples).map((x) => x.mb);
        const dbs = inWindow(dbSamples);
        const lastDb = dbSamples[dbSamples.length - 1];
        // WAL written since the tick before (the whole cluster's: the soak's database is the one being written).
        const walKb = lastDb && walAt !== undefined ? (lastDb.walBytes - walAt) / 1024 : null;
        walAt = lastDb?.walBytes ?? walAt;
        const hooks = hookLatencies;
        hookLatencies = [];
        const lenS = (t.to - t.from) / 1000;
        bursts.push(...t.bursts);
        acceptedTotal += t.accepted;
        const row: SoakMinute = {
          minute: t.index + 1,
          fromS: round((t.from - soakStart) / 1000, 1)!,
          toS: round((t.to - soakStart) / 1000, 1)!,
          partial: lenS < opts.intervalS / 2,
          requests: t.requests,
          rps: round(t.requests / Math.max(lenS, 0.001), 1)!,
          p50: t.latency.p50,
          p99: t.latency.p99,
          errors: t.errors,
          limitedOthers: t.limited,
          burstSent: t.bursts.reduce((a, b) => a + b.sent, 0),
          burst429: t.bursts.reduce((a, b) => a + b.limited, 0),
          burstOther: t.bursts.reduce((a, b) => a + b.other, 0),
          rssMb: rss.length ? round(median(rss), 1) : null,
          rssPeakMb: rss.length ? round(Math.max(...rss), 1) : null,
          outboxLagMs: dbs.length ? round(Math.max(...dbs.map((x) => x.lagMs)), 0) : null,
          pendingDeliveries: lastDb?.pending ?? null,
          webhooksExpected: lastDb?.deliveries ?? null,
          webhooksDelivered: received.size,
          webhookP99Ms: summarize(hooks).p99,
          walKbPerRequest: walKb !== null && t.requests > 0 ? round(walKb / t.requests, 2) : null,
          accepted: t.accepted,
          loadAverage: round(os.loadavg()[0], 2)!,
          byKind: t.byKind,
          sampleErrors: t.sampleErrors,
          maintenance: maintenanceCell(maintenance.between(t.from, t.to)),
        };
        minutes.push(row);
        log(
          `${opts.intervalS === 60 ? 'minute' : `interval (${opts.intervalS} s)`} ${row.minute}${row.partial ? ' (partial)' : ''}: ${row.rps} req/s, p50 ${row.p50} p99 ${row.p99} ms, errors ${row.errors}, ` +
            `429 burst ${row.burst429} / others ${row.limitedOthers}; RSS ${row.rssMb} MB (peak ${row.rssPeakMb}); ` +
            `outbox lag ${row.outboxLagMs} ms, pending ${row.pendingDeliveries}; webhooks ${row.webhooksDelivered}/${row.webhooksExpected}, p99 ${row.webhookP99Ms} ms; WAL ${row.walKbPerRequest} kB/request; load average ${row.loadAverage}; ${row.maintenance}` +
            (row.sampleErrors[0] ? `; first error: ${row.sampleErrors[0]}` : ''),
        );
      }
      await load.done;
    } finally {
      clearInterval(rssTimer);
      clearInterval(dbTimer);
      clearInterval(tokenTimer);
    }

    // 4. Drain: every transaction final, every delivery done, every event received (bounded).
    log(`drain: waiting (at most ${opts.drainS} s) for every transaction to settle and every webhook to arrive`);
    const drainStart = Date.now();
    let drained = false;
    let lastState = '';
    while (Date.now() - drainStart < opts.drainS * 1000) {
      const [unfinished, stats] = [await unfinishedTransactions(db), await deliveryStats(db)];
      lastState = `${unfinished} transactions unfinished, ${stats.pending} deliveries pending, ${stats.failed} failed, ${received.size} of ${stats.deliveries} events received`;
      if (unfinished === 0 && stats.pending === 0 && received.size >= stats.deliveries) {
        drained = true;
        break;
      }
      await sleep(1000);
    }
    const drainS = round((Date.now() - drainStart) / 1000, 1)!;
    log(`drain: ${drained ? 'done' : 'NOT finished'} in ${drainS} s (${lastState})`);

    // 5. Checks.
    const facts = await verifyNothingLost(db, acceptedPath, received);
    const rssPeak = Math.max(0, ...rssSamples.map((x) => x.mb));
    const judged = minutes.filter((x) => !x.partial);
    const warmup = Math.max(1, Math.round(judged.length * 0.1));
    const trends: Trend[] = [
      trendOf(
        'p99 latency (ms)',
        judged.map((x) => x.p99),
        warmup,
        S.p99GrowthPct,
        S.p99SlackMs,
      ),
      trendOf(
        'RSS (MB)',
        judged.map((x) => x.rssMb),
        warmup,
        S.rssGrowthPct,
      ),
      trendOf(
        'WAL per request (kB)',
        judged.map((x) => x.walKbPerRequest),
        warmup,
        S.walGrowthPct,
      ),
    ];
    const errors = minutes.reduce((a, x) => a + x.errors, 0);
    const limitedOthers = minutes.reduce((a, x) => a + x.limitedOthers, 0);
    const burst429 = bursts.reduce((a, b) => a + b.limited, 0);
    const burstOther = bursts.reduce((a, b) => a + b.other, 0);
    // Within one window a merchant gets at most its budget; a burst shorter than a window spans at most two.
    const overLimit = bursts.filter((b) => b.ok > lim.budget * (1 + Math.ceil(b.durationMs / (S.rateWindowS * 1000)))).length;
    // Information: how much of its budget a burst got (each burst starts a fresh window, shorter than one).
    const grantedPct = bursts.filter((b) => b.durationMs < S.rateWindowS * 1000).map((b) => Math.round((b.ok / lim.budget) * 100));
    const checks: Target[] = [];
    const check = (name: string, goal: string, value: string, met: boolean | null) => checks.push({ name, goal, value, met });
    const trendValue = (t: Trend) =>
      t.flat === null
        ? `not judged: ${t.points} minutes after the warm-up (3 needed)`
        : `${t.firstThirdMedian} → ${t.lastThirdMedian} (${t.growthPct} %; slope ${t.slopePctPerHour} %/h)`;
    check(
      'Every accepted initiation has exactly one transaction',
      `${facts.accepted} of ${facts.accepted}`,
      `${facts.found} found, ${facts.missing} missing${facts.duplicateAnswers ? `, ${facts.duplicateAnswers} references answered twice` : ''}${facts.firstMissing ? ` (e.g. ${facts.firstMissing})` : ''}`,
      facts.missing === 0 && facts.duplicateAnswers === 0,
    );
    // autocannon drops the requests in flight when a run ends: their transactions exist, unanswered. At most one per
    // connection per run (calibration: warm-up and measured run; soak: every wave), plus the errors' requests.
    const inFlightBound = (capacity.source === 'calibrated' ? 2 * S.calibrationConnections : 0) + S.waves * Math.ceil(S.soakConnections / S.waves) + errors;
    check(
      'Every transaction answers an accepted initiation, or one cut off when a load run ended',
      `≤ ${inFlightBound} unanswered`,
      `${facts.unanswered} unanswered${facts.firstUnanswered ? ` (e.g. merchant reference ${facts.firstUnanswered})` : ''}`,
      facts.unanswered <= inFlightBound,
    );
    check('Every transaction reached a final state', '0 unfinished', `${facts.unfinished} unfinished`, facts.unfinished === 0);
    check(
      'Every final transaction has its event',
      '0 without',
      `${facts.finalWithoutEvent} of ${facts.final} without${facts.firstFinalWithoutEvent ? ` (e.g. ${facts.firstFinalWithoutEvent})` : ''}`,
      facts.finalWithoutEvent === 0,
    );
    check(
      'Every event delivered, and received with a valid signature',
      `${facts.events} of ${facts.events}`,
      `${facts.events - facts.eventsNotReceived} received; ${facts.deliveriesNotDelivered} deliveries not delivered; ${unverified} bad signatures; ${duplicates} duplicates (allowed)` +
        (facts.firstNotReceived ? `; e.g. not received: ${facts.firstNotReceived}` : '') +
        (firstUnverified ? `; first bad signature: ${firstUnverified}` : ''),
      facts.eventsNotReceived === 0 && facts.deliveriesNotDelivered === 0 && unverified === 0 && facts.eventsWithoutDelivery === 0,
    );
    check(
      'No errors in the mixed load (non-2xx, GraphQL errors, connection errors, timeouts)',
      '0',
      `${errors} of ${minutes.reduce((a, x) => a + x.requests, 0)}`,
      errors === 0,
    );
    check('The other merchants are never rate-limited during the bursts', '0 × 429', `${limitedOthers} × 429`, limitedOthers === 0);
    check(
      'Every burst is refused in part (429), and never given more than the limit',
      `${bursts.length} of ${bursts.length} with 429s; ≤ ${lim.budget} per window`,
      `${bursts.filter((b) => b.limited > 0).length} of ${bursts.length} with 429s (${burst429} in all); ${overLimit} over the limit; ${burstOther} other answers; ` +
        `granted ${grantedPct.length ? `${Math.min(...grantedPct)}–${Math.max(...grantedPct)} %` : '—'} of the budget per burst`,
      bursts.length === 0 ? null : bursts.every((b) => b.limited > 0) && overLimit === 0 && burstOther === 0,
    );
    for (const t of trends)
      check(`${t.metric} stays flat`, `last third ≤ first third + ${t.limitPct} %${t.slack ? ` + ${t.slack}` : ''}`, trendValue(t), t.flat);
    check('Drained in time', `≤ ${opts.drainS} s`, `${drained ? '' : 'not '}drained in ${drainS} s`, drained);
    const verdict = checks.every((c) => c.met !== false) ? 'PASS' : 'FAIL';
    const finishedAt = new Date();
    machine.loadAverageAtEnd = os.loadavg().map((x) => round(x, 2)!);
    report = {
      version: 1,
      kind: 'soak',
      runId,
      startedAt: startedAt.toISOString(),
      finishedAt: finishedAt.toISOString(),
      totalS: round((finishedAt.getTime() - startedAt.getTime()) / 1000, 1)!,
      machine,
      settings: {
        ...S,
        minutes: opts.minutes,
        load: opts.load,
        merchants: opts.merchants,
        intervalS: opts.intervalS,
        burstEveryS: opts.burstEveryS,
        drainS: opts.drainS,
        weights: WEIGHTS,
        autovacuum: autovacuum ? `off on the server; the harness took its decisions (${autovacuumSummary(autovacuum.runs)})` : 'on',
      },
      capacity,
      targetRps: lim.target,
      rateLimit: { windowS: S.rateWindowS, merchantBudget: lim.budget, burstAmount: lim.burstAmount },
      minutes,
      bursts,
      trends,
      drain: { finished: drained, seconds: drainS, note: `${drained ? 'finished' : 'not finished'} in ${drainS} s: ${lastState}` },
      totals: {
        requests: minutes.reduce((a, x) => a + x.requests, 0),
        acceptedInitiations: facts.accepted,
        acceptedDuringSoak: acceptedTotal,
        transactions: facts.transactions,
        transactionsUnanswered: facts.unanswered,
        events: facts.events,
        webhooksReceived: receivedTotal,
        duplicates,
        badSignatures: unverified,
        errors,
        burst429,
        limitedOthers,
        rssPeakMb: round(rssPeak, 1)!,
      },
      checks,
      verdict,
      problems,
    };
  } catch (err) {
    log(`FAILED: ${(err as Error).stack ?? String(err)}`);
    problems.push((err as Error).message);
  } finally {
    clearTimeout(watchdog);
    await autovacuum?.stop().catch(() => {});
    await db?.end().catch(() => {});
    await stopAll(15_000);
    await receiver.close();
    await dropCreatedDatabases(log);
    if (!report || report.verdict === 'FAIL' || problems.length > 0) log(`logs and load configs kept in ${tmp}`);
    else fs.rmSync(tmp, { recursive: true, force: true });
  }
  if (!report) return 2;
  fs.mkdirSync(path.dirname(opts.out), { recursive: true });
  fs.writeFileSync(opts.out, `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(`\n${renderSoakMarkdown(report)}\n`);
  const failed = report.checks.filter((c) => c.met === false);
  process.stdout.write(`${report.verdict}${failed.length ? `: ${failed.map((c) => `${c.name} (${c.value})`).join('; ')}` : ''}\n`);
  log(`wrote ${opts.out} in ${report.totalS} s`);
  return report.verdict === 'PASS' ? 0 : 1;
}

// ---------------------------------------------------------------------------------------------
// Nothing lost

interface LostFacts {
  accepted: number;
  found: number;
  missing: number;
  firstMissing?: string;
  duplicateAnswers: number;
  /** Transactions whose initiation the load generator never saw answered (in flight when a run stopped). */
  unanswered: number;
  firstUnanswered?: string;
  transactions: number;
  unfinished: number;
  final: number;
  finalWithoutEvent: number;
  firstFinalWithoutEvent?: string;
  events: number;
  eventsWithoutDelivery: number;
  eventsNotReceived: number;
  firstNotReceived?: string;
  deliveriesNotDelivered: number;
}

async function verifyNothingLost(db: Client, acceptedPath: string, received: Set<string>): Promise<LostFacts> {
  const refs = new Set<string>();
  let duplicateAnswers = 0;
  const lines = readline.createInterface({ input: fs.createReadStream(acceptedPath) });
  for await (const line of lines) {
    const ref = line.split('\t')[2];
    if (!ref) continue;
    if (refs.has(ref)) duplicateAnswers++;
    else refs.add(ref);
  }
  // The accepted references in a temporary table: both directions are then one anti-join each.
  await db.query('create temp table soak_accepted (reference text primary key)');
  const all = [...refs];
  for (let i = 0; i < all.length; i += 10_000) {
    await db.query('insert into soak_accepted select unnest($1::text[])', [all.slice(i, i + 10_000)]);
  }
  const q = async (text: string) => (await db.query(text)).rows[0];
  const missing = await q(`
    select count(*)::int as n, min(a.reference) as example
      from soak_accepted a where not exists (select 1 from "transaction" t where t.reference = a.reference)`);
  const extra = await q(`
    select count(*)::int as n, min(t.external_reference) as example
      from "transaction" t where not exists (select 1 from soak_accepted a where a.reference = t.reference)`);
  await db.query('drop table soak_accepted');
  const found = refs.size - missing.n;
  const firstMissing: string | undefined = missing.example ?? undefined;
  const counts = await q(`
    select count(*)::int as transactions,
           count(*) filter (where status not in ('successful', 'failed', 'expired'))::int as unfinished,
           count(*) filter (where status in ('successful', 'failed', 'expired'))::int as final
      from "transaction"`);
  const noEvent = await q(`
    select count(*)::int as n, min(t.reference) as example
      from "transaction" t
     where t.status in ('successful', 'failed', 'expired')
       and not exists (select 1 from outbox_event e where e.subject_id = t.reference and e.type = t.kind || '.' || t.status)`);
  const events = await q(`
    select count(*)::int as events,
           count(*) filter (where d.event_id is null)::int as without_delivery,
           count(*) filter (where d.status is distinct from 'delivered' and d.event_id is not null)::int as not_delivered
      from outbox_event e left join webhook_delivery d on d.event_id = e.id`);
  let eventsNotReceived = 0;
  let firstNotReceived: string | undefined;
  const ids = (await db.query(`select id, type from outbox_event`)).rows as Array<{ id: string; type: string }>;
  for (const e of ids) {
    if (received.has(e.id)) continue;
    eventsNotReceived++;
    firstNotReceived ??= `${e.id} (${e.type})`;
  }
  return {
    accepted: refs.size + duplicateAnswers,
    found,
    missing: refs.size - found,
    ...(firstMissing ? { firstMissing } : {}),
    duplicateAnswers,
    unanswered: extra.n,
    ...(extra.example ? { firstUnanswered: extra.example } : {}),
    transactions: counts.transactions,
    unfinished: counts.unfinished,
    final: counts.final,
    finalWithoutEvent: noEvent.n,
    ...(noEvent.example ? { firstFinalWithoutEvent: noEvent.example } : {}),
    events: events.events,
    eventsWithoutDelivery: events.without_delivery,
    eventsNotReceived,
    ...(firstNotReceived ? { firstNotReceived } : {}),
    deliveriesNotDelivered: events.not_delivered,
  };
}

runHarness(main, log, 2);

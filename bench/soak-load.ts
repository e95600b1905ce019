/**
 * The soak's load generator (bench/soak.ts starts it): a separate process, so its CPU is
 * not the product's. A mixed load over several merchants with autocannon: mobile money
 * collections (a few that the sandbox fails), transfers, card payments charged at once,
 * REST status reads, GraphQL reads. Each request picks its kind by weight and its merchant
 * at random; reads ask for one of that merchant's own recent transactions.
 *
 * Two modes:
 *   calibrate  as fast as `connections` allow (a warm-up, then the measured run): capacity;
 *   soak       at `rate` requests per second in all, split over `waves` autocannon instances
 *              started 1/waves s apart (autocannon sends each connection's share of a second
 *              at the start of that second; staggering turns one wave per second into several),
 *              plus, every `burst.everyS`, a burst of `burst.amount` status reads for the burst
 *              merchant alone, above its rate limit.
 *
 * Every accepted initiation (2xx) is appended to `acceptedPath` as a line
 * "<merchant index>\t<kind>\t<service reference>\t<merchant reference>" (-1 for the burst merchant).
 *
 * Protocol (JSON lines on stdout; commands on stdin):
 *   → {"event":"tick", …}     every `intervalS` of the measured run (a SoakTick), and one for the remainder
 *   → {"event":"done", …}     after the last tick, then it exits
 *   ← {"tokens":[…],"burstToken":"…"}   fresh access tokens (the orchestrator re-issues them before they expire)
 * Usage: node dist/bench/soak-load.js <config.json>
 */
import fs from 'node:fs';
import readline from 'node:readline';
import autocannon from 'autocannon';
import { cardPaymentBody } from '../test/helpers/payments';
import { momoCollectionBody, transferBody } from '../test/helpers/transactions';
import { summarize, type Summary } from './lib/stats';

export const SOAK_KINDS = ['collection', 'collection-fail', 'transfer', 'payment', 'rest-get', 'gql-get', 'gql-list'] as const;
export type SoakKind = (typeof SOAK_KINDS)[number];
const INITIATIONS: ReadonlySet<SoakKind> = new Set(['collection', 'collection-fail', 'transfer', 'payment']);

export interface SoakLoadConfig {
  mode: 'calibrate' | 'soak';
  url: string;
  merchants: Array<{ token: string; customerUuid: string }>;
  /** Relative weights of the kinds (a missing kind: never). */
  weights: Partial<Record<SoakKind, number>>;
  connections: number;
  /** Calibrate: unmeasured seconds first. */
  warmupS: number;
  /** Measured seconds. */
  durationS: number;
  /** Soak: requests per second over all merchants. */
  rate?: number;
  waves: number;
  /** Seconds per tick. */
  intervalS: number;
  /** Unique per run and phase: the merchant references are `<refPrefix>-<merchant>-<n>`. */
  refPrefix: string;
  acceptedPath: string;
  burst?: {
    token: string;
    /** The burst merchant's own references (it reads them). */
    refs: string[];
    everyS: number;
    /** Seconds after the start of each period. */
    offsetS: number;
    amount: number;
    connections: number;
  };
}

export interface BurstResult {
  at: number;
  durationMs: number;
  sent: number;
  ok: number;
  limited: number;
  /** Anything else: a non-2xx other than 429, a connection error or a timeout. */
  other: number;
}

export interface SoakTick {
  event: 'tick';
  index: number;
  from: number;
  to: number;
  /** Responses to the mixed load in this tick. */
  requests: number;
  latency: Summary;
  byKind: Record<string, { requests: number; p99: number | null; errors: number }>;
  statusCodes: Record<string, number>;
  /** Mixed load: non-2xx (429 included: the other merchants must never see one), GraphQL errors, connection errors, timeouts. */
  errors: number;
  limited: number;
  graphqlErrors: number;
  connectionErrors: number;
  timeouts: number;
  accepted: number;
  bursts: BurstResult[];
  sampleErrors: string[];
}

const TRANSACTION_QUERY =
  'query Txn($reference: String!) { transaction(reference: $reference) { reference type status amount currency createdAt completedAt } }';
const LIST_QUERY = 'query List { transactions(first: 10) { edges { node { reference status } } pageInfo { hasNextPage endCursor } } }';
/** How many of its latest references each merchant keeps for its reads. */
const RECENT = 500;

function main() {
  const cfg = JSON.parse(fs.readFileSync(process.argv[2]!, 'utf8')) as SoakLoadConfig;
  const print = (o: object) => process.stdout.write(`${JSON.stringify(o)}\n`);
  const tokens = cfg.merchants.map((m) => m.token);
  let burstToken = cfg.burst?.token ?? '';
  const recent: string[][] = cfg.merchants.map(() => []);
  const recentNext = cfg.merchants.map(() => 0);
  const kinds = SOAK_KINDS.filter((k) => (cfg.weights[k] ?? 0) > 0);
  const cumulative: number[] = [];
  let total = 0;
  for (const k of kinds) cumulative.push((total += cfg.weights[k]!));
  let seq = 0;

  // Per tick
  let latencies: number[] = [];
  let byKindLatency = new Map<SoakKind, number[]>();
  let byKindErrors = new Map<SoakKind, number>();
  let statusCodes: Record<string, number> = {};
  let errors = 0;
  let limited = 0;
  let graphqlErrors = 0;
  let connectionErrors = 0;
  let timeouts = 0;
  let accepted = 0;
  let bursts: BurstResult[] = [];
  let sampleErrors: string[] = [];
  let acceptedLines: string[] = [];
  /** Whether the responses count (false during the calibration's warm-up; refs are always kept). */
  let measuring = cfg.warmupS <= 0;
  let lastKind: SoakKind = 'rest-get';

  const keepError = (kind: string, status: number, body: string) => {
    if (measuring && sampleErrors.length < 5) sampleErrors.push(`${kind} ${status} ${body.slice(0, 300)}`);
  };
  const pickKind = (): SoakKind => {
    const x = Math.random() * total;
    return kinds[cumulative.findIndex((c) => x < c)] ?? kinds[kinds.length - 1]!;
  };

  const mixed: autocannon.RequestSpec = {
    setupRequest: (req, context) => {
      const m = Math.floor(Math.random() * cfg.merchants.length);
      let kind = pickKind();
      const own = recent[m]!;
      if (!INITIATIONS.has(kind) && own.length === 0) kind = 'collection';
      context.kind = kind;
      context.m = m;
      const headers: Record<string, string> = { authorization: `Bearer ${tokens[m]}` };
      const customer = cfg.merchants[m]!.customerUuid;
      const reference = `${cfg.refPrefix}-${m}-${++seq}`;
      context.reference = reference;
      const post = (path: string, body: unknown) => ({
        ...req,
        method: 'POST',
        path,
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const ownRef = () => own[Math.floor(Math.random() * own.length)]!;
      switch (kind) {
        case 'collection':
          return post('/v1/crossborder/global-collection', momoCollectionBody(customer, { reference }));
        case 'collection-fail':
          // The sandbox fails a mobile money account ending in 000: collection.failed.
          return post('/v1/crossborder/global-collection', momoCollectionBody(customer, { reference, account_number: '254712345000' }));
        case 'transfer':
          return post('/v1/crossborder/global-transfer', transferBody(customer, { reference }));
        case 'payment':
          return post('/v1/payments/initiate', cardPaymentBody({ reference }));
        case 'rest-get':
          return { ...req, method: 'GET', path: `/v1/crossborder/global-transfer/${encodeURIComponent(ownRef())}`, headers, body: undefined };
        case 'gql-get':
          return post('/graphql', { query: TRANSACTION_QUERY, variables: { reference: ownRef() } });
        case 'gql-list':
          return post('/graphql', { query: LIST_QUERY });
      }
    },
    onResponse: (status, body, context) => {
      const kind = context.kind as SoakKind;
      lastKind = kind;
      const m = context.m as number;
      const ok = status >= 200 && status < 300;
      if (ok && INITIATIONS.has(kind)) {
        let ref: string | undefined;
        try {
          ref = JSON.parse(body)?.data?.reference;
        } catch {
          ref = undefined;
        }
        if (ref) {
          const own = recent[m]!;
          if (own.length < RECENT) own.push(ref);
          else own[recentNext[m]!++ % RECENT] = ref;
          acceptedLines.push(`${m}\t${kind}\t${ref}\t${String(context.reference)}`);
          accepted++;
        }
      }
      if (!measuring) return;
      if (!ok) {
        errors++;
        if (status === 429) limited++;
        byKindErrors.set(kind, (byKindErrors.get(kind) ?? 0) + 1);
        keepError(kind, status, body);
      } else if (kind.startsWith('gql') && body.includes('"errors"')) {
        errors++;
        graphqlErrors++;
        byKindErrors.set(kind, (byKindErrors.get(kind) ?? 0) + 1);
        keepError(kind, status, body);
      }
    },
  };

  const instances: autocannon.Instance[] = [];
  const stopAll = () => instances.forEach((i) => i.stop());
  const run = (opts: Partial<autocannon.Options>, requests: autocannon.RequestSpec[], onLatency?: (ms: number, status: number) => void) =>
    new Promise<autocannon.Result>((resolve, reject) => {
      const instance = autocannon({ url: cfg.url, connections: cfg.connections, requests, timeout: 30, ...opts }, (err, result) =>
        err ? reject(err) : resolve(result),
      );
      instances.push(instance);
      if (onLatency) {
        instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => onLatency(ms, status));
        // autocannon reports a timeout as an error whose message says so.
        instance.on('reqError', (err: Error) => {
          if (!measuring) return;
          if (err?.message === 'request timed out') timeouts++;
          else connectionErrors++;
        });
      }
    });
  const recordMixed = (ms: number, status: number) => {
    if (!measuring) return;
    latencies.push(ms);
    let arr = byKindLatency.get(lastKind);
    if (!arr) byKindLatency.set(lastKind, (arr = []));
    arr.push(ms);
    statusCodes[status] = (statusCodes[status] ?? 0) + 1;
  };

  const flushAccepted = () => {
    if (acceptedLines.length === 0) return;
    fs.appendFileSync(cfg.acceptedPath, `${acceptedLines.join('\n')}\n`);
    acceptedLines = [];
  };

  let tickIndex = 0;
  let tickFrom = Date.now();
  const tick = () => {
    const to = Date.now();
    flushAccepted();
    const byKind: SoakTick['byKind'] = {};
    for (const [k, arr] of byKindLatency) byKind[k] = { requests: arr.length, p99: summarize(arr).p99, errors: byKindErrors.get(k) ?? 0 };
    const out: SoakTick = {
      event: 'tick',
      index: tickIndex++,
      from: tickFrom,
      to,
      requests: latencies.length,
      latency: summarize(latencies),
      byKind,
      statusCodes,
      errors: errors + connectionErrors + timeouts,
      limited,
      graphqlErrors,
      connectionErrors,
      timeouts,
      accepted,
      bursts,
      sampleErrors,
    };
    print(out);
    tickFrom = to;
    latencies = [];
    byKindLatency = new Map();
    byKindErrors = new Map();
    statusCodes = {};
    errors = limited = graphqlErrors = connectionErrors = timeouts = accepted = 0;
    bursts = [];
    sampleErrors = [];
  };

  // Fresh tokens from the orchestrator, whenever it sends them.
  readline.createInterface({ input: process.stdin }).on('line', (line) => {
    try {
      const msg = JSON.parse(line) as { tokens?: string[]; burstToken?: string };
      if (Array.isArray(msg.tokens) && msg.tokens.length === tokens.length) msg.tokens.forEach((t, i) => (tokens[i] = t));
      if (msg.burstToken) burstToken = msg.burstToken;
    } catch {
      // not a command
    }
  });

  const burstOnce = async (b: NonNullable<SoakLoadConfig['burst']>) => {
    const started = Date.now();
    const r: BurstResult = { at: started, durationMs: 0, sent: 0, ok: 0, limited: 0, other: 0 };
    const read: autocannon.RequestSpec = {
      setupRequest: (req) => ({
        ...req,
        method: 'GET',
        path: `/v1/crossborder/global-transfer/${encodeURIComponent(b.refs[Math.floor(Math.random() * b.refs.length)]!)}`,
        headers: { authorization: `Bearer ${burstToken}` },
      }),
    };
    const result = await run({ connections: b.connections, maxOverallRequests: b.amount, duration: Math.max(5, b.everyS - 5) }, [read]);
    for (const [code, { count }] of Object.entries(result.statusCodeStats ?? {})) {
      const n = Number(count);
      r.sent += n;
      if (code.startsWith('2')) r.ok += n;
      else if (code === '429') r.limited += n;
      else r.other += n;
    }
    r.other += result.errors; // timeouts included
    r.durationMs = Date.now() - started;
    bursts.push(r);
  };

  return (async () => {
    if (cfg.mode === 'calibrate') {
      if (cfg.warmupS > 0) await run({ duration: cfg.warmupS }, [mixed], recordMixed);
      measuring = true;
      tickFrom = Date.now();
      await run({ duration: cfg.durationS }, [mixed], recordMixed);
      tick();
      print({ event: 'done' });
      return;
    }
    measuring = true;
    const startedAt = Date.now();
    tickFrom = startedAt;
    const endAt = startedAt + cfg.durationS * 1000;
    // The last tick is written once the load has ended, so it covers the whole last interval.
    const ticker = setInterval(() => endAt - Date.now() > cfg.intervalS * 500 && tick(), cfg.intervalS * 1000);
    const waves = Math.max(1, cfg.waves);
    const rate = cfg.rate ?? 0;
    const loads: Promise<unknown>[] = [];
    for (let w = 0; w < waves; w++) {
      const share = Math.floor(rate / waves) + (w < rate % waves ? 1 : 0);
      const connections = Math.max(1, Math.ceil(cfg.connections / waves));
      const delay = Math.round((w * 1000) / waves);
      loads.push(
        new Promise((resolve) => setTimeout(resolve, delay)).then(() =>
          run({ connections, duration: Math.max(1, (endAt - Date.now()) / 1000), ...(share > 0 ? { overallRate: share } : {}) }, [mixed], recordMixed),
        ),
      );
    }
    // Bursts: one per period, at its offset, while the load runs (a fixed number, bounded by the run's length).
    const burstLoop = (async () => {
      const b = cfg.burst;
      if (!b || b.amount <= 0) return;
      for (let k = 0; ; k++) {
        const at = startedAt + (k * b.everyS + b.offsetS) * 1000;
        if (at + 1000 > endAt) return;
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())));
        await burstOnce(b);
      }
    })();
    process.on('SIGTERM', () => {
      stopAll();
      process.exit(0);
    });
    await Promise.all([...loads, burstLoop]);
    clearInterval(ticker);
    if (Date.now() - tickFrom > 1000 || latencies.length > 0) tick();
    flushAccepted();
    print({ event: 'done' });
  })();
}

main()
  .then(() => process.exit(0))
  .catch((err) => {
    process.stderr.write(`soak load generator failed: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  });

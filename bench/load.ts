/**
 * The load generator: a separate process, so its CPU is not the server's. It runs
 * one scenario with autocannon (a warm-up, then the measured run) and prints JSON
 * lines on stdout for the orchestrator:
 *   {"event":"measure-start","at":<epoch ms>}   just before the measured run
 *   {"event":"result", …}                       the measured figures, then it exits
 * Usage: node dist/bench/load.js <config.json>   (see LoadConfig)
 */
import fs from 'node:fs';
import autocannon from 'autocannon';
import { cardPaymentBody } from '../test/helpers/payments';
import { momoCollectionBody, momoCollectionInput, transferBody } from '../test/helpers/transactions';
import { summarize, type Summary } from './lib/stats';

export type LoadKind =
  | 'rest-init'
  | 'rest-init-idem'
  | 'gql-init'
  | 'rest-pay'
  | 'checkout-create'
  | 'rest-transfer'
  | 'rest-get'
  | 'gql-get'
  | 'token'
  | 'base-insert'
  | 'base-get'
  | 'floor-init';

export interface LoadConfig {
  kind: LoadKind;
  /** Base URL of the server, e.g. http://127.0.0.1:4000 */
  url: string;
  connections: number;
  /** Measured seconds (ignored when `amount` is set). */
  durationS: number;
  /** Unmeasured seconds first (0: none). */
  warmupS: number;
  /** A fixed number of requests instead of a duration (the lifecycle scenario). */
  amount?: number;
  /** With `amount`: stop after this many seconds even if not all were sent (the result says how many were). */
  maxDurationS?: number;
  token?: string;
  customerUuid?: string;
  merchantId?: string;
  clientId?: string;
  clientSecret?: string;
  /** Read scenarios: a JSON file with the references to read (picked at random). */
  refsIn?: string;
  /** Initiation scenarios: where to write (as JSON) the references the server returned. */
  refsOut?: string;
  /** Prefix of the merchant references this run sends; must be unique per run and scenario. */
  refPrefix: string;
  maxRefs?: number;
}

export interface LoadResult {
  event: 'result';
  kind: LoadKind;
  /** Responses received in the measured run. */
  requests: number;
  durationS: number;
  rps: number;
  /** Latency of every measured response (ms), computed from autocannon's per-response times. */
  latency: Summary;
  statusCodes: Record<string, number>;
  non2xx: number;
  /** Connection errors and timeouts. */
  connectionErrors: number;
  timeouts: number;
  /** 200 responses that carried GraphQL errors. */
  graphqlErrors: number;
  /** non2xx + connection errors + GraphQL errors. */
  errors: number;
  startedAt: number;
  finishedAt: number;
  warmupRequests: number;
  refsCollected: number;
  sampleErrorBody?: string;
}

const INIT_MUTATION =
  'mutation Init($input: InitiateCollectionInput!) { initiateCollection(input: $input) { reference externalReference status amount currency } }';
const TRANSACTION_QUERY =
  'query Txn($reference: String!) { transaction(reference: $reference) { reference externalReference type status failureReason customerUuid accountType countryCode channelId networkId dialCode reason providerReference amount currency createdAt updatedAt completedAt } }';

function main() {
  const cfg = JSON.parse(fs.readFileSync(process.argv[2]!, 'utf8')) as LoadConfig;
  const maxRefs = cfg.maxRefs ?? 20_000;
  const refs: string[] = [];
  const readRefs: string[] = cfg.refsIn ? (JSON.parse(fs.readFileSync(cfg.refsIn, 'utf8')) as string[]) : [];
  if ((cfg.kind === 'rest-get' || cfg.kind === 'gql-get' || cfg.kind === 'base-get') && readRefs.length === 0) {
    throw new Error(`${cfg.kind} needs references to read (refsIn)`);
  }
  let seq = 0;
  let lastResponseAt = 0;
  let graphqlErrors = 0;
  let sampleErrorBody: string | undefined;
  const nextRef = () => `${cfg.refPrefix}-${++seq}`;
  const randomRef = () => readRefs[Math.floor(Math.random() * readRefs.length)]!;

  const momo = (reference: string) => momoCollectionBody(cfg.customerUuid ?? '', { reference });

  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (cfg.token) headers.authorization = `Bearer ${cfg.token}`;
  if (cfg.merchantId) headers['x-merchant-id'] = cfg.merchantId;

  const keepError = (status: number, body: string) => {
    if (sampleErrorBody === undefined) sampleErrorBody = `${status} ${body.slice(0, 300)}`;
  };
  /** Records the server's reference from an initiation answer (`pick` finds it in the parsed body). */
  const collect = (status: number, body: string, pick: (json: any) => string | undefined, graphql: boolean) => {
    if (graphql && status === 200 && body.includes('"errors"')) {
      graphqlErrors++;
      keepError(status, body);
      return;
    }
    if (status < 200 || status >= 300) return keepError(status, body);
    if (refs.length >= maxRefs) return;
    try {
      const ref = pick(JSON.parse(body));
      if (ref) refs.push(ref);
    } catch {
      // not JSON: counted by the status code alone
    }
  };
  const checkGraphql = (status: number, body: string) => {
    if (status === 200 && body.includes('"errors"')) {
      graphqlErrors++;
      keepError(status, body);
    } else if (status < 200 || status >= 300) keepError(status, body);
  };
  const checkRest = (status: number, body: string) => {
    if (status < 200 || status >= 300) keepError(status, body);
  };

  let request: autocannon.RequestSpec;
  switch (cfg.kind) {
    case 'rest-init':
      request = {
        method: 'POST',
        path: '/v1/crossborder/global-collection',
        setupRequest: (req) => ({ ...req, body: JSON.stringify(momo(nextRef())) }),
        onResponse: (status, body) => collect(status, body, (j) => j?.data?.reference, false),
      };
      break;
    case 'floor-init':
      // The engine floor: the same body, the product's statements and nothing else.
      request = {
        method: 'POST',
        path: '/floor/v1/crossborder/global-collection',
        setupRequest: (req) => ({ ...req, body: JSON.stringify(momo(nextRef())) }),
        onResponse: checkRest,
      };
      break;
    case 'rest-init-idem':
      // The same collection with a fresh Idempotency-Key on each request: a new claim, then its answer stored.
      request = {
        method: 'POST',
        path: '/v1/crossborder/global-collection',
        setupRequest: (req) => {
          const reference = nextRef();
          return { ...req, headers: { ...req.headers, 'idempotency-key': `idem-${reference}` }, body: JSON.stringify(momo(reference)) };
        },
        onResponse: (status, body) => collect(status, body, (j) => j?.data?.reference, false),
      };
      break;
    case 'gql-init':
      request = {
        method: 'POST',
        path: '/graphql',
        setupRequest: (req) => ({
          ...req,
          body: JSON.stringify({ query: INIT_MUTATION, variables: { input: momoCollectionInput(cfg.customerUuid ?? '', { reference: nextRef() }) } }),
        }),
        onResponse: (status, body) => collect(status, body, (j) => j?.data?.initiateCollection?.reference, true),
      };
      break;
    case 'rest-pay':
      request = {
        method: 'POST',
        path: '/v1/payments/initiate',
        setupRequest: (req) => ({ ...req, body: JSON.stringify(cardPaymentBody({ reference: nextRef() })) }),
        onResponse: (status, body) => collect(status, body, (j) => j?.data?.reference, false),
      };
      break;
    case 'checkout-create':
      // A hosted checkout session (issue 37): one INSERT, no job, no event.
      request = {
        method: 'POST',
        path: '/v1/checkout/sessions',
        setupRequest: (req) => ({
          ...req,
          body: JSON.stringify({
            amount: '2500.00',
            currency: 'NGN',
            reference: nextRef(),
            customer: { email: 'payer@example.com' },
            redirect_url: 'https://shop.example/orders/1',
          }),
        }),
        onResponse: checkRest,
      };
      break;
    case 'rest-transfer':
      // One merchant's transfers: each reserves amount + fee from the same available balance (a hot account).
      request = {
        method: 'POST',
        path: '/v1/crossborder/global-transfer',
        setupRequest: (req) => ({ ...req, body: JSON.stringify(transferBody(cfg.customerUuid ?? '', { reference: nextRef() })) }),
        onResponse: (status, body) => collect(status, body, (j) => j?.data?.reference, false),
      };
      break;
    case 'rest-get':
      request = {
        method: 'GET',
        setupRequest: (req) => ({ ...req, path: `/v1/crossborder/global-transfer/${encodeURIComponent(randomRef())}` }),
        onResponse: checkRest,
      };
      break;
    case 'gql-get':
      request = {
        method: 'POST',
        path: '/graphql',
        setupRequest: (req) => ({ ...req, body: JSON.stringify({ query: TRANSACTION_QUERY, variables: { reference: randomRef() } }) }),
        onResponse: checkGraphql,
      };
      break;
    case 'token':
      request = {
        method: 'POST',
        path: '/v1/oauth/token',
        body: JSON.stringify({ grant_type: 'client_credentials', client_id: cfg.clientId, client_secret: cfg.clientSecret }),
        onResponse: checkRest,
      };
      break;
    case 'base-insert':
      request = {
        method: 'POST',
        path: '/baseline/collections',
        setupRequest: (req) => ({ ...req, body: JSON.stringify(momo(nextRef())) }),
        onResponse: (status, body) => collect(status, body, (j) => j?.data?.reference, false),
      };
      break;
    case 'base-get':
      request = {
        method: 'GET',
        setupRequest: (req) => ({ ...req, path: `/baseline/collections/${encodeURIComponent(randomRef())}` }),
        onResponse: checkRest,
      };
      break;
    default:
      throw new Error(`unknown load kind ${String(cfg.kind)}`);
  }

  const run = (opts: { duration?: number; amount?: number; maxOverallRequests?: number }, latencies?: number[]) =>
    new Promise<autocannon.Result>((resolve, reject) => {
      const instance = autocannon({ url: cfg.url, connections: cfg.connections, headers, requests: [request], timeout: 30, ...opts }, (err, result) =>
        err ? reject(err) : resolve(result),
      );
      if (latencies) {
        instance.on('response', (_client: unknown, _status: number, _bytes: number, ms: number) => {
          latencies.push(ms);
          lastResponseAt = Date.now();
        });
      }
    });

  return (async () => {
    let warmupRequests = 0;
    if (cfg.warmupS > 0 && cfg.amount === undefined) {
      const warm = await run({ duration: cfg.warmupS });
      warmupRequests = warm.requests.total;
    }
    graphqlErrors = 0;
    sampleErrorBody = undefined;
    const latencies: number[] = [];
    process.stdout.write(`${JSON.stringify({ event: 'measure-start', at: Date.now() })}\n`);
    const startedAt = Date.now();
    // A fixed number of requests, bounded in time when maxDurationS is given (autocannon stops at
    // whichever comes first); otherwise a fixed duration.
    const measured =
      cfg.amount === undefined
        ? { duration: cfg.durationS }
        : cfg.maxDurationS
          ? { maxOverallRequests: cfg.amount, duration: cfg.maxDurationS }
          : { amount: cfg.amount };
    const result = await run(measured, latencies);
    const finishedAt = Date.now();
    const statusCodes: Record<string, number> = {};
    for (const [code, { count }] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = Number(count);
    const requests = Object.values(statusCodes).reduce((a, b) => a + b, 0);
    // A fixed amount: the time to the last answer (autocannon notices the end only at its next 1 s tick).
    const durationS = cfg.amount !== undefined ? (Math.max(lastResponseAt, startedAt + 1) - startedAt) / 1000 : result.duration;
    if (cfg.refsOut) fs.writeFileSync(cfg.refsOut, JSON.stringify(refs));
    const out: LoadResult = {
      event: 'result',
      kind: cfg.kind,
      requests,
      durationS,
      rps: Math.round((requests / durationS) * 10) / 10,
      latency: summarize(latencies),
      statusCodes,
      non2xx: result.non2xx,
      connectionErrors: result.errors,
      timeouts: result.timeouts,
      graphqlErrors,
      errors: result.non2xx + result.errors + graphqlErrors,
      startedAt: new Date(result.start).getTime() || startedAt,
      finishedAt,
      warmupRequests,
      refsCollected: refs.length,
      ...(sampleErrorBody ? { sampleErrorBody } : {}),
    };
    process.stdout.write(`${JSON.stringify(out)}\n`);
  })();
}

main()
  .then(() => process.exit(0))
  .catch((err) => {
    process.stderr.write(`load generator failed: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  });

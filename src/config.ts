import { createHash } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import currenciesFile from './modules/reference/data/currencies.json';
import { FAULT_POINTS, type FaultPoint } from './shared/faults';
import type { BreakerSettings } from './providers/breaker';
import { PROVIDER_VARIABLES, anyProviderConfigured, configureProviders, type ProviderSettings } from './providers/registry';
import { ConfigurationError, DOCS, ProblemList, docFor, problemOfIssue, type ConfigProblem, type ReportProblem } from './shared/config-problems';

/** Sandbox (test data, simulations) or production (live traffic). */
export const PAYMENTS_ENVS = ['sandbox', 'production'] as const;

/**
 * Typed configuration. This is the only module that reads process.env; everything
 * else receives a Config. Secrets that are not given are resolved later by
 * `resolveKeys` (sandbox only), never defaulted to a constant here.
 */
const emptyToUndefined = (v: unknown) => (v === '' ? undefined : v);
const optionalString = z.preprocess(emptyToUndefined, z.string().optional());
const intWithDefault = (def: number, min = 0) => z.preprocess(emptyToUndefined, z.coerce.number().int().min(min).default(def));

/** SMTP_URL's shape (nodemailer reads the rest: credentials, port, query options). */
function isSmtpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'smtp:' || url.protocol === 'smtps:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** `address` or `Display Name <address>`, on one line (a line break would start a header of its own). */
const MAIL_FROM_PATTERN = /^(?:[^\r\n<>]*<[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/;

/** The sandbox's sender when MAIL_FROM is unset (production requires MAIL_FROM with SMTP_URL). */
export const SANDBOX_MAIL_FROM = 'Payments Gateway <no-reply@localhost>';

const envSchema = z.object({
  PAYMENTS_ENV: z.preprocess(emptyToUndefined, z.enum(PAYMENTS_ENVS).default('sandbox')),
  PORT: intWithDefault(4000),
  HOST: z.preprocess(emptyToUndefined, z.string().default('127.0.0.1')),
  DATABASE_URL: optionalString,
  DATA_DIR: z.preprocess(emptyToUndefined, z.string().default('./.data')),
  EMBEDDED_DB_PORT: intWithDefault(0),
  REDIS_URL: optionalString,
  ADMIN_API_KEY: optionalString,
  /** Production on the embedded PGlite (one process, no replicas, no backups of its own): refused unless this is 1. */
  ALLOW_EMBEDDED_DATABASE: z.preprocess(emptyToUndefined, z.enum(['0', '1']).default('0')),
  METRICS_TOKEN: z.preprocess(emptyToUndefined, z.string().min(16, 'must be at least 16 characters').optional()),
  TOKEN_SIGNING_KEY: optionalString,
  ENCRYPTION_KEY: optionalString,
  LOG_LEVEL: z.preprocess(emptyToUndefined, z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info')),
  BODY_LIMIT_BYTES: intWithDefault(1_048_576, 1024),
  TOKEN_REVOCATION_POLL_MS: intWithDefault(2000, 100),
  DB_POOL_MAX: intWithDefault(10, 2),
  SANDBOX_KYC_DELAY_MS: intWithDefault(2000),
  SANDBOX_SETTLE_MS: intWithDefault(3000),
  /** Sandbox: every new merchant's opening balance per currency, in major units (0: none). */
  SANDBOX_OPENING_BALANCE: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^\d{1,12}$/, 'must be a whole number of major units')
      .default('1000000'),
  ),
  /** How long a settled collection's or payment's net stays pending before it is available (default 0 in the sandbox, 1 day in production). */
  SETTLEMENT_DELAY_S: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number()
      .int()
      .min(0)
      .max(30 * 86400)
      .optional(),
  ),
  /** Default fees, percent per kind: `collection:1,transfer:1,payment:1.5` (a merchant's own schedule overrides them). */
  FEE_DEFAULTS: z.preprocess(emptyToUndefined, z.string().default('')),
  /** Payout minimums per currency, over the defaults: `NGN:100,KES:500` (issue 38; docs/payouts.md). */
  PAYOUT_MINIMUMS: z.preprocess(emptyToUndefined, z.string().default('')),
  /** How often the books are verified in the background (0: never). */
  LEDGER_VERIFY_INTERVAL_S: intWithDefault(60),
  /** How often due payout windows are paid (issue 38; 0: never, payouts are then manual only). */
  PAYOUT_RUN_INTERVAL_S: intWithDefault(60),
  /** How often the dispute sweep runs: reminders, deadlines, provider polls (issue 39; 0: never). */
  DISPUTE_SWEEP_INTERVAL_S: intWithDefault(60),
  /** How long webhook events, their deliveries and attempts are kept (issue 40; at least 1 day). */
  EVENT_RETENTION_DAYS: intWithDefault(30, 1),
  /** How long a job that spent every attempt is kept for an operator to read (issue 40; at least 1 day). */
  FAILED_JOB_RETENTION_DAYS: intWithDefault(30, 1),
  COLLECTION_TTL_S: intWithDefault(86400, 1),
  PAYMENT_ACTION_TTL_S: intWithDefault(900, 1),
  PUBLIC_BASE_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      // An origin only: the service's paths start at /v1 and /graphql.
      .regex(/^https?:\/\/[^/?#\s]+\/?$/, 'must be an http(s) origin without a path, e.g. https://pay.example.com')
      .transform((u) => u.replace(/\/+$/, ''))
      .optional(),
  ),
  WEBHOOK_RETRY_SCHEDULE: z.preprocess(emptyToUndefined, z.string().default('5s,30s,2m,10m,30m,1h,2h,4h,8h,12h')),
  WEBHOOK_TIMEOUT_MS: intWithDefault(10_000, 100),
  JOB_CONCURRENCY: intWithDefault(16, 1),
  WEBHOOK_CONCURRENCY: intWithDefault(64, 1),
  WEBHOOK_ENDPOINT_CONCURRENCY: intWithDefault(16, 1),
  WEBHOOK_SLOW_ENDPOINT_CONCURRENCY: intWithDefault(2, 1),
  WEBHOOK_SLOW_MS: intWithDefault(1000, 1),
  WEBHOOK_CIRCUIT_FAILURES: intWithDefault(5, 1),
  WEBHOOK_CIRCUIT_OPEN_S: intWithDefault(30, 1),
  WEBHOOK_CIRCUIT_MAX_OPEN_S: intWithDefault(3600, 1),
  WEBHOOK_TEST_EVENTS_PER_MINUTE: intWithDefault(10, 1),
  JOB_HEARTBEAT_MS: intWithDefault(5000, 100),
  RECONCILE_AFTER_MS: intWithDefault(10_000, 100),
  FAULT_INJECT: z.preprocess(emptyToUndefined, z.enum(FAULT_POINTS).optional()),
  MAX_SOCKETS_PER_MERCHANT: intWithDefault(20, 1),
  GRAPHQL_MAX_DEPTH: intWithDefault(10, 2),
  GRAPHQL_MAX_ALIASES: intWithDefault(15, 1),
  GRAPHQL_MAX_COST: intWithDefault(30000, 100),
  GRAPHQL_MAX_TOKENS: intWithDefault(2000, 200),
  GRAPHQL_MAX_DIRECTIVES: intWithDefault(50, 1),
  JOB_POLL_INTERVAL_MS: intWithDefault(500, 20),
  SHUTDOWN_TIMEOUT_MS: intWithDefault(30_000, 1000),
  REQUEST_TIMEOUT_MS: intWithDefault(30_000, 1000),
  HEADERS_TIMEOUT_MS: intWithDefault(10_000, 1000),
  KEEP_ALIVE_TIMEOUT_MS: intWithDefault(10_000, 1000),
  RATE_LIMIT_WINDOW_S: intWithDefault(60, 1),
  RATE_LIMIT_MERCHANT: intWithDefault(6000),
  RATE_LIMIT_TOKEN_CLIENT: intWithDefault(1000),
  RATE_LIMIT_TOKEN_IP: intWithDefault(300),
  RATE_LIMIT_CHECKOUT_IP: intWithDefault(60),
  RATE_LIMIT_TOKEN_FAILURES: intWithDefault(10),
  RATE_LIMIT_TOKEN_IP_FAILURES: intWithDefault(60),
  RATE_LIMIT_ADMIN: intWithDefault(120),
  RATE_LIMIT_ADMIN_FAILURES: intWithDefault(30),
  /** What this deployment's rate-limit keys start with in Redis; default: the database's name (rateLimitPrefix). */
  RATE_LIMIT_PREFIX: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[\x21-\x7e]{1,100}$/, 'must be 1 to 100 printable ASCII characters without spaces')
      .optional(),
  ),
  RATE_LIMIT_GRAPHQL_COST_UNIT: intWithDefault(50, 1),
  RATE_LIMIT_STREAM_ROWS_PER_POINT: intWithDefault(100, 1),
  RATE_LIMIT_STREAMS_PER_MERCHANT: intWithDefault(2, 1),
  /** Routing rules over the reference table: `GH/momo/MTN/collection=mtn_momo;KE/momo/MPESA/transfer=mpesa,sandbox` (docs/providers.md). */
  PROVIDER_ROUTES: z.preprocess(emptyToUndefined, z.string().default('')),
  PROVIDER_TIMEOUT_MS: intWithDefault(8_000, 100),
  PROVIDER_BREAKER_VOLUME: intWithDefault(5, 1),
  PROVIDER_BREAKER_ERROR_PERCENT: intWithDefault(50, 1),
  PROVIDER_BREAKER_RESET_MS: intWithDefault(30_000, 10),
  PROVIDER_BREAKER_WINDOW_MS: intWithDefault(60_000, 1000),
  /** Delays between status queries of a transaction a provider has not decided (the last one repeats). */
  PROVIDER_POLL_SCHEDULE: z.preprocess(emptyToUndefined, z.string().default('15s,30s,1m,2m,5m,10m,30m,1h')),
  /** Each provider's own variables, declared in its folder (src/providers/<name>/index.ts). */
  ...PROVIDER_VARIABLES,
  /** Where mail is sent: `smtps://user:password@smtp.example.com` (or smtp://, STARTTLS); unset in the sandbox: mail goes to the log. */
  SMTP_URL: z.preprocess(
    emptyToUndefined,
    // The value holds a password: no message here quotes it.
    z
      .string()
      .refine(isSmtpUrl, 'must be an smtp:// or smtps:// URL with a host, e.g. smtps://user:password@smtp.example.com (percent-encode @ : / in the password)')
      .optional(),
  ),
  /** The From of every message: `Payments Gateway <no-reply@pay.example.com>` or a bare address. */
  MAIL_FROM: z.preprocess(
    emptyToUndefined,
    z.string().regex(MAIL_FROM_PATTERN, 'must be an address or `Name <address>`, e.g. Payments Gateway <no-reply@pay.example.com>').optional(),
  ),
  /** Self-serve sign-up (POST /dashboard/sign-up): on by default in the sandbox, off in production unless `true`. */
  SIGNUP_ENABLED: z.preprocess(emptyToUndefined, z.enum(['true', 'false']).optional()),
  /** The daily reconciliation with the providers (docs/reconciliation.md): on unless `false`. */
  RECONCILIATION_ENABLED: z.preprocess(emptyToUndefined, z.enum(['true', 'false']).optional()),
  /** S3-compatible storage for dispute evidence files (all of region, bucket and keys, or none: files stay in PostgreSQL). */
  S3_ENDPOINT: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^https?:\/\/[^/?#\s]+\/?$/, 'must be an http(s) origin without a path, e.g. https://s3.eu-west-1.amazonaws.com or http://127.0.0.1:9000')
      .transform((u) => u.replace(/\/+$/, ''))
      .optional(),
  ),
  S3_REGION: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[a-z0-9-]{1,64}$/, 'must be a region name, e.g. eu-west-1 or us-east-1')
      .optional(),
  ),
  S3_BUCKET: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a bucket name (3 to 63 of a-z 0-9 . -)')
      .optional(),
  ),
  S3_ACCESS_KEY_ID: optionalString,
  // A secret: no message here quotes it.
  S3_SECRET_ACCESS_KEY: optionalString,
  S3_FORCE_PATH_STYLE: z.preprocess(emptyToUndefined, z.enum(['true', 'false']).optional()),
  TRUST_PROXY: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^(true|false|\d{1,2}|[0-9A-Fa-f.:/]+(,[0-9A-Fa-f.:/]+)*)$/, 'must be true, false, a hop count, or a comma-separated list of addresses/CIDRs')
      .optional(),
  ),
});

export type PaymentsEnv = (typeof PAYMENTS_ENVS)[number];

/**
 * The budgets, each counted in a fixed window of `windowS` seconds:
 * - merchant: every authenticated REST request (1 point) and GraphQL operation (its cost, in units); a statement or
 *   the transaction export also costs a point per `streamRowsPerPoint` rows it holds (at most half the budget);
 * - tokenIp: every attempt at /v1/oauth/token and /v1/oauth/revoke, by address, before the body is read;
 * - tokenFailures: failed attempts (wrong secret, unknown client, bad refresh token) by client_id and
 *   address: spent, that address is refused for that client_id, and for no other address;
 * - tokenIpFailures: failed attempts by address, whatever client_id they name (credential stuffing);
 * - tokenClient: failed attempts by client_id from every address, a looser ceiling against a
 *   distributed attack: spent, a failing attempt is answered 429 rather than 401 and the attack is
 *   logged, but the right secret still gets a token, so a stranger can never lock a merchant out;
 * - admin: requests to /v1/admin/* with the right key, by address;
 * - adminFailures: requests to /v1/admin/* with a wrong or missing key, by address: spent, a wrong
 *   key is answered 429 rather than 401, and the right key from that address still works.
 * - checkoutIp: submissions on the public checkout pages (a payment attempt, a cancel, a payment link
 *   opening a session), by address: a payer needs a few; a script opening sessions by the thousand is stopped.
 * A budget of 0 turns that limit off. Every key starts with `prefix` (RATE_LIMIT_PREFIX, else the
 * database's name), so deployments sharing one Redis never share a budget.
 */
export interface RateLimitConfig {
  windowS: number;
  /** What the keys start with (`rl:<prefix>:<budget>:<key>`). */
  prefix: string;
  merchant: number;
  tokenClient: number;
  tokenIp: number;
  tokenFailures: number;
  tokenIpFailures: number;
  admin: number;
  adminFailures: number;
  checkoutIp: number;
  /** GraphQL cost per point of the merchant budget: an operation costing up to this counts as one request. */
  graphqlCostUnit: number;
  /** Rows of a streamed file (a statement, the transaction export) per point of the merchant budget, charged before the first byte. */
  streamRowsPerPoint: number;
  /** Statements and exports one merchant may have streaming at once (across instances with Redis); one more is 429. */
  streamsPerMerchant: number;
}

/** Provider connectors: routing, timeouts, breakers and polling, and each provider's settings under its key (null: not configured). */
type ConnectorsConfig = ProviderSettings & {
  /** PROVIDER_ROUTES, parsed by the routing table. */
  routes: string;
  /** Every call to a provider is aborted after this long (its outcome is then unknown, and asked for later). */
  timeoutMs: number;
  breaker: BreakerSettings;
  pollSchedule: string;
};

/** How webhook deliveries share capacity: their own senders (not jobs), a cap per endpoint, a circuit per endpoint. */
export interface WebhookCapacityConfig {
  /** Deliveries one instance makes at once, by its own senders (WebhookPump: never settlement's job slots). */
  senders: number;
  /** Deliveries in flight to one merchant's endpoint at once, across every instance, while it answers promptly; the rest wait. */
  perEndpoint: number;
  /** The same for an endpoint not known to be prompt: new, slow or silent lately, or with an attempt in flight longer than `slowMs`. */
  slowPerEndpoint: number;
  slowMs: number;
  /** Consecutive unanswered attempts (timeout, refused connection) that open an endpoint's circuit. */
  circuitFailures: number;
  /** How long a circuit first stays open; each reopening doubles it, up to `circuitMaxOpenS`. */
  circuitOpenS: number;
  circuitMaxOpenS: number;
  /** `webhook.test` events one merchant may send per minute. */
  testEventsPerMinute: number;
}

/** S3-compatible object storage for dispute evidence files (docs/operations.md, *Dispute evidence files*). */
export interface S3Config {
  /** S3_ENDPOINT: another store than AWS S3 (MinIO, R2, …); unset: AWS S3 of the region. */
  endpoint?: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  /** Handed to the SDK only, never logged. */
  secretAccessKey: string;
  /** `http://host/bucket/key` rather than `http://bucket.host/key` (most stores other than AWS need it). */
  forcePathStyle: boolean;
}

export interface Config {
  env: PaymentsEnv;
  /** PAYMENTS_ENV was set (not left to its default): a tool that takes the environment from the database refuses only a said one. */
  envExplicit: boolean;
  port: number;
  host: string;
  /** Unset: an embedded PGlite is started under dataDir. */
  databaseUrl?: string;
  dataDir: string;
  embeddedDbPort: number;
  redisUrl?: string;
  adminApiKey?: string;
  /** ALLOW_EMBEDDED_DATABASE=1: production may run on the embedded PGlite. */
  allowEmbeddedDatabase: boolean;
  /**
   * Bearer token for GET /metrics. Unset: /metrics is open in the sandbox and absent (404) in
   * production, which opts in by setting one.
   */
  metricsToken?: string;
  /** Raw secrets as given; resolveKeys turns them into key material. */
  tokenSigningKey?: string;
  encryptionKey?: string;
  logLevel: string;
  bodyLimitBytes: number;
  tokenRevocationPollMs: number;
  dbPoolMax: number;
  /** Sandbox: how long the KYC reviewer takes to decide a submission. */
  sandboxKycDelayMs: number;
  /** Sandbox: how long after initiation a mobile money collection or a transfer is decided. */
  sandboxSettleMs: number;
  /** How long a bank collection waits for the sender's payment before it expires. */
  collectionTtlS: number;
  /** Sandbox: each new merchant's opening balance per currency, in major units (0: none). */
  sandboxOpeningBalance: string;
  /** How long a settled collection's or payment's net stays pending before it is available. */
  settlementDelayS: number;
  /** Default fee percent per kind (FEE_DEFAULTS). */
  feeDefaults: string;
  /** The least a payout may be, per currency, in major units as a decimal string (PAYOUT_MINIMUMS over the defaults). */
  payoutMinimums: Readonly<Record<string, string>>;
  /** How often the books are verified in the background (0: never). */
  ledgerVerifyIntervalS: number;
  payoutRunIntervalS: number;
  /** How often the dispute sweep runs (reminders, deadlines, provider polls), in seconds; 0 turns it off (issue 39). */
  disputeSweepIntervalS: number;
  /** How long events (with their deliveries and attempts) and spent jobs are kept, in ms (issue 40, docs/operations.md "Retention"). */
  retention: { eventMs: number; failedJobMs: number };
  /** How long a card payment waits for the cardholder's 3-D Secure authentication before it fails. */
  paymentActionTtlS: number;
  /**
   * Where browsers reach this service (the sandbox 3-D Secure page's links). Unset:
   * the address it listens on (127.0.0.1 when it listens on every interface).
   */
  publicBaseUrl?: string;
  /** Delays before each webhook retry, e.g. `5s,30s,2m`; after the last one a delivery is failed. */
  webhookRetrySchedule: string;
  webhookTimeoutMs: number;
  /** How webhook deliveries share capacity (docs/contract.md §8, *One endpoint cannot hold up anyone else*). */
  webhookCapacity: WebhookCapacityConfig;
  /** Jobs one instance runs at once (everything in the background but webhook deliveries). */
  jobConcurrency: number;
  /** How often an instance tells the others it is alive; the jobs of one silent for several beats are released. */
  jobHeartbeatMs: number;
  /**
   * A transaction still `initiating` this long after creation is finished by reconciliation
   * (RECONCILE_AFTER_MS; with a provider connector, at least 4 × PROVIDER_TIMEOUT_MS + 1 s).
   */
  reconcileAfterMs: number;
  /** Durability tests only (sandbox): die at this point. */
  faultInject?: FaultPoint;
  /** Open GraphQL WebSockets one merchant may hold at once. */
  maxSocketsPerMerchant: number;
  /** What one GraphQL document may ask for, over HTTP and over the socket alike. */
  graphqlLimits: { maxDepth: number; maxAliases: number; maxCost: number; maxTokens: number; maxDirectives: number };
  /** How often idle job workers look for due jobs (new jobs wake them at once; this is for delayed ones). */
  jobPollIntervalMs: number;
  /**
   * A request (headers and body) must arrive within requestTimeoutMs and its headers within
   * headersTimeoutMs, else 408 and the connection is closed; an idle keep-alive connection
   * closes after keepAliveTimeoutMs. Responses and WebSockets are not bounded by these.
   */
  timeouts: { requestMs: number; headersMs: number; keepAliveMs: number };
  /**
   * SIGTERM/SIGINT: the service stops accepting, closes sockets (1001), lets in-flight
   * requests and webhook attempts finish, releases job claims, and exits 0; past this
   * deadline it exits 1 (whatever is left is released by another instance's heartbeat).
   */
  shutdownTimeoutMs: number;
  /** Request budgets per window (0 turns one off); counters in Redis when REDIS_URL is set. */
  rateLimits: RateLimitConfig;
  /**
   * Which proxies' X-Forwarded-For to believe for the client's address (the per-address
   * limits): unset/false none, true all, a hop count, or addresses/CIDRs.
   */
  trustProxy: boolean | number | string;
  /** Provider connectors, routing, timeouts, breakers and polling (docs/providers.md). */
  connectors: ConnectorsConfig;
  /** Email (src/modules/mail, docs/operations.md *Email*). */
  mail: MailConfig;
  /** SIGNUP_ENABLED: self-serve sign-up (default on in the sandbox, off in production). */
  signupEnabled: boolean;
  /** Whether the daily reconciliation job runs (RECONCILIATION_ENABLED; the CLI and the admin API work either way). */
  reconciliationEnabled: boolean;
  /** Where dispute evidence files' bytes go: S3-compatible storage when S3_* is set, else null (their rows in PostgreSQL). */
  s3: S3Config | null;
}

/** Where the service's mail goes. */
interface MailConfig {
  /** SMTP_URL, credentials and all: handed to the transport only, never logged. Unset: the sandbox logs each message in full. */
  smtpUrl?: string;
  /** MAIL_FROM; in the sandbox it defaults to SANDBOX_MAIL_FROM. Unset in production only when the service would refuse to start. */
  from?: string;
}

/**
 * The rate-limit keys' default prefix: the database's name (DATABASE_URL's path; with an empty
 * path, its user's name, as PostgreSQL defaults), so that two deployments on one Redis keep apart
 * and two instances of one deployment share. The embedded PGlite has no name: its data
 * directory's (a digest of its absolute path, stable across restarts).
 */
function rateLimitPrefix(databaseUrl: string | undefined, dataDir: string): string {
  if (databaseUrl === undefined) return `pglite-${createHash('sha256').update(dataDir).digest('hex').slice(0, 12)}`;
  try {
    const url = new URL(databaseUrl);
    return decodeURIComponent(url.pathname.replace(/^\//, '')) || decodeURIComponent(url.username) || 'postgres';
  } catch {
    throw new Error('DATABASE_URL is not a URL, so RATE_LIMIT_PREFIX cannot default to its database’s name');
  }
}

function parseTrustProxy(value: string | undefined): boolean | number | string {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  return /^\d+$/.test(value) ? Number(value) : value;
}

/**
 * The configuration for the environment a database is stamped with (issue 34: ledger:verify takes
 * it from the database): the same variables, with PAYMENTS_ENV (and what it defaults) set to it.
 */
export function loadConfigFor(environment: PaymentsEnv, env: NodeJS.ProcessEnv = process.env): Config {
  return { ...loadConfig({ ...env, PAYMENTS_ENV: environment }), envExplicit: emptyToUndefined(env.PAYMENTS_ENV) !== undefined };
}

/**
 * The payout minimums' defaults (docs/payouts.md, "Schedules"): NGN, KES and USD are Flutterwave's published minimum
 * settlement thresholds; the others are this service's choice, a small round sum in each currency.
 */
const PAYOUT_MINIMUM_DEFAULTS: Readonly<Record<string, string>> = {
  NGN: '100',
  KES: '500',
  GHS: '10',
  UGX: '1000',
  TZS: '1000',
  RWF: '1000',
  ZAR: '10',
  XOF: '500',
  XAF: '500',
  BWP: '10',
  CDF: '1000',
  MWK: '1000',
  ZMW: '10',
  GBP: '1',
  USD: '1000',
};

const MINOR_UNITS = new Map(currenciesFile.map((c) => [c.code, c.minor_unit]));

/** `NGN:100,KES:500.50` over the defaults: a supported currency, a positive amount within its minor unit's decimals. */
function parsePayoutMinimums(text: string): Readonly<Record<string, string>> {
  const minimums: Record<string, string> = { ...PAYOUT_MINIMUM_DEFAULTS };
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const match = /^([A-Z]{3}):(\d{1,15})(?:\.(\d+))?$/.exec(part);
    if (!match) throw new Error(`PAYOUT_MINIMUMS: "${part}" is not CURRENCY:amount (e.g. NGN:100)`);
    const [, currency, whole, fraction = ''] = match as unknown as [string, string, string, string | undefined];
    const minorUnit = MINOR_UNITS.get(currency);
    if (minorUnit === undefined) throw new Error(`PAYOUT_MINIMUMS: ${currency} is not a supported currency`);
    if (fraction.length > minorUnit) throw new Error(`PAYOUT_MINIMUMS: ${currency} has ${minorUnit} decimals at most ("${part}")`);
    const amount = fraction ? `${BigInt(whole)}.${fraction}` : `${BigInt(whole)}`;
    if (/^0(\.0*)?$/.test(amount)) throw new Error(`PAYOUT_MINIMUMS: ${currency}'s minimum must be more than 0`);
    minimums[currency] = amount;
  }
  return minimums;
}

/** The S3_* variables a configured store needs (S3_ENDPOINT and S3_FORCE_PATH_STYLE are optional within it). */
const S3_REQUIRED = ['S3_REGION', 'S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const;
const S3_VARIABLES = ['S3_ENDPOINT', ...S3_REQUIRED, 'S3_FORCE_PATH_STYLE'] as const;

/** All or nothing: no S3_* at all keeps files in PostgreSQL; some but not all is reported, naming what is missing. */
function parseS3(e: Partial<Record<(typeof S3_VARIABLES)[number], string>>, report: ReportProblem): S3Config | null {
  const set = S3_VARIABLES.filter((name) => e[name] !== undefined);
  if (set.length === 0) return null;
  const { S3_REGION: region, S3_BUCKET: bucket, S3_ACCESS_KEY_ID: accessKeyId, S3_SECRET_ACCESS_KEY: secretAccessKey } = e;
  if (region === undefined || bucket === undefined || accessKeyId === undefined || secretAccessKey === undefined) {
    const missing = S3_REQUIRED.filter((name) => e[name] === undefined);
    report({
      variables: missing,
      problem: `S3 storage for dispute files is partly configured (${set.join(', ')} set, ${missing.join(', ')} missing)`,
      fix: `set ${S3_REQUIRED.join(', ')} (and S3_ENDPOINT, S3_FORCE_PATH_STYLE for a store other than AWS S3), or none of S3_* to keep the files in PostgreSQL`,
      doc: DOCS.merchants,
    });
    return null;
  }
  return { endpoint: e.S3_ENDPOINT, region, bucket, accessKeyId, secretAccessKey, forcePathStyle: e.S3_FORCE_PATH_STYLE === 'true' };
}

/**
 * The environment's variables read, every problem of theirs collected rather than thrown at the first (issue 41): a
 * refused value is reported and stands at its default, so that the rules after it still run and report theirs. The
 * configuration is only for use when there are no problems.
 */
export function readConfig(env: NodeJS.ProcessEnv = process.env): { config: Config; problems: readonly ConfigProblem[] } {
  const problems = new ProblemList();
  const report = problems.report;
  let parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) report(problemOfIssue(issue, (v) => (v in PROVIDER_VARIABLES ? DOCS.providers : docFor(v))));
    const refused = new Set(parsed.error.issues.map((i) => String(i.path[0])));
    parsed = envSchema.safeParse(Object.fromEntries(Object.entries(env).filter(([name]) => !refused.has(name))));
    // Every variable is optional or has a default: without the refused ones the rest parses.
    if (!parsed.success) throw new ConfigurationError(problems.all);
  }
  const e = parsed.data;
  const production = e.PAYMENTS_ENV === 'production';
  // The operator key opens every merchant's data: production holds it to the metrics token's minimum.
  if (production && e.ADMIN_API_KEY !== undefined && e.ADMIN_API_KEY.length < 16) {
    report({
      variables: ['ADMIN_API_KEY'],
      problem: 'ADMIN_API_KEY must be at least 16 characters in production',
      fix: 'set ADMIN_API_KEY to 16 characters or more, e.g. the output of `openssl rand -base64 32` (or unset it: the operator API is then off)',
      doc: DOCS.keys,
    });
  }
  if (e.FAULT_INJECT && e.PAYMENTS_ENV !== 'sandbox') {
    report({ variables: ['FAULT_INJECT'], problem: 'FAULT_INJECT is for sandbox durability tests only', fix: 'unset FAULT_INJECT', doc: DOCS.configuration });
  }
  const connectors = configureProviders(e as unknown as Record<string, string | undefined>, e.PAYMENTS_ENV, report);
  // A provider's callbacks must reach this service from the internet: production needs its public address.
  if (production && anyProviderConfigured(connectors) && !e.PUBLIC_BASE_URL) {
    report({
      variables: ['PUBLIC_BASE_URL'],
      problem: 'PUBLIC_BASE_URL is required in production when a provider connector is configured (its callbacks are sent there)',
      fix: 'set PUBLIC_BASE_URL to the public https origin the providers and browsers reach, e.g. https://pay.example.com',
      doc: DOCS.address,
    });
  }
  const dataDir = path.resolve(e.DATA_DIR);
  const config = buildConfig(e, env, {
    dataDir,
    connectors,
    payoutMinimums: problems.attempt(() => parsePayoutMinimums(e.PAYOUT_MINIMUMS), PAYOUT_MINIMUM_DEFAULTS, {
      variables: ['PAYOUT_MINIMUMS'],
      fix: 'set PAYOUT_MINIMUMS to CURRENCY:amount pairs within each currency’s decimals, e.g. NGN:100,KES:500',
      doc: DOCS.money,
    }),
    rateLimitPrefix:
      e.RATE_LIMIT_PREFIX ??
      problems.attempt(() => rateLimitPrefix(e.DATABASE_URL, dataDir), 'postgres', {
        variables: ['DATABASE_URL'],
        fix: 'set DATABASE_URL to a PostgreSQL URL, e.g. postgresql://payments:password@db.internal:5432/payments (or set RATE_LIMIT_PREFIX)',
        doc: DOCS.database,
      }),
    s3: parseS3(e, report),
  });
  return { config, problems: problems.all };
}

/** The configuration, or a ConfigurationError naming every problem of it at once. Every process reads it so. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const { config, problems } = readConfig(env);
  if (problems.length > 0) throw new ConfigurationError(problems);
  return config;
}

type ParsedEnv = z.output<typeof envSchema>;

/** What readConfig worked out beside the schema (each with its own problems). */
interface Derived {
  dataDir: string;
  connectors: ProviderSettings;
  payoutMinimums: Readonly<Record<string, string>>;
  rateLimitPrefix: string;
  s3: S3Config | null;
}

function buildConfig(e: ParsedEnv, env: NodeJS.ProcessEnv, derived: Derived): Config {
  const { connectors } = derived;
  // Reconciliation must not ask a provider again while the first creation may still be waiting: one creation makes
  // at most four calls (a token, the request, a fresh token after a 401, the request again), each with its timeout.
  const reconcileAfterMs = anyProviderConfigured(connectors) ? Math.max(e.RECONCILE_AFTER_MS, 4 * e.PROVIDER_TIMEOUT_MS + 1000) : e.RECONCILE_AFTER_MS;
  return {
    env: e.PAYMENTS_ENV,
    envExplicit: emptyToUndefined(env.PAYMENTS_ENV) !== undefined,
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir: derived.dataDir,
    embeddedDbPort: e.EMBEDDED_DB_PORT,
    redisUrl: e.REDIS_URL,
    adminApiKey: e.ADMIN_API_KEY,
    allowEmbeddedDatabase: e.ALLOW_EMBEDDED_DATABASE === '1',
    metricsToken: e.METRICS_TOKEN,
    tokenSigningKey: e.TOKEN_SIGNING_KEY,
    encryptionKey: e.ENCRYPTION_KEY,
    logLevel: e.LOG_LEVEL,
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    tokenRevocationPollMs: e.TOKEN_REVOCATION_POLL_MS,
    dbPoolMax: e.DB_POOL_MAX,
    sandboxKycDelayMs: e.SANDBOX_KYC_DELAY_MS,
    sandboxSettleMs: e.SANDBOX_SETTLE_MS,
    collectionTtlS: e.COLLECTION_TTL_S,
    sandboxOpeningBalance: e.SANDBOX_OPENING_BALANCE,
    settlementDelayS: e.SETTLEMENT_DELAY_S ?? (e.PAYMENTS_ENV === 'sandbox' ? 0 : 86_400),
    feeDefaults: e.FEE_DEFAULTS,
    payoutMinimums: derived.payoutMinimums,
    ledgerVerifyIntervalS: e.LEDGER_VERIFY_INTERVAL_S,
    payoutRunIntervalS: e.PAYOUT_RUN_INTERVAL_S,
    disputeSweepIntervalS: e.DISPUTE_SWEEP_INTERVAL_S,
    retention: { eventMs: e.EVENT_RETENTION_DAYS * 86_400_000, failedJobMs: e.FAILED_JOB_RETENTION_DAYS * 86_400_000 },
    paymentActionTtlS: e.PAYMENT_ACTION_TTL_S,
    publicBaseUrl: e.PUBLIC_BASE_URL,
    webhookRetrySchedule: e.WEBHOOK_RETRY_SCHEDULE,
    webhookTimeoutMs: e.WEBHOOK_TIMEOUT_MS,
    webhookCapacity: {
      senders: e.WEBHOOK_CONCURRENCY,
      perEndpoint: e.WEBHOOK_ENDPOINT_CONCURRENCY,
      slowPerEndpoint: Math.min(e.WEBHOOK_SLOW_ENDPOINT_CONCURRENCY, e.WEBHOOK_ENDPOINT_CONCURRENCY),
      slowMs: e.WEBHOOK_SLOW_MS,
      circuitFailures: e.WEBHOOK_CIRCUIT_FAILURES,
      circuitOpenS: e.WEBHOOK_CIRCUIT_OPEN_S,
      circuitMaxOpenS: Math.max(e.WEBHOOK_CIRCUIT_MAX_OPEN_S, e.WEBHOOK_CIRCUIT_OPEN_S),
      testEventsPerMinute: e.WEBHOOK_TEST_EVENTS_PER_MINUTE,
    },
    jobConcurrency: e.JOB_CONCURRENCY,
    jobHeartbeatMs: e.JOB_HEARTBEAT_MS,
    reconcileAfterMs,
    faultInject: e.FAULT_INJECT,
    maxSocketsPerMerchant: e.MAX_SOCKETS_PER_MERCHANT,
    graphqlLimits: {
      maxDepth: e.GRAPHQL_MAX_DEPTH,
      maxAliases: e.GRAPHQL_MAX_ALIASES,
      maxCost: e.GRAPHQL_MAX_COST,
      maxTokens: e.GRAPHQL_MAX_TOKENS,
      maxDirectives: e.GRAPHQL_MAX_DIRECTIVES,
    },
    jobPollIntervalMs: e.JOB_POLL_INTERVAL_MS,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    timeouts: {
      requestMs: e.REQUEST_TIMEOUT_MS,
      // Node requires the headers' deadline to fall within the request's.
      headersMs: Math.min(e.HEADERS_TIMEOUT_MS, e.REQUEST_TIMEOUT_MS),
      keepAliveMs: e.KEEP_ALIVE_TIMEOUT_MS,
    },
    rateLimits: {
      windowS: e.RATE_LIMIT_WINDOW_S,
      prefix: derived.rateLimitPrefix,
      merchant: e.RATE_LIMIT_MERCHANT,
      tokenClient: e.RATE_LIMIT_TOKEN_CLIENT,
      tokenIp: e.RATE_LIMIT_TOKEN_IP,
      checkoutIp: e.RATE_LIMIT_CHECKOUT_IP,
      tokenFailures: e.RATE_LIMIT_TOKEN_FAILURES,
      tokenIpFailures: e.RATE_LIMIT_TOKEN_IP_FAILURES,
      admin: e.RATE_LIMIT_ADMIN,
      adminFailures: e.RATE_LIMIT_ADMIN_FAILURES,
      graphqlCostUnit: e.RATE_LIMIT_GRAPHQL_COST_UNIT,
      streamRowsPerPoint: e.RATE_LIMIT_STREAM_ROWS_PER_POINT,
      streamsPerMerchant: e.RATE_LIMIT_STREAMS_PER_MERCHANT,
    },
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    mail: { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM ?? (e.PAYMENTS_ENV === 'sandbox' ? SANDBOX_MAIL_FROM : undefined) },
    signupEnabled: e.SIGNUP_ENABLED === undefined ? e.PAYMENTS_ENV === 'sandbox' : e.SIGNUP_ENABLED === 'true',
    reconciliationEnabled: e.RECONCILIATION_ENABLED !== 'false',
    s3: derived.s3,
    connectors: {
      routes: e.PROVIDER_ROUTES,
      timeoutMs: e.PROVIDER_TIMEOUT_MS,
      breaker: {
        volumeThreshold: e.PROVIDER_BREAKER_VOLUME,
        errorThresholdPercentage: e.PROVIDER_BREAKER_ERROR_PERCENT,
        resetTimeoutMs: e.PROVIDER_BREAKER_RESET_MS,
        rollingWindowMs: e.PROVIDER_BREAKER_WINDOW_MS,
      },
      pollSchedule: e.PROVIDER_POLL_SCHEDULE,
      ...connectors,
    },
  };
}

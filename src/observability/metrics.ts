import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Orm } from '../db/orm';
import type { Sql } from '../db/sql';
import type { JobQueueStats, JobRunner } from '../jobs/job-runner';
import type { WebhookAttemptObserver } from '../modules/webhooks/webhook-dispatcher';
import type { BreakerState, ConnectorObserver } from '../providers/breaker';
import type { Logger } from '../shared/logger';
import { ANONYMOUS_OPERATION, INVALID_OPERATION, type GraphQLOperationObserver } from './graphql-operations';

/** The route label of a request no route matched: never the raw URL (a label's values must stay few). */
const NOT_FOUND_ROUTE = 'not_found';
/** Distinct GraphQL operation names kept as labels; any further name is counted as `other`. */
const MAX_OPERATION_NAMES = 100;
const MAX_OPERATION_NAME_LENGTH = 100;
/** How long the job-queue statement may take before a scrape goes on without it (old values stay). */
const QUEUE_SCRAPE_TIMEOUT_MS = 1000;

/** Request latencies of an API whose answers mostly take milliseconds, with room above for slow ones. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** A webhook POST: a receiver's network and its work, up to WEBHOOK_TIMEOUT_MS (10 s by default). */
const WEBHOOK_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * Node's own metrics (CPU, memory, event loop lag, GC) describe the process, not an app,
 * so they are collected once per process into a registry of their own and served by
 * every app beside its own: collectDefaultMetrics starts observers that are never
 * stopped, and tests start several apps in one process.
 */
let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

type QueueGauges = Record<'queued' | 'scheduled' | 'running' | 'failed' | 'oldestAge', Gauge<'task'>>;

/** What the pool gauges read at scrape time. */
interface PoolReading {
  used: number;
  idle: number;
  waiting: number;
}

export interface MetricSources {
  sql: Sql;
  orm: Orm;
  jobs: Pick<JobRunner<unknown>, 'queueStats'>;
  logger: Logger;
  /** Each pool's size (DB_POOL_MAX). */
  poolMax: number;
}

/**
 * One app instance's Prometheus metrics, in a Registry of its own (never prom-client's
 * global one), created once at start. The hot paths only observe: one histogram
 * observation per HTTP request or GraphQL operation, one counter and one histogram per
 * webhook attempt, an increment per socket. Everything else (pools, job queue) is read
 * when Prometheus scrapes, from numbers the process already keeps and one statement.
 */
export class Metrics {
  /** What /metrics serves: this app's metrics and the process's. */
  readonly registry: Registry;
  private readonly httpDuration: Histogram<'method' | 'route' | 'status_code'>;
  private readonly graphqlDuration: Histogram<'transport' | 'operation_type' | 'operation_name' | 'outcome'>;
  private readonly operationNames = new Set<string>();
  private queueRead?: Promise<void>;
  private openExceptions?: () => Promise<Array<{ connector: string; class: string; count: number }>>;

  readonly graphql: GraphQLOperationObserver;
  readonly webhookAttempt: WebhookAttemptObserver;
  /** Problems the last verification of the books found (0: they verify). */
  readonly ledgerVerified: (problems: number) => void;
  /** Provider calls and each connector's circuit breaker. */
  readonly connectors: ConnectorObserver;

  constructor(private readonly sources: MetricSources) {
    const own = new Registry();
    const registers = [own];

    this.httpDuration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP requests by method, route pattern (not_found when no route matched) and status code, from arrival to the response sent.',
      labelNames: ['method', 'route', 'status_code'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.graphqlDuration = new Histogram({
      name: 'graphql_operation_duration_seconds',
      help: 'GraphQL operations by transport (http, ws), type, name (anonymous; invalid when refused before running; other beyond the first 100 names) and outcome (ok, error). A subscription counts until its stream is set up.',
      labelNames: ['transport', 'operation_type', 'operation_name', 'outcome'],
      buckets: LATENCY_BUCKETS,
      registers,
    });

    const openSockets = new Gauge({ name: 'payments_graphql_ws_open_sockets', help: 'Open GraphQL WebSocket connections on this instance.', registers });
    const activeSubscriptions = new Gauge({
      name: 'payments_graphql_ws_active_subscriptions',
      help: 'GraphQL subscriptions streaming over WebSocket on this instance.',
      registers,
    });
    this.graphql = {
      operation: (transport, type, name, outcome, seconds) =>
        this.graphqlDuration.observe({ transport, operation_type: type, operation_name: this.operationNameLabel(name), outcome }, seconds),
      socketOpened: () => openSockets.inc(),
      socketClosed: () => openSockets.dec(),
      subscriptionStarted: () => activeSubscriptions.inc(),
      subscriptionEnded: () => activeSubscriptions.dec(),
    };

    const webhookAttempts = new Counter({
      name: 'payments_webhook_deliveries_total',
      help: 'Webhook delivery attempts by outcome: delivered, retry_scheduled (this attempt failed, another is scheduled) or failed (the retry schedule is spent).',
      labelNames: ['outcome'],
      registers,
    });
    const webhookDuration = new Histogram({
      name: 'payments_webhook_attempt_duration_seconds',
      help: 'Webhook POSTs by outcome, from the request to the end of the answer (or the timeout).',
      labelNames: ['outcome'],
      buckets: WEBHOOK_BUCKETS,
      registers,
    });
    for (const outcome of ['delivered', 'retry_scheduled', 'failed']) webhookAttempts.inc({ outcome }, 0);
    this.webhookAttempt = (outcome, requestSeconds) => {
      webhookAttempts.inc({ outcome });
      if (requestSeconds !== null) webhookDuration.observe({ outcome }, requestSeconds);
    };

    const ledgerProblems = new Gauge({
      name: 'payments_ledger_verify_problems',
      help: 'Problems the last verification of the books found (ledger:verify; 0 when they verify, -1 before the first run).',
      registers,
    });
    ledgerProblems.set(-1);
    this.ledgerVerified = (problems) => ledgerProblems.set(problems);

    const providerCalls = new Histogram({
      name: 'payments_provider_call_duration_seconds',
      help: 'Calls to payment providers by connector, operation and outcome: ok, refused (the provider said no), unknown (timeout, 5xx, reset: asked again later), rejected (breaker open, not sent).',
      labelNames: ['connector', 'operation', 'outcome'],
      buckets: WEBHOOK_BUCKETS,
      registers,
    });
    const breakerState = new Gauge({
      name: 'payments_provider_breaker_state',
      help: "Each connector's circuit breaker on this instance: 0 closed, 1 half-open (one trial call), 2 open (new transactions go to the route's next connector).",
      labelNames: ['connector'],
      registers,
    });
    const STATE_VALUE: Record<BreakerState, number> = { closed: 0, half_open: 1, open: 2 };
    // One child per label set, made once: an observation then skips prom-client's label checks and hashing.
    const callSeries = new Map<string, { observe(seconds: number): void }>();
    this.connectors = {
      call: (connector, operation, outcome, seconds) => {
        const key = `${connector}\0${operation}\0${outcome}`;
        let series = callSeries.get(key);
        if (!series) callSeries.set(key, (series = providerCalls.labels(connector, operation, outcome)));
        series.observe(seconds);
      },
      state: (connector, state) => breakerState.set({ connector }, STATE_VALUE[state]),
    };

    this.registerPoolGauges(registers);
    this.registerQueueGauges(registers);
    this.registerReconciliationGauge(registers);
    this.registry = Registry.merge([own, processMetrics()]);
  }

  /** Where the open-exceptions gauge reads from (the reconciliation module, made after this). */
  readReconciliation(read: () => Promise<Array<{ connector: string; class: string; count: number }>>): void {
    this.openExceptions = read;
  }

  /** Exceptions no operator has resolved yet, by connector and class, read at scrape time (docs/reconciliation.md). */
  private registerReconciliationGauge(registers: Registry[]): void {
    const read = () => this.openExceptions;
    const logger = this.sources.logger;
    const seen = new Map<string, { connector: string; class: string }>();
    const gauge: Gauge<'connector' | 'class'> = new Gauge({
      name: 'payments_reconciliation_open_exceptions',
      help: 'Reconciliation exceptions (amount_mismatch, status_mismatch, missing_at_provider, missing_here, balance_mismatch) not resolved yet, by connector and class.',
      labelNames: ['connector', 'class'],
      registers,
      async collect() {
        const source = read();
        if (!source) return;
        let rows: Array<{ connector: string; class: string; count: number }>;
        try {
          rows = await source();
        } catch (err) {
          logger.warn({ err: (err as Error).message }, 'reconciliation metrics not read; the scrape shows the last values');
          return;
        }
        // A class resolved to none drops to 0 (kept, so a graph shows it fall rather than vanish).
        for (const labels of seen.values()) gauge.set(labels, 0);
        for (const row of rows) {
          const labels = { connector: row.connector, class: row.class };
          seen.set(`${row.connector}\0${row.class}`, labels);
          gauge.set(labels, row.count);
        }
      },
    });
  }

  /** Called by the onResponse hook; `route` is the matched route's pattern, undefined when none matched. */
  observeHttp(method: string, route: string | undefined, statusCode: number, elapsedMs: number): void {
    this.httpDuration.observe({ method, route: route ?? NOT_FOUND_ROUTE, status_code: statusCode }, elapsedMs / 1000);
  }

  /** A client names its operations: the first 100 names (of at most 100 characters) are kept, the rest are `other`. */
  private operationNameLabel(name: string): string {
    if (this.operationNames.has(name) || name === ANONYMOUS_OPERATION || name === INVALID_OPERATION) return name;
    if (this.operationNames.size >= MAX_OPERATION_NAMES || name.length > MAX_OPERATION_NAME_LENGTH) return 'other';
    this.operationNames.add(name);
    return name;
  }

  /** The two PostgreSQL pools: `direct` (src/db/sql.ts: hot paths and the job queue) and `orm` (MikroORM's knex). */
  private registerPoolGauges(registers: Registry[]): void {
    const { sql, orm, poolMax } = this.sources;
    const readings = (): Array<[string, PoolReading]> => {
      const pool = sql.pool;
      const out: Array<[string, PoolReading]> = [['direct', { used: pool.totalCount - pool.idleCount, idle: pool.idleCount, waiting: pool.waitingCount }]];
      // knex's pool is tarn's: the counts are method calls on it (absent once the ORM is closed).
      const tarn = (orm.em.getConnection().getKnex().client as { pool?: Record<string, () => number> }).pool;
      if (tarn) out.push(['orm', { used: tarn.numUsed!(), idle: tarn.numFree!(), waiting: tarn.numPendingAcquires!() }]);
      return out;
    };
    new Gauge({
      name: 'payments_db_pool_connections',
      help: 'PostgreSQL connections held by each pool (direct: hot paths and job queue; orm: MikroORM), by state (used, idle).',
      labelNames: ['pool', 'state'],
      registers,
      collect() {
        for (const [pool, r] of readings()) {
          this.set({ pool, state: 'used' }, r.used);
          this.set({ pool, state: 'idle' }, r.idle);
        }
      },
    });
    new Gauge({
      name: 'payments_db_pool_waiting_requests',
      help: 'Requests waiting for a connection from each pool (above zero: the pool is exhausted).',
      labelNames: ['pool'],
      registers,
      collect() {
        for (const [pool, r] of readings()) this.set({ pool }, r.waiting);
      },
    });
    const max = new Gauge({ name: 'payments_db_pool_max_connections', help: "Each pool's size (DB_POOL_MAX).", labelNames: ['pool'], registers });
    for (const pool of ['direct', 'orm']) max.set({ pool }, poolMax);
  }

  /**
   * The job queue's gauges share one statement per scrape (the first gauge read starts it;
   * the others wait for the same one). When it fails or is slow, the scrape goes on with
   * the values of the last one that worked.
   */
  private registerQueueGauges(registers: Registry[]): void {
    const collect = () => (this.queueRead ??= this.readQueue(gauges).finally(() => (this.queueRead = undefined)));
    const gauge = (name: string, help: string) => new Gauge({ name, help, labelNames: ['task'], registers, collect });
    const gauges: QueueGauges = {
      queued: gauge('payments_jobs_queued', 'Jobs due and waiting for a worker, by task.'),
      scheduled: gauge('payments_jobs_scheduled', 'Jobs not due yet (delayed work, retries in backoff), by task.'),
      running: gauge('payments_jobs_running', 'Jobs locked by a worker, by task.'),
      failed: gauge('payments_jobs_failed', 'Jobs whose attempts are spent (never run again), by task.'),
      oldestAge: gauge('payments_jobs_oldest_age_seconds', 'How long the oldest due, unlocked job has waited, by task (0 when none waits).'),
    };
  }

  private async readQueue(gauges: QueueGauges): Promise<void> {
    let rows: JobQueueStats[];
    let timer: NodeJS.Timeout | undefined;
    try {
      rows = await Promise.race([
        this.sources.jobs.queueStats(QUEUE_SCRAPE_TIMEOUT_MS),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer within ${QUEUE_SCRAPE_TIMEOUT_MS} ms`)), QUEUE_SCRAPE_TIMEOUT_MS);
        }),
      ]);
    } catch (err) {
      this.sources.logger.warn({ err: (err as Error).message }, 'job queue metrics not read; the scrape shows the last values');
      return;
    } finally {
      clearTimeout(timer);
    }
    for (const row of rows) {
      const task = { task: row.task };
      gauges.queued.set(task, row.queued);
      gauges.scheduled.set(task, row.scheduled);
      gauges.running.set(task, row.running);
      gauges.failed.set(task, row.failed);
      gauges.oldestAge.set(task, row.oldestAgeSeconds);
    }
  }
}

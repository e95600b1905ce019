import { EventEmitter } from 'node:events';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Logger as WorkerLogger, run, runMigrations, type Runner, type TaskList, type WorkerEvents, type WorkerPool } from 'graphile-worker';
import { Params, executeOnOrm, type Sql } from '../db/sql';
import type { Logger } from '../shared/logger';
import type { JobCatalogue, JobHandlers, JobQueue, JobSpec, JobsSql } from './job-queue';

/** One task's jobs as the queue holds them now (`JobRunner.queueStats`). */
export interface JobQueueStats {
  task: string;
  /** Due, unlocked, attempts left: waiting for a worker. */
  queued: number;
  /** Not due yet: delayed jobs and retries waiting out their backoff. */
  scheduled: number;
  /** Locked by a worker (running, or held by an instance not yet known to be dead). */
  running: number;
  /** Attempts spent: kept by graphile-worker, never run again. */
  failed: number;
  /** How long the oldest queued job has been due (0 when none is). */
  oldestAgeSeconds: number;
}

export interface JobRunnerSettings {
  /**
   * Jobs this instance runs at once. (Webhook deliveries are not jobs: they have their own senders, WebhookPump,
   * so however many endpoints hang, settlement keeps every slot.)
   */
  concurrency: number;
  /** How often idle workers look for due jobs when no notification arrives (delayed jobs, or PGlite). */
  pollIntervalMs: number;
  /** How often this instance proves it is alive; an instance silent for `deadAfterMs` has its jobs released. */
  heartbeatMs: number;
  deadAfterMs: number;
  /** At shutdown, how long running jobs (a webhook attempt in flight) may take to finish before they are released. */
  drainMs?: number;
}

/**
 * Durable background work on graphile-worker (chosen by measurement: BENCHMARKS.md).
 * Jobs are rows in the same PostgreSQL, added by the statement or transaction that
 * makes the state change (`jobsSql`, `enqueue`), so a change and the work it
 * schedules commit together. A committed job wakes a worker within milliseconds
 * (LISTEN/NOTIFY; on PGlite, which has no cross-connection notifications, the
 * local pool is nudged and others poll). Workers fetch jobs in batches into a
 * local queue and complete them in batches.
 *
 * graphile-worker releases the jobs of a crashed worker only after four hours, so
 * each instance heartbeats into `job_worker_instance`, and any live instance
 * releases the jobs of one that stopped heartbeating (kill -9, power loss). Job
 * handlers are idempotent: a released job that had half run runs again safely.
 *
 * Generic over its jobs `P` (names → payloads): the catalogue it is given (src/job-catalogue.ts)
 * names every task and its options; jobs/ itself knows no job.
 */
export class JobRunner<P> implements JobQueue<JobSpec<P>> {
  /** graphile-worker's id for each task, resolved once at start so a hot path adds a job with one plain INSERT. */
  private readonly taskIds = new Map<string, number>();
  private runners: Runner[] = [];
  /** graphile-worker's pool (one; a list so that heartbeats and release work for any number), with its id (its jobs are locked by that id). */
  private readonly pools: WorkerPool[] = [];
  private heartbeat?: NodeJS.Timeout;
  /** Wakes asked for since the last notification was sent (coalesced: one NOTIFY per turn of the event loop). */
  private pendingWakes = 0;
  private readonly events: WorkerEvents = new EventEmitter() as WorkerEvents;
  private readonly dueListeners: (() => void)[] = [];
  /** Queues kept in their own tables, in the queue's metrics (`addQueueStats`): task name → its SELECT. */
  private readonly extraQueueStats = new Map<string, string>();

  private readonly catalogue: JobCatalogue<P>;
  private readonly sql: Sql;
  private readonly logger: Logger;
  private readonly settings: JobRunnerSettings;
  private readonly embedded: boolean;

  /** `embedded`: the database is PGlite (no cross-connection notifications, no prepared statements through graphile-worker). */
  constructor(deps: { catalogue: JobCatalogue<P>; sql: Sql; logger: Logger; settings: JobRunnerSettings; embedded: boolean }) {
    ({ catalogue: this.catalogue, sql: this.sql, logger: this.logger, settings: this.settings, embedded: this.embedded } = deps);
    this.events.on('pool:create', ({ workerPool }) => void this.pools.push(workerPool));
  }

  /** Registers every task and learns its id (after the queue's migrations, before any job is added). */
  async prepare(): Promise<void> {
    const names = Object.keys(this.catalogue);
    await this.sql.query('insert into graphile_worker._private_tasks (identifier) select unnest($1::text[]) on conflict do nothing', [names]);
    const rows = await this.sql.query<{ id: number; identifier: string }>(
      'select id, identifier from graphile_worker._private_tasks where identifier = any($1::text[])',
      [names],
    );
    for (const row of rows) this.taskIds.set(row.identifier, row.id);
  }

  /**
   * Jobs added by the caller's own statement, once per row of `guard` (a CTE that
   * returns a row only if the state change happened). A plain INSERT into
   * graphile-worker's job table (0.17's `_private_jobs`, pinned): its `add_job`
   * function costs several statements and a notification per job.
   *
   * The statement sends no notification itself. A NOTIFY inside a writing transaction
   * takes PostgreSQL's one notification-queue lock at commit and holds it through the
   * commit's WAL flush, so every writer that notifies commits one after another: in a
   * soak, a quarter of a backend on average waited on it (`Lock:object`). Instead the
   * statement says whether it added a job due now (`<prefix>_wake`), and the caller
   * hands its row to `wakeIfDue` after the commit. Jobs added this way carry no key:
   * each is added exactly once, by the one statement that made the change (a delivery
   * job says which attempt it makes instead).
   */
  jobsSql(params: Params, jobs: JobSpec<P>[], guard: string, prefix: string): JobsSql {
    if (jobs.length === 0) return { ctes: [], selects: [] };
    const rows = jobs.map((job) => {
      const taskId = this.taskIds.get(job.name);
      if (taskId === undefined) throw new Error(`job runner not prepared: no task id for ${job.name}`);
      const runAt = job.delayMs ? `now() + make_interval(secs => ${params.p(job.delayMs / 1000)})` : 'now()';
      return `(${params.p(taskId)}::int, ${params.p(JSON.stringify(job.payload))}::json, ${runAt}, ${params.p(this.catalogue[job.name].priority)}::smallint)`;
    });
    return {
      ctes: [
        `${prefix}_jobs as (
          insert into graphile_worker._private_jobs (task_id, payload, run_at, priority)
          select v.task_id, v.payload, v.run_at, v.priority from ${guard}, (values ${rows.join(', ')}) as v(task_id, payload, run_at, priority)
          returning run_at)`,
        `${prefix}_wake as (select 1 from ${prefix}_jobs where run_at <= now() limit 1)`,
      ],
      selects: [`${prefix}_wake`],
    };
  }

  /**
   * Jobs of one kind added by the caller's own statement, one per row of `from` (a CTE), each with
   * the payload the SQL expression `payloadSql` builds from its row: for follow-ups whose subjects
   * the statement itself finds (the next delivery waiting for an endpoint). Like `jobsSql`: no
   * notification, no key; hand the row to `wakeIfDue` after the commit.
   */
  jobsFromRowsSql<K extends keyof P & string>(params: Params, name: K, payloadSql: string, from: string, prefix: string): JobsSql {
    const taskId = this.taskIds.get(name);
    if (taskId === undefined) throw new Error(`job runner not prepared: no task id for ${name}`);
    return {
      ctes: [
        `${prefix}_jobs as (
          insert into graphile_worker._private_jobs (task_id, payload, run_at, priority)
          select ${params.p(taskId)}::int, ${payloadSql}, now(), ${params.p(this.catalogue[name].priority)}::smallint from ${from}
          returning run_at)`,
        `${prefix}_wake as (select 1 from ${prefix}_jobs limit 1)`,
      ],
      selects: [`${prefix}_wake`],
    };
  }

  async start(handlers: JobHandlers<P>): Promise<void> {
    const taskList: TaskList = {};
    for (const [name, handler] of Object.entries<(payload: never) => Promise<void>>(handlers)) {
      taskList[name] = async (payload) => handler(payload as never);
    }
    this.runners.push(await this.runPool(taskList, this.settings.concurrency));
    await this.beat();
    this.heartbeat = setInterval(() => {
      this.beat().catch((err) => this.logger.warn({ err: (err as Error).message }, 'job heartbeat failed'));
    }, this.settings.heartbeatMs);
    this.heartbeat.unref();
  }

  private runPool(taskList: TaskList, concurrency: number): Promise<Runner> {
    return run({
      pgPool: this.sql.pool,
      taskList,
      noHandleSignals: true,
      noPreparedStatements: this.embedded,
      logger: workerLogger(this.logger),
      events: this.events,
      preset: {
        worker: {
          concurrentJobs: concurrency,
          pollInterval: this.settings.pollIntervalMs,
          // No deeper than the workers: a job fetched into the local queue waits behind all before it, whatever its priority.
          localQueue: { size: concurrency },
          completeJobBatchDelay: 0,
          failJobBatchDelay: 0,
          // stop(): running jobs finish within this; then they are released (failed back to the queue, to run again).
          ...(this.settings.drainMs !== undefined ? { gracefulShutdownAbortTimeout: this.settings.drainMs } : {}),
        },
      },
    });
  }

  /**
   * Finishes running jobs (waiting at most `drainMs`), returns fetched and unfinished ones to the queue, and stops.
   * `keepInstance`: this instance stays listed (with its last heartbeat) until `retire()`, because something
   * else it holds (an Idempotency-Key claim of a request still finishing) is judged by its liveness.
   */
  async stop(opts: { keepInstance?: boolean } = {}): Promise<void> {
    if (this.heartbeat) clearInterval(this.heartbeat);
    await Promise.all(this.runners.map((runner) => runner.stop()));
    this.runners = [];
    if (!opts.keepInstance) await this.retire();
  }

  /** Removes this instance (its pool) from `job_worker_instance`: what it held is no longer held by a live instance. */
  async retire(): Promise<void> {
    if (this.pools.length) await this.sql.query('delete from job_worker_instance where pool_id = any($1::text[])', [this.poolIds()]);
    this.pools.length = 0;
  }

  /** This instance's id in `job_worker_instance` (its pool's), once started; undefined before (and in a CLI). */
  get instanceId(): string | undefined {
    return this.pools[0]?.id;
  }

  /** How long an instance may be silent before it counts as dead (its jobs released, its claims abandoned). */
  get deadAfterMs(): number {
    return this.settings.deadAfterMs;
  }

  /**
   * An SQL condition: the instance whose id is the expression `idSql` is not alive: no heartbeat within
   * `secondsSql` seconds (an SQL expression), or no row at all (it stopped, or a live instance reaped it).
   * Judged by the database's clock, as the heartbeats are written.
   */
  instanceGoneSql(idSql: string, secondsSql: string): string {
    return `not exists (select 1 from job_worker_instance where pool_id = ${idSql} and heartbeat_at >= now() - make_interval(secs => ${secondsSql}))`;
  }

  /**
   * Records this instance as alive and releases the jobs of instances that are
   * not: one statement, run by every instance every `heartbeatMs`.
   */
  private async beat(): Promise<void> {
    if (!this.pools.length) return;
    // Only an instance whose own previous beat is fresh judges the others: after a stall that
    // silenced everyone (a database failover, a long pause), the first beats only re-announce,
    // and only instances that stay silent are declared dead.
    await this.sql.query(
      `with previous as (
         select min(heartbeat_at) as heartbeat_at from job_worker_instance where pool_id = any($1::text[])
       ), me as (
         insert into job_worker_instance (pool_id, heartbeat_at) select unnest($1::text[]), now()
         on conflict (pool_id) do update set heartbeat_at = now()
       ), dead as (
         delete from job_worker_instance
         where pool_id <> all($1::text[]) and heartbeat_at < now() - make_interval(secs => $2)
           and exists (select 1 from previous where heartbeat_at >= now() - make_interval(secs => $2))
         returning pool_id
       )
       select graphile_worker.force_unlock_workers(array(select pool_id from dead)) where exists (select 1 from dead)`,
      [this.poolIds(), this.settings.deadAfterMs / 1000],
    );
  }

  private poolIds(): string[] {
    return this.pools.map((pool) => pool.id);
  }

  /**
   * Wakes workers for jobs a committed change made due now. On PostgreSQL: one
   * `NOTIFY jobs:insert` per turn of the event loop for all the wakes asked for in it,
   * sent on its own (a transaction that writes nothing, so it holds the notification
   * lock for no WAL flush); every instance's workers hear it, this one's included. On
   * PGlite, which has no cross-connection notifications, this instance's pool is
   * nudged. A lost notification costs only time: idle workers poll.
   */
  wake(): void {
    for (const listener of this.dueListeners) listener();
    if (this.embedded) {
      for (const pool of this.pools) pool.nudge(1);
      return;
    }
    if (this.pendingWakes++ > 0) return;
    setImmediate(() => {
      const count = this.pendingWakes;
      this.pendingWakes = 0;
      this.sql
        .query(`select pg_notify('jobs:insert', $1)`, [JSON.stringify({ count })])
        .catch((err) => this.logger.warn({ err: (err as Error).message }, 'job wake-up notification failed; workers will poll'));
    });
  }

  /**
   * After the commit of jobs added through graphile-worker's `add_job` (`enqueue`, `add`), which
   * notifies by itself on PostgreSQL: only PGlite's local workers need a nudge.
   */
  nudgeLocal(): void {
    if (this.embedded) for (const pool of this.pools) pool.nudge(1);
  }

  /** After the commit of a statement built with `jobsSql`: wakes workers if it added a job due now; `onDue`'s listeners for `_due`. */
  wakeIfDue(row: Record<string, unknown> | undefined, selects: string[]): void {
    if (!row) return;
    let jobs = false;
    let due = false;
    for (const s of selects) {
      if (!(Number(row[s]) > 0)) continue;
      if (s.endsWith('_wake')) jobs = true;
      else if (s.endsWith('_due')) due = true;
    }
    if (jobs) this.wake();
    else if (due) for (const listener of this.dueListeners) listener();
  }

  onDue(listener: () => void): void {
    this.dueListeners.push(listener);
  }

  addQueueStats(task: string, selectSql: string): void {
    this.extraQueueStats.set(task, selectSql);
  }

  /** Adds a job through the caller's ORM transaction (services that use the unit of work). */
  async enqueue(em: EntityManager, job: JobSpec<P>): Promise<void> {
    const params = new Params();
    await executeOnOrm(em, `select ${this.addJobSql(params, job)}`, params.values);
  }

  /**
   * Jobs that spent every attempt (graphile-worker keeps them, with their last error, for an operator to read) and
   * last failed before `before`: removed, at most `batch` (issue 40: finished jobs leave the queue's table; completed
   * ones are deleted by graphile-worker itself). How many.
   */
  async pruneFailed(before: Date, batch = 1000): Promise<number> {
    const [row] = await this.sql.query<{ n: number }>(
      `with gone as (
         delete from graphile_worker._private_jobs where id in (
           select id from graphile_worker._private_jobs
           where attempts >= max_attempts and locked_at is null and updated_at < $1 limit $2)
         returning 1)
       select count(*)::int as n from gone`,
      [before, batch],
      'jobs_prune_failed',
    );
    return row!.n;
  }

  /** A condition: a job with the key `keySql` (an SQL expression) exists, in any state. */
  jobExistsSql(keySql: string): string {
    return `exists (select 1 from graphile_worker._private_jobs where key = ${keySql})`;
  }

  /**
   * What waits in the queue, per task (every known task, zeros included; and the queues kept in their own tables,
   * `addQueueStats`, in place of a task of the same name that was once a job): one statement
   * over graphile-worker 0.17's `_private_jobs`, for the metrics at scrape time. The server
   * cancels it after `timeoutMs` (SET LOCAL in the same implicit transaction).
   */
  async queueStats(timeoutMs: number): Promise<JobQueueStats[]> {
    const results: unknown = await this.sql.pool.query(
      `set local statement_timeout = ${Math.max(1, Math.floor(timeoutMs))};
       select t.identifier as task,
              count(j.id) filter (where j.is_available and j.run_at <= now())::int as queued,
              count(j.id) filter (where j.is_available and j.run_at > now())::int as scheduled,
              count(j.id) filter (where j.locked_at is not null)::int as running,
              count(j.id) filter (where j.locked_at is null and j.attempts >= j.max_attempts)::int as failed,
              coalesce(extract(epoch from now() - min(j.run_at) filter (where j.is_available and j.run_at <= now())), 0)::float8 as "oldestAgeSeconds"
       from graphile_worker._private_tasks t left join graphile_worker._private_jobs j on j.task_id = t.id
       where t.identifier <> all(array[${[...this.extraQueueStats.keys(), ''].map(sqlText).join(', ')}]::text[])
       group by t.identifier${[...this.extraQueueStats].map(([task, q]) => `\n       union all (select ${sqlText(task)}::text as task, q.* from (${q}) q)`).join('')}`,
    );
    const last = Array.isArray(results) ? results[results.length - 1] : results;
    return (last as { rows: JobQueueStats[] }).rows;
  }

  /** Adds jobs outside any other change (sweeps). */
  async add(jobs: JobSpec<P>[]): Promise<void> {
    if (jobs.length === 0) return;
    const params = new Params();
    await this.sql.query(`select ${jobs.map((job) => this.addJobSql(params, job)).join(', ')}`, params.values);
    this.nudgeLocal();
  }

  /**
   * The SQL expression that adds `job` through graphile-worker's own `add_job` (which
   * honours keys): for the paths that are not hot (sweeps, KYC, resend).
   */
  private addJobSql(params: Params, job: JobSpec<P>): string {
    const runAt = job.delayMs ? `now() + make_interval(secs => ${params.p(job.delayMs / 1000)})` : 'null';
    // 'unsafe_dedupe': an existing job with the key is left alone, not reset (the default mode would
    // restart a waiting job's backoff, and clone a running one).
    return `graphile_worker.add_job(${params.p(job.name)}::text, ${params.p(JSON.stringify(job.payload))}::json, run_at => ${runAt}, job_key => ${params.p(job.key ?? null)}::text, job_key_mode => 'unsafe_dedupe', priority => ${params.p(this.catalogue[job.name].priority)}::int, max_attempts => 25)`;
  }
}

/** A task name as an SQL literal (names are code constants; the scrape's statement takes no parameters: it is two statements). */
function sqlText(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/** graphile-worker's messages in the service's log. */
/**
 * graphile-worker's warning that the pool (DB_POOL_MAX, 10) is smaller than the concurrency
 * (JOB_CONCURRENCY, 16) assumes a job holds a connection while it runs. Ours hold one only for their
 * statements: a webhook delivery, most of the jobs, waits on the merchant's server with none. So it
 * says nothing true on a default start, and is kept at debug.
 */
const POOL_SMALLER_THAN_CONCURRENCY = /^WARNING: having maxPoolSize \(\d+\) smaller than concurrency/;

function workerLogger(logger: Logger): WorkerLogger {
  return new WorkerLogger(() => (level, message, meta) => {
    if (level === 'error') logger.error({ worker: meta }, message);
    else if (level === 'warning' && !POOL_SMALLER_THAN_CONCURRENCY.test(message)) logger.warn({ worker: meta }, message);
    else logger.debug({ worker: meta }, message);
  });
}

/** Installs or upgrades graphile-worker's schema (callers serialise instances with an advisory lock). */
export async function migrateJobSchema(sql: Sql, logger: Logger): Promise<void> {
  await runMigrations({ pgPool: sql.pool, logger: workerLogger(logger) });
}

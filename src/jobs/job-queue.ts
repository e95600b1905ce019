import type { EntityManager } from '@mikro-orm/postgresql';
import type { Params } from '../db/sql';

/*
 * What code that adds jobs sees of the queue. It knows no job: each module declares its own names
 * and payloads (its `<area>.jobs.ts`) and takes a `JobQueue` of them; the catalogue of every
 * job, and which operation runs each, are the composition root's (src/job-catalogue.ts, src/workers.ts).
 */

/**
 * One job to add inside the caller's statement or transaction, for a map of job names to payload
 * types `P` (a union over the names, so each name carries its own payload).
 */
export type JobSpec<P> = {
  [K in keyof P & string]: {
    name: K;
    payload: P[K];
    /** Not before this many milliseconds from the commit (database time). */
    delayMs?: number;
    /**
     * At most one job per key: while a job with this key exists (waiting, running, or
     * failed for good), adding another does nothing. Only for the paths that may add
     * the same work twice (sweeps); hot paths add each job exactly once.
     */
    key?: string;
  };
}[keyof P & string];

/**
 * Common table expressions that add jobs inside the caller's statement. `selects` must be
 * referenced by its final SELECT (`runSelects`), and the row it returns handed to
 * `JobQueue.wakeIfDue` after the commit.
 */
export interface JobsSql {
  ctes: string[];
  selects: string[];
}

/**
 * The final SELECT's columns: each SELECT CTE's row count, under its own name (`<prefix>_wake`: a job due now was
 * added; `<prefix>_due`: work that is its own queue, a webhook delivery, became due: `JobQueue.onDue`).
 */
export function runSelects(selects: string[]): string {
  return selects.map((s) => `(select count(*) from ${s}) as ${s}`).join(', ');
}

/**
 * A queue that takes the jobs `J` (a union of `JobSpec`s), added with the state change that schedules
 * them (JobRunner implements it). Typed by the jobs it takes, not by a map of them, so a queue of
 * every job is a queue of any module's jobs (`J` is only ever an input).
 */
export interface JobQueue<J extends { name: string; payload: unknown }> {
  /**
   * Jobs added by the caller's own statement, once per row of `guard` (a CTE that returns a row
   * only if the state change happened), with no notification: hand the statement's row to
   * `wakeIfDue` after the commit. For the hot paths; such jobs carry no key.
   */
  jobsSql(params: Params, jobs: J[], guard: string, prefix: string): JobsSql;
  /**
   * Jobs named `name`, added by the caller's own statement, one per row of the CTE `from`, each with
   * the payload the SQL expression `payloadSql` (json) builds from that row; due now, no key.
   */
  jobsFromRowsSql<N extends J['name']>(params: Params, name: N, payloadSql: string, from: string, prefix: string): JobsSql;
  /** After the commit of a statement built with `jobsSql`: wakes workers if it added a job due now (and `onDue`'s listeners, for `_due`). */
  wakeIfDue(row: Record<string, unknown> | undefined, selects: string[]): void;
  /** Wakes workers for jobs a committed change made due now (coalesced: one notification per turn of the event loop), and `onDue`'s listeners. */
  wake(): void;
  /**
   * Work kept in its own table rather than as jobs (webhook deliveries: WebhookPump) is told, in this instance,
   * when a committed statement made some of it due (a `<prefix>_due` select), or when `wake` is called.
   */
  onDue(listener: () => void): void;
  /**
   * Such a queue's figures in the job queue's metrics (`JobRunner.queueStats`), as the task `task`: `selectSql` is a
   * SELECT of one row with the columns queued, scheduled, running, failed, "oldestAgeSeconds".
   */
  addQueueStats(task: string, selectSql: string): void;
  /** After the commit of jobs added through `enqueue` or `add` (which notify by themselves on PostgreSQL): nudges PGlite's local workers. */
  nudgeLocal(): void;
  /** Adds a job through the caller's ORM transaction (services that use the unit of work). */
  enqueue(em: EntityManager, job: J): Promise<void>;
  /** Adds jobs outside any other change (sweeps, polls). */
  add(jobs: J[]): Promise<void>;
  /** A condition: a job with the key `keySql` (an SQL expression) exists, in any state. */
  jobExistsSql(keySql: string): string;
}

/** Per-job options, given once for every job name at the composition root. */
interface JobOptions {
  /** Lower runs first among due jobs. */
  priority: number;
}

/** Every job name of `P` with its options: what a JobRunner runs. Its keys are graphile-worker task identifiers, stored with each queued job. */
export type JobCatalogue<P> = { readonly [K in keyof P & string]: JobOptions };

/** Which operation runs each job of `P`. */
export type JobHandlers<P> = { [K in keyof P & string]: (payload: P[K]) => Promise<void> };

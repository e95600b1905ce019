import { RequestContext } from '@mikro-orm/core';
import type { Services } from './container';
import type { Orm } from './db/orm';
import { JOBS, type JobPayloads } from './job-catalogue';
import { handlersOf } from './jobs/define-job';
import type { JobHandlers } from './jobs/job-queue';

/*
 * The workers' wiring, part of the composition root beside container.ts: the services the jobs'
 * `run` calls (each job is declared with its work in its module's *.jobs.ts), and the periodic sweeps.
 */

/** Each job's work, given the services it calls; each job gets its own EntityManager context, like a request, unless it says otherwise. */
export function jobHandlers(services: Services, orm: Orm): JobHandlers<JobPayloads> {
  return handlersOf(JOBS, services, (fn) => RequestContext.create(orm.em, fn));
}

/** How often expired Idempotency-Key rows are deleted (they count as absent from the moment they expire). */
const IDEMPOTENCY_PURGE_EVERY_MS = 60_000;
/** How often events and spent jobs past their retention are removed (a bounded amount per run; issue 40). */
const HISTORY_PRUNE_EVERY_MS = 60_000;

/**
 * Periodic safety nets, on every instance: transactions a crash left
 * `initiating` are handed to reconciliation; Idempotency-Key rows past their
 * 24 h are deleted; events (with their deliveries and attempts) and spent jobs past their retention are removed. (Webhook deliveries need no sweep: WebhookPump's poll is one.) Bounded work per tick; a tick
 * that fails is logged and the next one tries again.
 */
export function startSweeps(services: Services, everyMs: number, onError: (err: Error) => void, ledgerVerifyEveryMs = 0): { stop(): void } {
  const timers = [
    every(everyMs, () => services.transactionJobs.sweepInitiating(), onError),
    every(IDEMPOTENCY_PURGE_EVERY_MS, () => services.idempotency.purgeExpired(), onError),
    every(HISTORY_PRUNE_EVERY_MS, () => services.retention.prune(), onError),
  ];
  // The books checked since the last run, by one instance at a time (a mismatch is logged as an error and shown by the metric).
  if (ledgerVerifyEveryMs > 0) {
    const minIntervalS = ledgerVerifyEveryMs / 2000;
    timers.push(every(ledgerVerifyEveryMs, () => services.ledger.verifySinceLastRun(services.transactions.expectedLegs(), { minIntervalS }), onError));
  }
  return { stop: () => timers.forEach(clearInterval) };
}

/** Runs `tick` every `ms`, never two at once. */
function every(ms: number, tick: () => Promise<unknown>, onError: (err: Error) => void): NodeJS.Timeout {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    tick()
      .catch(onError)
      .finally(() => (running = false));
  }, ms);
  timer.unref();
  return timer;
}

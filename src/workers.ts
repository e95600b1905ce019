import { RequestContext } from '@mikro-orm/core';
import type { Services } from './container';
import type { Orm } from './db/orm';
import type { JobPayloads } from './job-catalogue';
import type { JobHandlers } from './jobs/job-queue';
import { KycJob } from './modules/kyc/kyc.jobs';
import { TransactionJob } from './modules/transactions/transaction.jobs';
import { WebhookJob } from './modules/webhooks/webhook.jobs';

/*
 * The workers' wiring, part of the composition root beside container.ts: which service operation
 * runs each job of the catalogue (job-catalogue.ts), and the periodic sweeps.
 */

/** Which service operation each kind of job runs. Each job gets its own EntityManager context, like a request. */
export function jobHandlers(services: Services, orm: Orm): JobHandlers<JobPayloads> {
  const inContext = <T>(fn: () => Promise<T>) => RequestContext.create(orm.em, fn);
  return {
    [KycJob.KycReview]: ({ submissionId }) => inContext(() => services.kyc.reviewSubmission(submissionId)),
    [TransactionJob.SettleTransaction]: ({ transactionId, poll }) => inContext(() => services.transactionJobs.settle(transactionId, poll ?? 0)),
    [TransactionJob.CheckTransaction]: ({ transactionId }) => inContext(() => services.transactionJobs.checkTransaction(transactionId)),
    [TransactionJob.ExpireCollection]: ({ transactionId }) => inContext(async () => void (await services.transactionJobs.expire(transactionId))),
    [TransactionJob.ExpirePaymentAction]: ({ transactionId }) => inContext(async () => void (await services.transactionJobs.expire(transactionId))),
    [TransactionJob.ReconcileInitiation]: ({ transactionId }) => inContext(() => services.transactionJobs.reconcile(transactionId)),
    [WebhookJob.DeliverWebhook]: ({ eventId, attempt, merchantId }) => inContext(() => services.webhookDispatcher.deliver(eventId, attempt, merchantId)),
    [KycJob.PublishKycStatus]: ({ merchantId, customerUuid }) => inContext(() => services.kyc.publishStatus(merchantId, customerUuid)),
    [TransactionJob.ReleaseFunds]: ({ transactionId }) => services.transactionJobs.release(transactionId),
  };
}

/** How often expired Idempotency-Key rows are deleted (they count as absent from the moment they expire). */
const IDEMPOTENCY_PURGE_EVERY_MS = 60_000;

/**
 * Periodic safety nets, on every instance: transactions a crash left
 * `initiating` are handed to reconciliation; Idempotency-Key rows past their
 * 24 h are deleted; webhook deliveries left waiting for their endpoint are woken. Bounded work per tick; a tick that fails is logged and the
 * next one tries again.
 */
export function startSweeps(services: Services, everyMs: number, onError: (err: Error) => void, ledgerVerifyEveryMs = 0): { stop(): void } {
  const timers = [
    every(everyMs, () => services.transactionJobs.sweepInitiating(), onError),
    every(IDEMPOTENCY_PURGE_EVERY_MS, () => services.idempotency.purgeExpired(), onError),
    every(everyMs, () => services.webhookDispatcher.sweepWaiting(), onError),
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

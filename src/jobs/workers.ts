import { RequestContext } from '@mikro-orm/core';
import type { Services } from '../container';
import type { Orm } from '../db/orm';
import { JobName, type JobHandlers } from './job-runner';

/** Which service operation each kind of job runs. Each job gets its own EntityManager context, like a request. */
export function jobHandlers(services: Services, orm: Orm): JobHandlers {
  const inContext = <T>(fn: () => Promise<T>) => RequestContext.create(orm.em, fn);
  return {
    [JobName.KycReview]: ({ submissionId }) => inContext(() => services.kyc.reviewSubmission(submissionId)),
    [JobName.SettleTransaction]: ({ transactionId, poll }) => inContext(() => services.transactions.settle(transactionId, poll ?? 0)),
    [JobName.CheckTransaction]: ({ transactionId }) => inContext(() => services.transactions.checkTransaction(transactionId)),
    [JobName.ExpireCollection]: ({ transactionId }) => inContext(async () => void (await services.transactions.expire(transactionId))),
    [JobName.ExpirePaymentAction]: ({ transactionId }) => inContext(async () => void (await services.transactions.expire(transactionId))),
    [JobName.ReconcileInitiation]: ({ transactionId }) => inContext(() => services.transactions.reconcile(transactionId)),
    [JobName.DeliverWebhook]: ({ eventId, attempt }) => inContext(() => services.webhookDispatcher.deliver(eventId, attempt)),
    [JobName.PublishKycStatus]: ({ merchantId, customerUuid }) => inContext(() => services.kyc.publishStatus(merchantId, customerUuid)),
    [JobName.ReleaseFunds]: ({ transactionId }) => services.transactions.release(transactionId),
  };
}

/** How often expired Idempotency-Key rows are deleted (they count as absent from the moment they expire). */
const IDEMPOTENCY_PURGE_EVERY_MS = 60_000;

/**
 * Periodic safety nets, on every instance: transactions a crash left
 * `initiating` are handed to reconciliation; Idempotency-Key rows past their
 * 24 h are deleted. Bounded work per tick; a tick that fails is logged and the
 * next one tries again.
 */
export function startSweeps(services: Services, everyMs: number, onError: (err: Error) => void, ledgerVerifyEveryMs = 0): { stop(): void } {
  const timers = [
    every(everyMs, () => services.transactions.sweepInitiating(), onError),
    every(IDEMPOTENCY_PURGE_EVERY_MS, () => services.idempotency.purgeExpired(), onError),
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

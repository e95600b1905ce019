import { RequestContext } from '@mikro-orm/core';
import type { Services } from '../container';
import type { Orm } from '../db/orm';
import { JobName, type JobHandlers } from './job-runner';

/** Which service operation each kind of job runs. Each job gets its own EntityManager context, like a request. */
export function jobHandlers(services: Services, orm: Orm): JobHandlers {
  const inContext = <T>(fn: () => Promise<T>) => RequestContext.create(orm.em, fn);
  return {
    [JobName.KycReview]: ({ submissionId }) => inContext(() => services.kyc.reviewSubmission(submissionId)),
    [JobName.SettleTransaction]: ({ transactionId }) => inContext(() => services.transactions.settle(transactionId)),
    [JobName.ExpireCollection]: ({ transactionId }) => inContext(async () => void (await services.transactions.expire(transactionId))),
    [JobName.ExpirePaymentAction]: ({ transactionId }) => inContext(async () => void (await services.transactions.expire(transactionId))),
    [JobName.ReconcileInitiation]: ({ transactionId }) => inContext(() => services.transactions.reconcile(transactionId)),
    [JobName.DeliverWebhook]: ({ eventId, attempt }) => inContext(() => services.webhookDispatcher.deliver(eventId, attempt)),
    [JobName.PublishKycStatus]: ({ merchantId, customerUuid }) => inContext(() => services.kyc.publishStatus(merchantId, customerUuid)),
  };
}

/**
 * Periodic safety nets, on every instance: transactions a crash left
 * `initiating` are handed to reconciliation. Bounded work per tick; a tick that
 * fails is logged and the next one tries again.
 */
export function startSweeps(services: Services, everyMs: number, onError: (err: Error) => void): { stop(): void } {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    services.transactions
      .sweepInitiating()
      .catch(onError)
      .finally(() => (running = false));
  }, everyMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

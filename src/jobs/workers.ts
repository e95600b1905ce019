import { RequestContext } from '@mikro-orm/core';
import type { Services } from '../container';
import type { Orm } from '../db/orm';
import { JobName, type JobRunner } from './job-runner';

/** Which service operation each kind of job runs. Each job gets its own EntityManager context, like a request. */
export async function registerWorkers(jobs: JobRunner, services: Services, orm: Orm): Promise<void> {
  await jobs.work(JobName.KycReview, ({ submissionId }) =>
    RequestContext.create(orm.em, () => services.kyc.reviewSubmission(submissionId)),
  );
  await jobs.work(JobName.SettleTransaction, ({ transactionId }) =>
    RequestContext.create(orm.em, () => services.transactions.settle(transactionId)),
  );
  await jobs.work(JobName.ExpireCollection, ({ transactionId }) =>
    RequestContext.create(orm.em, () => services.transactions.expire(transactionId)),
  );
  await jobs.work(JobName.DeliverWebhook, ({ eventId }) =>
    RequestContext.create(orm.em, () => services.webhookDispatcher.deliver(eventId)),
  );
}

import type { JobCatalogue } from './jobs/job-queue';
import { KycJob, type KycJobPayloads } from './modules/kyc/kyc.jobs';
import { TransactionJob, type TransactionJobPayloads } from './modules/transactions/transaction.jobs';
import { WebhookJob, type WebhookJobPayloads } from './modules/webhooks/webhook.jobs';

/*
 * Every kind of durable background work the service runs: the union of the jobs each module
 * declares (`<module>.jobs.ts`), with each job's options. Part of the composition root, beside
 * container.ts: the runner (jobs/) is generic and the modules know only their own jobs; which
 * operation runs each job is src/workers.ts.
 */

/** Every job's name → payload. */
export type JobPayloads = KycJobPayloads & TransactionJobPayloads & WebhookJobPayloads;

/**
 * Each job's options; a job a module declares and this leaves out does not compile. The names are
 * graphile-worker task identifiers, stored with every queued job, and the payloads are stored as
 * JSON: both outlive a deployment, so neither may change.
 *
 * Priority: lower runs first among due jobs. A webhook delivery tells a merchant about a change
 * already made, so it goes ahead of a backlog of settlements that make new changes: under load,
 * commit → webhook stays short.
 *
 * Lanes: deliveries wait on merchants' servers (up to the webhook timeout each), so they run in a
 * lane of their own with their own workers (WEBHOOK_CONCURRENCY): however many endpoints hang,
 * settlement, reconciliation, polls and KYC keep every slot of the default lane (JOB_CONCURRENCY).
 */
export const DELIVERY_LANE = 'deliveries';

export const JOB_CATALOGUE: JobCatalogue<JobPayloads> = {
  [KycJob.KycReview]: { priority: 0 },
  [TransactionJob.SettleTransaction]: { priority: 0 },
  [TransactionJob.ExpireCollection]: { priority: 0 },
  [TransactionJob.ExpirePaymentAction]: { priority: 0 },
  [TransactionJob.ReconcileInitiation]: { priority: 0 },
  [WebhookJob.DeliverWebhook]: { priority: -10, lane: DELIVERY_LANE },
  [KycJob.PublishKycStatus]: { priority: -10 },
  [TransactionJob.ReleaseFunds]: { priority: 0 },
  [TransactionJob.CheckTransaction]: { priority: -5 },
};

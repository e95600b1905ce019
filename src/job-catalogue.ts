import { catalogueOf, type JobPayloadsOf } from './jobs/define-job';
import type { JobCatalogue } from './jobs/job-queue';
import { CHECKOUT_JOBS } from './modules/checkout/checkout.jobs';
import { DISPUTE_JOBS } from './modules/disputes/dispute.jobs';
import { KYC_JOBS } from './modules/kyc/kyc.jobs';
import { PAYOUT_JOBS } from './modules/payouts/payout.jobs';
import { RECONCILIATION_JOBS } from './modules/reconciliation/reconciliation.jobs';
import { TRANSACTION_JOBS } from './modules/transactions/transaction.jobs';

/*
 * Every kind of durable background work the service runs: the lists each module declares with
 * defineJob (`<module>.jobs.ts`: name, payload schema, priority, what runs it), concatenated.
 * Part of the composition root: the runner (jobs/) is generic and each module knows only its own jobs.
 */

/**
 * Every job, in one list. The names are graphile-worker task identifiers, stored with every queued
 * job, and the payloads are stored as JSON: both outlive a deployment, so neither may change.
 */
export const JOBS = [...KYC_JOBS, ...TRANSACTION_JOBS, ...CHECKOUT_JOBS, ...PAYOUT_JOBS, ...RECONCILIATION_JOBS, ...DISPUTE_JOBS] as const;

/** Every job's name → payload. */
export type JobPayloads = JobPayloadsOf<typeof JOBS>;

/** Every job name with its options: what the JobRunner runs. */
export const JOB_CATALOGUE: JobCatalogue<JobPayloads> = catalogueOf(JOBS);

import { z } from 'zod';
import { catalogueOf, defineJob, type JobPayloadsOf } from './jobs/define-job';
import type { JobCatalogue } from './jobs/job-queue';
import { KYC_JOBS } from './modules/kyc/kyc.jobs';
import { TransactionJob, type TransactionJobPayloads } from './modules/transactions/transaction.jobs';
import type { TransactionService } from './modules/transactions/transaction.service';
import { WEBHOOK_JOBS } from './modules/webhooks/webhook.jobs';

/*
 * Every kind of durable background work the service runs: the lists each module declares with
 * defineJob (`<module>.jobs.ts`: name, payload schema, priority, lane, what runs it), concatenated.
 * Part of the composition root: the runner (jobs/) is generic and each module knows only its own jobs.
 */

/** The transaction engine's jobs, here until the transactions module wires itself (then in transaction.jobs.ts). */
const transactionId = z.object({ transactionId: z.string() });
type Transactions = { transactions: TransactionService };
const TRANSACTION_JOBS = [
  defineJob({
    name: TransactionJob.SettleTransaction,
    payload: z.object({ transactionId: z.string(), poll: z.number().optional() }),
    priority: 0,
    run: ({ transactionId, poll }, { transactions }: Transactions) => transactions.settle(transactionId, poll ?? 0),
  }),
  defineJob({
    name: TransactionJob.ExpireCollection,
    payload: transactionId,
    priority: 0,
    run: ({ transactionId }, { transactions }: Transactions) => transactions.expire(transactionId),
  }),
  defineJob({
    name: TransactionJob.ExpirePaymentAction,
    payload: transactionId,
    priority: 0,
    run: ({ transactionId }, { transactions }: Transactions) => transactions.expire(transactionId),
  }),
  defineJob({
    name: TransactionJob.ReconcileInitiation,
    payload: transactionId,
    priority: 0,
    run: ({ transactionId }, { transactions }: Transactions) => transactions.reconcile(transactionId),
  }),
  // Statements only: no database context of its own.
  defineJob({
    name: TransactionJob.ReleaseFunds,
    payload: transactionId,
    priority: 0,
    inContext: false,
    run: ({ transactionId }, { transactions }: Transactions) => transactions.release(transactionId),
  }),
  defineJob({
    name: TransactionJob.CheckTransaction,
    payload: transactionId,
    priority: -5,
    run: ({ transactionId }, { transactions }: Transactions) => transactions.checkTransaction(transactionId),
  }),
] as const;

/**
 * Every job, in one list. The names are graphile-worker task identifiers, stored with every queued
 * job, and the payloads are stored as JSON: both outlive a deployment, so neither may change.
 */
export const JOBS = [...KYC_JOBS, ...TRANSACTION_JOBS, ...WEBHOOK_JOBS] as const;

/** Every job's name → payload. */
export type JobPayloads = JobPayloadsOf<typeof JOBS>;

/** Fails to compile if transaction.jobs.ts's declared payloads and the schemas above disagree (until that file holds the definitions). */
type Mutual<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type TransactionPayloadsAgree = Mutual<TransactionJobPayloads, JobPayloadsOf<typeof TRANSACTION_JOBS>> extends true ? true : never;
const _agree: TransactionPayloadsAgree = true;
void _agree;

/** Every job name with its options: what the JobRunner runs. */
export const JOB_CATALOGUE: JobCatalogue<JobPayloads> = catalogueOf(JOBS);

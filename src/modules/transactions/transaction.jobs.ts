import { z } from 'zod';
import { defineJob, type JobPayloadsOf } from '../../jobs/define-job';
import type { JobQueue, JobSpec } from '../../jobs/job-queue';
import type { TransactionJobHandlers } from './job-handlers.service';

/**
 * The jobs of the transaction engine, run by TransactionJobHandlers (each declared below with its work;
 * the composition root only concatenates the modules' lists: src/job-catalogue.ts). The values are graphile-worker task identifiers, stored with
 * every queued job: a renamed one would leave a running deployment's queued jobs without a task.
 */
export enum TransactionJob {
  // (Settlement, 'settle-transaction' until issue 40, is no longer a job: a row of `settlement_due`, SettlementPump.)
  /** A bank collection nobody paid into: expire it. */
  ExpireCollection = 'expire-collection',
  /** A card payment whose cardholder did not authenticate (3-D Secure) in time: fail it. */
  ExpirePaymentAction = 'expire-payment-action',
  /** Finish a transaction left `initiating` (its process died between the provider call and the commit). */
  ReconcileInitiation = 'reconcile-initiation',
  /** A settled collection's or payment's net, after the settlement delay: pending → available. */
  ReleaseFunds = 'release-funds',
  /** A provider sent a notification: ask it for the transaction's status (the notification is only a hint). */
  CheckTransaction = 'check-transaction',
}

const transactionId = z.object({ transactionId: z.string() });
type Handlers = { transactionJobs: TransactionJobHandlers };

/** Each job: its payload (stored as JSON with the job: its shape outlives a deployment), options and work. */
export const TRANSACTION_JOBS = [
  defineJob({
    name: TransactionJob.ExpireCollection,
    payload: transactionId,
    priority: 0,
    run: ({ transactionId }, { transactionJobs }: Handlers) => transactionJobs.expire(transactionId),
  }),
  defineJob({
    name: TransactionJob.ExpirePaymentAction,
    payload: transactionId,
    priority: 0,
    run: ({ transactionId }, { transactionJobs }: Handlers) => transactionJobs.expire(transactionId),
  }),
  defineJob({
    name: TransactionJob.ReconcileInitiation,
    payload: transactionId,
    priority: 0,
    run: ({ transactionId }, { transactionJobs }: Handlers) => transactionJobs.reconcile(transactionId),
  }),
  // Statements only: no database context of its own.
  defineJob({
    name: TransactionJob.ReleaseFunds,
    payload: transactionId,
    priority: 0,
    inContext: false,
    run: ({ transactionId }, { transactionJobs }: Handlers) => transactionJobs.release(transactionId),
  }),
  defineJob({
    name: TransactionJob.CheckTransaction,
    payload: transactionId,
    priority: -5,
    run: ({ transactionId }, { transactionJobs }: Handlers) => transactionJobs.checkTransaction(transactionId),
  }),
] as const;

type TransactionJobPayloads = JobPayloadsOf<typeof TRANSACTION_JOBS>;

export type TransactionJobSpec = JobSpec<TransactionJobPayloads>;
export type TransactionJobQueue = JobQueue<TransactionJobSpec>;

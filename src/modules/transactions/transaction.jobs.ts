import type { JobQueue, JobSpec } from '../../jobs/job-queue';

/**
 * The jobs of the transaction engine, run by TransactionJobHandlers (which runs each is wired at the
 * composition root: src/workers.ts). The values are graphile-worker task identifiers, stored with
 * every queued job: a renamed one would leave a running deployment's queued jobs without a task.
 */
export enum TransactionJob {
  /** Ask the provider for a processing transaction's outcome (mobile money collections, transfers). */
  SettleTransaction = 'settle-transaction',
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

/** Each job's payload (stored as JSON with the job: its shape outlives a deployment). */
export interface TransactionJobPayloads {
  /** `poll`: the how-many-th status query this is (its backoff follows PROVIDER_POLL_SCHEDULE). */
  [TransactionJob.SettleTransaction]: { transactionId: string; poll?: number };
  [TransactionJob.CheckTransaction]: { transactionId: string };
  [TransactionJob.ExpireCollection]: { transactionId: string };
  [TransactionJob.ExpirePaymentAction]: { transactionId: string };
  [TransactionJob.ReconcileInitiation]: { transactionId: string };
  [TransactionJob.ReleaseFunds]: { transactionId: string };
}

export type TransactionJobSpec = JobSpec<TransactionJobPayloads>;
export type TransactionJobQueue = JobQueue<TransactionJobSpec>;

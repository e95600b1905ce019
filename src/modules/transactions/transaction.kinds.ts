import type { JobName } from '../../jobs/job-runner';
import type { BankInfo, Transaction } from './transaction.record';

/**
 * What each kind of transaction (collection, transfer, payment) plugs into the one
 * creation path of TransactionService: its provider call, and the answers a
 * provider may give.
 */

/** Work that follows a transaction the provider accepted (settlement, expiry); the job receives the transaction's id. */
export interface FollowUp {
  name: JobName.SettleTransaction | JobName.ExpireCollection | JobName.ExpirePaymentAction;
  delayMs: number;
}

/** What the provider answered to an initiation. */
export type ProviderAnswer =
  | { status: 'processing'; providerReference: string; bankInfo?: BankInfo; virtualAccountNumber?: string; followUps: FollowUp[] }
  /** The customer must act (3-D Secure) on `nextActionUrl` before `expiresAt`; null when the address was lost to a crash. */
  | { status: 'requires_action'; providerReference: string; nextActionUrl: string | null; expiresAt: Date; followUps: FollowUp[] }
  | { status: 'successful'; providerReference: string }
  | { status: 'failed'; failureReason: string; providerReference?: string | null };

/**
 * What a kind of transaction adds to the one creation path: its provider call,
 * made from the stored row, so that reconciliation can make it again after a
 * crash with the same idempotency key (the transaction's id). `transient` is
 * what the call needs once and that is never stored (a card): the creation path
 * passes it; reconciliation cannot, so there the handler must look the outcome
 * up by the key instead of asking again.
 */
export interface TransactionKindHandler<T = never> {
  callProvider(txn: Transaction, idempotencyKey: string, transient?: T): Promise<ProviderAnswer>;
}

import type { BankInfo } from '../modules/transactions/transaction.record';

/**
 * What the gateway asks a provider to start. `idempotencyKey` makes a repeated
 * request harmless: reconciliation asks again with the same key after a crash,
 * and must get the same answer, never a second prompt, payout or account.
 */
export interface InitiateRequest {
  idempotencyKey: string;
  kind: 'collection' | 'transfer';
  reference: string;
  accountType: 'bank' | 'momo';
  countryCode: string;
  networkCode: string;
  accountNumber: string;
  accountName: string | null;
  amount: string;
  currency: string;
}

export interface VirtualAccountRequest {
  idempotencyKey: string;
  reference: string;
  countryCode: string;
  currency: string;
  amount: string;
  /** Shown to the sender as the account holder. */
  accountName: string;
}

/** A provider's verdict on a processing transaction. `pending`: nothing has happened yet (keep waiting). */
export type SettlementDecision = { outcome: 'successful' } | { outcome: 'failed'; reason: string } | { outcome: 'pending' };

export interface DecideRequest {
  kind: 'collection' | 'transfer';
  accountType: 'bank' | 'momo';
  accountNumber: string;
  providerReference: string | null;
}

/**
 * A cross-border payment provider. A call that throws an AppError is a definite
 * refusal: nothing was started, and nothing ever will be for that idempotency key
 * (so "a request with this key is in progress" must be an ordinary error). Any
 * other failure leaves the outcome unknown, and reconciliation asks again with
 * the same key. The sandbox
 * implements it by table; a real provider implements the same three operations
 * against its API, and nothing in the services changes.
 */
export interface PaymentProvider {
  /** Sends a mobile money payment prompt (collection) or a payout (transfer). */
  initiate(request: InitiateRequest): Promise<{ providerReference: string }>;
  /** A bank account, unique to one collection, that the sender pays into. */
  createVirtualAccount(request: VirtualAccountRequest): Promise<BankInfo & { providerReference: string }>;
  /** The outcome of a processing transaction, as far as the provider knows. */
  decide(request: DecideRequest): Promise<SettlementDecision>;
}

import { AppError } from '../../shared/errors';

export const TRANSACTION_KINDS = ['collection', 'transfer', 'payment', 'refund', 'payout', 'funding'] as const;
export type TransactionKind = (typeof TRANSACTION_KINDS)[number];

export const TRANSACTION_STATUSES = ['initiating', 'processing', 'requires_action', 'successful', 'failed', 'expired'] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];
const FINAL_STATUSES = ['successful', 'failed', 'expired'] as const;
export type FinalStatus = (typeof FINAL_STATUSES)[number];

type OpenStatus = Exclude<TransactionStatus, FinalStatus>;

/**
 * initiating → processing | failed: the row is written before the provider is
 * asked; the provider's answer moves it on (a provider may decline at once).
 * processing → successful | failed | expired. Final states never change. Only money
 * asked for into an account (a bank collection, a bank transfer payment, a funding) waits for
 * someone else's payment, so only those can expire.
 * A card payment may be decided by the provider's first answer (successful or
 * failed), or wait for the cardholder's 3-D Secure authentication
 * (requires_action), which ends successful or failed, never expired: an
 * authentication not made in time is a failed payment (authentication_expired).
 */
const ALLOWED: Record<TransactionKind, Partial<Record<OpenStatus, readonly TransactionStatus[]>>> = {
  collection: { initiating: ['processing', 'failed'], processing: ['successful', 'failed', 'expired'] },
  transfer: { initiating: ['processing', 'failed'], processing: ['successful', 'failed'] },
  payment: {
    initiating: ['processing', 'requires_action', 'successful', 'failed'],
    // A bank transfer payment nobody paid into expires (its account's deadline), as a bank collection does.
    processing: ['successful', 'failed', 'expired'],
    requires_action: ['successful', 'failed'],
  },
  refund: { initiating: ['processing', 'failed'], processing: ['successful', 'failed'] },
  payout: { initiating: ['processing', 'failed'], processing: ['successful', 'failed'] },
  /** A funding of the merchant's own balance (issue 41): an account to pay into, paid or expired. */
  funding: { initiating: ['processing', 'failed'], processing: ['successful', 'failed', 'expired'] },
};

export function isFinal(status: TransactionStatus): status is FinalStatus {
  return (FINAL_STATUSES as readonly string[]).includes(status);
}

/** Returns `to` when the change is allowed, or throws INVALID_STATE (409). */
export function nextTransactionStatus<T extends TransactionStatus>(kind: TransactionKind, from: TransactionStatus, to: T): T {
  if (isFinal(from)) throw new AppError('INVALID_STATE', `The transaction is already ${from}; a final status never changes`);
  if (!ALLOWED[kind][from]?.includes(to)) throw new AppError('INVALID_STATE', `A ${kind} that is ${from} cannot become ${to}`);
  return to;
}

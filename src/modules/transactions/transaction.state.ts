import { AppError } from '../../shared/errors';

export const TRANSACTION_KINDS = ['collection', 'transfer', 'payment'] as const;
export type TransactionKind = (typeof TRANSACTION_KINDS)[number];

export const TRANSACTION_STATUSES = ['processing', 'successful', 'failed', 'expired'] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];
export type FinalStatus = Exclude<TransactionStatus, 'processing'>;

/**
 * processing → successful | failed | expired; final states never change. Only a
 * collection waits for someone else's payment, so only a collection can expire.
 */
const ALLOWED: Record<TransactionKind, readonly FinalStatus[]> = {
  collection: ['successful', 'failed', 'expired'],
  transfer: ['successful', 'failed'],
  payment: ['successful', 'failed'],
};

export function isFinal(status: TransactionStatus): status is FinalStatus {
  return status !== 'processing';
}

/** Returns `to` when the change is allowed, or throws INVALID_STATE (409). */
export function nextTransactionStatus(kind: TransactionKind, from: TransactionStatus, to: TransactionStatus): FinalStatus {
  if (isFinal(from)) throw new AppError('INVALID_STATE', `The transaction is already ${from}; a final status never changes`);
  if (to === 'processing' || !ALLOWED[kind].includes(to)) {
    throw new AppError('INVALID_STATE', `A ${kind} cannot become ${to}`);
  }
  return to;
}

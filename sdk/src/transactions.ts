import type { components } from './generated/openapi';

/**
 * Any transaction as the status endpoint (`GET /v1/crossborder/global-transfer/{reference}`), the list
 * (`GET /v1/transactions`) and transaction webhooks carry it: a union discriminated by `type`.
 */
export type Transaction = components['schemas']['Transaction'];
export type TransactionType = Transaction['type'];
/** The member of the union of one `type`: `TransactionOfType<'collection'>` is the collection record. */
export type TransactionOfType<K extends TransactionType> = Extract<Transaction, { type: K }>;

/** A type guard: true for a transaction of one `type`, and narrows it to that member of the union. */
export type TransactionGuard<K extends TransactionType> = (t: Transaction) => t is TransactionOfType<K>;

const ofType =
  <K extends TransactionType>(type: K): TransactionGuard<K> =>
  (t): t is TransactionOfType<K> =>
    t.type === type;

/** A collection (money in from a customer's wallet or bank): `amount`, `currency`, `bankInfo` for a bank collection. */
export const isCollection: TransactionGuard<'collection'> = ofType('collection');
/** A transfer (money out to a beneficiary, cross-border): `source_amount`, `destination_amount`, `rate`, `beneficiary`. */
export const isTransfer: TransactionGuard<'transfer'> = ofType('transfer');
/** A payment (card, mobile money or bank transfer): `payment_method`, `card`, `amount_refunded`, `next_action`. */
export const isPayment: TransactionGuard<'payment'> = ofType('payment');
/** A refund of a payment: `payment_reference`. */
export const isRefund: TransactionGuard<'refund'> = ofType('refund');
/** The transaction of a payout to your own account (`external_reference` is the payout's `po_…` id). */
export const isPayout: TransactionGuard<'payout'> = ofType('payout');
/** A funding of your own balance: `bankInfo` is the account to pay into, open until `expires_at`. */
export const isFunding: TransactionGuard<'funding'> = ofType('funding');

// Fails to compile when the union gains a kind that has no guard above.
const everyKindHasAGuard: { [K in TransactionType]: TransactionGuard<K> } = {
  collection: isCollection,
  transfer: isTransfer,
  payment: isPayment,
  refund: isRefund,
  payout: isPayout,
  funding: isFunding,
};
void everyKindHasAGuard;

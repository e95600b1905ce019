import { Decimal } from '../../shared/money';
import type { TransactionStatus } from './transaction.state';

/** Final statuses that charge nothing. */
const CHARGES_NOTHING: ReadonlySet<TransactionStatus> = new Set(['failed', 'expired']);

const ZERO = new Decimal(0);

/**
 * The fee a transaction charges, as every place that shows one shows it (the REST and GraphQL record,
 * webhooks, the CSV export, the payout record, the dashboard): its fee, except that a failed or expired
 * one charged nothing, as the books say (transaction.ledger.ts): money in that never arrived posts no
 * entry at all, and money out that failed voids its reservation, the fee with it (its reversal's fee is
 * the reservation's, negated). Null stays null (a collection or payment made before fees were charged).
 * While a transaction is open its fee is the one it will charge on success.
 */
export function feeCharged<F extends Decimal | null>(t: { status: TransactionStatus; fee: F }): F {
  return t.fee !== null && CHARGES_NOTHING.has(t.status) ? (ZERO as F) : t.fee;
}

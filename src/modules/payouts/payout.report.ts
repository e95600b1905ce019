import { Decimal } from '../../shared/money';
import type { BalanceTransaction } from '../ledger/ledger.service';
import type { BalanceTransactionType } from '../ledger/ledger.model';
import type { PayoutRow } from './payout.store';

/**
 * What a payout pays, itemised (issue 38; Flutterwave's settlements itemise gross, fees, refunds, chargebacks and
 * net): the balance transactions it settles grouped, plus what the window before it carried in and what this one
 * carries out (what available could not cover at its cut-off). Pure: the lines always add up to the amount, or the
 * report is refused rather than served.
 */
export interface PayoutReport {
  currency: string;
  /** Collections and payments, before fees. */
  grossCollected: Decimal;
  /** Every fee charged (negative), less any given back. */
  fees: Decimal;
  /** Refunds (negative), and failed refunds' money back. */
  refunds: Decimal;
  /** Transfers sent (negative), and failed ones' money back. */
  transfers: Decimal;
  /** Operator adjustments and sandbox top-ups. */
  adjustments: Decimal;
  /** Manual payouts (negative), and failed payouts' money back. */
  payouts: Decimal;
  carriedIn: Decimal;
  /** Left for the next window (subtracted). */
  carriedOut: Decimal;
  /** = the payout's amount. */
  net: Decimal;
  count: number;
}

const GROUP: Record<BalanceTransactionType, 'collected' | 'refunds' | 'transfers' | 'adjustments' | 'payouts'> = {
  collection: 'collected',
  payment: 'collected',
  refund: 'refunds',
  refund_reversal: 'refunds',
  transfer: 'transfers',
  transfer_reversal: 'transfers',
  top_up: 'adjustments',
  // Money the merchant paid in itself (issue 41): not collected, so with the top-ups and adjustments.
  funding: 'adjustments',
  adjustment: 'adjustments',
  payout: 'payouts',
  payout_reversal: 'payouts',
  // A chargeback's hold, and its money back when won: money the cardholder's bank took back (issue 39), as a refund is.
  dispute_withdrawal: 'refunds',
  dispute_reinstatement: 'refunds',
};

export function payoutReport(row: PayoutRow, entries: readonly BalanceTransaction[]): PayoutReport {
  const zero = new Decimal(0);
  const sums = { collected: zero, refunds: zero, transfers: zero, adjustments: zero, payouts: zero };
  let fees = zero;
  for (const e of entries) {
    const group = GROUP[e.type];
    // Each by what moved before its fee (net = amount − fee); the fees together, apart.
    sums[group] = sums[group].plus(e.amount);
    fees = fees.minus(e.fee);
  }
  const manual = !row.automatic;
  const net = manual
    ? row.amount
    : sums.collected.plus(fees).plus(sums.refunds).plus(sums.transfers).plus(sums.adjustments).plus(sums.payouts).plus(row.carriedIn).minus(row.carriedOut);
  if (!net.eq(row.amount)) throw new Error(`payout ${row.id}: its report adds up to ${net.toFixed()}, not its amount ${row.amount.toFixed()}`);
  return {
    currency: row.currency,
    grossCollected: sums.collected,
    fees,
    refunds: sums.refunds,
    transfers: sums.transfers,
    adjustments: sums.adjustments,
    payouts: sums.payouts,
    carriedIn: row.carriedIn,
    carriedOut: row.carriedOut,
    net,
    count: entries.length,
  };
}

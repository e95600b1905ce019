import { graphql } from '../generated';
import type { BalanceFieldsFragment, BalanceTransactionType } from '../generated/graphql';

/** The books: balances, their movements and their live changes. */
export type BalanceRow = BalanceFieldsFragment;

graphql(`
  fragment BalanceFields on Balance {
    currency
    available
    pending
    reserved
    disputed
    owed
  }
`);

export const BALANCES = graphql(`
  query Balances {
    balances {
      ...BalanceFields
    }
  }
`);

/** Every currency (currency omitted) or one, after each change commits. */
export const BALANCE_CHANGED = graphql(`
  subscription BalanceChanged($currency: String) {
    balanceChanged(currency: $currency) {
      ...BalanceFields
    }
  }
`);

graphql(`
  fragment BalanceTransactionFields on BalanceTransaction {
    id
    type
    currency
    amount
    fee
    net
    balanceAfter
    sourceReference
    createdAt
  }
`);

export const BALANCE_TRANSACTION_TYPES: BalanceTransactionType[] = [
  'COLLECTION',
  'PAYMENT',
  'TRANSFER',
  'TRANSFER_REVERSAL',
  'REFUND',
  'REFUND_REVERSAL',
  'TOP_UP',
  'FUNDING',
  'ADJUSTMENT',
];

/** The kinds that come from a transaction: their source reference opens it. */
export const FROM_A_TRANSACTION = new Set<BalanceTransactionType>([
  'COLLECTION',
  'PAYMENT',
  'TRANSFER',
  'TRANSFER_REVERSAL',
  'REFUND',
  'REFUND_REVERSAL',
  'FUNDING',
]);

/** Replaces a currency's balance in a list (or adds it, in currency order). */
export function withBalance(list: BalanceRow[], balance: BalanceRow): BalanceRow[] {
  const at = list.findIndex((b) => b.currency === balance.currency);
  if (at >= 0) return list.map((b, i) => (i === at ? balance : b));
  return [...list, balance].sort((a, b) => a.currency.localeCompare(b.currency));
}

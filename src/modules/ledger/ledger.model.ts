import { AppError, type Shortfall } from '../../shared/errors';
import { Decimal, formatAmount } from '../../shared/money';

/**
 * The books' model (docs/ledger.md), pure: account names, entries and their lines. The
 * database enforces it (migration Migration20261126000000_ledger): entries balance in each
 * currency, a merchant's accounts never go below zero, nothing is updated or deleted.
 */

/**
 * A merchant's accounts, per currency: spendable, received but not yet released, held for payouts and refunds in flight,
 * held by an open chargeback (issue 39), and what the merchant owes the platform (a debit-normal account: a hold that
 * available could not cover).
 */
export type MerchantAccount = 'available' | 'pending' | 'reserved' | 'disputed' | 'receivable';
/** The platform's accounts, per currency (clearing: per provider too). */
export type PlatformAccount = 'fee_revenue' | 'fx_position' | 'sandbox_funding' | 'external_funds';

export const merchantAccount = (merchantId: string, code: MerchantAccount, currency: string) => `m:${merchantId}:${code}:${currency}`;
export const platformAccount = (code: PlatformAccount, currency: string) => `p:${code}:${currency}`;
/** Money in transit at a provider: what it owes us (collections) less what we sent through it (payouts, refunds). */
export const clearingAccount = (provider: string, currency: string) => `p:provider_clearing:${provider}:${currency}`;

/**
 * What a balance transaction says a movement was. Moves that leave available + pending unchanged
 * (a release from pending, a reserved payout's posting) are entries, not balance transactions.
 */
export const BALANCE_TRANSACTION_TYPES = [
  'collection',
  'payment',
  'transfer',
  'transfer_reversal',
  'refund',
  'refund_reversal',
  'top_up',
  'adjustment',
  /** A payout to the merchant's own account (issue 38), and its money given back when it fails. */
  'payout',
  'payout_reversal',
  /** A chargeback's amount and fee held (issue 39), and given back when the merchant wins it. */
  'dispute_withdrawal',
  'dispute_reinstatement',
  /** Money the merchant paid into its own balance (issue 41): a funding's bank transfer, arrived. */
  'funding',
] as const;
export type BalanceTransactionType = (typeof BALANCE_TRANSACTION_TYPES)[number];
/** Entry types that are never balance transactions. */
export type InternalEntryType = 'release' | 'transfer_payout' | 'refund_payout' | 'payout_sent' | 'dispute_loss' | 'debt_repayment';

/** One line: `amount` > 0 credits the account, < 0 debits it. */
export interface LedgerLine {
  account: string;
  currency: string;
  amount: Decimal;
}

/** One immutable entry: its lines balance in each currency. `key` makes it post once. */
export interface Posting {
  key: string;
  leg: string;
  merchantId: string | null;
  transactionId: string | null;
  type: BalanceTransactionType | InternalEntryType;
  sourceReference: string | null;
  /** The fee this entry charges the merchant (signed: a reversal gives it back). */
  fee: Decimal;
  description: string | null;
  createdAt: Date;
  lines: LedgerLine[];
}

/** `amount` from one account to another: a debit and a credit. Nothing for a zero amount. */
export function move(from: string, to: string, currency: string, amount: Decimal): LedgerLine[] {
  if (amount.isZero()) return [];
  return [
    { account: from, currency, amount: amount.negated() },
    { account: to, currency, amount },
  ];
}

/** Whether every currency's lines sum to zero (what the database refuses otherwise). */
export function isBalanced(lines: readonly LedgerLine[]): boolean {
  const sums = new Map<string, Decimal>();
  for (const l of lines) sums.set(l.currency, (sums.get(l.currency) ?? new Decimal(0)).plus(l.amount));
  return [...sums.values()].every((s) => s.isZero());
}

/** Drops zero lines and refuses an unbalanced entry before it reaches the database. */
export function posting(p: Posting): Posting {
  const lines = p.lines.filter((l) => !l.amount.isZero());
  if (!isBalanced(lines)) throw new Error(`ledger entry ${p.key} does not balance`);
  return { ...p, lines };
}

/**
 * The answer to a debit the merchant's available balance cannot cover, with the shortfall (on the `amount` field, in
 * both doors' details): `needed` is what the debit takes from available (a transfer's amount plus its fee, a refund's
 * or a payout's amount), `available` what it holds. `minorUnit`: the currency's, for the figures' decimals.
 */
export function insufficientFunds(currency: string, needed: Decimal, available: Decimal, minorUnit: number | undefined): AppError {
  const figure = (d: Decimal) => (minorUnit === undefined ? d.toFixed() : formatAmount(d, minorUnit));
  // Read after the refusal: a credit in between may have covered it since (then nothing is missing now).
  const shortfall: Shortfall = {
    currency,
    available: figure(available),
    needed: figure(needed),
    missing: figure(Decimal.max(needed.minus(available), 0)),
  };
  const { available: has, needed: needs, missing } = shortfall;
  const issue = `needs ${needs} ${currency} from your available balance, which holds ${has}: ${missing} ${currency} missing`;
  return new AppError(
    'INSUFFICIENT_FUNDS',
    `Your available ${currency} balance does not cover this amount and its fee: ${needs} needed, ${has} available, ${missing} missing`,
    [{ field: 'amount', issue, ...shortfall }],
  );
}

/** PostgreSQL's refusal of a posting that would take a merchant's account below zero. */
export function isOverdraft(err: unknown): boolean {
  const e = err as { code?: string; constraint?: string };
  return e?.code === '23514' && e.constraint === 'ledger_account_no_overdraft';
}

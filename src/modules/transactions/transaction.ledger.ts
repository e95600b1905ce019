import { Decimal } from '../../shared/money';
import {
  clearingAccount,
  merchantAccount,
  move,
  platformAccount,
  posting,
  type BalanceTransactionType,
  type InternalEntryType,
  type LedgerLine,
  type Posting,
} from '../ledger/ledger.model';
import { TransactionJob } from './transaction.jobs';
import { NO_LEDGER_EFFECT, type ExpectedLegs, type LedgerEffect } from './transaction.kinds';
import type { FundingTransaction, MoneyInTransaction, PayoutTransaction, RefundTransaction, Transaction, TransferTransaction } from './transaction.record';

/**
 * The postings each kind prescribes (docs/ledger.md), pure: the kinds call these from
 * `ledger(txn)`, and ledger:verify checks the legs they name.
 *
 * Money in (collection, payment), on success: provider clearing → the merchant's pending
 * (amount − fee) and fee revenue (fee); then pending → available after the settlement delay.
 * Money out (transfer, refund): at insert, available → reserved (amount + fee); on success the
 * reservation is posted to provider clearing (and fee revenue, and the FX positions when the
 * currencies differ); on failure it is voided back to available.
 */

const ZERO = new Decimal(0);

/** Where an entry comes from and when: every entry of a transaction is keyed by (transaction, leg). */
function entry(txn: Transaction, leg: string, type: BalanceTransactionType | InternalEntryType, fee: Decimal, lines: LedgerLine[]): Posting {
  return posting({
    key: `${txn.id}:${leg}`,
    leg,
    merchantId: txn.merchantId,
    transactionId: txn.id,
    type,
    sourceReference: txn.reference,
    fee,
    description: null,
    createdAt: txn.updatedAt,
    lines,
  });
}

/** The settlement delay's release: pending → available. Its own leg, posted now or by the release job. */
function releaseEntry(txn: MoneyInTransaction, net: Decimal): Posting {
  const currency = txn.currency;
  return entry(
    txn,
    'release',
    'release',
    ZERO,
    move(merchantAccount(txn.merchantId, 'pending', currency), merchantAccount(txn.merchantId, 'available', currency), currency, net),
  );
}

/** What a successful collection or payment pays the merchant after its fee. */
const netOf = (txn: MoneyInTransaction) => txn.amount.minus(txn.fee ?? ZERO);

/**
 * Money in: settled on success, released now (delay 0) or by ReleaseFunds after `releaseDelayMs`.
 * Nothing before success, and nothing on failure or expiry.
 */
export function moneyInLedger(txn: MoneyInTransaction, provider: string, releaseDelayMs: number): LedgerEffect {
  if (txn.status !== 'successful') return NO_LEDGER_EFFECT;
  const currency = txn.currency;
  const fee = txn.fee ?? ZERO;
  const net = netOf(txn);
  const clearing = clearingAccount(provider, currency);
  const settle = entry(txn, 'settle', txn.kind, fee, [
    { account: clearing, currency, amount: txn.amount.negated() },
    { account: merchantAccount(txn.merchantId, 'pending', currency), currency, amount: net },
    { account: platformAccount('fee_revenue', currency), currency, amount: fee },
  ]);
  if (releaseDelayMs <= 0) return { postings: [settle, releaseEntry(txn, net)] };
  return {
    postings: [settle],
    jobs: [{ name: TransactionJob.ReleaseFunds, payload: { transactionId: txn.id }, delayMs: releaseDelayMs }],
  };
}

/** When a successful money-in transaction's net becomes available: its completion plus the settlement delay (ReleaseFunds' delay). */
export function moneyInAvailableAt(txn: MoneyInTransaction, releaseDelayMs: number): Date {
  return new Date((txn.completedAt ?? txn.updatedAt).getTime() + releaseDelayMs);
}

/** Money in at the end of the settlement delay (ReleaseFunds): the settled net, pending → available. */
export function moneyInRelease(txn: MoneyInTransaction): LedgerEffect {
  return { postings: [releaseEntry(txn, netOf(txn))] };
}

export function moneyInLegs(releaseDelayMs: number) {
  return (status: string): ExpectedLegs =>
    status === 'successful' ? (releaseDelayMs <= 0 ? { required: ['settle', 'release'] } : { required: ['settle'], optional: ['release'] }) : { required: [] };
}

/**
 * A funding of the merchant's own balance (issue 41), on success: provider clearing → available, the whole amount, at
 * once. No fee, and no settlement delay: the merchant's own money by bank transfer, which no cardholder can claw back.
 * Nothing before success, and nothing on failure or expiry.
 */
export function fundingLedger(txn: FundingTransaction, provider: string): LedgerEffect {
  if (txn.status !== 'successful') return NO_LEDGER_EFFECT;
  const currency = txn.currency;
  const available = merchantAccount(txn.merchantId, 'available', currency);
  return { postings: [entry(txn, 'settle', 'funding', ZERO, move(clearingAccount(provider, currency), available, currency, txn.amount))] };
}

export function fundingLegs(status: string): ExpectedLegs {
  return status === 'successful' ? { required: ['settle'] } : { required: [] };
}

/** What money out holds and pays: in the source currency, the amount and the fee; paid out as `payout` in the payout currency. */
export interface MoneyOut {
  currency: string;
  amount: Decimal;
  fee: Decimal;
  payoutCurrency: string;
  payoutAmount: Decimal;
  type: 'transfer' | 'refund' | 'payout';
}

/** The entry type of money out's posting to the provider: never a balance transaction (available + pending is unchanged). */
const SENT: Record<MoneyOut['type'], InternalEntryType> = { transfer: 'transfer_payout', refund: 'refund_payout', payout: 'payout_sent' };

/** Money out: reserve at insert (INSUFFICIENT_FUNDS when available cannot cover it), post on success, void on failure. */
export function moneyOutLedger(txn: TransferTransaction | RefundTransaction | PayoutTransaction, provider: string, out: MoneyOut): LedgerEffect {
  const { currency, amount, fee } = out;
  const held = amount.plus(fee);
  const available = merchantAccount(txn.merchantId, 'available', currency);
  const reserved = merchantAccount(txn.merchantId, 'reserved', currency);
  switch (txn.status) {
    case 'initiating':
      return { postings: [entry(txn, 'reserve', out.type, fee, move(available, reserved, currency, held))] };
    case 'successful': {
      const payout = clearingAccount(provider, out.payoutCurrency);
      const fees = move(reserved, platformAccount('fee_revenue', currency), currency, fee);
      const lines =
        out.payoutCurrency === currency
          ? [...fees, ...move(reserved, payout, currency, amount)]
          : [
              ...fees,
              // Each currency balances on its own: the source through its FX position, the payout from the payout currency's.
              ...move(reserved, platformAccount('fx_position', currency), currency, amount),
              ...move(platformAccount('fx_position', out.payoutCurrency), payout, out.payoutCurrency, out.payoutAmount),
            ];
      return { postings: [entry(txn, 'post', SENT[out.type], ZERO, lines)] };
    }
    case 'failed':
    case 'expired':
      return { postings: [entry(txn, 'void', `${out.type}_reversal`, fee.negated(), move(reserved, available, currency, held))] };
    default:
      return NO_LEDGER_EFFECT;
  }
}

export function moneyOutLegs(status: string): ExpectedLegs {
  if (status === 'successful') return { required: ['reserve', 'post'] };
  if (status === 'failed' || status === 'expired') return { required: ['reserve', 'void'] };
  return { required: ['reserve'] };
}

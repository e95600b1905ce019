import { z } from 'zod';
import { capability, type DecideTrigger } from '../../../../providers/connector';
import type { Rails } from '../../../rails/rails';
import { AppError } from '../../../../shared/errors';
import { referenceField, requiredText } from '../../../../shared/fields';
import { Decimal, formatAmount, parseAmount } from '../../../../shared/money';
import { parseInput, type Command } from '../../../../shared/validation';
import type { ReferenceService } from '../../../reference/reference.service';
import { TransactionJob } from '../../transaction.jobs';
import type { LedgerEffect, ProviderAnswer, TransactionKindHandler } from '../../transaction.kinds';
import { moneyOutLedger, moneyOutLegs } from '../../transaction.ledger';
import type { RefundTransaction, Transaction } from '../../transaction.record';
import type { TransactionService } from '../../transaction.service';

/** POST /v1/refunds, in the domain's names. */
export const refundSchema = z.object({
  paymentReference: z.string({ error: 'is required and must be a string' }).min(1, 'must not be empty').max(100, 'must be at most 100 characters'),
  /** What to give back; absent: everything not yet refunded. */
  amount: z.unknown().optional(),
  reason: requiredText(255),
  reference: referenceField,
});
export type RefundCommand = Command<typeof refundSchema>;

/**
 * Refunds of card payments, full or partial, on the one creation path. The refund's insert
 * claims its amount on the payment (refunded_amount, never above the amount captured, checked
 * on the row's latest version, so concurrent refunds cannot overshoot) and reserves it from the
 * merchant's available balance (402 INSUFFICIENT_FUNDS when it cannot), in one statement.
 */
export class RefundService {
  constructor(
    private readonly transactions: TransactionService,
    private readonly reference: ReferenceService,
  ) {}

  async refundPayment(merchantId: string, command: RefundCommand): Promise<RefundTransaction> {
    const body = parseInput(refundSchema, command);
    const payment = await this.transactions.getTransaction(merchantId, body.paymentReference).catch((err: unknown) => {
      throw err instanceof AppError && err.code === 'NOT_FOUND' ? AppError.notFound('Payment') : err;
    });
    if (payment.kind !== 'payment') throw AppError.notFound('Payment');
    if (payment.status !== 'successful') throw new AppError('INVALID_STATE', `The payment is ${payment.status}: only a successful payment can be refunded`);
    const minorUnit = this.reference.currencyMinorUnit(payment.currency) ?? 2;
    const left = payment.amount.minus(payment.refundedAmount);
    if (left.lte(0)) throw new AppError('INVALID_STATE', 'The payment is refunded in full already');
    const amount = body.amount === undefined || body.amount === null ? left : parseAmount(body.amount, minorUnit);
    const tooMuch = () =>
      AppError.invalidField('amount', `is more than what is left to refund of the payment, ${formatAmount(left, minorUnit)} ${payment.currency}`);
    if (amount.gt(left)) throw tooMuch();
    const refund = await this.transactions.initiate({
      merchantId,
      kind: 'refund',
      externalReference: body.reference,
      customerId: payment.customerId,
      amount,
      currency: payment.currency,
      fee: new Decimal(0),
      reason: body.reason,
      parentId: payment.id,
      parentReference: payment.reference,
      // Back through the processor that charged it.
      connector: payment.connector,
    });
    return refund;
  }

  /** The refund's current record; another kind's reference, or another merchant's, is NOT_FOUND. */
  async getRefund(merchantId: string, referenceOrExternal: string): Promise<RefundTransaction> {
    const txn = await this.transactions.getTransaction(merchantId, referenceOrExternal).catch((err: unknown) => {
      throw err instanceof AppError && err.code === 'NOT_FOUND' ? AppError.notFound('Refund') : err;
    });
    if (txn.kind !== 'refund') throw AppError.notFound('Refund');
    return txn;
  }
}

/** The refund kind: money out of the merchant's balance, back to the card through the provider; settled by it. */
export class RefundKind implements TransactionKindHandler<'refund'> {
  readonly kind = 'refund' as const;
  readonly expectedLegs = moneyOutLegs;

  constructor(
    private readonly reference: ReferenceService,
    private readonly rails: Rails,
    /** The refunded payment's row. */
    private readonly payments: (id: string) => Promise<Transaction | null>,
  ) {}

  async callProvider(txn: RefundTransaction, idempotencyKey: string, _transient?: never, retry = false): Promise<ProviderAnswer> {
    const minorUnit = this.reference.currencyMinorUnit(txn.currency) ?? 2;
    const { providerReference } = await capability(
      this.rails.of(txn),
      'refund',
    )({
      idempotencyKey,
      reference: txn.reference,
      chargeKey: txn.parentId,
      chargeReference: await this.chargeReference(txn),
      amount: formatAmount(txn.amount, minorUnit),
      currency: txn.currency,
      reason: txn.reason,
      retry,
    });
    return { status: 'processing', providerReference, followUps: [{ name: TransactionJob.SettleTransaction, delayMs: this.rails.firstPollMs(txn) }] };
  }

  async settle(txn: RefundTransaction, trigger: DecideTrigger) {
    return this.rails.of(txn).decide({
      kind: 'refund',
      idempotencyKey: txn.id,
      chargeKey: txn.parentId,
      providerReference: txn.providerReference,
      ...(await this.rails.decideContext(txn, trigger)),
    });
  }

  /** The provider's reference of the refunded payment (read only for a real processor: the sandbox refunds by key). */
  private async chargeReference(txn: RefundTransaction): Promise<string | null> {
    if (this.rails.of(txn).inProcess) return null;
    return (await this.payments(txn.parentId))?.providerReference ?? null;
  }

  /** Reserve with the claim on the payment; post to the provider; a failed refund gives both back. */
  ledger(txn: RefundTransaction): LedgerEffect {
    const effect = moneyOutLedger(txn, txn.connector, {
      type: 'refund',
      currency: txn.currency,
      amount: txn.amount,
      fee: new Decimal(0),
      payoutCurrency: txn.currency,
      payoutAmount: txn.amount,
    });
    if (txn.status === 'initiating') return { ...effect, parentClaim: { parentId: txn.parentId, amount: txn.amount } };
    if (txn.status === 'failed' || txn.status === 'expired') return { ...effect, parentClaim: { parentId: txn.parentId, amount: txn.amount.negated() } };
    return effect;
  }
}
